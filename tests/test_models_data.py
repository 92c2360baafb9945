"""SFT data: seed splits, request phrasing, and records from real heuristic trajectories."""

from __future__ import annotations

import json
import random

import pytest

from assistant.actions import parse_action
from assistant.env.tasks import make_task, task_names
from assistant.planners.prompting import build_prompt, layout_text, parse_completion, render_record
from models.data import (
    SEED_RANGES,
    DataConfig,
    episode_records,
    extra_layouts,
    generate,
    ids_style,
    layout_records,
    main,
    parse_kind_weights,
    split_episodes,
    valid_on,
)
from models.requests import (
    KIND_WEIGHTS,
    MOVE_STEPS,
    describe,
    kind_weights,
    move_amounts,
    normalise_for_request,
    refer,
    request_for,
    synth_action,
)


@pytest.fixture(scope="module")
def poster():
    return make_task("poster", 3).broken


def test_seed_ranges_are_disjoint_and_splits_stay_inside() -> None:
    ranges = sorted(SEED_RANGES.values())
    assert all(a[1] <= b[0] for a, b in zip(ranges, ranges[1:]))
    tasks = task_names()
    for split in SEED_RANGES:
        lo, hi = SEED_RANGES[split]
        for _, seed in split_episodes(split, 40, tasks) + extra_layouts(split, 40, tasks):
            assert lo <= seed < hi
    with pytest.raises(ValueError):
        split_episodes("test", 10_000, tasks)


def test_requests_carry_the_action(poster) -> None:
    layout = poster.layout
    r = describe(normalise_for_request({"type": "anchor_to_region", "ids": ["logo"], "region": "top_right"}),
                 layout, random.Random(1))
    assert "logo" in r or "brand mark" in r or "logotype" in r
    assert any(w in r for w in ("top-right", "top right", "upper right"))
    move = normalise_for_request({"type": "move", "ids": ["title"], "dx": -10.4, "dy": 0.2})
    assert move == {"type": "move", "ids": ["title"], "dx": -10, "dy": 0}
    text = describe(move, layout, random.Random(0))
    assert "10px left" in text and "up" not in text and "down" not in text
    promote = normalise_for_request({"type": "promote", "id": "title", "factor": 1.31})
    assert promote["factor"] == 1.25


def test_synthetic_requests_are_varied_and_valid(poster) -> None:
    rng = random.Random(0)
    requests, types = set(), set()
    for _ in range(60):
        action = synth_action(poster.layout, rng)
        request, target = request_for(action, poster.layout, rng)
        requests.add(request)
        types.add(target["type"])
        parse_action(target)  # every target is a valid action
    assert len(requests) >= 50 and len(types) >= 6


def test_episode_records_from_heuristic_trajectory() -> None:
    cfg = DataConfig(max_steps=2, synthetic_per_state=1, time_budget=10.0)
    records = episode_records("banner", SEED_RANGES["train"][0], cfg, random.Random(0))
    kinds = {r["kind"] for r in records}
    assert kinds == {"planner", "applicator"}
    task = make_task("banner", SEED_RANGES["train"][0])
    first_app = next(r for r in records if r["kind"] == "applicator")
    prompt, completion = render_record(first_app)
    assert layout_text(task.broken.layout) in prompt
    for rec in records:
        json.dumps(rec)
        prompt, completion = render_record(rec)
        action = parse_completion(completion)
        parse_action(action)
        if rec["kind"] == "planner":
            assert prompt.startswith("### System") and "### Goal" in prompt
    # the first planner record's prompt is exactly what the runtime builds from the env
    from assistant.env import LayoutEnv

    env = LayoutEnv("banner", max_steps=cfg.max_steps + 1)
    env.reset(seed=SEED_RANGES["train"][0], options={"task": "banner", "task_seed": SEED_RANGES["train"][0]})
    planner0 = next(r for r in records if r["kind"] == "planner")
    assert render_record(planner0)[0] == build_prompt(env.observation_text(), env.instruction, kind="planner")


