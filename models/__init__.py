"""Training pipeline for the local layout model (heuristic → SFT → GRPO → GGUF → evaluation).

Kept import-light on purpose: torch, transformers, peft, tokenizers and gguf are
imported only by the submodules that need them (``models.tiny``, ``models.sft``,
``models.grpo``, ``models.export_gguf``, ...). Start with ``python -m models.pipeline --help``.
"""
