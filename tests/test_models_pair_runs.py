"""Pairing two evaluated runs' episodes (``models.experiments.pair_runs``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.experiments.pair_runs import main, pair, read_episodes


def _write(path: Path, episodes: list[dict]) -> str:
    path.write_text("".join(json.dumps(e) + "\n" for e in episodes), encoding="utf-8")
    return str(path)


def _eps(policy: str, scores: dict[tuple[str, int], float], ids: str = "plain") -> list[dict]:
    return [{"policy": policy, "task": t, "seed": s, "composite": c, "ids": ids} for (t, s), c in scores.items()]


def test_policies_are_paired_by_task_seed_and_element_names(tmp_path: Path) -> None:
    keys = [("banner", s) for s in range(100, 112)]
    a = _eps("SFT", {k: 0.8 + 0.01 * i for i, k in enumerate(keys)}) + _eps("SFT", {keys[0]: 0.5}, ids="varied") \
        + _eps("GRPO", {keys[0]: 0.9})
    b = _eps("SFT", {k: 0.8 for k in keys[:10]}) + _eps("SFT", {("poster", 100): 0.7}, ids="varied") \
        + _eps("heuristic", {keys[0]: 0.95})
    rows, unpaired = pair(a, b)
    assert [(r["policy"], r["ids"], r["episodes"]) for r in rows] == [("SFT", "plain", 10)]
    r = rows[0]
    assert r["a"] == pytest.approx(0.845) and r["b"] == pytest.approx(0.8)
    assert r["difference"] == pytest.approx(0.045) and r["low"] <= r["difference"] <= r["high"]
    assert (r["better"], r["worse"]) == (9, 0)  # the first pair is level
    assert unpaired == ["SFT (varied ids): no episode in common", "GRPO: only in A", "heuristic: only in B"]


def test_the_command_writes_a_report_and_refuses_bad_files(tmp_path: Path, capsys) -> None:
    a = _write(tmp_path / "a.jsonl", _eps("SFT", {("banner", 100): 0.9, ("banner", 101): 0.8}))
    b = _write(tmp_path / "b.jsonl", _eps("SFT", {("banner", 100): 0.7, ("banner", 101): 0.8}))
    out = tmp_path / "PAIRED.md"
    assert main([a, b, "--names", "new", "old", "--out", str(out)]) == 0
    text = out.read_text()
    assert "| SFT | generators' names | 2 | 0.850 | 0.750 | +0.1000" in text and "| 1 / 0 |" in text
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"policy": "SFT", "task": "banner", "seed": 100, "composite": 0.5}) + "\n{oops\n")
    for path, problem in ((str(tmp_path / "none.jsonl"), "cannot read it"), (str(bad), "line 2 is not JSON"),
                          (_write(tmp_path / "x.jsonl", [{"policy": "SFT", "seed": 1}]), "no task, composite")):
        out.unlink(missing_ok=True)
        assert main([a, path, "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert path in err and problem in err and not out.exists()
    other = _write(tmp_path / "c.jsonl", _eps("GRPO", {("banner", 100): 0.7}))
    assert main([a, other]) == 1
    assert "share no policy's episodes" in capsys.readouterr().err
    assert main([a, _write(tmp_path / "e.jsonl", [])]) == 2
    assert "holds no episode" in capsys.readouterr().err


def test_two_evaluations_episode_files_pair_on_their_held_out_episodes(tmp_path: Path) -> None:
    """Files written by the evaluation (``models.eval.records.write_episodes``) pair policy by policy and element
    naming: the deterministic heuristic's identical episodes differ by nothing, a stage that gained gains in the
    table."""
    from models.eval.episodes import EpisodeResult, summarise
    from models.eval.records import write_episodes

    keys = [(task, seed) for task in ("banner", "poster", "slide") for seed in range(100, 132)]  # 96 episodes

    def rows(policy: str, shift: float, ids: str = "plain") -> dict[str, list]:
        eps = [EpisodeResult(policy, task, seed, 0.80 + 0.001 * (seed % 7) + shift + (0.002 if seed % 2 else 0.0),
                             1.0, 0.5, answers=3, parsed=3, valid=3, steps=3, ended="finalize")
               for task, seed in keys]
        return {ids: [summarise(policy, task, [e for e in eps if e.task == task]) for task in ("banner", "poster",
                                                                                                "slide")]}

    def run(path: Path, gain: float) -> str:
        plain = rows("heuristic", 0.1)["plain"] + rows("SFT", 0.0)["plain"] + rows("GRPO", gain)["plain"]
        return str(write_episodes(path, {"plain": plain, **rows("GRPO", gain / 2, ids="varied")}))

    a, b = run(tmp_path / "a.jsonl", 0.01), run(tmp_path / "b.jsonl", 0.0)
    got, unpaired = pair(read_episodes(a), read_episodes(b))
    by = {(r["policy"], r["ids"]): r for r in got}
    assert set(by) == {("heuristic", "plain"), ("SFT", "plain"), ("GRPO", "plain"), ("GRPO", "varied")}
    assert all(r["episodes"] == 96 for r in got) and unpaired == []
    assert by[("heuristic", "plain")]["difference"] == 0.0 and by[("SFT", "plain")]["better"] == 0
    assert by[("GRPO", "plain")]["difference"] == pytest.approx(0.01)
    assert by[("GRPO", "plain")]["low"] > 0 and by[("GRPO", "plain")]["better"] == 96
    assert by[("GRPO", "varied")]["difference"] == pytest.approx(0.005)