def _action_ids(action: dict) -> set[str]:
    return set(action.get("ids") or ([action["id"]] if action.get("id") else []))


def test_varied_ids_rename_the_elements_the_records_name() -> None:
    seed = SEED_RANGES["train"][0]
    cfg = DataConfig(max_steps=2, synthetic_per_state=1, time_budget=10.0, varied_ids=1.0)
    records = episode_records("banner", seed, cfg, random.Random(0))
    varied = {e.id for e in make_task("banner", seed, ids="varied").broken.layout.elements}
    plain = {e.id for e in make_task("banner", seed).broken.layout.elements}
    assert varied != plain
    assert records and all(r["meta"]["ids"] == "varied" for r in records)
    edits = [parse_completion(render_record(r)[1]) for r in records]
    named = set().union(*(_action_ids(a) for a in edits))
    assert named and named <= varied          # every edit names an element of the renamed layout
    prompt = render_record(records[0])[0]
    assert all(i in prompt for i in named & (varied - plain))
    layout = layout_records("poster", seed, 3, random.Random(0), ids="varied")
    assert layout and all(r["meta"]["ids"] == "varied" for r in layout)
    assert _action_ids(parse_completion(render_record(layout[0])[1])) <= {
        e.id for e in make_task("poster", seed, ids="varied").broken.layout.elements}


def test_ids_style_draws_a_seeded_share() -> None:
    pairs = [(t, SEED_RANGES["train"][0] + i) for t in task_names() for i in range(40)]
    half = [ids_style(DataConfig(varied_ids=0.5), t, s) for t, s in pairs]
    assert 0.35 < half.count("varied") / len(pairs) < 0.65
    assert half == [ids_style(DataConfig(varied_ids=0.5), t, s) for t, s in pairs]
    assert {ids_style(DataConfig(varied_ids=0.0), t, s) for t, s in pairs} == {"plain"}
    assert {ids_style(DataConfig(varied_ids=1.0), t, s) for t, s in pairs} == {"varied"}


def test_the_default_mix_is_the_evaluations_and_a_training_mix_shifts_it(poster) -> None:
    # the default draws exactly as before the mix could be set: the held-out requests stay the same
    a, b = random.Random(7), random.Random(7)
    for _ in range(40):
        assert synth_action(poster.layout, a) == synth_action(poster.layout, b, kind_weights())
    only = kind_weights({k: 0.0 for k in KIND_WEIGHTS if k != "distribute"})
    rng = random.Random(0)
    drawn = [synth_action(poster.layout, rng, only) for _ in range(30)]
    assert all(d["type"] == "distribute" and len(set(d["ids"])) == 3 for d in drawn)
    more = kind_weights({"distribute": 3.0, "align": 5.0})
    rng = random.Random(1)
    types = [synth_action(poster.layout, rng, more)["type"] for _ in range(600)]
    rng = random.Random(1)
    base = [synth_action(poster.layout, rng)["type"] for _ in range(600)]
    assert types.count("distribute") > 2 * base.count("distribute")
    assert types.count("align") > base.count("align")


