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
"""

from __future__ import annotations

import json
from typing import Any

from assistant.document import Layout

#: Characters of element text shown.
SNIPPET = 28


def _r(v: float, nd: int = 1) -> float:
    out = round(float(v), nd)
    return 0.0 if out == 0 else out


def _snippet(text: str | None) -> str | None:
    if not text:
        return None
    t = " ".join(text.split())
    return t if len(t) <= SNIPPET else t[:SNIPPET - 1] + "…"


def _element(e: Any) -> dict[str, Any]:
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


def _finding(f: Any) -> dict[str, Any]:
    return {"ids": list(f.element_ids), "message": f.message, "severity": f.severity,
            "suggestion": f.suggestion}


def build_observation(layout: Layout, report: Any, *, instruction: str | None, constraints: list[Any],
                      step: int, max_steps: int, weakest: int = 3, findings_per_metric: int = 2) -> dict[str, Any]:
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


def observation_text(obs: dict[str, Any]) -> str:
    """Compact text of an observation dict for language models (see module docstring)."""
    c = obs["canvas"]
    sb = c["safe_box"]
    lines = [f"canvas {_num(c['width'])}x{_num(c['height'])} {c['units']}, safe box "
             f"{_num(sb[0])},{_num(sb[1])},{_num(sb[2])},{_num(sb[3])}"]
    if obs.get("instruction"):
        lines.append(f"instruction: {obs['instruction']}")
    lines.append("elements (id role kind x,y,w,h):")
    for e in obs["elements"]:
        parts = [e["id"], e["role"], e["kind"], ",".join(_num(v) for v in e["box"])]
        if e.get("group"):
            parts.append(f"in={e['group']}")
        if e.get("text"):
            parts.append(json.dumps(e["text"], ensure_ascii=False))
        if e.get("font_size"):
            parts.append(f"{e['font_size']:g}pt" if c["units"] == "pt" else f"size={e['font_size']:g}")
        if e.get("locked"):
            parts.append("locked")
        lines.append(" ".join(parts))
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


__all__ = ["build_observation", "observation_text"]
