r"""Mix SFT data directories into one: chosen kinds, sampled or repeated, shuffled with a seed.

Command (the data the bundled applicator's fourth training part used)::

    python -m models.experiments.mix --out runs/tiny4/mix \
        --train runs/tiny4/data:planner:x2 runs/tiny4/data:applicator runs/tiny3/data:applicator:6000 \
        --val runs/tiny4/dataval:all runs/tiny3/data:applicator:300

Each source is ``DIR[:KIND[:AMOUNT]]`` naming a ``models.data`` output
directory: ``KIND`` is ``planner``, ``applicator`` or ``all`` (the default);
``AMOUNT`` is ``N`` (a seeded sample of N records, without replacement) or
``xR`` (every record R times; ``x1`` is the default). ``--train`` sources
read the directory's ``train.jsonl``; ``--val`` sources read its
``val.jsonl``. The output directory gets ``train.jsonl`` and ``val.jsonl``
(shuffled), an empty ``test.jsonl`` and a ``stats.json`` with the counts, this
command and the commands its sources record (``made_by``: ``models.experiments.dagger``
output, another mix), so a run that trains on the mix can say what it trained on.
Held-out test seeds never enter: ``models.data`` keeps them out of every
train and validation file.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KINDS = ("planner", "applicator", "all")


@dataclass(frozen=True)
class Source:
    """One ``DIR[:KIND[:AMOUNT]]`` source (see the module docstring)."""

    path: Path
    kind: str = "all"
    sample: int | None = None
    repeat: int = 1

    @classmethod
    def parse(cls, spec: str) -> Source:
        """The source a ``DIR[:KIND[:N or xR]]`` spec names; ``ValueError`` when the spec is malformed."""
        parts = spec.split(":")
        if not parts[0] or len(parts) > 3:
            raise ValueError(f"bad source {spec!r}: expected DIR[:KIND[:N or xR]]")
        kind = parts[1] if len(parts) > 1 else "all"
        if kind not in KINDS:
            raise ValueError(f"bad source {spec!r}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
        sample, repeat = None, 1
        if len(parts) == 3:
            amount = parts[2]
            try:
                if amount.startswith("x"):
                    repeat = int(amount[1:])
                else:
                    sample = int(amount)
            except ValueError:
                raise ValueError(f"bad source {spec!r}: amount must be N or xR, got {amount!r}") from None
            if repeat < 1 or (sample is not None and sample < 1):
                raise ValueError(f"bad source {spec!r}: amount must be at least 1")
        return cls(Path(parts[0]), kind, sample, repeat)

    def records(self, split: str, rng: random.Random) -> list[dict[str, Any]]:
        """The source's records of ``split`` (``train`` or ``val``), filtered, sampled or repeated."""
        path = self.path / f"{split}.jsonl"
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such data file (is {self.path} a models.data output directory?)")
        out = []
        with path.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}:{n}: not a JSON record ({exc.msg})") from None
                if self.kind == "all" or rec.get("kind") == self.kind:
                    out.append(rec)
        if self.sample is not None:
            if self.sample > len(out):
                raise ValueError(f"{path}: asked for {self.sample} {self.kind} records, it has {len(out)}")
            out = rng.sample(out, self.sample)
        return out * self.repeat


def source_facts(sources: list[Source]) -> dict[str, Any]:
    """What the sources' ``stats.json`` files record, merged.

    The tasks (in first-seen order), per split the span of their seed ranges, and ``made_by``, the command
    of each source that records one (``models.experiments.dagger``, a mix).
    """
    tasks: list[str] = []
    ranges: dict[str, Any] = {}
    made_by: dict[str, str] = {}
    for s in sources:
        f = s.path / "stats.json"
        if f.is_file():
            st = json.loads(f.read_text())
            tasks += [t for t in st.get("tasks", []) if t not in tasks]
            for split, (lo, hi) in st.get("seed_ranges", {}).items():  # the span of every source's range
                have = ranges.get(split)
                ranges[split] = [min(lo, have[0]), max(hi, have[1])] if have else [lo, hi]
            if st.get("command"):
                made_by[str(s.path)] = st["command"]
    return {"tasks": tasks, "seed_ranges": ranges, "made_by": made_by}


def mix(out: Path, train: list[Source], val: list[Source], seed: int = 0,
        command: str = "") -> dict[str, Any]:
    """Write the mixed ``train.jsonl``, ``val.jsonl``, empty ``test.jsonl`` and ``stats.json`` under ``out``."""
    if not train:
        raise ValueError("at least one --train source is needed")
    stats: dict[str, Any] = {"command": command, "seed": seed, "splits": {}, **source_facts(train + val)}
    texts = {}
    for split, sources in (("train", train), ("val", val)):
        rng = random.Random(f"{seed}:{split}")
        records = [r for s in sources for r in s.records(split, rng)]
        rng.shuffle(records)
        counts = {"planner": 0, "applicator": 0}
        for r in records:
            counts[r.get("kind", "applicator")] = counts.get(r.get("kind", "applicator"), 0) + 1
        stats["splits"][split] = {**counts, "records": len(records)}
        texts[split] = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    out.mkdir(parents=True, exist_ok=True)  # written only once every source has been read
    for split, text in texts.items():
        (out / f"{split}.jsonl").write_text(text, encoding="utf-8")
    (out / "test.jsonl").write_text("", encoding="utf-8")
    (out / "stats.json").write_text(json.dumps(stats, indent=2), encoding="utf-8")
    return stats


def main(argv: list[str] | None = None) -> None:
    """Command line: mix the ``--train`` and ``--val`` sources into ``--out``; print each split's counts."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="output data directory")
    ap.add_argument("--train", nargs="+", required=True, metavar="SOURCE", help="DIR[:KIND[:N or xR]]")
    ap.add_argument("--val", nargs="*", default=[], metavar="SOURCE", help="DIR[:KIND[:N or xR]]")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    try:
        train = [Source.parse(s) for s in args.train]
        val = [Source.parse(s) for s in args.val]
        command = "python -m models.experiments.mix " + " ".join(
            shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv))
        stats = mix(Path(args.out), train, val, seed=args.seed, command=command)
    except (ValueError, FileNotFoundError) as exc:
        raise SystemExit(f"error: {exc}") from None
    print(json.dumps(stats["splits"]))


if __name__ == "__main__":
    main()
