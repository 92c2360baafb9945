"""Chat turns that refer to the last edit rather than to the layout: undo, more, less, the other one.

:func:`turn_command` recognises a whole turn:

* ``undo`` — "undo", "undo that", "take that back", "revert", "scratch that", "put it back";
* ``redo`` — "redo", "do it again after all";
* ``repeat`` with a multiplier of the last edit's step — "again", "more", "once more" (1),
  "a bit more", "slightly more" (0.5), "a lot more", "much more" (2);
  "less", "a bit less", "too much", "back a bit", "not so much" (−0.5),
  "a lot less", "way too much" (−1);
* ``other`` — "no, the other one", "not that one", "wrong one", "I meant the
  other one", with an optional new reference: "no, I meant the subtitle",
  "not the title, the subtitle" (``reference`` holds "the subtitle");
* ``improve`` — a request about the whole layout that names no change: "fix the
  layout", "tidy it up", "clean this up", "improve the design", "make it look
  better", "this looks messy, can you fix it" (answered as ``fix`` answers a file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PLEASE = r"(?:(?:ok|okay|hmm|please|pls|now|just|and|oh|actually|no|nope|wait|sorry|hm|yes|great|good|nice|thanks|" \
          r"cool)[ ,.!]*)*"
_TAIL = r"[ ,.!]*(?:please|pls|thanks|thank you)?[ .!]*"


@dataclass(frozen=True)
class TurnCommand:
    """A turn about the last edit: ``kind`` undo, redo, repeat or other."""

    kind: str
    factor: float = 1.0
    reference: str | None = None


def _norm(text: str) -> str:
    t = text.lower().replace("\u2019", "'").strip()
    return re.sub(r"\s+", " ", t)


_WHOLE = (r"(?:it|this|that|everything|it all|all of it|things|the (?:whole |entire )?"
          r"(?:layout|design|page|poster|flyer|slide|card|cover|banner|thing|composition|document|file|artwork))")
_ASK = r"(?:(?:can|could|would|will) you |(?:i'd|i would) like (?:you )?to |try to |let's |lets )?"
_IMPROVE = re.compile(
    _PLEASE + _ASK + r"(?:"
    r"(?:fix|improve|tidy|clean|polish|neaten|tighten|straighten|sort|touch|spruce|smarten)(?: up| out)? " + _WHOLE
    + r"(?: up| out)?(?: a (?:bit|little))?|"
    r"(?:tidy|clean|neaten|smarten|spruce) up|"
    r"make " + _WHOLE + r" (?:look )?(?:a (?:bit|little) )?(?:better|nicer|cleaner|neater|tidier|good|great|right|"
    r"more (?:professional|polished|balanced|consistent))|"
    r"(?:" + _WHOLE + r" )?looks? (?:messy|off|wrong|bad|cluttered|untidy|unbalanced|sloppy|amateurish)"
    r"(?:[ ,.!-]+(?:" + _ASK + r"(?:fix|improve|tidy|clean) (?:it|this|that)(?: up)?))?"
    r")" + _TAIL + r"\??")


def turn_command(text: str) -> TurnCommand | None:
    """The turn command ``text`` is, or None (see the module docstring)."""
    t = _norm(text)
    # "fix that" / "sort it out" act on the problem the conversation just named (the understander's confirm)
    if _IMPROVE.fullmatch(t) and not re.fullmatch(_PLEASE + _ASK + r"(?:fix|sort) (?:it|this|that)(?: out| up)?"
                                                  + _TAIL + r"\??", t):
        return TurnCommand("improve")
    if re.fullmatch(_PLEASE + r"(?:undo(?: (?:that|it|this|the last (?:one|edit|change|step)))?|"
                    r"revert(?: (?:that|it))?|"
                    r"take (?:that|it) back|go back|scratch that|put it back|cancel that|back out|roll back|"
                    r"undo last)" + _TAIL, t):
        return TurnCommand("undo")
    if re.fullmatch(_PLEASE + r"(?:redo(?: (?:that|it))?|do it after all)" + _TAIL, t):
        return TurnCommand("redo")
    m = re.fullmatch(_PLEASE + r"(?P<deg>(?:a |just a |ever so )?(?:(?:little |tiny |wee )?bit|little|tad|touch|"
                     r"smidge|slightly|lot|lots|much|way|far|even|some|somewhat|quite a bit) )*"
                     r"(?P<w>more|further|again|less|once more|one more time|do (?:it|that) again|repeat(?: that)?|"
                     r"keep going|same again|too much|too far|not so much|not that much|back a bit|"
                     r"(?:bigger|smaller|higher|lower|further) still)" + _TAIL, t)
    if m:
        deg = (m.group("deg") or "").strip()
        w = m.group("w")
        small = bool(re.search(r"\b(?:bit|little|tad|touch|smidge|slightly|somewhat)\b", deg))
        large = bool(re.search(r"\b(?:lot|lots|much|way|far)\b", deg))
        back = w in ("less", "too much", "too far", "not so much", "not that much", "back a bit")
        size = 0.5 if small or w == "back a bit" else 2.0 if large and not back else 1.0 if large else (
            0.5 if back else 1.0)
        if w in ("again", "once more", "one more time", "do it again", "do that again", "repeat", "repeat that",
                 "same again"):
            size = 1.0
        return TurnCommand("repeat", factor=-size if back else size)
    m = re.fullmatch(_PLEASE + r"(?:not (?:that|this) one|wrong one|the other one|(?:i )?meant the other(?: one)?|"
                     r"the other|other one|not that|wrong (?:element|thing))(?:[ ,.!]+(?P<ref>.+?))?" + _TAIL, t)
    if m:
        ref = m.group("ref")
        return TurnCommand("other", reference=ref.strip() if ref and not re.fullmatch(
            r"(?:the )?other(?: one)?|please", ref.strip()) else None)
    m = re.fullmatch(r"(?:no|nope|not (?:that|this)|wrong)[ ,.!]+(?:i )?(?:meant|mean|wanted) (?P<ref>.+?)" + _TAIL,
                     t) \
        or re.fullmatch(r"(?:no[ ,.!]+)?not (?:the )?[\w' -]+?[ ,]+(?:i meant |but )?(?P<ref>the .+?)" + _TAIL, t) \
        or re.fullmatch(r"(?:i )?meant (?P<ref>the .+?)" + _TAIL, t)
    if m:
        return TurnCommand("other", reference=m.group("ref").strip())
    return None


__all__ = ["TurnCommand", "turn_command"]
