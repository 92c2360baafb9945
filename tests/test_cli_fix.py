"""``layout-assistant fix`` through typer's CliRunner, on the bundled examples."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cli import app

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
runner = CliRunner()


def invoke(*args: str, steps: int | None = 3):
    """Run the CLI; ``steps`` caps --max-steps to keep the suite fast (None: the default)."""
    args = [str(a) for a in args]
    if steps is not None and args[0] == "fix" and "--max-steps" not in args:
        args += ["--max-steps", str(steps)]
    return runner.invoke(app, args, catch_exceptions=False)


@pytest.fixture()
def inputs(tmp_path: Path) -> Path:
    """Two bundled examples copied to a temp folder."""
    d = tmp_path / "in"
    d.mkdir()
    for name in ("poster.svg", "flyer.svg"):
        shutil.copy(EXAMPLES / name, d / name)
    return d


def _summary(path: Path) -> dict:
    return json.loads(path.read_text())


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _can_read_unreadable(path: Path) -> bool:
    try:
        path.read_bytes()
        return True
    except PermissionError:
        return False


def test_fix_writes_improved_files_and_leaves_inputs_alone(inputs, tmp_path):
    before = _snapshot(inputs)
    out, summary = tmp_path / "out", tmp_path / "s.json"
    res = invoke("fix", inputs, "--out", out, "--json", summary, "--jobs", "1", steps=None)
    assert res.exit_code == 0, res.output
    assert _snapshot(inputs) == before
    assert sorted(p.name for p in out.iterdir()) == ["flyer.svg", "poster.svg"]
    files = _summary(summary)["files"]
    assert all(f["ok"] for f in files)
    for f in files:
        assert f["score_after"] >= f["score_before"]
        assert f["valid"] == f["proposed"]
        assert f"{f['score_before']:.2f} → " in res.output
    assert any(f["score_after"] > f["score_before"] and f["edits"] for f in files)
    for f in files:  # each changed element is explained by the reasons of the edits that changed it
        for reasons in f["changes"].values():
            assert reasons and all(isinstance(r, str) and r for r in reasons)
        assert f["elements_changed"] == len(f["changes"])


def test_fixed_file_scores_what_the_summary_says(inputs, tmp_path):
    out, summary = tmp_path / "out", tmp_path / "s.json"
    assert invoke("fix", inputs / "poster.svg", "--out", out, "--json", summary).exit_code == 0
    rescored = invoke("score", out / "poster.svg", "--json")
    assert rescored.exit_code == 0
    composite = json.loads(rescored.output)["files"][0]["composite"]
    assert composite == pytest.approx(_summary(summary)["files"][0]["score_after"], abs=2e-3)


def test_one_bad_file_does_not_stop_the_batch(inputs, tmp_path):
    (inputs / "broken.svg").write_text("this is not an SVG file")
    out, summary = tmp_path / "out", tmp_path / "s.json"
    res = invoke("fix", inputs, "--out", out, "--json", summary, "--jobs", "2")
    assert res.exit_code == 1
    assert "broken.svg: FAILED" in res.output
    files = {Path(f["source"]).name: f for f in _summary(summary)["files"]}
    assert not files["broken.svg"]["ok"] and files["broken.svg"]["error"]
    assert files["poster.svg"]["ok"] and files["flyer.svg"]["ok"]
    assert (out / "poster.svg").exists() and not (out / "broken.svg").exists()


def test_missing_file_is_reported(inputs, tmp_path):
    res = invoke("fix", inputs / "poster.svg", tmp_path / "nope.svg", "--out", tmp_path / "out")
    assert res.exit_code == 1
    assert "nope.svg: FAILED" in res.output and "no such file" in res.output
    assert (tmp_path / "out" / "poster.svg").exists()


def test_unreadable_file_is_reported(inputs, tmp_path):
    target = inputs / "poster.svg"
    target.chmod(0)
    try:
        if _can_read_unreadable(target):
            pytest.skip("running with privileges that ignore file permissions")
        res = invoke("fix", inputs, "--out", tmp_path / "out")
        assert res.exit_code == 1
        assert "poster.svg: FAILED" in res.output
        assert (tmp_path / "out" / "flyer.svg").exists()
    finally:
        target.chmod(0o644)


def test_output_folder_not_writable_is_a_usage_error(inputs, tmp_path):
    locked = tmp_path / "ro"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running with privileges that ignore folder permissions")
        res = runner.invoke(app, ["fix", str(inputs), "--out", str(locked / "sub")])
        assert res.exit_code == 2
        assert "cannot create output folder" in res.output or "not writable" in res.output
        res = runner.invoke(app, ["fix", str(inputs), "--out", str(locked)])
        assert res.exit_code == 2 and "not writable" in res.output
    finally:
        locked.chmod(0o755)


def test_output_path_that_is_a_file_is_a_usage_error(inputs, tmp_path):
    res = runner.invoke(app, ["fix", str(inputs), "--out", str(inputs / "poster.svg")])
    assert res.exit_code == 2
    assert "output folder" in res.output


@pytest.mark.parametrize("args, message", [
    (["--in-place", "--out", "X"], "--in-place and --out conflict"),
    ([], "--out DIR"),
    (["--out", "X", "--planner", "nope"], "known planners: "),
    (["--out", "X", "--formats", "png,gif"], "gif"),
    (["--out", "X", "--max-steps", "-1"], "max-steps"),
    (["--out", "X", "--planner-option", "beam_width"], "KEY=VALUE"),
    (["--out", "X", "--planner-option", "no_such=1"], "bad options"),
])
def test_usage_errors(inputs, tmp_path, args, message):
    args = [a.replace("X", str(tmp_path / "out")) for a in args]
    res = runner.invoke(app, ["fix", str(inputs), *args])
    assert res.exit_code == 2
    assert message in res.output
    assert not (tmp_path / "out" / "poster.svg").exists()


def test_in_place_keeps_a_backup(inputs):
    original = (inputs / "poster.svg").read_bytes()
    res = invoke("fix", inputs / "poster.svg", "--in-place")
    assert res.exit_code == 0, res.output
    assert (inputs / "poster.svg.bak").read_bytes() == original
    assert (inputs / "poster.svg").read_bytes() != original


def test_extra_formats(inputs, tmp_path):
    out = tmp_path / "out"
    res = invoke("fix", inputs / "flyer.svg", "--out", out, "--formats", "png,pdf", "--max-steps", "2")
    assert res.exit_code == 0, res.output
    assert (out / "flyer.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "flyer.pdf").read_bytes()[:5] == b"%PDF-"


def test_lock_keeps_elements_unchanged(inputs, tmp_path):
    out, summary = tmp_path / "out", tmp_path / "s.json"
    free = tmp_path / "free.json"
    assert invoke("fix", inputs / "poster.svg", "--out", tmp_path / "o2", "--json", free).exit_code == 0
    changed_free = set(_summary(free)["files"][0]["changes"])
    assert changed_free, "the poster example should need edits"
    lock = sorted(changed_free)[:2]
    res = invoke("fix", inputs / "poster.svg", "--out", out, "--json", summary,
                 *[x for i in lock for x in ("--lock", i)])
    assert res.exit_code == 0, res.output
    f = _summary(summary)["files"][0]
    assert not set(f["changes"]) & set(lock)
    from assistant.importer import import_svg

    a, b = import_svg(inputs / "poster.svg").layout, import_svg(out / "poster.svg").layout
    for i in lock:
        assert b.get(i).box.as_tuple() == pytest.approx(a.get(i).box.as_tuple(), abs=1e-6)


def test_lock_of_unknown_id_fails_that_file(inputs, tmp_path):
    res = invoke("fix", inputs / "poster.svg", "--out", tmp_path / "out", "--lock", "no-such-id")
    assert res.exit_code == 1
    assert "no-such-id" in res.output


def test_min_score_exit_codes(inputs, tmp_path):
    assert invoke("fix", inputs, "--out", tmp_path / "a", "--min-score", "0.1").exit_code == 0
    res = invoke("fix", inputs, "--out", tmp_path / "b", "--min-score", "0.999", "--max-steps", "0")  # unfixed
    assert res.exit_code == 1
    assert "below --min-score" in res.output


def test_planner_options_reach_the_planner(inputs, tmp_path):
    summary = tmp_path / "s.json"
    res = invoke("fix", inputs / "poster.svg", "--out", tmp_path / "out", "--json", summary,
                 "-O", "min_gain=1.0", "--planner-option", "beam_width=0")
    assert res.exit_code == 0, res.output
    (f,) = _summary(summary)["files"]
    assert f["edits"] == [] and f["stopped"] == "finalize"  # no edit gains 1.0


def test_max_steps_zero_changes_nothing(inputs, tmp_path):
    summary = tmp_path / "s.json"
    assert invoke("fix", inputs, "--out", tmp_path / "out", "--max-steps", "0", "--json", summary).exit_code == 0
    for f in _summary(summary)["files"]:
        assert f["edits"] == [] and f["score_after"] == f["score_before"]


def test_glob_pattern(inputs, tmp_path):
    res = invoke("fix", str(inputs / "po*.svg"), "--out", tmp_path / "out")
    assert res.exit_code == 0
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["poster.svg"]
    res = invoke("fix", str(inputs / "zz*.svg"), "--out", tmp_path / "out")
    assert res.exit_code == 1 and "matches no files" in res.output


def test_parallel_and_serial_agree(inputs, tmp_path):
    s1, s2 = tmp_path / "1.json", tmp_path / "2.json"
    assert invoke("fix", inputs, "--out", tmp_path / "o1", "--jobs", "1", "--json", s1).exit_code == 0
    assert invoke("fix", inputs, "--out", tmp_path / "o2", "--jobs", "2", "--json", s2).exit_code == 0

    def strip(d: dict) -> list:
        return [(f["source"], f["score_after"], [e["action"] for e in f["edits"]]) for f in d["files"]]

    assert strip(_summary(s1)) == strip(_summary(s2))
    assert _snapshot(tmp_path / "o1") == _snapshot(tmp_path / "o2")


def test_instruction_is_followed_or_reported(inputs, tmp_path):
    summary = tmp_path / "s.json"
    res = invoke("fix", inputs / "poster.svg", "--out", tmp_path / "out", "--json", summary,
                 "--instruction", "logo top right, frobnicate the llama")
    assert res.exit_code == 0, res.output
    f = _summary(summary)["files"][0]
    assert "instruction_fit" in f["metrics_after"]
    assert f["metrics_after"]["instruction_fit"] >= f["metrics_before"]["instruction_fit"]
    assert any("frobnicate" in p for p in f["not_understood"])


def test_console_script_runs_for_real(inputs, tmp_path):
    script = Path(sys.executable).parent / "layout-assistant"
    if not script.exists():
        pytest.skip("console script not installed (pip install -e .)")
    proc = subprocess.run([str(script), "fix", str(inputs / "flyer.svg"), "--out", str(tmp_path / "out"),
                           "--max-steps", "3"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "flyer.svg: " in proc.stdout and (tmp_path / "out" / "flyer.svg").exists()
    proc = subprocess.run([str(script), "fix", str(inputs), "--in-place", "--out", str(tmp_path / "x")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "conflict" in proc.stderr


def _unprivileged_runner():
    """A command prefix that drops root to 'nobody' (None when not root or no setpriv)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return None
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]


