"""Greedy line breaking with real advances (first fit, breaks at spaces).

Text is cut into pieces — words (or a run's share of a word) and runs of
spaces — each measured with its own font (``FontSpec.advance``: hmtx advances
plus letter and word spacing). Lines are filled first-fit: a word goes on the
current line when the line's width plus the spaces before it plus the word
stays within ``max_width``; otherwise it starts a new line and the spaces at
the break are dropped. A word wider than the line stands alone on its line
(it is not hyphenated or split), and a newline forces a break. This is the
"first fit" algorithm of Knuth & Plass (1981, §1) that browsers and Inkscape
use for unhyphenated text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.svg.tree import SvgNode
from assistant.text.fonts import FontSpec


@dataclass
class Piece:
    """Text in one style (a run's share of a word or a space) with its advance."""

    text: str
    node: SvgNode
    font: FontSpec
    width: float
    space: bool = False
    brk: bool = False  # a forced line break


def pieces_of(runs: list[tuple[str, SvgNode, FontSpec]]) -> list[Piece]:
    """Split ``(text, node, font)`` runs at spaces and newlines into measured pieces."""
    out: list[Piece] = []
    for text, node, font in runs:
        for part in re.findall(r"\n| +|[^ \n]+", text):
            if part == "\n":
                out.append(Piece("", node, font, 0.0, brk=True))
            else:
                out.append(Piece(part, node, font, font.advance(part), space=part.startswith(" ")))
    return out


def wrap_pieces(pieces: list[Piece], max_width: float) -> list[list[Piece]]:
    """Greedy line breaking at spaces (first fit); a word wider than the line stands alone.

    Spaces at a break are dropped; forced breaks end a line.
    """
    lines: list[list[Piece]] = [[]]
    width = 0.0
    i = 0
    n = len(pieces)
    while i < n:
        p = pieces[i]
        if p.brk:
            lines.append([])
            width = 0.0
            i += 1
            continue
        if p.space:
            # Spaces followed by the next word: break before the word when it does not fit.
            j = i
            spaces: list[Piece] = []
            while j < n and pieces[j].space:
                spaces.append(pieces[j])
                j += 1
            word, k = _word(pieces, j)
            sw = sum(s.width for s in spaces)
            ww = sum(w.width for w in word)
            if lines[-1] and word and width + sw + ww > max_width + 1e-9:
                lines.append(list(word))
                width = ww
            else:
                lines[-1].extend(spaces + word)
                width += sw + ww
            i = k
            continue
        word, k = _word(pieces, i)
        ww = sum(w.width for w in word)
        if lines[-1] and width + ww > max_width + 1e-9:
            lines.append([])
            width = 0.0
        lines[-1].extend(word)
        width += ww
        i = k
    return lines


def _word(pieces: list[Piece], i: int) -> tuple[list[Piece], int]:
    word = []
    while i < len(pieces) and not pieces[i].space and not pieces[i].brk:
        word.append(pieces[i])
        i += 1
    return word, i


def wrap_lines(text: str, max_width: float, family: str | None, size: float, weight: int = 400,
               style: str = "normal", letter_spacing: float = 0.0, word_spacing: float = 0.0) -> list[str]:
    """Greedy word wrap of ``text`` to ``max_width`` with real advances (newlines force breaks)."""
    font = FontSpec(family, size, weight, style, letter_spacing, word_spacing)
    lines = wrap_pieces(pieces_of([(text, None, font)]), max_width)
    return ["".join(p.text for p in line).strip() for line in lines]
