"""Carry out typed requests on a session: the understander's steps → one edit, and the turns about it.

:class:`RequestRunner` is what the offline chat (and the request benchmark)
drives. For each request it

1. asks :func:`assistant.instructions.requests.understand` what the request
   means, with what the conversation so far says (``it`` is the last edit's
   element, a question's candidates answer "the first one");
2. plans each step against the document *as the steps before left it* and
   applies the first alternative the document accepts, inside a trial; at the
   end the trial is undone and every action is applied again as **one** edit
   of the session (one undo step), so a many-clause request undoes at once;
3. answers turn commands: ``undo`` and ``redo``; "again", "more", "a bit
   more", "a bit less" repeat the last edit's step scaled by the turn's
   factor (a move by its distance, a resize or font size by its ratio, a gap by
   its change); "no, the other one" / "no, I meant the subtitle" take the last
   edit back and do it again on the next candidate or the named element.

It never guesses: a question, a missing element or a request it does not
understand comes back as an :class:`Outcome` with a message and no edit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from assistant.actions import apply_actions, undo_diffs
from assistant.actions.locking import locked_in_file
from assistant.app.session import EditResult, Session
from assistant.document import Document, Layout
from assistant.errors import InvalidAction
from assistant.instructions.requests import (
    CannotPlan,
    RequestContext,
    Step,
    TurnCommand,
    Understanding,
    plan_step,
    understand,
)
from assistant.instructions.requests.choose import best_candidates, extreme, score_mention
from assistant.instructions.requests.index import ElementIndex
from assistant.instructions.requests.pictures import readable_pictures
from assistant.instructions.requests.plan import resize_anchors
from assistant.instructions.requests.refs import find_mentions
from assistant.instructions.requests.words import tokenise
from assistant.render.drawn import ReadAhead, drawn_words, read_ahead
from assistant.render.looks import Look, looks


@dataclass
class Outcome:
    """What one request did: ``kind`` is edited, nothing, question, missing, not_understood, failed or command."""

    kind: str
    message: str = ""
    actions: list[dict[str, Any]] = field(default_factory=list)
    result: EditResult | None = None
    understanding: Understanding | None = None
    command: TurnCommand | None = None
    #: What was understood, clause by clause (for the reply).
    understood: list[str] = field(default_factory=list)

    @property
    def edited(self) -> bool:
        """Whether the document changed."""
        return self.kind == "edited"


@dataclass
class _Repeatable:
    """The last edit's step, as "again" / "more" / "less" scale it."""

    actions: list[dict[str, Any]]
    #: Per action: the ratio (resize, font size) or change (gap) it made, where it had one.
    amounts: list[float | None]


def carry_out(session: Session, steps: list[Step]) -> tuple[list[dict[str, Any]], list[str]]:
    """The actions that carry out ``steps`` on the session's document, planned in order.

    The document is left as it was. Raises ``CannotPlan`` (or ``InvalidAction``) with the reason when a step
    cannot be done.
    """
    doc = session.document
    done: list[Any] = []
    actions: list[dict[str, Any]] = []
    notes: list[str] = []
    try:
        for step in steps:
            alternatives = plan_step(step, doc.layout)
            last_error: InvalidAction | None = None
            for alt in alternatives:
                if not alt:
                    if step.intent.params.get("bound") and step is not steps[0]:
                        break  # "…, still inside the strip" where it is after the edit: nothing to say
                    said = "inside_of" if step.kind == "inside" and step.refs else step.kind  # (in what was named)
                    notes.append(_ALREADY.get(said, "'{text}' is already so").format(text=step.text))
                    break
                try:
                    diffs, alt, unlocked = _apply_unlocking(doc, alt)
                except InvalidAction as exc:
                    last_error = last_error or exc  # the preferred way's reason is the one to tell
                    continue
                done += diffs
                actions += alt
                notes += [f"{i} was locked in the file; I unlocked it to make this edit" for i in unlocked]
                break
            else:
                if last_error is not None:
                    raise CannotPlan(f"'{step.text}' does not fit here: {_reason(last_error)}") from None
                raise CannotPlan(f"nothing I tried for '{step.text}' fits this layout")
    finally:
        undo_diffs(doc, done)
    return actions, notes


#: Most elements one step unlocks.
MAX_UNLOCKS = 4


