"""Training curves as PNGs beside a report: SFT loss, GRPO reward, valid rate, KL and validation scores."""

from __future__ import annotations

import json
from pathlib import Path


def _moving_mean(xs: list[float], window: int) -> list[float]:
    """The mean of each value and the ``window - 1`` before it (fewer at the start)."""
    out, total = [], 0.0
    for i, x in enumerate(xs):
        total += x - (xs[i - window] if i >= window else 0.0)
        out.append(total / min(i + 1, window))
    return out


def plot_curves(run: Path, out_dir: Path) -> list[Path]:
    """Loss (SFT) and reward (GRPO) curves as PNGs; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    sft_log, grpo_log = run / "sft" / "log.jsonl", run / "grpo" / "log.jsonl"
    if sft_log.is_file():
        recs = [json.loads(x) for x in sft_log.read_text().splitlines() if x.strip()]
        tr = [r for r in recs if r.get("event") == "train"]
        va = [r for r in recs if r.get("event") == "val"]
        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.plot([r["step"] for r in tr], [r["loss"] for r in tr], label="train loss")
        ax.plot([r["step"] for r in va], [r["val_loss"] for r in va], "o-", label="validation loss")
        ax.set_xlabel("step"), ax.set_ylabel("cross-entropy (completion tokens)"), ax.set_yscale("log")
        ax.legend(), fig.tight_layout()
        written.append(out_dir / "eval_sft_loss.png")
        fig.savefig(written[-1], dpi=100)
        plt.close(fig)
    if grpo_log.is_file():
        every = [json.loads(x) for x in grpo_log.read_text().splitlines() if x.strip()]
        recs = [r for r in every if "event" not in r]  # one per step
        val = [r for r in every if r.get("event") == "val"]
        steps = [r["step"] for r in recs]
        panels = 3 + bool(val)
        fig, axes = plt.subplots(panels, 1, figsize=(6.5, 2.0 * panels), sharex=True)
        reward = [r["reward"] for r in recs]
        axes[0].plot(steps, reward, lw=0.6, alpha=0.5, label="mean reward")
        axes[0].plot(steps, _moving_mean(reward, 10), lw=2, label="10-step mean")
        axes[0].axhline(0, color="grey", lw=0.5), axes[0].set_ylabel("reward"), axes[0].legend(fontsize=8)
        axes[1].plot(steps, [r["valid_rate"] for r in recs], lw=0.8, label="valid rate (sampled)")
        axes[1].plot(steps, [r.get("premature_finalize_rate", 0.0) for r in recs], lw=0.8, label="premature finalize")
        axes[1].set_ylim(-0.02, 1.02), axes[1].set_ylabel("share"), axes[1].legend(fontsize=8)
        axes[2].plot(steps, [r["kl"] for r in recs], lw=0.8, color="tab:green")
        axes[2].set_ylabel("KL to reference")
        if val:
            axes[3].plot([r["step"] for r in val], [r["composite"] for r in val], "o-")
            axes[3].set_ylabel("validation\nfinal composite")
        for a, b in zip(recs, recs[1:]):  # the curriculum opening harder tasks
            if a.get("stage_tasks") != b.get("stage_tasks"):
                for ax in axes:
                    ax.axvline(b["step"], color="grey", ls=":", lw=0.8)
                opened = sorted(set(b.get("stage_tasks") or []) - set(a.get("stage_tasks") or []))
                axes[0].annotate(f"+{', '.join(opened)}",
                                 (b["step"], 1), xycoords=("data", "axes fraction"), fontsize=7, va="top")
        axes[-1].set_xlabel("GRPO step"), fig.tight_layout()
        written.append(out_dir / "eval_grpo_reward.png")
        fig.savefig(written[-1], dpi=100)
        plt.close(fig)
    return written
