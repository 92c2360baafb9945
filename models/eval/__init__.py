"""Held-out evaluation of layout policies and of the applicator; writes a run's ``EVAL.md``.

Command::

    python -m models.eval --run runs/tiny --episodes 10          # the report: runs/tiny/EVAL.md

``--run`` is a pipeline run directory (``models.pipeline``) holding
``gguf/{base,sft,grpo}.gguf`` (or, for a pretrained base trained with LoRA,
``gguf/base.gguf`` and the adapters ``gguf/{sft,grpo}.lora.gguf``, which
llama.cpp applies over it) and the SFT/GRPO logs. Test seeds come from
``models.data.SEED_RANGES["test"]`` (never trained on).

**Policy table** — per policy × task, over the held-out episodes: final
composite, instruction fit, *gap closed* ``1 − gap_remaining`` (the
environment's share of the potential gap between the broken start and the
task's clean layout that was closed; 1 = reached the clean layout's quality),
well-formed rate (answers that parse as an action of the schema — what a
grammar guarantees), valid-action rate (answers the environment accepted:
ids exist, nothing locked moved, boxes stay on the canvas …), premature-finalize
rate (episodes ended by a finalize the environment calls premature), how the
episodes ended (a no-op, an answer that was not a valid action, ``finalize``,
or the step limit: shares in that order), steps, and milliseconds per
decision. Policies: random valid actions, the heuristic teacher, the base
model (the untrained ``tiny`` initialisation, grammar-constrained), SFT, GRPO,
GRPO under the runtime grammar (as the ``local`` planner decodes), and GRPO
with verification (best of K by simulation: the greedy answer and sampled
ones until K different edits are in — a repeat is drawn again at a rising
temperature, at most 3K draws —, all under the grammar as ``local --samples K``
decodes; each edit is tried on a copy of the environment and the one with the
highest reward is taken, finalize when none improves), and the same with each
answer also tried with its amounts scaled (``GRPO + verify + tuned amounts``:
``assistant.planners.modelstep.amount_variants``, what the runtime planners do
by default). A greedy model episode
stops when an answer leaves the state unchanged (invalid or no-op): greedy
decoding would repeat it.

**Applicator table** — on held-out plain-language requests (generated from
actions on the test tasks' layouts, ``models.requests``): *edit accuracy* (the
predicted action moves every element to the same box as the target action,
within 0.5 world units, or equals it exactly), exact match, valid rate, and
*collateral damage* (elements the prediction changed that the target did not
change, as a share of all elements the target left alone), and the median
milliseconds per request (the median, so that a few requests stalled by other
work on a shared machine do not decide it).

**Comparisons** — the targets that compare two policies ("SFT beats base",
"GRPO beats SFT", "GRPO + verification ≥ heuristic") pair their episodes
(same task, same seed, so the same broken layout) and give the mean
difference of final composites with a 95 % bootstrap interval; "beats" is met
only when the interval lies above zero (``within noise`` when the mean favours
it but the interval holds zero). Forty-eight episodes tell apart differences of
about 0.015; the greedy stages differ by less. ``more_episodes`` (``--more-episodes``)
plays the greedy stages (base, SFT, GRPO) on that many further held-out seeds
per task, right after the table's, and "SFT beats base" and "GRPO beats SFT"
then pair the table's episodes and those together (the report shows them in
their own table). Every episode's result is written beside the report
(``eval_episodes.jsonl``).

Modules: :mod:`models.eval.episodes` (policies played on held-out tasks and files),
:mod:`models.eval.applicator` (plain-language requests answered), :mod:`models.eval.stats` (paired
differences and their bootstrap intervals), :mod:`models.eval.tables` (the report's tables and targets),
:mod:`models.eval.plots` (training curves), :mod:`models.eval.records` (episode files written, read back
and reused), :mod:`models.eval.run` (a pipeline run's whole report) and :mod:`models.eval.cli` (the
command).
"""
