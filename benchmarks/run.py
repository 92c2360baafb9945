"""Run every benchmark module and write BENCHMARKS.md.

Command: ``make bench`` (= ``python -m benchmarks.run --out BENCHMARKS.md``).
Each ``benchmarks/bench_*.py`` exposes ``run() -> list[dict]``; rows of one
module share keys and become one Markdown table. ``--only NAME`` re-runs a
subset and keeps the other sections of the existing file.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import os
import pkgutil
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

import benchmarks


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 1024 / 1024:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return f"{os.cpu_count()} cores ({cpu}){mem}, Python {platform.python_version()}, {platform.system()}"


def _table(rows: list[dict]) -> str:
    keys: list[str] = []
    for r in rows:
        for k in r:
            if k not in keys:
                keys.append(k)
    out = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    for r in rows:
        cells = []
        for k in keys:
            v = r.get(k, "")
            cells.append(f"{v:.3g}" if isinstance(v, float) else str(v))
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def _existing_sections(path: Path) -> dict[str, str]:
    """Sections of an earlier BENCHMARKS.md by module name (kept when ``--only`` re-runs a few)."""
    if not path.is_file():
        return {}
    out: dict[str, str] = {}
    for chunk in path.read_text().split("\n## ")[1:]:
        found = re.search(r"^_(bench_\w+), ", chunk, flags=re.M)
        if found:
            out[found.group(1)] = "## " + chunk.rstrip("\n") + "\n"
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks (all, or ``--only`` these) and write their sections to ``--out``; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="BENCHMARKS.md")
    ap.add_argument("--only", nargs="*", default=None, help="module names, e.g. bench_metrics")
    args = ap.parse_args(argv)

    names = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_"))
    if args.only:
        names = [n for n in names if n in args.only or n.removeprefix("bench_") in args.only]
    sections: dict[str, str] = _existing_sections(Path(args.out)) if args.only else {}
    cpu = _machine().split(",")[0]  # the cores and processor: sections kept by ``--only`` may come from another
    for name in names:
        mod = importlib.import_module(f"benchmarks.{name}")
        load = " / ".join(f"{v:.1f}" for v in os.getloadavg())
        t0 = time.perf_counter()
        rows = mod.run()
        took = time.perf_counter() - t0
        title = (mod.__doc__ or name).strip().splitlines()[0]
        sections[name] = (f"## {title}\n\n{_table(rows)}\n\n"
                          f"_{name}, {took:.1f} s, {dt.date.today().isoformat()}, {cpu}, load {load}_\n")
        print(f"{name}: {len(rows)} rows in {took:.1f} s", file=sys.stderr)
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = "?"
    head = (
        "# Benchmarks\n\n"
        f"Last written {dt.date.today().isoformat()} on {_machine()}, commit {commit}.\n"
        "Each section's footer gives its module, run time, date, processor and the load average (1/5/15 min)\n"
        "when it started. Regenerate with `make bench`.\n\n"
    )
    Path(args.out).write_text(head + "\n".join(sections[k] for k in sorted(sections)))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
