"""What the environment shows an agent: a structured dict and compact text.

The dict (:func:`build_observation`) holds plain JSON values only, rounded so
that equal states give equal observations:

- ``canvas``: ``width``, ``height``, ``units``, ``px_per_unit``, ``safe_box`` [x, y, w, h];
- ``elements``: per element ``id``, ``role``, ``kind``, ``box`` [x, y, w, h],
  ``group`` and, when set, ``text`` (a snippet), ``font_size``, ``locked``;
- ``metrics`` (one key per metric), ``composite``, ``instruction_fit``;
- ``weakest``: the lowest-scoring metrics with their top findings (ids,
  message, suggested action), instruction fit added when it is not perfect;
- ``instruction``, ``constraints`` (one line each), ``step``, ``max_steps``.

:func:`observation_text` renders it for a language model: one line per
element (``id role kind x,y,w,h "text" size``), the weakest metrics with
findings, the instruction. A 30-element layout stays well under 1 500 tokens.

A larger layout may not fit a small model's context. :func:`fit_observation_text`
then shortens the text, in the same line format, one level at a time until a
caller's test (its model's token count) passes: element text cut to
:data:`SHORT_SNIPPET` characters (level 1); locked elements, which no edit may
touch, left out of the list and counted instead (level 2); no element text
(level 3); then the least important elements no finding names left out, a few
at a time. Findings, the score line and every element an edit is likely to
concern stay.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from assistant.document import Element, Layout
from assistant.instructions import Constraint
from assistant.metrics import Finding, MetricReport

#: Characters of element text shown.
SNIPPET = 28

#: Characters of element text shown at compaction level 1 and above (none from level 3).
SHORT_SNIPPET = 12

#: The compaction levels of :func:`observation_text` before elements are left out.
COMPACT_LEVELS = 3


def _r(v: float, nd: int = 1) -> float:
    out = round(float(v), nd)
    return 0.0 if out == 0 else out


def _snippet(text: str | None) -> str | None:
    if not text:
        return None
    t = " ".join(text.split())
    return t if len(t) <= SNIPPET else t[:SNIPPET - 1] + "…"


def _element(e: Element) -> dict[str, Any]:
    d: dict[str, Any] = {"id": e.id, "role": e.role, "kind": e.kind,
                         "box": [_r(e.box.x), _r(e.box.y), _r(e.box.width), _r(e.box.height)],
                         "group": e.group}
    snip = _snippet(e.text)
    if snip:
        d["text"] = snip
    if e.font_size:
        d["font_size"] = _r(e.font_size)
    if e.locked:
        d["locked"] = True
    return d


def _finding(f: Finding) -> dict[str, Any]:
    return {"ids": list(f.element_ids), "message": f.message, "severity": f.severity,
            "suggestion": f.suggestion}


def build_observation(layout: Layout, report: MetricReport, *, instruction: str | None,
                      constraints: Sequence[Constraint],
                      step: int, max_steps: int, weakest: int = 3,
                      findings_per_metric: int = 2) -> dict[str, Any]:
    """The structured observation of ``layout`` and its metric ``report`` (see module docstring)."""
    c = layout.canvas
    s = c.safe_box
    weak = [m for m in report.weakest(weakest) if m.score < 1.0]
    fit = report.metrics.get("instruction_fit")
    if fit is not None and fit.applicable and fit.score < 1.0 and all(m.name != fit.name for m in weak):
        weak.append(fit)
    weakest_out = []
    for m in weak:
        fs = [f for f in report.findings(m.name) if f.severity != "low" or m.name != "instruction_fit"]
        weakest_out.append({"metric": m.name, "score": _r(m.score, 4),
                            "findings": [_finding(f) for f in fs[:findings_per_metric]]})
    return {
        "canvas": {"width": _r(c.width, 2), "height": _r(c.height, 2), "units": c.units,
                   "px_per_unit": _r(c.px_per_unit, 6), "safe_box": [_r(s.x), _r(s.y), _r(s.width), _r(s.height)]},
        "elements": [_element(e) for e in layout.elements],
        "metrics": {k: _r(v, 4) for k, v in report.scores().items()},
        "composite": _r(report.composite, 4),
        "instruction_fit": _r(fit.score, 4) if fit is not None else 1.0,
        "weakest": weakest_out,
        "instruction": instruction,
        "constraints": [con.describe() for con in constraints],
        "step": int(step),
        "max_steps": int(max_steps),
    }


def _num(v: float) -> str:
    return str(int(round(v)))


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text.rstrip("…")[:limit - 1] + "…"


def canvas_line(canvas: dict[str, Any]) -> str:
    """The observation's first line: the canvas size, its units and the safe box."""
    sb = canvas["safe_box"]
    return (f"canvas {_num(canvas['width'])}x{_num(canvas['height'])} {canvas['units']}, safe box "
            f"{_num(sb[0])},{_num(sb[1])},{_num(sb[2])},{_num(sb[3])}")


