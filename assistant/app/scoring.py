"""Score SVG files: import, compile the optional instruction, evaluate.

Shared by ``layout-assistant score`` and ``layout-assistant check``. A file
that cannot be read or imported yields a ``FileScore`` with ``error`` set, so
one bad file never hides the others.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.app.batch import expand_paths
from assistant.errors import LayoutError
from assistant.importer import import_svg
from assistant.instructions.brief import compile_brief
from assistant.metrics import MetricReport, evaluate


@dataclass
class FileScore:
    """The metric report of one file (``report`` None and ``error`` set on failure)."""

    source: str
    report: MetricReport | None = None
    error: str | None = None
    not_understood: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the file was scored."""
        return self.report is not None

    def to_json(self, max_findings: int = 50) -> dict[str, Any]:
        """JSON-ready dict: composite, per-metric score and weight, findings with element ids."""
        if self.report is None:
            return {"source": self.source, "ok": False, "error": self.error}
        r = self.report
        return {
            "source": self.source, "ok": True, "composite": round(r.composite, 4),
            "metrics": {name: {"score": round(m.score, 4), "weight": round(r.weights.get(name, 0.0), 4),
                               "applicable": m.applicable, "findings": len(m.findings)}
                        for name, m in r.metrics.items()},
            "findings": [{"metric": f.metric, "severity": f.severity, "element_ids": list(f.element_ids),
                          "message": f.message, "suggestion": f.suggestion}
                         for f in r.findings()[:max_findings]],
            "not_understood": self.not_understood,
        }


def score_file(path: str | Path, instruction: str | None = None) -> FileScore:
    """Import and evaluate one file; import/read problems come back in ``error``."""
    try:
        doc = import_svg(path)
        brief = compile_brief(instruction, doc.layout)
        not_understood = brief.not_understood
        report = evaluate(doc.layout, constraints=brief.constraints or None)
    except (LayoutError, OSError) as exc:
        reason = f"{exc.filename}: {exc.strerror}" if isinstance(exc, OSError) and exc.strerror else str(exc)
        return FileScore(source=str(path), error=reason)
    return FileScore(source=str(path), report=report, not_understood=not_understood)


def score_paths(paths: Iterable[str | Path], instruction: str | None = None) -> list[FileScore]:
    """Score every file named by ``paths`` (files, folders, globs); missing ones as errors."""
    files, missing = expand_paths(paths)
    out = [FileScore(source=m.source, error=m.error) for m in missing]
    out.extend(score_file(f, instruction) for f in files)
    return out


__all__ = ["FileScore", "score_file", "score_paths"]
