r"""Pair two evaluated runs episode by episode: is run A's policy better than run B's, beyond the noise?

Command (the ``tiny`` configuration with shared-prompt SFT against the run before it)::

    python -m models.experiments.pair_runs runs/tiny37/eval_episodes.jsonl runs/tiny36/eval_episodes.jsonl \
        --names tiny37 tiny36 --out runs/tiny37/PAIRED.md

Each argument is an evaluation's episodes file (``eval_episodes.jsonl``, written by ``models.eval``; a
``compare_episodes.jsonl`` of ``models.experiments.compare`` reads the same). Every policy that both files
hold, with the same element names (``ids``: the generators' or renamed), is paired by task and seed — both
runs started from the same broken layout and brief — and gets the mean difference of final composites A − B
with a 95 % bootstrap interval (``models.eval.stats.paired_difference``) and how many episodes went each way.
A policy only one file holds, or with no episode in common, is listed as not paired. A file that is missing
or not an episodes file is named, with the line that is wrong, and nothing is written.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from assistant.errors import ModelFileError

#: Fields every episode line must have.
REQUIRED = ("policy", "task", "seed", "composite")


def read_episodes(path: str | Path) -> list[dict[str, Any]]:
    """The episodes of one file; ``ModelFileError`` naming the file (and line) when it cannot be one."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ModelFileError(str(p), f"cannot read it ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise ModelFileError(str(p), "not a text file of JSON lines") from exc
    episodes = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            ep = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ModelFileError(str(p), f"line {n} is not JSON ({exc.msg})") from exc
        missing = [k for k in REQUIRED if not isinstance(ep, dict) or k not in ep]
        if missing:
            raise ModelFileError(str(p), f"line {n} is not an evaluated episode (no {', '.join(missing)})")
        if not isinstance(ep["composite"], (int, float)) or isinstance(ep["composite"], bool):
            raise ModelFileError(str(p), f"line {n}: composite {ep['composite']!r} is not a number")
        episodes.append(ep)
    if not episodes:
        raise ModelFileError(str(p), "holds no episode")
    return episodes


def _by_policy(episodes: list[dict[str, Any]]) -> dict[tuple[str, str], dict[tuple[str, int], float]]:
    out: dict[tuple[str, str], dict[tuple[str, int], float]] = {}
    for ep in episodes:
        out.setdefault((ep["policy"], ep.get("ids", "plain")), {})[(ep["task"], ep["seed"])] = float(ep["composite"])
    return out


def pair(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """One row per policy and element naming both hold episodes of in common; and what could not be paired."""
    from models.eval.episodes import EpisodeResult, PolicyRow
    from models.eval.stats import paired_difference

    def row(name: str, eps: dict[tuple[str, int], float], keys: list[tuple[str, int]]) -> PolicyRow:
        details = [EpisodeResult(name, task, seed, eps[(task, seed)], 0.0, 0.0) for task, seed in keys]
        return PolicyRow(name, "all", len(details), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, details=details)

    mine, theirs = _by_policy(a), _by_policy(b)
    rows, unpaired = [], []
    for key in list(mine) + [k for k in theirs if k not in mine]:
        policy, ids = key
        label = f"{policy} ({ids} ids)" if ids != "plain" else policy
        if key not in mine or key not in theirs:
            unpaired.append(f"{label}: only in {'A' if key in mine else 'B'}")
            continue
        keys = sorted(set(mine[key]) & set(theirs[key]))
        if not keys:
            unpaired.append(f"{label}: no episode in common")
            continue
        mean, lo, hi, n = paired_difference(row(policy, mine[key], keys), row(policy, theirs[key], keys))
        diffs = [mine[key][k] - theirs[key][k] for k in keys]
        rows.append({"policy": policy, "ids": ids, "episodes": n,
                     "a": sum(mine[key][k] for k in keys) / n, "b": sum(theirs[key][k] for k in keys) / n,
                     "difference": mean, "low": lo, "high": hi,
                     "better": sum(d > 1e-9 for d in diffs), "worse": sum(d < -1e-9 for d in diffs)})
    return rows, unpaired


def report(rows: list[dict[str, Any]], unpaired: list[str], names: tuple[str, str], files: tuple[str, str]) -> str:
    """The Markdown table of :func:`pair`'s rows."""
    a, b = names
    lines = [f"# {a} against {b}, paired episode by episode", "",
             f"A = {a} (`{files[0]}`), B = {b} (`{files[1]}`); the same task and seed in both, 95 % bootstrap "
             "interval of the mean difference of final composites. Produced by `python -m models.experiments.pair_runs "
             f"{files[0]} {files[1]} --names {a} {b}`.", "",
             f"| policy | elements | episodes | {a} | {b} | difference | better / worse |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        elements = "generators' names" if r["ids"] == "plain" else "renamed" if r["ids"] == "varied" else r["ids"]
        lines.append(f"| {r['policy']} | {elements} | {r['episodes']} | {r['a']:.3f} | {r['b']:.3f} | "
                     f"{r['difference']:+.4f} ({r['low']:+.4f} … {r['high']:+.4f}) | {r['better']} / {r['worse']} |")
    if unpaired:
        lines += ["", "Not paired: " + "; ".join(unpaired) + "."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line: pair two episodes files and print or write the report; returns the exit status."""
    ap = argparse.ArgumentParser(description="Pair two evaluated runs' episodes and compare their policies.")
    ap.add_argument("a", help="run A's episodes file (eval_episodes.jsonl)")
    ap.add_argument("b", help="run B's episodes file")
    ap.add_argument("--names", nargs=2, default=("A", "B"), metavar=("A", "B"), help="what to call the two runs")
    ap.add_argument("--out", default=None, help="write the Markdown report here (default: print it)")
    args = ap.parse_args(argv)
    try:
        rows, unpaired = pair(read_episodes(args.a), read_episodes(args.b))
    except ModelFileError as exc:
        print(f"models.experiments.pair_runs: {exc}", file=sys.stderr)
        return 2
    if not rows:
        print(f"models.experiments.pair_runs: {args.a} and {args.b} share no policy's episodes; nothing to pair",
              file=sys.stderr)
        return 1
    text = report(rows, unpaired, tuple(args.names), (args.a, args.b))
    if args.out:
        out = Path(args.out)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(out)
        print(f"wrote {out}")
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