def test_moves_go_any_distance_in_training_and_the_common_ones_in_the_evaluation(poster) -> None:
    # the evaluation's held-out requests are drawn exactly as in every earlier report
    from models.eval.applicator import applicator_cases

    assert [c["request"] for c in applicator_cases(["poster"], 2, 4)][:4] == [
        "Shift the heading 5px right", "please push the caption 50px down", "make the 'PIER 4, OLD' text fit",
        "Line up the top edges of the 'Zines, poetry, comics' text with the heading"]
    rng = random.Random(0)
    common = [move_amounts(rng, "common") for _ in range(300)]
    assert {abs(d) for pair in common for d in pair} <= {0, *MOVE_STEPS}
    rng = random.Random(0)
    anywhere = [move_amounts(rng, "any") for _ in range(2000)]
    steps = {abs(d) for pair in anywhere for d in pair} - {0}
    assert steps == set(range(1, 121))  # every distance, not only the common ones
    assert {(dx > 0, dy > 0) for dx, dy in anywhere if dx and dy} == {(True, True), (True, False), (False, True),
                                                                      (False, False)}
    rng = random.Random(0)
    mixed = [abs(d) for pair in (move_amounts(rng, "mixed") for _ in range(2000)) for d in pair if d]
    share = sum(d in MOVE_STEPS for d in mixed) / len(mixed)
    assert 0.5 < share < 0.7  # half from the common distances, and the uniform draws hit some of them too
    with pytest.raises(ValueError, match="unknown move amounts 'far'"):
        move_amounts(rng, "far")
    # synthetic requests say the distance, and the action is the distance said
    rng = random.Random(2)
    only_moves = kind_weights({k: float(k == "move") for k in KIND_WEIGHTS})
    for _ in range(30):
        action = synth_action(poster.layout, rng, only_moves, "any")
        text, target = request_for(action, poster.layout, rng)
        assert target == normalise_for_request(action)
        for key, (plus, minus) in (("dx", ("right", "left")), ("dy", ("down", "up"))):
            if action[key]:
                assert f"{abs(action[key])}px {plus if action[key] > 0 else minus}" in text
    moves = applicator_cases(["poster", "banner"], 2, 4, moves="any")
    assert len(moves) == 16 and {c["target"]["type"] for c in moves} == {"move"}
    assert any(abs(c["target"]["dx"]) not in (0, *MOVE_STEPS) for c in moves)


def test_training_data_can_move_by_any_distance(tmp_path, capsys) -> None:
    out = tmp_path / "data"
    generate(DataConfig(out=str(out), tasks=("poster",), train_episodes=1, val_episodes=0, test_episodes=0,
                        max_steps=1, synthetic_per_state=0, applicator_layouts=20, requests_per_layout=6,
                        kind_weights={k: float(k == "move") for k in KIND_WEIGHTS}, move_amounts="mixed"))
    answers = [json.loads(r["messages"][-1]["content"]) for r in map(json.loads, (out / "train.jsonl").open())
               if r["kind"] == "applicator"]
    distances = {abs(a[k]) for a in answers if a["type"] == "move" for k in ("dx", "dy")} - {0}
    assert distances - set(MOVE_STEPS) and distances & set(MOVE_STEPS)
    assert json.loads((out / "stats.json").read_text())["config"]["move_amounts"] == "mixed"
    assert DataConfig().move_amounts == "common"  # models.data on its own keeps the common distances
    from models.configs import config

    tiny = config("tiny")  # make train-tiny: moves of any distance, numbers read digit by digit
    assert (tiny.data.move_amounts, tiny.tokenizer_pre) == ("mixed", "starcoder")
    with pytest.raises(ValueError, match="move_amounts 'far' is not one of common, any, mixed"):
        generate(DataConfig(out=str(tmp_path / "bad"), train_episodes=1, move_amounts="far"))
    with pytest.raises(SystemExit) as exc:
        main(["--out", str(tmp_path / "bad"), "--move-amounts", "far"])
    assert exc.value.code == 2 and "--move-amounts" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()


def test_role_words_share_names_elements_by_their_words(poster) -> None:
    layout = poster.layout
    title = layout.get("title")
    assert title.text
    by_role = [refer(title, layout, random.Random(i)) for i in range(40)]
    by_words = [refer(title, layout, random.Random(i), role_words=0.0) for i in range(40)]
    assert sum("'" in r for r in by_role) < 20
    assert all(r.startswith("the '") for r in by_words)
    text, _ = request_for({"type": "promote", "id": "title", "factor": 1.25}, layout, random.Random(3), role_words=0.0)
    assert "'" + " ".join(title.text.split()[:3]).strip(".,:;!?\"'") + "'" in text


