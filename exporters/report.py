"""The HTML report of a batch fix: one card per file.

Each card shows the before/after thumbnails (PNG, embedded as ``data:`` URIs
so the report is one self-contained file), the composite score before → after,
the per-metric deltas, every edit applied with the reason it was made, the
findings that remain, and — for files that failed — the reason. The page is
rendered from ``exporters/templates/report.html.j2`` with jinja2
(autoescaping on: file names and texts from SVGs are untrusted).

    from exporters.report import write_report
    write_report("out/report.html", results, planner="heuristic")
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from assistant.app.batch import FileResult
from assistant.app.outputs import atomic_write

TEMPLATE_DIR = Path(__file__).parent / "templates"
TEMPLATE = "report.html.j2"


def action_summary(action: dict[str, Any]) -> str:
    """A one-line, human reading of an action dict: ``move title dx=+12 dy=-4``."""
    kind = str(action.get("type", "?"))
    parts = [kind]
    ids = action.get("ids")
    if ids:
        parts.append(", ".join(map(str, ids)))
    elif action.get("id"):
        parts.append(str(action["id"]))
    for key, value in action.items():
        if key in ("type", "ids", "id") or value is None:
            continue
        if isinstance(value, float):
            value = f"{value:+.4g}" if key in ("dx", "dy") else f"{value:.4g}"
        parts.append(f"{key}={value}")
    return " ".join(parts)


def _data_uri(png: bytes | None) -> str | None:
    if not png:
        return None
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _field(r: FileResult | dict[str, Any], name: str, default: Any = None) -> Any:
    return r.get(name, default) if isinstance(r, dict) else getattr(r, name, default)


def _card(r: FileResult | dict[str, Any]) -> dict[str, Any]:
    before = _field(r, "metrics_before") or {}
    after = _field(r, "metrics_after") or {}
    rows = []
    for name in sorted(set(before) | set(after)):
        b, a = float(before.get(name, 0.0)), float(after.get(name, before.get(name, 0.0)))
        rows.append({"name": name, "before": b, "after": a, "delta": a - b})
    rows.sort(key=lambda m: (-abs(m["delta"]), m["name"]))
    edits = [dict(e, summary=action_summary(e.get("action", {}))) for e in _field(r, "edits") or []]
    changes = _field(r, "changes") or {}
    return {
        "source": _field(r, "source"),
        "output": _field(r, "output"),
        "ok": bool(_field(r, "ok")),
        "error": _field(r, "error"),
        "score_before": float(_field(r, "score_before") or 0.0),
        "score_after": float(_field(r, "score_after") or _field(r, "score_before") or 0.0),
        "metric_rows": rows,
        "edits": edits,
        "elements_changed": len(changes),
        "findings_after": _field(r, "findings_after") or [],
        "not_understood": _field(r, "not_understood") or [],
        "stopped": _field(r, "stopped"),
        "seconds": float(_field(r, "seconds") or 0.0),
        "backup": _field(r, "backup"),
        "thumb_before": _data_uri(_field(r, "thumb_before")),
        "thumb_after": _data_uri(_field(r, "thumb_after")),
    }


def render_report(
    results: Iterable[FileResult | dict[str, Any]],
    *,
    planner: str = "heuristic",
    instruction: str | None = None,
    title: str = "Layout Assistant report",
) -> str:
    """The report page for ``results`` (``FileResult`` objects or their dicts) as HTML text."""
    cards = [_card(r) for r in results]
    ok = [c for c in cards if c["ok"]]
    totals = {
        "fixed": len(ok),
        "failed": len(cards) - len(ok),
        "mean_before": sum(c["score_before"] for c in ok) / len(ok) if ok else 0.0,
        "mean_after": sum(c["score_after"] for c in ok) / len(ok) if ok else 0.0,
        "edits": sum(len(c["edits"]) for c in ok),
        "elements": sum(c["elements_changed"] for c in ok),
    }
    env = Environment(loader=FileSystemLoader(TEMPLATE_DIR), autoescape=select_autoescape(["html", "j2"]))
    return env.get_template(TEMPLATE).render(
        title=title, planner=planner, instruction=instruction, results=cards, totals=totals)


def write_report(path: str | Path, results: Iterable[FileResult | dict[str, Any]], **options: Any) -> Path:
    """Render the report and write it atomically to ``path``; returns the path."""
    path = Path(path)
    atomic_write(path, render_report(results, **options).encode("utf-8"))
    return path


__all__ = ["render_report", "write_report", "action_summary"]