def element_lines(elements: list[dict[str, Any]], units: str, *, compact: int = 0,
                  leave_out: frozenset[str] = frozenset()) -> list[str]:
    """One line per element dict (``id role kind x,y,w,h in=group "text" size=… locked``).

    Lines are shortened at ``compact`` level 1 and above (see the module
    docstring); a last line counts the elements left out.
    """
    lines = ["elements (id role kind x,y,w,h):"]
    locked = unlisted = 0
    for e in elements:
        if compact >= 2 and e.get("locked"):
            locked += 1
            continue
        if e["id"] in leave_out:
            unlisted += 1
            continue
        parts = [e["id"], e["role"], e["kind"], ",".join(_num(v) for v in e["box"])]
        if e.get("group"):
            parts.append(f"in={e['group']}")
        if e.get("text") and compact < 3:
            text = _short(e["text"], SHORT_SNIPPET) if compact >= 1 else e["text"]
            parts.append(json.dumps(text, ensure_ascii=False))
        if e.get("font_size"):
            parts.append(f"{e['font_size']:g}pt" if units == "pt" else f"size={e['font_size']:g}")
        if e.get("locked"):
            parts.append("locked")
        lines.append(" ".join(parts))
    if locked or unlisted:
        lines.append("(not listed: " + ", ".join(
            t for t in (f"{locked} locked" if locked else "", f"{unlisted} others" if unlisted else "") if t)
            + ")")
    return lines


def layout_element_dicts(layout: Layout) -> list[dict[str, Any]]:
    """The observation's element dicts of ``layout`` (what :func:`element_lines` shows)."""
    return [_element(e) for e in layout.elements]


def observation_text(obs: dict[str, Any], *, compact: int = 0, leave_out: frozenset[str] = frozenset()) -> str:
    """Compact text of an observation dict for language models (see module docstring).

    ``compact`` (0 … :data:`COMPACT_LEVELS`) shortens it as :func:`fit_observation_text` describes;
    the elements whose ids are in ``leave_out`` are not listed (a line counts what was left out).
    """
    c = obs["canvas"]
    lines = [canvas_line(c)]
    if obs.get("instruction"):
        lines.append(f"instruction: {obs['instruction']}")
    lines += element_lines(obs["elements"], c["units"], compact=compact, leave_out=leave_out)
    weak = ", ".join(f"{w['metric']} {w['score']:.2f}" for w in obs["weakest"])
    lines.append(f"score {obs['composite']:.3f}, instruction fit {obs['instruction_fit']:.2f}"
                 + (f"; weakest: {weak}" if weak else ""))
    for w in obs["weakest"]:
        for f in w["findings"]:
            sug = {k: v for k, v in (f.get("suggestion") or {}).items() if v is not None}
            fix = f" fix: {json.dumps(sug, separators=(',', ':'))}" if sug else ""
            lines.append(f"- {w['metric']}: {f['message']}{fix}")
    lines.append(f"step {obs['step']}/{obs['max_steps']}")
    return "\n".join(lines)


def fit_text(render: Callable[[int, frozenset[str]], str], elements: list[dict[str, Any]], keep: set[str],
             fits: Callable[[str], bool]) -> str:
    """The fullest ``render(level, leave_out)`` for which ``fits`` holds.

    Levels 0 … :data:`COMPACT_LEVELS` are tried, then, at the last level, more
    and more of ``elements`` left out — unlocked ones not in ``keep``,
    decorations first, then the smallest. The shortest text when nothing fits.
    """
    for level in range(COMPACT_LEVELS + 1):
        text = render(level, frozenset())
        if fits(text):
            return text
    # decorations first, then the smallest: the elements an edit is least likely to concern
    spare = sorted((e for e in elements if not e.get("locked") and e["id"] not in keep),
                   key=lambda e: (e["role"] != "decoration", e["box"][2] * e["box"][3]))
    step = max(1, len(spare) // 8)
    for n in range(step, len(spare) + step, step):
        text = render(COMPACT_LEVELS, frozenset(e["id"] for e in spare[:n]))
        if fits(text):
            return text
    return text


def fit_observation_text(obs: dict[str, Any], fits: Callable[[str], bool]) -> str:
    """The fullest :func:`observation_text` of ``obs`` for which ``fits(text)`` holds.

    See the module docstring for the order in which it is shortened; elements
    a finding names are always listed.
    """
    named = {i for w in obs["weakest"] for f in w["findings"] for i in f["ids"]}
    return fit_text(lambda level, out: observation_text(obs, compact=level, leave_out=out), obs["elements"],
                    named, fits)


__all__ = ["build_observation", "observation_text", "fit_observation_text", "fit_text", "element_lines",
           "canvas_line", "layout_element_dicts"]
