"""GBNF rules for bounded JSON numbers and restricted JSON strings.

llama.cpp's JSON-schema-to-GBNF converter writes one ``number`` rule for every
numeric field and ignores ``minimum``/``maximum``/``exclusiveMinimum``, so a
grammar-constrained model may still write ``"factor":0.5`` for a field that
must be ``> 1``. The rules here are exact instead: a number is written in the
compact form of ``assistant.planners.prompting.format_target`` — optional ``-``, an
integer part of at most ``int_digits`` digits without leading zeros, an
optional ``.`` and 1 … ``fraction_digits`` fraction digits, no exponent — and
the rule admits exactly the numbers of that form inside the field's range.

Method: the value range is split on the integer part *I*. Integer parts
strictly inside the range take any fraction; the lower bound's own integer
part takes a non-zero fraction when the bound is exclusive; the upper bound's
integer part takes only a zero fraction (``4``, ``4.0``, ``4.00``). Integer
ranges are written digit by digit, one alternative per digit count, splitting
on the leading digit (the classic range-to-regular-expression construction).
Non-integer bounds are tightened to the nearest integer inside the range, so
every admitted number is valid.
"""

from __future__ import annotations

import math

#: GBNF of one JSON string character other than ``"`` and ``\`` (and no control character).
PLAIN_CHAR = r'[^"\\\x00-\x1F\x7F]'


def _same_length(lo: str, hi: str) -> str:
    """Digit strings of ``len(lo)`` characters between ``lo`` and ``hi`` (same length, lo ≤ hi)."""
    if lo == hi:
        return f'"{lo}"'
    if len(lo) == 1:
        return f"[{lo}-{hi}]"
    if lo[0] == hi[0]:
        return f'"{lo[0]}" ({_same_length(lo[1:], hi[1:])})'
    k = len(lo) - 1
    parts: list[str] = []
    first, last = int(lo[0]), int(hi[0])
    if lo[1:] != "0" * k:
        parts.append(f'"{lo[0]}" ({_same_length(lo[1:], "9" * k)})')
        first += 1
    tail = ""
    if hi[1:] != "9" * k:
        tail = f'"{hi[0]}" ({_same_length("0" * k, hi[1:])})'
        last -= 1
    if first <= last:
        digit = f"[{first}]" if first == last else f"[{first}-{last}]"
        parts.append(f"{digit} [0-9]{{{k}}}")
    if tail:
        parts.append(tail)
    return " | ".join(parts)


def int_range(lo: int, hi: int) -> str:
    """GBNF alternation of the decimal integers ``lo`` … ``hi`` (``0 <= lo <= hi``), no leading zeros."""
    if lo < 0 or hi < lo:
        raise ValueError(f"bad integer range {lo}..{hi}")
    alts = []
    for d in range(len(str(lo)), len(str(hi)) + 1):
        a = max(lo, 10 ** (d - 1) if d > 1 else 0)
        b = min(hi, 10 ** d - 1)
        if a <= b:
            alts.append(f"({_same_length(str(a), str(b))})")
    return " | ".join(alts)


def _fractions(fraction_digits: int) -> tuple[str, str, str]:
    """(any, zero, non-zero) fraction-digit rules of 1 … ``fraction_digits`` digits."""
    fd = fraction_digits
    anyf = f"[0-9]{{1,{fd}}}"
    zero = f"[0]{{1,{fd}}}"
    nonzero = []
    for j in range(fd):
        rest = fd - 1 - j
        nonzero.append(" ".join(x for x in ('"' + "0" * j + '"' if j else "", "[1-9]",
                                             f"[0-9]{{0,{rest}}}" if rest else "") if x))
    return anyf, zero, " | ".join(f"({n})" for n in nonzero)