def test_a_bad_request_mix_is_refused(tmp_path, capsys) -> None:
    assert parse_kind_weights(" distribute=3, align=5 ") == {"distribute": 3.0, "align": 5.0}
    assert parse_kind_weights("") == {}
    for text, message in (("wiggle=2", "unknown request kind 'wiggle'"), ("align", "'align' is not kind=weight"),
                          ("align=x", "'align=x' is not kind=weight"), ("align=-1", "weights are 0 or more")):
        with pytest.raises(ValueError, match=message):
            parse_kind_weights(text)
    with pytest.raises(ValueError, match="every request kind has weight 0"):
        kind_weights({k: 0 for k in KIND_WEIGHTS})
    out = tmp_path / "data"
    with pytest.raises(ValueError, match="unknown request kind 'wiggle'"):
        generate(DataConfig(out=str(out), train_episodes=1, kind_weights={"wiggle": 1.0}))
    with pytest.raises(ValueError, match="role_words 2 is not a share"):
        generate(DataConfig(out=str(out), train_episodes=1, role_words=2))
    for args, message in ((["--kind-weights", "distribute=lots"], "--kind-weights: 'distribute=lots' is not"),
                          (["--role-words", "1.5"], "--role-words 1.5 is not a share between 0 and 1")):
        with pytest.raises(SystemExit) as exc:
            main(["--out", str(out), *args])
        assert exc.value.code == 2
        assert message in capsys.readouterr().err
    assert not out.exists()


def test_generate_writes_the_training_mix(tmp_path) -> None:
    cfg = DataConfig(out=str(tmp_path / "data"), tasks=("poster",), train_episodes=0, val_episodes=0,
                     test_episodes=0, applicator_layouts=6, requests_per_layout=5,
                     kind_weights={k: (1.0 if k == "distribute" else 0.0) for k in KIND_WEIGHTS}, role_words=0.0)
    stats = generate(cfg)
    assert stats["config"]["kind_weights"]["distribute"] == 1.0 and stats["config"]["role_words"] == 0.0
    rows = [json.loads(x) for x in (tmp_path / "data" / "train.jsonl").read_text().splitlines()]
    assert 10 <= len(rows) <= 30  # a distribute that would push an element off the page is left out
    assert {json.loads(r["messages"][-1]["content"])["type"] for r in rows} == {"distribute"}


def test_generate_counts_the_renamed_episodes_and_layouts(tmp_path) -> None:
    cfg = DataConfig(out=str(tmp_path / "data"), tasks=("banner",), train_episodes=2, val_episodes=0,
                     test_episodes=0, max_steps=1, synthetic_per_state=1, applicator_layouts=4,
                     requests_per_layout=1, time_budget=5.0, varied_ids=1.0)
    stats = generate(cfg)
    assert stats["splits"]["train"]["renamed"] == 6 and stats["config"]["varied_ids"] == 1.0
    rows = [json.loads(x) for x in (tmp_path / "data" / "train.jsonl").read_text().splitlines()]
    assert rows and {r["meta"]["ids"] for r in rows} == {"varied"}


def test_a_share_out_of_range_is_refused_before_anything_is_written(tmp_path, capsys) -> None:
    out = tmp_path / "data"
    with pytest.raises(ValueError, match="varied_ids 1.5 is not a share between 0 and 1"):
        generate(DataConfig(out=str(out), train_episodes=1, varied_ids=1.5))
    with pytest.raises(SystemExit) as exc:
        main(["--out", str(out), "--varied-ids", "-0.2"])
    assert exc.value.code == 2
    assert "--varied-ids -0.2 is not a share between 0 and 1" in capsys.readouterr().err
    assert not out.exists()


def test_valid_on_rejects_unknown_ids(poster) -> None:
    assert valid_on(poster, {"type": "move", "ids": ["logo"], "dx": 1, "dy": 0})
    assert not valid_on(poster, {"type": "move", "ids": ["no-such-element"], "dx": 1, "dy": 0})


def test_models_package_is_import_light() -> None:
    import subprocess
    import sys

    code = ("import sys, models, models.data, models.requests; "
            "print([m for m in ('torch', 'transformers', 'peft', 'tokenizers', 'gguf') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
