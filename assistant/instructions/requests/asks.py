"""A question instead of an edit: the reader's exception, and the check that a clause names one element where it must.

"Move the ACM logo left so its left edge …" where two logos fit: which one is asked, never guessed.
"""

from __future__ import annotations

from assistant.document import Layout
from assistant.instructions.requests.choose import describe, unknown_head
from assistant.instructions.requests.colours import word_family
from assistant.instructions.requests.intents import Intent
from assistant.instructions.requests.refs import Mention, several_before
from assistant.instructions.requests.scope import copies

#: Pronouns that stand for one element.
SINGULAR = frozenset({"it", "its", "itself"})


class Ask(Exception):
    """What the request leaves open, said back as a question (or "not understood", "missing")."""

    def __init__(self, status: str, message: str, candidates: list[str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.candidates = status, message, candidates or []


def check_ambiguous(layout: Layout, intent: Intent, mentions: list[Mention], resolved: dict[int, list[str]],
                    whole: list[str]) -> None:
    """Raise ``Ask`` where a mention the edit needs one element of (the patient or a reference) names several.

    ``whole``: a set said before with one plural noun ("the right column"), which "it" may stand for.
    """
    if intent.kind == "lock" and intent.params.get("keep"):
        return  # "keep the background photo where it is": whichever is meant, none of them moves
    for n in intent.patients + ([] if intent.params.get("compare") else intent.refs):
        m = mentions[n] if n < len(mentions) else None
        ids = resolved.get(n, [])
        if m is not None and m.pronoun in SINGULAR and len(ids) > 1 and intent.kind != "swap" and not several_before(
                n, mentions) \
                and not copies(ids, layout) and set(ids) != set(whole):
            # "move the ACM logo left so its left edge …": "its" is one element, and which one is not known
            listing = "; ".join(describe(layout, i) for i in ids[:6])
            before = [p for k, p in enumerate(mentions[:n])
                      if not p.pronoun and set(resolved.get(k, [])) == set(ids)
                      ] or [p for p in mentions[:n] if not p.pronoun and p.words]
            what = (" ".join(w for w in before[-1].words if w != "one") if before else "") or "one"
            raise Ask("question", f"which {what} do you mean: {listing}?", ids)
        if m is None or m.plural or m.every or m.pronoun or m.others or m.everything or (m.count or 0) > 1 \
                or m.copies:
            continue
        if len(ids) > 1:
            listing = "; ".join(describe(layout, i) for i in ids[:6])
            what = " ".join(w for w in m.words if w != "one") or m.text.removeprefix("the ").strip() or "one"
            raise Ask("question", f"which {what} do you mean: {listing}?", ids)


#: Style parameters that change how a shape or a picture looks, which no box shows.
_PAINTS = frozenset({"fill", "stroke", "stroke_width", "no_stroke", "opacity", "shade"})


def check_paint_guess(intent: Intent, mentions: list[Mention]) -> None:
    """Raise ``Ask`` where a colour or an outline would go to a picture named only by what it shows.

    "can u make the snowflakes whiter", "recolour the unicorn pink": no word of the file says which picture shows it,
    so the one picture that fits by kind is a guess, and a recoloured picture is a change no one asked for when the
    guess is wrong (a size or a place at least shows on the page); a colour word ("the orange") or a name is no guess.
    """
    if intent.kind != "style" or not _PAINTS & set(intent.params):
        return
    for n in intent.patients:
        m = mentions[n] if n < len(mentions) else None
        head = unknown_head(m) if m is not None and not (m.names or m.quote or m.pronoun) else None
        if head is not None and word_family(head) is None:
            raise Ask("question", f"which element is '{m.text}'? I cannot tell what a picture shows; name it by its "
                                  "id, its words or its colour")


__all__ = ["Ask", "SINGULAR", "check_ambiguous", "check_paint_guess"]
