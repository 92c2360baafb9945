"""The HTML report: cards, thumbnails, deltas, edits, failures, escaping."""

from __future__ import annotations

import base64
import html.parser
import shutil
from pathlib import Path

from typer.testing import CliRunner

from assistant.app.batch import FileResult
from assistant.cli import app
from exporters.report import action_summary, render_report, write_report

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


class _Images(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.srcs: list[str] = []
        self.sections = 0

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.srcs.append(dict(attrs)["src"])
        if tag == "section":
            self.sections += 1


def _parse(text: str) -> _Images:
    p = _Images()
    p.feed(text)
    return p


def test_action_summary_reads_like_a_sentence():
    assert action_summary({"type": "move", "ids": ["title"], "dx": 12.0, "dy": -4.5}) == "move title dx=+12 dy=-4.5"
    assert action_summary({"type": "promote", "id": "t", "factor": 1.5}) == "promote t factor=1.5"
    assert action_summary({"type": "finalize"}) == "finalize"


def test_report_from_a_real_fix_has_cards_thumbnails_and_failures(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(EXAMPLES / "poster.svg", src / "poster.svg")
    shutil.copy(EXAMPLES / "social_card.svg", src / "card.svg")
    (src / "empty.svg").write_bytes(b"")
    report = tmp_path / "out" / "report.html"
    res = CliRunner().invoke(app, ["fix", str(src), "--out", str(tmp_path / "out"), "--report", str(report)])
    assert res.exit_code == 1  # empty.svg failed
    assert f"Report: {report}" in res.output
    text = report.read_text()
    page = _parse(text)
    assert page.sections == 3
    assert len(page.srcs) == 4  # before + after for the two good files
    for src_uri in page.srcs:
        assert src_uri.startswith("data:image/png;base64,")
        assert base64.b64decode(src_uri.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert "empty.svg" in text and "failed" in text
    assert "→" in text and "Edits applied" in text
    assert "Remaining findings" in text or "Nothing to fix" in text


def test_report_escapes_untrusted_text(tmp_path):
    evil = FileResult(source="<script>alert(1)</script>.svg", ok=False, error="<b>bad</b>")
    good = FileResult(source="a.svg", ok=True, score_before=0.5, score_after=0.6,
                      metrics_before={"overlap": 0.5}, metrics_after={"overlap": 0.7},
                      edits=[{"action": {"type": "move", "ids": ["t<i>"], "dx": 1.0, "dy": 0.0},
                              "reason": "overlap: <em>x</em>", "before": 0.5, "after": 0.6}],
                      changes={"t<i>": ["overlap"]})
    text = render_report([evil, good], instruction="<img src=x>")
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert "<b>bad</b>" not in text and "<em>x</em>" not in text
    assert "<img src=x>" not in text
    assert "+0.200" in text  # the metric delta
    path = write_report(tmp_path / "r.html", [good])
    assert path.read_text().count("<section") == 1
