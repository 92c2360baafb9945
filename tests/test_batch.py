"""The batch pipeline: path expansion, output naming, ordering, failure isolation."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from assistant.app.batch import FixOptions, expand_paths, plan_jobs, run_batch
from assistant.planners import register_planner

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@register_planner("test-crash-on-name")
class _CrashOnName:
    """Raises a bug-like error on files whose name contains 'crash' (test only)."""

    name = "test-crash-on-name"

    def __init__(self, **_):
        pass

    def propose(self, state):
        if "crash" in Path(state.document.source).name:
            raise RuntimeError("planner bug")
        return []


def test_expand_paths_files_folders_globs_and_missing(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "sub").mkdir()
    for p in ("a/x.svg", "a/sub/y.SVG", "a/notes.txt", "z.svg"):
        (tmp_path / p).write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    files, missing = expand_paths([tmp_path / "a", str(tmp_path / "*.svg"), tmp_path / "z.svg",
                                   tmp_path / "nope.svg", str(tmp_path / "q*.svg")])
    names = [f.relative_to(tmp_path).as_posix() for f in files]
    assert names == ["a/sub/y.SVG", "a/x.svg", "z.svg"]  # sorted, recursive, de-duplicated
    assert [Path(m.source).name for m in missing] == ["nope.svg", "q*.svg"]
    assert all(not m.ok and m.error for m in missing)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert expand_paths([empty])[1][0].error == "folder holds no .svg files"


def test_plan_jobs_avoids_name_clashes(tmp_path):
    files = [tmp_path / "a" / "card.svg", tmp_path / "b" / "card.svg", tmp_path / "c" / "card.svgz"]
    jobs = plan_jobs(files, FixOptions(out_dir=str(tmp_path / "out")))
    assert [j.output.name for j in jobs] == ["card.svg", "card-2.svg", "card-3.svg"]
    in_place = plan_jobs(files, FixOptions(in_place=True))
    assert [j.output for j in in_place] == files


@pytest.mark.parametrize("workers", [1, 2])
def test_run_batch_keeps_input_order_and_isolates_failures(tmp_path, workers):
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(EXAMPLES / "poster.svg", src / "1-poster.svg")
    (src / "2-bad.svg").write_text("not svg at all")
    shutil.copy(EXAMPLES / "slide.svg", src / "3-crash.svg")
    shutil.copy(EXAMPLES / "flyer.svg", src / "4-flyer.svg")
    files, _ = expand_paths([src])
    options = FixOptions(out_dir=str(tmp_path / "out"), planner="test-crash-on-name")
    seen = []
    results = run_batch(plan_jobs(files, options), options, workers=workers, on_result=seen.append)
    assert [Path(r.source).name for r in results] == ["1-poster.svg", "2-bad.svg", "3-crash.svg", "4-flyer.svg"]
    assert len(seen) == 4
    ok = {Path(r.source).name: r.ok for r in results}
    assert ok == {"1-poster.svg": True, "2-bad.svg": False, "3-crash.svg": False, "4-flyer.svg": True}
    crash = results[2]
    assert "internal error RuntimeError: planner bug" in crash.error
    assert results[1].error and "2-bad.svg" in results[1].error
    assert (tmp_path / "out" / "1-poster.svg").exists() and (tmp_path / "out" / "4-flyer.svg").exists()
    assert not (tmp_path / "out" / "3-crash.svg").exists()


def test_no_output_when_out_dir_is_none(tmp_path):
    files = [EXAMPLES / "poster.svg"]
    options = FixOptions(max_steps=2)
    (result,) = run_batch(plan_jobs(files, options), options, workers=1)
    assert result.ok and result.output is None
    assert result.score_after >= result.score_before
