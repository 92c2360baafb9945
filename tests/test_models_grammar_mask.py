"""``models.grammar_mask``: the runtime's action grammar masking a torch model's samples (GRPO under the grammar)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("llama_cpp")
torch.set_num_threads(1)

from assistant.env import LayoutEnv  # noqa: E402
from assistant.planners.grammar import within_grammar  # noqa: E402
from assistant.planners.local import DEFAULT_MODEL  # noqa: E402
from assistant.planners.modelstep import element_ids  # noqa: E402
from assistant.planners.prompting import format_target  # noqa: E402
from models.grammar_mask import GrammarMask, vocab_gguf_for  # noqa: E402
from models.grpo import GRPOConfig, train_grpo  # noqa: E402
from models.grpo_objective import sample_group  # noqa: E402
from models.grpo_rewards import planner_prompt  # noqa: E402
from models.lm import from_tiny  # noqa: E402
from models.tiny import TextCodec, TinyConfig, make_model, train_tokenizer  # noqa: E402

BUNDLED = DEFAULT_MODEL  # the bundled applicator, package data of the core


@pytest.fixture(scope="module")
def env() -> LayoutEnv:
    e = LayoutEnv("banner", max_steps=6)
    e.reset(seed=0, options={"task": "banner", "task_seed": 1000})
    return e


@pytest.fixture(scope="module")
def lm(env):
    """An untrained tiny model: what it samples without the grammar is noise."""
    text = planner_prompt(env) + format_target({"type": "finalize"})
    codec = TextCodec(train_tokenizer([text, '{"type":"move","ids":["x"],"dx":1,"dy":0}'], 400, min_frequency=1))
    cfg = TinyConfig(hidden_size=32, num_layers=1, num_heads=2, num_kv_heads=2, intermediate_size=64,
                     max_positions=2048)
    return from_tiny(make_model(cfg, codec, seed=0), codec)


def _tokens(mask: GrammarMask, text: str) -> list[int]:
    return mask._llm.tokenize(text.encode(), add_bos=False, special=False)


def test_the_grammar_allows_an_answer_token_by_token_and_ends_after_it(env) -> None:
    mask = GrammarMask(BUNDLED)
    ids = element_ids(env.document.layout)
    good = _tokens(mask, json.dumps({"type": "move", "ids": [ids[1]], "dx": 4, "dy": 0}, separators=(",", ":")))
    with mask.start(ids, 1) as states:
        for tok in good:
            allowed = states.allowed(0, np.zeros(mask.n_vocab, dtype=np.float32))
            assert allowed[tok] and not states.ended(allowed)
            assert allowed.sum() < mask.n_vocab  # the grammar rules tokens out at every step
            states.accept(0, tok)
        allowed = states.allowed(0, np.zeros(mask.n_vocab, dtype=np.float32))
        assert states.ended(allowed) and allowed[mask.eog].all()


def test_an_id_the_layout_does_not_have_is_masked(env) -> None:
    mask = GrammarMask(BUNDLED)
    bad = _tokens(mask, '{"type":"move","ids":["zzzz-not-there"]')
    with mask.start(element_ids(env.document.layout), 1) as states:
        k = 0  # tokens accepted before the refused one
        for tok in bad:
            allowed = states.allowed(0, np.zeros(mask.n_vocab, dtype=np.float32))
            if not allowed[tok]:
                break
            states.accept(0, tok)
            k += 1
        else:
            pytest.fail("the grammar let an unknown id through")
    assert '"ids":["' in mask._llm.detokenize(bad[:k]).decode()  # refused inside the id, not before


def test_an_untrained_model_samples_only_grammatical_answers_under_the_mask(tmp_path: Path, lm, env) -> None:
    ids = element_ids(env.document.layout)
    prompt = planner_prompt(env)
    gen = torch.Generator().manual_seed(0)
    free = sample_group(lm, prompt, 6, temperature=1.0, max_new_tokens=80, generator=gen)
    assert not any(within_grammar(lm.decode(c), ids) for c in free)  # noise without the grammar
    mask = GrammarMask(vocab_gguf_for(lm, tmp_path / "vocab"))
    assert mask.n_vocab == len(lm.codec.tokenizer.get_vocab())
    with mask.start(ids, 6) as states:
        comps = sample_group(lm, prompt, 6, temperature=1.0, max_new_tokens=200, generator=gen, grammar=states)
    texts = [lm.decode(c) for c in comps]
    assert all(within_grammar(t, ids) for t in texts), texts
    assert all(lm.eos_id not in c for c in comps)  # the forced end token is not part of the completion


def test_grpo_under_the_grammar_samples_valid_answers(tmp_path: Path, lm) -> None:
    cfg = GRPOConfig(out=str(tmp_path / "grpo"), tasks=("banner",), steps=2, states_per_step=2, group_size=3,
                     max_depth=0, max_new_tokens=200, save_every=5, temperature=1.0, grammar=True)
    train_grpo(cfg, lm=lm)
    log = [json.loads(x) for x in (tmp_path / "grpo" / "log.jsonl").read_text().splitlines() if '"event"' not in x]
    assert (tmp_path / "grpo" / "vocab" / "vocab.gguf").is_file()
    # an untrained model's answers all parse as actions of the layout's elements (whether the environment then
    # accepts each is its judgement of the edit), also after an update
    assert len(log) == 2 and all(r["parsed_rate"] == 1.0 and r["valid_rate"] > 0.0 for r in log)
    plain = GRPOConfig(**{**cfg.__dict__, "out": str(tmp_path / "plain"), "grammar": False, "max_new_tokens": 40})
    train_grpo(plain, lm=lm)
    log = [json.loads(x) for x in (tmp_path / "plain" / "log.jsonl").read_text().splitlines() if '"event"' not in x]
    assert log[0]["parsed_rate"] == log[0]["valid_rate"] == 0.0


def test_a_missing_grammar_vocabulary_is_named_before_anything_is_written(tmp_path: Path, lm) -> None:
    from assistant.errors import ModelFileError

    with pytest.raises(ModelFileError, match="none.gguf"):
        train_grpo(GRPOConfig(out=str(tmp_path / "g"), grammar=True, grammar_vocab=str(tmp_path / "none.gguf")), lm=lm)
    assert not (tmp_path / "g").exists()
