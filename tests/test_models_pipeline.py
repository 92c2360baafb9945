"""The whole pipeline on the miniature configuration: data → tokenizer → SFT → GRPO → GGUF → eval."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("llama_cpp")


@pytest.mark.slow
def test_mini_pipeline_end_to_end(tmp_path: Path) -> None:
    import torch

    from models.pipeline import config, run_pipeline

    torch.set_num_threads(1)
    cfg = config("mini")
    cfg.run = str(tmp_path / "mini")
    cfg.data.out = str(tmp_path / "mini" / "data")
    result = run_pipeline(cfg)
    run = Path(cfg.run)
    for name in ("base", "sft", "grpo", "grpo-q8_0"):
        assert (run / "gguf" / f"{name}.gguf").stat().st_size > 0
    report = Path(result["report"]).read_text()
    for policy in ("random", "heuristic", "base (grammar)", "SFT", "GRPO", "GRPO + verify"):
        assert f"| {policy}" in report
    assert "## Applicator" in report and (run / "eval_sft_loss.png").is_file()
    assert result["sft_best"]["step"] > 0
