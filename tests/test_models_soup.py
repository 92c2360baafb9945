"""Model soups: the weighted mean of checkpoints of one model, and what is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
torch.set_num_threads(1)

from models.tiny import TextCodec, TinyConfig, make_model, save_checkpoint, train_tokenizer  # noqa: E402

TEXTS = ['{"type": "align", "ids": ["logo", "title"], "edge": "left"}', "move the logo 12 right"] * 20
CFG = TinyConfig(hidden_size=32, num_layers=2, num_heads=4, num_kv_heads=2, intermediate_size=64, max_positions=256)


@pytest.fixture(scope="module")
def codec() -> TextCodec:
    return TextCodec(train_tokenizer(TEXTS, 300))


def _ckpt(codec: TextCodec, path: Path, seed: int, cfg: TinyConfig = CFG) -> Path:
    return save_checkpoint(make_model(cfg, codec, seed=seed), codec, path)


def _state(path: Path) -> dict[str, torch.Tensor]:
    from safetensors.torch import load_file

    return load_file(str(path / "model.safetensors"))


def test_soup_is_the_weighted_mean_and_loads_as_a_model(codec: TextCodec, tmp_path: Path) -> None:
    from models.experiments.soup import soup
    from models.lm import load_lm

    a, b = _ckpt(codec, tmp_path / "a", 0), _ckpt(codec, tmp_path / "b", 1)
    sa, sb = _state(a), _state(b)
    assert any(not torch.equal(sa[k], sb[k]) for k in sa)  # two different models of one shape
    even = _state(soup([a, b], tmp_path / "even"))
    skew = _state(soup([a, b], tmp_path / "skew", weights=[3, 1]))
    for name in sa:
        assert torch.allclose(even[name], (sa[name] + sb[name]) / 2, atol=1e-7), name
        assert torch.allclose(skew[name], 0.75 * sa[name] + 0.25 * sb[name], atol=1e-7), name
    assert json.loads((tmp_path / "skew" / "soup.json").read_text())["shares"] == [0.75, 0.25]
    lm = load_lm(tmp_path / "even", device=torch.device("cpu"))
    assert lm.encode(TEXTS[0], bos=True) == codec.encode(TEXTS[0], bos=True)
    # the averaged weights are the model's: its logits are the soup's, not either input's
    got = dict(lm.model.named_parameters())["model.embed_tokens.weight"]
    assert torch.allclose(got, even["model.embed_tokens.weight"])
    # a soup of one model with itself is that model
    same = _state(soup([a, a], tmp_path / "same"))
    assert all(torch.allclose(same[k], sa[k], atol=1e-7) for k in sa)


def test_soup_refuses_checkpoints_of_other_models(codec: TextCodec, tmp_path: Path) -> None:
    from assistant.errors import ModelFileError
    from models.experiments.soup import soup

    a = _ckpt(codec, tmp_path / "a", 0)
    wider = _ckpt(codec, tmp_path / "wide", 0, TinyConfig(hidden_size=48, num_layers=2, num_heads=4, num_kv_heads=2,
                                                         intermediate_size=64, max_positions=256))
    with pytest.raises(ModelFileError, match="wide.*config.json differs"):
        soup([a, wider], tmp_path / "out")
    other_tok = _ckpt(TextCodec(train_tokenizer(["quite other words entirely"] * 20, 300)), tmp_path / "tok", 0)
    with pytest.raises(ModelFileError, match=r"tok: .*(config.json|tokenizer) differs"):
        soup([a, other_tok], tmp_path / "out")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelFileError, match="empty: not a checkpoint directory"):
        soup([a, tmp_path / "empty"], tmp_path / "out")
    broken = _ckpt(codec, tmp_path / "broken", 1)
    (broken / "model.safetensors").write_bytes(b"not weights")
    with pytest.raises(ModelFileError, match="broken/model.safetensors: not readable safetensors"):
        soup([a, broken], tmp_path / "out")
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.tmp").exists()  # nothing written


def test_soup_refuses_bad_shares_and_outputs(codec: TextCodec, tmp_path: Path) -> None:
    from assistant.errors import ModelFileError
    from models.experiments.soup import soup

    a, b = _ckpt(codec, tmp_path / "a", 0), _ckpt(codec, tmp_path / "b", 1)
    with pytest.raises(ValueError, match="at least two checkpoints"):
        soup([a], tmp_path / "out")
    with pytest.raises(ValueError, match="3 weights for 2 checkpoints"):
        soup([a, b], tmp_path / "out", weights=[1, 1, 1])
    with pytest.raises(ValueError, match="above 0"):
        soup([a, b], tmp_path / "out", weights=[1, 0])
    with pytest.raises(ValueError, match="finite"):
        soup([a, b], tmp_path / "out", weights=[1, float("inf")])
    with pytest.raises(ValueError, match="overwrite one of the checkpoints"):
        soup([a, b], a)
    work = tmp_path / "work"
    work.mkdir()
    (work / "notes.txt").write_text("mine")
    with pytest.raises(ModelFileError, match="work: exists and is not a checkpoint"):
        soup([a, b], work)
    assert (work / "notes.txt").read_text() == "mine"
    first = soup([a, b], tmp_path / "out")
    assert soup([a, b], first, weights=[1, 2]) == first  # its own output is replaced


def test_soup_command_names_the_problem_and_exits_non_zero(codec: TextCodec, tmp_path: Path, capsys) -> None:
    from models.experiments.soup import main

    a, b = _ckpt(codec, tmp_path / "a", 0), _ckpt(codec, tmp_path / "b", 1)
    main([str(a), str(b), "--out", str(tmp_path / "out")])
    assert "the mean of 2 checkpoints" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main([str(a), str(tmp_path / "missing"), "--out", str(tmp_path / "out2")])
    assert "missing: not a checkpoint directory" in str(exc.value.code)
    assert not (tmp_path / "out2").exists()