def test_permission_errors_for_real_as_an_unprivileged_user():
    """Unreadable input and unwritable output folder, checked as a user that permissions bind."""
    prefix = _unprivileged_runner()
    script = Path(sys.executable).parent / "layout-assistant"
    if prefix is None or not script.exists():
        pytest.skip("needs root (to drop to 'nobody') and the installed console script")
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="la-perm-"))
    try:
        base.chmod(0o777)
        src, out, ro = base / "in", base / "out", base / "ro"
        src.mkdir()
        ro.mkdir()
        for name in ("poster.svg", "flyer.svg"):
            shutil.copy(EXAMPLES / name, src / name)
        (src / "poster.svg").chmod(0)
        for p in (src, ro):
            p.chmod(0o555)
        (src / "flyer.svg").chmod(0o444)
        env = dict(os.environ, HOME=str(base))

        def run(*a: object) -> subprocess.CompletedProcess[str]:
            return subprocess.run([*prefix, str(script), *map(str, a)], capture_output=True, text=True,
                                  timeout=300, env=env, cwd=str(base))

        proc = run("fix", src, "--out", out, "--max-steps", "2", "--jobs", "1")
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert "poster.svg: FAILED" in proc.stdout and "ermission denied" in proc.stdout
        assert (out / "flyer.svg").exists()
        proc = run("fix", src / "flyer.svg", "--out", ro, "--max-steps", "2")
        assert proc.returncode == 2 and "not writable" in proc.stderr
        proc = run("fix", src / "flyer.svg", "--out", ro / "sub", "--max-steps", "2")
        assert proc.returncode == 2 and "cannot create output folder" in proc.stderr
    finally:
        for p in base.rglob("*"):
            p.chmod(0o755)
        shutil.rmtree(base)


def test_a_fully_locked_file_says_why_it_got_no_edits(inputs, tmp_path):
    from assistant.importer import import_svg

    ids = [e.id for e in import_svg(inputs / "poster.svg").layout.elements]
    summary = tmp_path / "s.json"
    res = invoke("fix", inputs / "poster.svg", "--out", tmp_path / "out", "--json", summary,
                 *[x for i in ids for x in ("--lock", i)])
    assert res.exit_code == 0, res.output
    assert f"0 edits: all {len(ids)} elements are locked" in " ".join(res.output.split())
    f = _summary(summary)["files"][0]
    assert f["edits"] == [] and f["locked"] == f["elements"] == len(ids)
    # a file with something left to edit reports its edits as before
    res = invoke("fix", inputs / "poster.svg", "--out", tmp_path / "out2", "--lock", ids[-1])
    assert "are locked" not in res.output and " edit" in res.output
