"""The evaluation's command: a pipeline run's report on held-out seeds.

Command::

    python -m models.eval --run runs/tiny --episodes 10          # the report: runs/tiny/EVAL.md
"""

from __future__ import annotations

import argparse
from pathlib import Path

from models.eval.run import evaluate_run


def main(argv: list[str] | None = None) -> None:
    """Command line: evaluate a pipeline run and write its report (:func:`evaluate_run`); errors exit with a message."""
    ap = argparse.ArgumentParser(prog="python -m models.eval",
                                 description="Evaluate policies and the applicator on held-out seeds.")
    ap.add_argument("--run", default="runs/tiny", help="pipeline run directory")
    ap.add_argument("--out", default=None, help="Markdown report (default: RUN/EVAL.md); episodes and plots beside it")
    ap.add_argument("--episodes", type=int, default=10, help="held-out seeds per task")
    ap.add_argument("--max-steps", type=int, default=12)
    ap.add_argument("--verify-samples", type=int, default=4)
    ap.add_argument("--requests-per-layout", type=int, default=6)
    ap.add_argument("--more-episodes", type=int, default=0,
                    help="further held-out seeds per task on which the greedy stages (base, SFT, GRPO) are "
                         "played and compared as well")
    ap.add_argument("--previous", default=None, metavar="EPISODES",
                    help="an earlier report's eval_episodes.jsonl: the base and SFT rows come from it when their "
                         "model files are not in the run (checked by re-running the heuristic)")
    args = ap.parse_args(argv)
    try:
        evaluate_run(args.run, args.out or Path(args.run) / "EVAL.md", episodes=args.episodes, max_steps=args.max_steps,
                     verify_samples=args.verify_samples, applicator_per_layout=args.requests_per_layout,
                     previous=args.previous, more_episodes=args.more_episodes)
    except (ValueError, OSError) as exc:
        raise SystemExit(f"models.eval: {exc}") from exc