def _magnitude(lo: float, lo_excl: bool, hi: float | None, hi_excl: bool, int_digits: int,
               fraction_digits: int) -> list[str]:
    """Alternatives for unsigned numbers in the range ``lo`` (≥ 0) … ``hi``."""
    cap = 10 ** int_digits - 1
    if not float(lo).is_integer():
        lo, lo_excl = math.ceil(lo), False
    lo = int(lo)
    top_zero: int | None = None
    if hi is None or hi > cap:
        top_any = cap
    else:
        if not float(hi).is_integer():
            hi, hi_excl = math.floor(hi), False
        hi = int(hi)
        top_any = hi - 1
        top_zero = None if hi_excl else hi
    anyf, zero, nonzero = _fractions(fraction_digits)
    alts = []
    first_any = lo + 1 if lo_excl else lo
    if first_any <= top_any:
        alts.append(f'({int_range(first_any, top_any)}) ("." {anyf})?')
    if lo_excl and lo <= top_any:
        alts.append(f'"{lo}" "." ({nonzero})')
    if top_zero is not None and (top_zero > lo or (top_zero == lo and not lo_excl)):
        alts.append(f'"{top_zero}" ("." {zero})?')
    return alts


def number_rule(schema: dict, *, int_digits: int, fraction_digits: int) -> str:
    """GBNF body for the JSON number or integer ``schema`` (its bounds respected exactly).

    ``schema`` holds ``type`` (``number`` or ``integer``) and any of ``minimum``,
    ``exclusiveMinimum``, ``maximum``, ``exclusiveMaximum``. Raises ``ValueError``
    when no number of the written form lies in the range.
    """
    lo, lo_excl = schema.get("minimum"), False
    if "exclusiveMinimum" in schema and (lo is None or schema["exclusiveMinimum"] >= lo):
        lo, lo_excl = schema["exclusiveMinimum"], True
    hi, hi_excl = schema.get("maximum"), False
    if "exclusiveMaximum" in schema and (hi is None or schema["exclusiveMaximum"] <= hi):
        hi, hi_excl = schema["exclusiveMaximum"], True
    integer = schema.get("type") == "integer"
    fd = 0 if integer else fraction_digits
    alts: list[str] = []
    if lo is None or lo < 0:  # negative numbers: "-" and a magnitude m = -value
        if hi is None or hi >= 0:
            m_lo, m_lo_excl = 0.0, True
        else:
            m_lo, m_lo_excl = -hi, hi_excl
        m_hi = None if lo is None else -lo
        alts += [f'"-" {a}' for a in _unsigned(m_lo, m_lo_excl, m_hi, lo_excl, int_digits, fd)]
    if hi is None or hi >= 0:
        start, start_excl = (0.0, False) if lo is None or lo < 0 else (lo, lo_excl)
        alts += _unsigned(start, start_excl, hi, hi_excl, int_digits, fd)
    if not alts:
        raise ValueError(f"no number of the written form satisfies {schema}")
    return " | ".join(f"({a})" for a in alts)


def _unsigned(lo: float, lo_excl: bool, hi: float | None, hi_excl: bool, int_digits: int, fd: int) -> list[str]:
    """Alternatives for unsigned numbers (integers when ``fd == 0``) between ``lo`` ≥ 0 and ``hi``."""
    if fd:
        return _magnitude(lo, lo_excl, hi, hi_excl, int_digits, fd)
    first = int(lo) + 1 if lo_excl and float(lo).is_integer() else math.ceil(lo)
    last = 10 ** int_digits - 1
    if hi is not None:
        last = min(last, int(hi) - 1 if hi_excl and float(hi).is_integer() else math.floor(hi))
    return [int_range(first, last)] if first <= last else []


def string_rule(min_len: int, max_len: int, char: str = PLAIN_CHAR, first: str | None = None) -> str:
    """GBNF body for a JSON string of ``min_len`` … ``max_len`` characters of class ``char``.

    ``first`` (a character class) constrains the first character, e.g. to
    refuse leading whitespace for fields that are stripped before validation.
    """
    if first is None:
        return f'"\\"" {char}{{{min_len},{max_len}}} "\\""'
    return f'"\\"" {first} {char}{{{max(0, min_len - 1)},{max_len - 1}}} "\\""'


__all__ = ["int_range", "number_rule", "string_rule", "PLAIN_CHAR"]
