"""The applicator measured: held-out plain-language requests, each answered once and scored by its edit.

``applicator_cases`` draws the requests on the held-out tasks' broken layouts, ``evaluate_applicator`` scores a
model's answers (edit accuracy, exact match, valid rate, collateral damage, milliseconds) and says why each
miss missed (:data:`MISSES`): the report's applicator tables (``python -m models.eval --run runs/tiny``).
"""

from __future__ import annotations

import random
import statistics
from typing import Any

from models.data import SEED_RANGES


def applicator_cases(tasks: list[str], episodes: int, per_layout: int, seed: int = 0, *,
                     moves: str = "") -> list[dict[str, Any]]:
    """Held-out ``(document, request, target action)`` cases on the test tasks' broken layouts.

    By default the requests are the evaluation's mix of edits (``models.requests.KIND_WEIGHTS``), moves by the
    common distances, drawn exactly as in every earlier report. ``moves="any"`` makes every request a move by
    any distance (``models.requests.move_amounts``), from a random stream of its own.
    """
    from assistant.env.tasks import make_task
    from models.data import valid_on
    from models.requests import KIND_WEIGHTS, request_for, synth_action

    weights, amounts = None, "common"
    if moves:
        amounts = moves
        weights = {k: float(k == "move") for k in KIND_WEIGHTS}
    rng = random.Random(f"applicator-test:{seed}" + (f":moves-{moves}" if moves else ""))
    start = SEED_RANGES["test"][0]
    cases = []
    for task in tasks:
        for i in range(episodes):
            doc = make_task(task, start + i).broken
            made = 0
            for _ in range(per_layout * 4):
                action = synth_action(doc.layout, rng, weights, amounts)
                if action is None:
                    continue
                request, target = request_for(action, doc.layout, rng)
                if valid_on(doc, target):
                    cases.append({"task": task, "seed": start + i, "document": doc, "request": request,
                                  "target": target})
                    made += 1
                if made >= per_layout:
                    break
    return cases


def _boxes_after(document: Any, action: dict[str, Any]) -> dict[str, Any] | None:
    from assistant.actions import apply_action, parse_action
    from assistant.errors import InvalidAction

    doc = document.copy()
    try:
        apply_action(doc, parse_action(action))
    except InvalidAction:
        return None
    return {e.id: e.box for e in doc.layout.elements}


def _changed(before: dict[str, Any], after: dict[str, Any], tol: float = 0.5) -> set[str]:
    return {i for i, b in before.items() if i in after and max(
        abs(b.x - after[i].x), abs(b.y - after[i].y), abs(b.width - after[i].width),
        abs(b.height - after[i].height)) > tol}


#: why an applicator answer missed, in the order :func:`applicator_breakdown_table` shows them
MISSES: tuple[str, ...] = ("invalid", "other action", "other elements", "other settings")


def _named(action: dict[str, Any]) -> list[str]:
    """The element ids an action names, in order (``ids``, then ``id``, then ``target_id``)."""
    return [*(action.get("ids") or []), *(action[k] for k in ("id", "target_id") if action.get(k))]


def _miss(pred: dict[str, Any], target: dict[str, Any]) -> str:
    """Why the applicable action ``pred`` is not the edit ``target`` asks for (one of :data:`MISSES` but invalid)."""
    if pred.get("type") != target.get("type"):
        return "other action"
    if _named(pred) != _named(target):
        return "other elements"
    return "other settings"


def evaluate_applicator(policy: Any, cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Edit accuracy, exact match, valid rate and collateral damage of ``policy.apply_request``.

    ``by_action`` breaks the requests down by the action they ask for: how many, how many answered right, and
    why the others missed (:data:`MISSES`: no applicable action, another action, the right action on other
    elements — a repeated or neighbouring id —, or the right action and elements with other settings, such as
    an amount).
    """
    from assistant.planners.prompting import canonical_action

    acc = exact = valid = 0
    collateral: list[float] = []
    seconds: list[float] = []
    by_action: dict[str, dict[str, int]] = {}
    for case in cases:
        doc = case["document"]
        before = {e.id: e.box for e in doc.layout.elements}
        want = _boxes_after(doc, case["target"])
        pred, _text, secs = policy.apply_request(doc.layout, case["request"])
        seconds.append(secs)
        got = _boxes_after(doc, pred) if pred is not None else None
        tally = by_action.setdefault(str(case["target"].get("type")),
                                     {"cases": 0, "right": 0, **dict.fromkeys(MISSES, 0)})
        tally["cases"] += 1
        if got is None:
            collateral.append(0.0)
            tally["invalid"] += 1
            continue
        valid += 1
        same_action = canonical_action(pred) == canonical_action(case["target"])
        exact += same_action
        want_changed = _changed(before, want) if want is not None else set()
        got_changed = _changed(before, got)
        untouched = [i for i in before if i not in want_changed]
        collateral.append(len(got_changed - want_changed) / max(len(untouched), 1))
        right = same_action or (want is not None and not _changed(want, got) and got_changed == want_changed)
        acc += right
        tally["right" if right else _miss(pred, case["target"])] += 1
    n = max(len(cases), 1)
    return {"policy": policy.name, "cases": len(cases), "edit_accuracy": acc / n, "exact_match": exact / n,
            "valid_rate": valid / n, "collateral_damage": statistics.fmean(collateral) if collateral else 0.0,
            # the median: on a shared machine a few stalled requests would otherwise decide a mean
            "ms_per_request": 1000 * statistics.median(seconds) if seconds else 0.0,
            "by_action": dict(sorted(by_action.items()))}
