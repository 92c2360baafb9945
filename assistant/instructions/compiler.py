"""Plain-language layout requests → typed constraints, by rules.

The brief is split into clauses on ``,`` ``;`` ``.`` ``then`` and, where
both sides make sense on their own, ``and``. Each clause is matched against
the vocabulary of :mod:`assistant.instructions.lexicon`: the elements it
names (role words such as *headline*, *logo*, *photo*, *button*, *price*,
or, with a layout, an element's id or name), a region (*top right*, *in the
footer*), a length (*48 px*, *2 cm*) and an intent, tried in this order:
margins, "no overlap", breathing room, alignment, centring, keeping in
place, region placement, dominance / standing out, bigger / smaller,
contrast. A clause that matches no intent, names no element where one is
needed, or carries a negation the rules do not model ("don't make the logo
bigger") is reported in ``not_understood``, never guessed.

With a ``layout``, element words resolve to element ids (an element whose id
or name is the word wins; else the outermost elements of the word's role),
and ``keep`` constraints record the element's current box; without a layout
constraints stay role-based (see :func:`resolve_constraints`).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field

from assistant.document import Layout
from assistant.instructions import lexicon as lx
from assistant.instructions import select as sel
from assistant.instructions.constraints import (
    AlignConstraint,
    BreathingRoomConstraint,
    Constraint,
    ContrastConstraint,
    DominantConstraint,
    KeepConstraint,
    MarginsConstraint,
    RegionConstraint,
    SizeConstraint,
)


class Understood(BaseModel):
    """One clause of the instruction and the constraints it became."""

    phrase: str
    constraints: list[Constraint]


class CompiledInstruction(BaseModel):
    """The result of :func:`compile_instruction`.

    ``understood`` lists the clauses turned into constraints (``phrases`` pairs
    each with its constraints); ``not_understood`` the clauses that were not,
    each with the reason in parentheses.
    """

    text: str
    constraints: list[Constraint] = Field(default_factory=list)
    phrases: list[Understood] = Field(default_factory=list)
    understood: list[str] = Field(default_factory=list)
    not_understood: list[str] = Field(default_factory=list)


class _Fail(Exception):
    """A clause the rules cannot turn into constraints; the message says why."""


_SPLIT_RE = re.compile(r"[,;\n]|\.(?!\d)|\bthen\b|\bbut\b|\balso\b")
_AND_RE = re.compile(r"\band\b|&|\bplus\b")


def _clauses(text: str) -> list[str]:
    return [c.strip() for c in _SPLIT_RE.split(text) if c and c.strip(" .")]


class _Mention(BaseModel):
    word: str
    role: str | None
    ids: list[str]
    span: tuple[int, int]


def _mentions(clause: str, layout: Layout | None) -> list[_Mention]:
    """Elements named in ``clause``: element ids/names (with a layout), then role words."""
    out: list[_Mention] = []
    taken: list[tuple[int, int]] = []

    def free(span: tuple[int, int]) -> bool:
        return all(span[1] <= a or span[0] >= b for a, b in taken)

    if layout is not None:
        names: dict[str, list[str]] = {}
        for e in layout.elements:
            for key in {e.id.lower(), (e.name or "").lower()}:
                k = lx.normalise(key)
                if len(k) >= 3 and not k.startswith("la "):
                    names.setdefault(k, []).append(e.id)
        for key in sorted(names, key=len, reverse=True):
            for m in re.finditer(rf"\b{re.escape(key)}s?\b", clause):
                if free(m.span()):
                    ids = sorted(set(names[key]), key=[e.id for e in layout.elements].index)
                    out.append(_Mention(word=key, role=None, ids=ids, span=m.span()))
                    taken.append(m.span())
    for m in lx.ROLE_RE.finditer(clause):
        if free(m.span()):
            word = m.group("word")
            out.append(_Mention(word=word, role=lx.WORD_TO_ROLE[word], ids=[], span=m.span()))
            taken.append(m.span())
    return sorted(out, key=lambda mm: mm.span)


def _targets(mentions: list[_Mention], layout: Layout | None) -> list[dict[str, Any]]:
    """Constraint target fields (``ids`` or ``role``) per mention; raises _Fail when absent."""
    out: list[dict[str, Any]] = []
    for m in mentions:
        if m.ids:
            out.append({"ids": m.ids})
        elif layout is not None:
            found = sel.outermost_with_role(layout, m.role or "")
            if not found:
                raise _Fail(f"no element in the layout matches '{m.word}'")
            out.append({"ids": [e.id for e in found]})
        else:
            out.append({"role": m.role})
    return out


def _strip_span(text: str, span: tuple[int, int] | None) -> str:
    return text if span is None else text[:span[0]] + " " + text[span[1]:]


def _compile_clause(raw: str, layout: Layout | None) -> list[Constraint]:
    clause = lx.FILLER_RE.sub("", lx.normalise(raw))
    if not clause:
        raise _Fail("empty")
    mentions = _mentions(clause, layout)
    rest = clause
    for m in reversed(mentions):
        rest = _strip_span(rest, m.span)
    everything = bool(lx.ALL_RE.search(rest))
    region, region_span = lx.find_region(rest)
    negated = bool(lx.NEGATION_RE.search(clause))
    px_len, share = lx.length_px(clause)
    phrase = raw.strip()

    if lx.MARGIN_RE.search(rest) and not negated:
        if px_len is not None:
            return [MarginsConstraint(min_px=px_len, phrase=phrase)]
        if share is not None:
            return [MarginsConstraint(min_share=min(share, 0.45), phrase=phrase)]
        if lx.MORE_RE.search(rest) or re.search(r"\bmargins?\b", rest):
            return [MarginsConstraint(min_share=0.06, phrase=phrase)]
    if lx.NO_OVERLAP_RE.search(clause):
        return [BreathingRoomConstraint(min_gap_px=0.0, phrase=phrase)]
    if (lx.BREATHING_RE.search(rest) or lx.DENSITY_RE.search(rest)) and not negated:
        return [BreathingRoomConstraint(min_gap_px=px_len, phrase=phrase,
                                        max_density=0.5 if lx.DENSITY_RE.search(rest) else None)]
    targets = _targets(mentions, layout)
    if lx.ALIGN_RE.search(rest) and not negated:
        em = lx.EDGE_RE.search(rest)
        if not em:
            raise _Fail("alignment without an edge (left, right or centre)")
        edge = {"left": "left", "right": "right"}.get(em.group("edge"), "center")
        to = "canvas" if lx.TO_CANVAS_RE.search(rest) else "each_other"
        if not targets or everything:
            return [AlignConstraint(edge=edge, to=to, phrase=phrase)]
        merged = _merge_ids(targets)
        if merged is not None and to == "each_other" and len(targets) > 1:
            return [AlignConstraint(edge=edge, to=to, phrase=phrase, ids=merged)]
        return [AlignConstraint(edge=edge, to=to, phrase=phrase, **t) for t in targets]
    if lx.CENTER_RE.search(rest) and region is None and not negated:
        if not targets:
            raise _Fail("centre what? name an element (headline, logo, …)")
        return [AlignConstraint(edge="center", to="canvas", phrase=phrase, **t) for t in targets]
    if lx.KEEP_RE.search(clause) and region is None and (lx.KEEP_PLACE_RE.search(rest) or negated
                                                          or re.search(r"\b(?:keep|lock|pin|freeze)\b", rest)):
        if not targets:
            raise _Fail("keep what in place? name an element")
        return _keeps(targets, layout, phrase)
    if negated:
        raise _Fail("negated requests other than 'don't move X' or 'no overlaps' are not modelled")
    if region is not None:
        if not targets:
            raise _Fail(f"which element goes to the {region.replace('_', ' ')}?")
        return [RegionConstraint(region=region, phrase=phrase, **t) for t in targets]
    if lx.DOMINANT_RE.search(rest) or lx.STAND_OUT_RE.search(rest):
        if not targets:
            raise _Fail("what should stand out? name an element")
        out: list[Constraint] = []
        for t in targets:
            if lx.DOMINANT_RE.search(rest) or t.get("role") in ("title", "image"):
                out.append(DominantConstraint(phrase=phrase, **t))
            else:
                out.append(_size(t, "bigger", 1.3, layout, phrase))
        return out
    bigger, smaller = lx.BIGGER_RE.search(rest), lx.SMALLER_RE.search(rest)
    too = lx.TOO_RE.search(rest)
    if too:  # "too small" asks for bigger, "too big" for smaller
        bigger, smaller = (too, None) if too.group("what") in lx.SMALL_WORDS else (None, too)
    if bigger or smaller:
        if not targets:
            raise _Fail("resize what? name an element")
        relation = "bigger" if bigger and not (smaller and smaller.start() < bigger.start()) else "smaller"
        if lx.THAN_RE.search(clause) and len(targets) >= 2:
            ref = targets[-1]
            return [_size(t, relation, 1.2, layout, phrase, reference=ref) for t in targets[:-1]]
        return [_size(t, relation, 1.25, layout, phrase) for t in targets]
    if lx.CONTRAST_RE.search(rest):
        if not targets:
            return [ContrastConstraint(phrase=phrase)]
        return [ContrastConstraint(phrase=phrase, **t) for t in targets]
    raise _Fail("no known request (placement, size, margins, spacing, alignment, keep, contrast)")


def _merge_ids(targets: list[dict[str, Any]]) -> list[str] | None:
    if all("ids" in t for t in targets):
        return [i for t in targets for i in t["ids"]]
    return None


def _keeps(targets: list[dict[str, Any]], layout: Layout | None, phrase: str) -> list[Constraint]:
    out: list[Constraint] = []
    for t in targets:
        if layout is None:
            if "ids" in t:
                out += [KeepConstraint(id=i, phrase=phrase) for i in t["ids"]]
            else:
                out.append(KeepConstraint(role=t["role"], phrase=phrase))
            continue
        elems, _ = sel.resolve_target(layout, t.get("ids", []), t.get("role"))
        out += [KeepConstraint(id=e.id, box=e.box, phrase=phrase) for e in elems]
    return out


def _size(target: dict[str, Any], relation: str, factor: float, layout: Layout | None, phrase: str,
          reference: dict[str, Any] | None = None) -> Constraint:
    if reference is not None:
        ref = ({"reference_id": reference["ids"][0]} if "ids" in reference
               else {"reference_role": reference["role"]})
        return SizeConstraint(relation=relation, factor=factor, phrase=phrase, **ref, **target)
    current = None
    if layout is not None:
        elems, _ = sel.resolve_target(layout, target.get("ids", []), target.get("role"))
        if elems:
            current = max(sel.prominence(layout, e) for e in elems)
    return SizeConstraint(relation=relation, factor=factor, reference=current, phrase=phrase, **target)


def compile_instruction(text: str, layout: Layout | None = None) -> CompiledInstruction:
    """Compile a plain-language brief into constraints (see module docstring)."""
    result = CompiledInstruction(text=text)
    for clause in _clauses(text or ""):
        parts = [p.strip() for p in _AND_RE.split(clause) if p.strip()]
        attempts: list[tuple[str, list[Constraint] | None, str | None]] = []
        if len(parts) > 1:
            attempts = [_try(p, layout) for p in parts]
            failed = [p for p, c, _ in attempts if c is None]
            # A failed part that names elements but no request shares the verb of the
            # clause ("keep the logo and the photo where they are"): compile it whole.
            # One that names no element is a request of its own and stays reported.
            if failed and all(_mentions(lx.normalise(p), layout) for p in failed):
                whole = _try(clause, layout)
                if whole[1] is not None or len(failed) == len(parts):
                    attempts = [whole]
        else:
            attempts = [_try(clause, layout)]
        for phrase, cons, why in attempts:
            if cons is None:
                if why != "empty":
                    result.not_understood.append(f"{phrase} ({why})")
                continue
            result.phrases.append(Understood(phrase=phrase, constraints=cons))
            result.understood.append(phrase)
            result.constraints.extend(cons)
    return result


def _try(phrase: str, layout: Layout | None) -> tuple[str, list[Constraint] | None, str | None]:
    try:
        return phrase, _compile_clause(phrase, layout), None
    except _Fail as exc:
        return phrase, None, str(exc)


__all__ = ["compile_instruction", "CompiledInstruction", "Understood"]
