"""Training pipeline for the local layout model (heuristic → SFT → GRPO → GGUF → evaluation).

The pipeline's stages are the modules here (``models.data``, ``models.tiny``, ``models.sft``,
``models.grpo``, ``models.export_gguf``, ``models.eval``, …), run end to end by ``models.pipeline``
with a named configuration (``models.configs``); the one-off experiment tools are in
``models.experiments``, which the pipeline never imports. Kept import-light on purpose: torch,
transformers, peft, tokenizers and gguf are imported only by the submodules that need them.
Start with ``python -m models.pipeline --help``; the guide is ``docs/training.md``.
"""
