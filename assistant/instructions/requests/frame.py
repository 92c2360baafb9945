"""The frame of a clause's intent: its kind, the mentions it changes, those it relates them to.

A clause skeleton names its element mentions ``E0``, ``E1`` …
(:func:`~assistant.instructions.requests.refs.find_mentions`); :data:`E` is the pattern
of one such slot and :func:`slots` reads their numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

E = r"E\d+"
_SLOT = re.compile(r"E(\d+)")


@dataclass
class Intent:
    """One clause's intent: its kind, the mentions it changes and those it relates them to."""

    kind: str
    patients: list[int] = field(default_factory=list)
    refs: list[int] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    #: A description of a problem ("X overlaps Y") that a later "fix that" may act on.
    state: bool = False


def slots(text: str) -> list[int]:
    """Mention numbers in ``text`` in order."""
    return [int(m) for m in _SLOT.findall(text)]


def split_at(skel: str, m: re.Match[str]) -> tuple[list[int], list[int]]:
    """Mention numbers before and after the match ``m``."""
    return slots(skel[:m.start()]), slots(skel[m.end():])


# -- words ------------------------------------------------------------------------------


__all__ = ["Intent", "slots", "split_at", "E"]
