"""One-off experiment tools around the training pipeline: comparisons, data collections, continued runs.

Each answers a question about a trained model or a recipe and writes its report under ``runs/``; none is
a stage of ``python -m models.pipeline``, and the pipeline never imports them (an import-linter contract,
``docs/importlinter-models.toml``). What they found, run by run: ``docs/experiments.md``.

- ``compare``: planners (or applicators) paired on the same held-out episodes, with 95 % intervals;
- ``pair_runs``: two evaluations' episode files paired policy by policy;
- ``fixcopy``: how often a model's answers copy a fix its prompt suggests;
- ``dagger``: states a model reaches, labelled by a teacher (DAgger data);
- ``mix``: training data mixed from several data directories;
- ``continue_sft``: a finished run's SFT continued, then GRPO, export and evaluation;
- ``adapter_round``: SFT then GRPO of a LoRA adapter in one process, the base loaded once;
- ``soup``: the mean of several checkpoints' weights.

Start with ``python -m models.experiments.compare --help``.
"""
