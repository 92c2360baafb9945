"""``models.experiments.mix``: mixing SFT data directories by kind, sample and repeat, and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.experiments.continue_sft import data_command
from models.experiments.mix import Source, main, mix


def _records(kind: str, n: int, tag: str) -> list[dict]:
    return [{"kind": kind, "messages": [{"role": "user", "content": f"{tag} {i}"}], "meta": {"i": i}}
            for i in range(n)]


def _data_dir(path: Path, planner: int, applicator: int, tag: str) -> Path:
    path.mkdir(parents=True)
    (path / "stats.json").write_text(json.dumps({"tasks": ["poster", tag], "seed_ranges": {"train": [1000, 10000]}}))
    for split, scale in (("train", 1), ("val", 0.5)):
        recs = _records("planner", int(planner * scale), f"{tag}-{split}-p") + \
            _records("applicator", int(applicator * scale), f"{tag}-{split}-a")
        (path / f"{split}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def _read(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def test_sources_parse_kind_sample_and_repeat() -> None:
    assert Source.parse("d") == Source(Path("d"), "all", None, 1)
    assert Source.parse("d:planner:x3") == Source(Path("d"), "planner", None, 3)
    assert Source.parse("d:applicator:25") == Source(Path("d"), "applicator", 25, 1)
    for bad, why in (("d:teacher", "kind must be one of"), ("d:all:lots", "amount must be N or xR"),
                     ("d:all:x0", "at least 1"), (":all", "expected DIR"), ("d:all:3:4", "expected DIR")):
        with pytest.raises(ValueError, match=why):
            Source.parse(bad)


def test_mix_filters_samples_repeats_and_shuffles_deterministically(tmp_path: Path) -> None:
    a = _data_dir(tmp_path / "a", planner=10, applicator=40, tag="a")
    b = _data_dir(tmp_path / "b", planner=6, applicator=30, tag="b")
    train = [Source.parse(f"{a}:planner:x2"), Source.parse(f"{b}:applicator:12")]
    val = [Source.parse(f"{a}:all")]
    stats = mix(tmp_path / "m", train, val, seed=3, command="python -m models.experiments.mix …")
    assert stats["tasks"] == ["poster", "a", "b"] and stats["seed_ranges"] == {"train": [1000, 10000]}
    recs = _read(tmp_path / "m" / "train.jsonl")
    assert stats["splits"]["train"] == {"planner": 20, "applicator": 12, "records": 32}
    texts = [r["messages"][0]["content"] for r in recs]
    assert sorted(t for t in texts if t.startswith("a-")) == sorted([f"a-train-p {i}" for i in range(10)] * 2)
    chosen = [t for t in texts if t.startswith("b-")]
    assert len(set(chosen)) == 12 and all(t.startswith("b-train-a ") for t in chosen)
    assert texts != sorted(texts)  # shuffled
    assert len(_read(tmp_path / "m" / "val.jsonl")) == 25 and (tmp_path / "m" / "test.jsonl").read_text() == ""
    mix(tmp_path / "m2", train, val, seed=3)
    assert (tmp_path / "m2" / "train.jsonl").read_text() == (tmp_path / "m" / "train.jsonl").read_text()
    mix(tmp_path / "m3", train, val, seed=4)
    assert (tmp_path / "m3" / "train.jsonl").read_text() != (tmp_path / "m" / "train.jsonl").read_text()


def test_cli_records_its_command_for_the_run_notes(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    a = _data_dir(tmp_path / "a", planner=4, applicator=8, tag="a")
    main(["--out", str(tmp_path / "m"), "--train", f"{a}:planner", "--val", f"{a}:applicator:2"])
    assert json.loads(capsys.readouterr().out)["train"] == {"planner": 4, "applicator": 0, "records": 4}
    note = data_command(tmp_path / "m")
    assert note == (f" (made by `python -m models.experiments.mix --out {tmp_path / 'm'} --train {a}:planner "
                    f"--val {a}:applicator:2`)")


def test_notes_name_how_each_source_with_a_command_was_made(tmp_path: Path) -> None:
    """A source made by a command (``models.experiments.dagger``, another mix) is named with it in the run notes."""
    a = _data_dir(tmp_path / "a", planner=4, applicator=8, tag="a")
    d = _data_dir(tmp_path / "d", planner=3, applicator=3, tag="d")
    stats = json.loads((d / "stats.json").read_text())
    (d / "stats.json").write_text(json.dumps({**stats, "command": "python -m models.experiments.dagger --out d",
                                              "seed_ranges": {"train": [2000, 2030]}}))
    (a / "stats.json").write_text(json.dumps({"tasks": ["poster"], "seed_ranges": {
        "train": [1000, 10000], "val": [500, 1000], "test": [100, 500]}}))
    main(["--out", str(tmp_path / "m"), "--train", f"{d}:planner:x2", f"{a}:planner"])
    stats = json.loads((tmp_path / "m" / "stats.json").read_text())
    assert stats["made_by"] == {str(d): "python -m models.experiments.dagger --out d"}
    # every source's seed range is within the span, whichever source comes first
    assert stats["seed_ranges"] == {"train": [1000, 10000], "val": [500, 1000], "test": [100, 500]}
    assert data_command(tmp_path / "m").endswith(f"; `{d}` by `python -m models.experiments.dagger --out d`)")


def test_bad_sources_fail_before_anything_is_written(tmp_path: Path) -> None:
    a = _data_dir(tmp_path / "a", planner=4, applicator=8, tag="a")
    out = tmp_path / "m"
    with pytest.raises(SystemExit, match=r"asked for 50 applicator records, it has 8"):
        main(["--out", str(out), "--train", f"{a}:planner", f"{a}:applicator:50"])
    with pytest.raises(SystemExit, match=r"missing.*no such data file"):
        main(["--out", str(out), "--train", f"{tmp_path / 'missing'}"])
    (a / "val.jsonl").write_text('{"kind": "planner"}\nnot json\n')
    with pytest.raises(SystemExit, match=r"val.jsonl:2: not a JSON record"):
        main(["--out", str(out), "--train", f"{a}", "--val", f"{a}"])
    assert not out.exists()