def _apply_unlocking(doc: Document, alt: list[dict[str, Any]]) -> tuple[list[Any], list[dict[str, Any]], list[str]]:
    """Apply ``alt``; where the file's own (Inkscape) lock refuses an element it names, unlock that first.

    A request that names an element is as explicit as selecting it in the objects panel: a layer the designer
    locked so as not to drag it by accident does not stand in its way. A lock set here (``data-locked``, as
    "lock the logo" sets) does. Returns the diffs, the actions with their unlocks, and what was unlocked.
    """
    unlocked: list[str] = []
    while True:
        try:
            return apply_actions(doc, alt), alt, unlocked
        except InvalidAction as exc:
            target = locked_in_file(doc, exc.element_id) if exc.element_id else None
            if target is None or target in unlocked or len(unlocked) >= MAX_UNLOCKS:
                raise
            unlocked.append(target)
            alt = [{"type": "set_locked", "ids": [target], "locked": False}, *alt]


#: What a step that needs no change tells the user.
_ALREADY = {"separate": "they do not overlap ('{text}')", "inside": "it is already inside the page ('{text}')",
            "inside_of": "it is already inside it ('{text}')",
            "place": "it is already there ('{text}')", "gap": "the gap is already that ('{text}')"}


def _reason(exc: InvalidAction) -> str:
    """The innermost reason of a refused action ("… past the right edge …"), naming the element."""
    text = str(exc)
    return text.rsplit("nothing was applied: ", 1)[-1]


def _amounts(layout: Layout, actions: list[dict[str, Any]]) -> list[float | None]:
    out: list[float | None] = []
    for a in actions:
        if a["type"] == "set_text_style" and "font_size" in a:
            el = layout.get(a["ids"][0])
            out.append(a["font_size"] / el.font_size if el.font_size else None)
        elif a["type"] == "set_gap":
            m, t = layout.get(a["id"]).box, layout.get(a["target_id"]).box
            axis = a.get("axis", "vertical")
            gap = max(t.y - m.y2, m.y - t.y2) if axis == "vertical" else max(t.x - m.x2, m.x - t.x2)
            out.append(a["gap"] - gap)
        else:
            out.append(None)
    return out


def scaled(layout: Layout, last: _Repeatable, factor: float) -> list[dict[str, Any]]:
    """The last edit's step again, scaled by ``factor`` (negative: back the other way); [] when it has no step."""
    out: list[dict[str, Any]] = []
    for a, amount in zip(last.actions, last.amounts):
        kind = a["type"]
        if kind == "move":
            out.append({**a, "dx": round(a.get("dx", 0.0) * factor, 3), "dy": round(a.get("dy", 0.0) * factor, 3)})
        elif kind == "resize" and "scale" in a:
            out.append({**a, "scale": round(a["scale"] ** factor, 4)})
        elif kind == "set_text_style" and "font_size" in a and amount:
            el = layout.get(a["ids"][0])
            out.append({"type": "set_text_style", "ids": a["ids"], "font_size": round(el.font_size * amount ** factor,
                                                                                         3)})
        elif kind == "set_gap" and amount is not None:
            m, t = layout.get(a["id"]).box, layout.get(a["target_id"]).box
            axis = a.get("axis", "vertical")
            gap = max(t.y - m.y2, m.y - t.y2) if axis == "vertical" else max(t.x - m.x2, m.x - t.x2)
            out.append({**a, "gap": round(max(0.0, gap + amount * factor), 3)})
        elif kind in ("promote", "demote"):
            f = a.get("factor", 1.25) ** abs(factor)
            flip = factor < 0
            out.append({"type": ("demote" if kind == "promote" else "promote") if flip else kind, "id": a["id"],
                        "factor": round(min(max(f, 1.01), 4.0), 3)})
    return out


