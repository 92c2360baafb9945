"""The bundled applicator on 2 CPU threads: load time, ms per action, peak RAM; ``fix`` episodes beside the heuristic.

*Model rows*: ``assistant/data/layout-applicator-tiny.gguf`` loaded by llama.cpp
(llama-cpp-python, 1 and 2 threads) in a fresh child process, so *peak RAM*
is that process's maximum resident set (``ru_maxrss``: Python, llama.cpp,
the model and its context, the grammar) and *load s* the ``Llama(...)``
construction time. *ms/action* is the mean wall time of one grammar-
constrained greedy answer to the applicator prompt (``assistant.planners.prompting``)
for each request in :data:`REQUESTS` on each file in ``examples/``;
*valid* the share of answers that validate as actions.

*Episode rows*: ``fix`` on every file in ``examples/`` — the loop of
``assistant.planners.loop.run_planner`` with at most :data:`MAX_STEPS` edits —
with the ``heuristic`` planner and with ``local``: the model alone
(``suggestions=0``) with K = 1 untuned answer, the old default, then each K of
:data:`SAMPLES` different answers per step with their amounts tuned (32 is the
evaluation's verified setting); and the planner's default, 16 tuned answers
with the fixes the findings suggest verified beside them (``+ fixes``;
default threads); *start*/*end* composite, edits, the edits that were the
model's own (greedy) choice and those that were a suggested fix, seconds per
file. The same on the OSGeo flyers of ``../shared/corpus/osgeo`` — real files
the model never trained on — with the heuristic, K = 1 untuned, K = 16 alone
and the default.

A missing bundled model gives one row saying so (nothing is substituted).
Same command by hand: ``python -m benchmarks.bench_local``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
REQUESTS = ("move the logo to the top right", "make the title bigger", "tidy the spacing",
            "align the body text with the title")
MAX_STEPS = 8
SAMPLES = (4, 16, 32)
CORPUS = Path(os.environ.get("LAYOUT_ASSISTANT_SHARED", ROOT.parent / "shared")) / "corpus" / "osgeo"
#: Thread counts probed (the machine has 2 cores; the planner's default for a small model is 1).
THREADS = (1, 2)


def _probe(model: str, threads: int) -> dict[str, Any]:
    """Run in a child process: load the model, answer every request, report times and peak RSS."""
    import resource

    import llama_cpp

    from assistant.importer import import_svg
    from assistant.planners.grammar import action_grammar
    from assistant.planners.modelstep import ModelStats, element_ids, validate_answer
    from assistant.planners.prompting import STOP_SEQUENCES, build_prompt, layout_text

    t0 = time.perf_counter()
    llm = llama_cpp.Llama(model_path=model, n_ctx=2048, n_threads=threads, n_threads_batch=threads,
                          n_batch=2048, verbose=False, seed=0)
    load = time.perf_counter() - t0
    stats = ModelStats()
    times: list[float] = []
    tokens = 0
    for svg in sorted(EXAMPLES.glob("*.svg")):
        layout = import_svg(svg).layout
        grammar = action_grammar(element_ids(layout))
        for request in REQUESTS:
            prompt = build_prompt(layout_text(layout), request, kind="applicator")
            t1 = time.perf_counter()
            res = llm.create_completion(prompt, max_tokens=160, temperature=0.0, top_k=1, repeat_penalty=1.0,
                                        stop=list(STOP_SEQUENCES), grammar=grammar, seed=0)
            times.append(time.perf_counter() - t1)
            tokens += int(res["usage"]["completion_tokens"])
            validate_answer(res["choices"][0]["text"], stats)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"load_s": load, "ms_per_action": 1000 * sum(times) / len(times), "answers": len(times),
            "valid": stats.valid_rate, "tokens_per_answer": tokens / len(times), "peak_mb": peak_kb / 1024}


def _model_row(model: Path, threads: int) -> dict[str, Any]:
    if not model.is_file():
        return {"what": "bundled model", "model": str(model.relative_to(ROOT)), "note": "not found — nothing measured"}
    proc = subprocess.run([sys.executable, "-m", "benchmarks.bench_local", "--probe", str(model), str(threads)],
                          cwd=ROOT, capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        return {"what": "bundled model", "model": model.name,
                "note": f"probe failed (exit {proc.returncode}): {(proc.stderr or proc.stdout)[-300:]!r}"}
    p = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"what": "bundled model", "model": model.name, "size MB": round(model.stat().st_size / 1e6, 1),
            "threads": threads, "load s": round(p["load_s"], 3), "ms/action": round(p["ms_per_action"], 1),
            "tokens/answer": round(p["tokens_per_answer"], 1), "valid": f"{p['valid']:.0%}",
            "answers": p["answers"], "peak RAM MB": round(p["peak_mb"], 1)}


def _episode(svg: Path, planner_name: str, **options: Any) -> dict[str, Any]:
    from assistant.importer import import_svg
    from assistant.planners import get_planner
    from assistant.planners.loop import run_planner

    doc = import_svg(svg)
    planner = get_planner(planner_name, **options)
    t0 = time.perf_counter()
    result = run_planner(doc, planner, max_steps=MAX_STEPS, time_budget=120.0)
    seconds = time.perf_counter() - t0
    own = sum("the model's own choice" in s.reason for s in result.steps)
    suggested = sum("suggested fix" in s.reason for s in result.steps)
    if planner_name == "heuristic":
        label = planner_name
    else:
        k = options.get("samples", getattr(planner, "samples", 1))
        label = f"local K={k}" + ("" if options.get("tune", True) else " untuned") + (
            " + fixes" if options.get("suggestions", True) else "") + (" (default)" if not options else "")
    return {"what": "fix episode", "file": svg.name, "planner": label,
            "start": round(result.start.composite, 3), "end": round(result.end.composite, 3),
            "edits": len(result.steps), "model's own": own if planner_name != "heuristic" else "",
            "suggested fixes": suggested if planner_name != "heuristic" else "",
            "stopped": result.stopped, "s/file": round(seconds, 2)}


def run() -> list[dict]:
    """The model rows, then one ``fix`` episode row per example and planner (see the module docstring)."""
    from assistant.planners.local import DEFAULT_MODEL, DEFAULT_SAMPLES

    rows = [_model_row(DEFAULT_MODEL, t) for t in THREADS]
    for svg in sorted(EXAMPLES.glob("*.svg")):
        rows.append(_episode(svg, "heuristic"))
        if DEFAULT_MODEL.is_file():
            rows.append(_episode(svg, "local", samples=1, tune=False, suggestions=False))
            rows += [_episode(svg, "local", samples=k, suggestions=False) for k in SAMPLES]
            rows.append(_episode(svg, "local"))
    for svg in sorted(CORPUS.glob("*.svg")):
        rows.append(_episode(svg, "heuristic"))
        if DEFAULT_MODEL.is_file():
            rows += [_episode(svg, "local", samples=1, tune=False, suggestions=False),
                     _episode(svg, "local", samples=DEFAULT_SAMPLES, suggestions=False), _episode(svg, "local")]
    return rows


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--probe":
        print(json.dumps(_probe(sys.argv[2], int(sys.argv[3]))))
    else:
        for row in run():
            print(row)
