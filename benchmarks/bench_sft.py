"""SFT speed on the tiny model: examples and tokens a second, each example run whole or its shared prompt once.

``make train-tiny``'s kind of data in miniature (``models.data``: 30 heuristic episodes and 5 requests on each of
300 further layouts, half renamed), its tokenizer size and its model (4 layers, width 128), trained for a few
steps of 12 examples on two torch threads, as ``make train-tiny`` trains: every example run whole (``shared
prefix`` 0), and the requests about one layout trained as one group whose shared prompt is run once
(``models.sft.prefix_groups``, the default). The loss and gradients are the same either way.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

STEPS = 30
BATCH = 12


def run() -> list[dict]:
    """One row each for prompts run whole and shared once: examples and tokens a second (see the module docstring)."""
    import torch

    from models import data as data_mod
    from models.configs import config
    from models.data import DataConfig
    from models.lm import from_tiny
    from models.sft import encode_records, grouped_loss_sum, load_jsonl, prefix_groups
    from models.tiny import TextCodec, make_model, train_tokenizer

    torch.set_num_threads(2)
    tiny = config("tiny")
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "data"
        data_mod.generate(DataConfig(out=str(out), train_episodes=30, val_episodes=0, test_episodes=0, max_steps=8,
                                     synthetic_per_state=1, applicator_layouts=300, requests_per_layout=5,
                                     time_budget=8.0, varied_ids=0.5))
        codec = TextCodec(train_tokenizer(data_mod.iter_texts([out / "train.jsonl"]), tiny.vocab_size))
        for share in (0.0, tiny.sft.shared_prefix):
            lm = from_tiny(make_model(tiny.model, codec, seed=0), codec)
            train, _ = encode_records(lm, load_jsonl(out / "train.jsonl"), 2048)
            groups = prefix_groups(train, share=share, max_group=tiny.sft.max_group)
            order = list(range(len(groups)))
            random.Random(0).shuffle(order)
            opt = torch.optim.AdamW(lm.model.parameters(), lr=1e-3)
            lm.model.train()
            examples = tokens = 0
            elapsed = 0.0
            for step in range(STEPS + 1):  # the first step warms up and is not timed
                picked = []
                while sum(len(idx) for idx, _ in picked) < BATCH:
                    picked.append(groups[order.pop()])
                t0 = time.perf_counter()
                summed, _, total = grouped_loss_sum(lm.model, train, picked, lm.pad_id, lm.device)
                opt.zero_grad(set_to_none=True)
                (summed / max(total, 1)).backward()
                opt.step()
                if step:
                    elapsed += time.perf_counter() - t0
                    examples += sum(len(idx) for idx, _ in picked)
                    tokens += sum(len(train[i][0]) - (shared if k else 0)
                                  for idx, shared in picked for k, i in enumerate(idx))
            whole = sum(len(ids) for ids, _ in train)
            run_tokens = whole - sum(shared * (len(idx) - 1) for idx, shared in groups)
            rows.append({"prompts": "shared once" if share else "each whole", "train examples": len(train),
                         "groups of 2+": sum(len(idx) > 1 for idx, _ in groups),
                         "tokens an epoch": run_tokens, "s/step": elapsed / STEPS,
                         "examples/s": examples / elapsed, "tokens run/s": tokens / elapsed})
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