def _other_anchors(layout: Layout, actions: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The same actions with each resize anchored elsewhere (growing from the other side when one side is full)."""
    resizes = [k for k, a in enumerate(actions) if a["type"] == "resize"]
    if len(resizes) != 1:
        return []
    k = resizes[0]
    el = layout.get(actions[k]["id"])
    return [[*actions[:k], {**actions[k], "anchor": anchor}, *actions[k + 1:]]
            for anchor in resize_anchors(layout, el) if anchor != actions[k].get("anchor")]


def picture_reader(doc: Document) -> Callable[[list[str]], dict[str, str]]:
    """What the understander asks to read the words drawn in pictures of ``doc`` ("the DFG logo").

    It asks only when a word of the request is one no text, name or the vocabulary holds (see
    :mod:`assistant.instructions.requests.pictures`); every picture the word may be drawn in is read (a full-colour
    logo and its outline both say "ACM"), each once while unchanged; nothing where the reader is not installed.
    """
    return lambda ids: drawn_words(doc, ids)


def picture_looks(doc: Document) -> Callable[[list[str]], dict[str, Look]]:
    """What the understander asks to see how pictures of ``doc`` look ("the purple cable", "the round photo")."""
    return lambda ids: looks(doc, ids)


def read_pictures_ahead(doc: Document) -> ReadAhead | None:
    """Start reading the words drawn in the pictures of ``doc`` in the background (see ``drawn.read_ahead``).

    For an interactive chat: while the user looks at the file and types, the first request that names a
    logo by its name ("the DFG logo") finds it read already instead of waiting seconds for it. Stop it
    (``stop()``) before leaving.
    """
    return read_ahead(doc, readable_pictures(doc.layout))


class RequestRunner:
    """Requests and turn commands on one session (see the module docstring)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.context = RequestContext()
        self.last: Understanding | None = None
        self.last_request: str | None = None
        self.last_repeatable: _Repeatable | None = None
        self.pending: Understanding | None = None
        #: The revision the last understood edit left (an undo since then means it is no longer there).
        self.applied_at: int | None = None

    def handle(self, text: str) -> Outcome:
        """Understand ``text`` and carry it out (or answer why not)."""
        layout = self.session.document.layout
        u = understand(text, layout, self.context, read=picture_reader(self.session.document),
                       see=picture_looks(self.session.document))
        if u.status == "command" and u.command is not None:
            return self._command(u.command)
        if u.status != "edit" and self.pending is not None and u.status in ("not_understood", "missing", "question"):
            answer = self._answer_question(text)
            if answer is not None:
                return answer
        return self._run(u, text)

    # -- requests ------------------------------------------------------------------------
    def _run(self, u: Understanding, text: str, *, hint: dict[str, list[str]] | None = None) -> Outcome:
        if u.status == "question":
            self.pending = u
            self.context.pending_request = text
            self.context.pending_candidates = list(u.candidates)
            return Outcome("question", u.message, understanding=u)
        if u.status != "edit":
            return Outcome(u.status, u.message, understanding=u)
        try:
            actions, notes = carry_out(self.session, u.steps)
        except (CannotPlan, InvalidAction) as exc:
            return Outcome("failed", str(exc), understanding=u)
        self.pending = None
        self.context.pending_request, self.context.pending_candidates = None, []
        understood = [s.text for s in u.steps]
        if not actions:
            return Outcome("nothing", "; ".join(notes) or "nothing needed to change", understanding=u,
                           understood=understood)
        amounts = _amounts(self.session.document.layout, actions)
        result = self.session.apply(actions)
        self.last, self.last_request = u, text
        self.last_repeatable = _Repeatable(actions, amounts)
        self.applied_at = result.revision
        self.context.last_ids = list(dict.fromkeys(i for s in u.steps for i in s.patients)) or u.targets
        self.context.last_candidates = list(u.choices)
        self.context.last_choice = list(self.context.last_ids)
        return Outcome("edited", "; ".join(notes), actions=actions, result=result, understanding=u,
                       understood=understood)

    def _answer_question(self, text: str) -> Outcome | None:
        """A reply to the last question ("the first one", "the 'when' one", "about") picks among its candidates."""
        pending = self.pending
        if pending is None or not pending.candidates:
            return None
        layout = self.session.document.layout
        index = ElementIndex(layout)
        mentions, _skel = find_mentions(tokenise(text, index.known_words), index)
        if len(mentions) != 1:
            return None
        m = mentions[0]
        pool = list(pending.candidates)
        if m.has_head:
            scores = score_mention(m, index)
            picked = [i for i in best_candidates(scores, index) if i in pool]
        else:
            picked = pool
        if m.ordinal is not None:
            k = m.ordinal - 1 if m.ordinal > 0 else len(pool) + m.ordinal
            picked = [pool[k]] if 0 <= k < len(pool) else []
        elif m.place in ("left", "right", "top", "bottom", "big", "small", "middle"):
            picked = extreme(index.reading_order(picked), m.place, index)
        if len(picked) != 1:
            return None
        return self._redo_with(pending.text, pending.candidates, picked)

    def _redo_with(self, request: str, old: list[str], new: list[str]) -> Outcome:
        """``request`` again, its reference taken as ``new`` (in place of ``old`` where it resolved to that)."""
        layout = self.session.document.layout
        ctx = RequestContext(last_ids=list(self.context.last_ids), prefer=list(new), force=list(new),
                             replace=list(old))
        u = _with_choice(understand(request, layout, ctx, read=picture_reader(self.session.document),
                                    see=picture_looks(self.session.document)), old, new)
        outcome = self._run(u, request)
        if outcome.edited:
            self.context.last_choice = list(new)
            self.context.last_candidates = list(dict.fromkeys(old + new + self.context.last_candidates))
        return outcome

    def note_edit(self, actions: list[dict[str, Any]]) -> None:
        """Remember an edit made elsewhere (the model's) as the one "again" and "it" refer to."""
        self.last_repeatable = _Repeatable(actions, _amounts(self.session.document.layout, actions))
        ids = [i for a in actions for i in (a.get("ids") or ([a["id"]] if "id" in a else []))]
        self.context.last_ids = list(dict.fromkeys(ids))
        self.last = None

    # -- turn commands -------------------------------------------------------------------
    def _command(self, command: TurnCommand) -> Outcome:
        if command.kind in ("undo", "redo", "improve"):  # the front end's to answer
            return Outcome("command", command=command)
        if command.kind == "repeat":
            return self._repeat(command.factor)
        return self._other(command.reference)

    def _repeat(self, factor: float) -> Outcome:
        last = self.last_repeatable
        if last is None:
            return Outcome("nothing", "there is no earlier edit to repeat or scale")
        actions = scaled(self.session.document.layout, last, factor)
        if not actions:
            return Outcome("nothing", "the last edit put things in a set place; there is no step to repeat or scale "
                                      "(say what to change instead)")
        layout = self.session.document.layout
        first_error: InvalidAction | None = None
        for attempt in [actions, *_other_anchors(layout, actions)]:
            try:
                result = self.session.apply(attempt)
            except InvalidAction as exc:
                first_error = first_error or exc
                continue
            actions = attempt
            break
        else:
            return Outcome("failed", f"that step again does not fit: {_reason(first_error)}" if first_error else
                           "that step again does not fit")
        what = "again" if factor == 1 else f"{'more' if factor > 0 else 'less'} ({abs(factor):g} × the last step)"
        return Outcome("edited", "", actions=actions, result=result, understood=[what])

    def _other(self, reference: str | None) -> Outcome:
        if self.last is None or self.last_request is None:
            return Outcome("nothing", "there is no earlier edit to redo on another element")
        old = list(self.context.last_choice)
        layout = self.session.document.layout
        if reference:
            index = ElementIndex(layout)
            mentions, _skel = find_mentions(tokenise(reference, index.known_words), index)
            new = best_candidates(score_mention(mentions[0], index), index) if mentions else []
            if len(new) != 1:
                return Outcome("question" if new else "missing",
                               f"which element do you mean by {reference!r}?" if new else
                               f"there is no {reference!r} in this layout")
        else:
            pool = [i for i in self.context.last_candidates if i not in old]
            if not pool:
                pool = _same_kind(layout, old)
            if not pool:
                return Outcome("nothing", "there is no other element like that to choose")
            new = pool[:1]
        request = self.last_request
        current = self.session.revision == self.applied_at and self.session.can_undo
        if current:  # take the edit on the wrong element back first (unless the user already did)
            self.session.undo()
        outcome = self._redo_with(request, old, new)
        if not outcome.edited and current:
            self.session.redo()
        return outcome


def _with_choice(u: Understanding, old: list[str], new: list[str]) -> Understanding:
    if u.status != "edit":
        return u
    swap = dict(zip(old, new)) if len(old) == len(new) else {o: new[0] for o in old}
    for s in u.steps:
        s.patients = list(dict.fromkeys(swap.get(p, p) for p in s.patients))
        s.refs = [r for r in s.refs if r not in s.patients]
    return u


def _same_kind(layout: Layout, ids: list[str]) -> list[str]:
    if not ids:
        return []
    el = layout.get(ids[0])
    c = el.box
    others = [e for e in layout.elements if e.id not in ids and e.role == el.role and e.group == el.group]
    return [e.id for e in sorted(others, key=lambda e: math.hypot(e.box.cx - c.cx, e.box.cy - c.cy))]


__all__ = ["RequestRunner", "Outcome", "carry_out", "scaled"]
