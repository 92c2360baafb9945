"""Tasks: a seeded generator's clean layout, its broken copy and the brief.

A task generator is a function ``generate(rng) -> Generated`` registered with
``@register_task(name, difficulty=..., weights=...)``. :func:`make_task`
runs it with ``numpy.random.default_rng(seed)``, writes both specs as SVG
(``assistant.env.tasks.render``), imports them with the real importer and
compiles the instruction against the broken layout. Same name and seed →
byte-identical SVG and the same constraints.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from assistant.document import Document
from assistant.env.tasks.ids import STYLES, apply_ids, rename_ids
from assistant.env.tasks.render import render_svg
from assistant.env.tasks.spec import Spec
from assistant.errors import EnvError
from assistant.importer import import_svg_text
from assistant.instructions import Constraint
from assistant.instructions.brief import compile_brief

DIFFICULTIES = ("easy", "medium", "hard")


@dataclass
class Generated:
    """What a generator returns: the clean spec, the broken copy, the brief."""

    clean: Spec
    broken: Spec
    instruction: str
    breakages: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TaskInfo:
    """A registered task: its generator, difficulty, metric weights, one-line description."""

    name: str
    difficulty: str
    weights: dict[str, float]
    description: str
    generate: Callable[[np.random.Generator], Generated]


@dataclass
class Task:
    """One generated episode start.

    ``broken`` is the document the agent edits; ``clean`` the layout the
    breakages were applied to (the reference for "gap closed"); ``constraints``
    the compiled instruction, resolved against ``broken`` (a ``keep`` holds the
    element's starting box); ``weights`` override the default metric weights.
    """

    name: str
    seed: int
    difficulty: str
    instruction: str
    constraints: list[Constraint]
    weights: dict[str, float]
    broken: Document
    clean: Document
    broken_svg: str
    clean_svg: str
    breakages: list[str]
    #: how the elements are named: ``plain`` (the generator's ids) or an ``assistant.env.tasks.ids`` style
    ids: str = "plain"


TASKS: dict[str, TaskInfo] = {}


def register_task(name: str, *, difficulty: str, weights: dict[str, float]) -> Callable[[Callable], Callable]:
    """Decorator registering a generator as task ``name`` (first docstring line = description)."""
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {DIFFICULTIES}")

    def deco(fn: Callable[[np.random.Generator], Generated]) -> Callable[[np.random.Generator], Generated]:
        doc = (fn.__doc__ or "").strip().splitlines()
        TASKS[name] = TaskInfo(name, difficulty, dict(weights), doc[0] if doc else name, fn)
        return fn

    return deco


def task_names() -> list[str]:
    """Registered task names, easiest first."""
    return sorted(TASKS, key=lambda n: (DIFFICULTIES.index(TASKS[n].difficulty), n))


def generate_svgs(name: str, seed: int, ids: str = "plain") -> tuple[str, str, Generated]:
    """``(broken_svg, clean_svg, generated)`` of task ``name`` at ``seed``, elements named as ``ids`` says.

    ``ids``: ``plain`` (the generator's names), ``varied`` (a naming style
    drawn from the seed, see ``assistant.env.tasks.ids``) or one style by name.
    Renaming draws from its own random stream: the layout is the plain one's.
    """
    info = TASKS.get(name)
    if info is None:
        raise EnvError(f"unknown task {name!r}; known tasks: {', '.join(task_names())}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise EnvError(f"task seed must be a non-negative integer, got {seed!r}")
    if ids not in ("plain", "varied", *STYLES):
        raise EnvError(f"unknown id naming {ids!r}; use plain, varied or one of {', '.join(STYLES)}")
    gen = info.generate(np.random.default_rng(int(seed)))
    if ids != "plain":
        blocks = gen.clean.blocks + [b for b in gen.broken.blocks if not gen.clean.has(b.id)]
        rng = np.random.default_rng([int(seed), 1, zlib.crc32(name.encode())])
        mapping = rename_ids(blocks, rng, None if ids == "varied" else ids)
        gen.clean, gen.broken = apply_ids(gen.clean, mapping), apply_ids(gen.broken, mapping)
    return render_svg(gen.broken), render_svg(gen.clean), gen


def make_task(name: str, seed: int, ids: str = "plain") -> Task:
    """Generate task ``name`` with ``seed``, elements named as ``ids`` says (see ``generate_svgs``)."""
    broken_svg, clean_svg, gen = generate_svgs(name, seed, ids)
    info = TASKS[name]
    broken = import_svg_text(broken_svg, source=f"task:{name}:{seed}:broken")
    clean = import_svg_text(clean_svg, source=f"task:{name}:{seed}:clean")
    brief = compile_brief(gen.instruction, broken.layout)
    if brief.not_understood:
        raise EnvError(f"task {name!r} seed {seed}: instruction not understood: {brief.not_understood}")
    constraints = brief.constraints
    return Task(name=name, seed=int(seed), difficulty=info.difficulty, instruction=gen.instruction,
                constraints=constraints, weights=dict(info.weights), broken=broken, clean=clean,
                broken_svg=broken_svg, clean_svg=clean_svg, breakages=list(gen.breakages), ids=ids)


__all__ = ["Task", "TaskInfo", "Generated", "TASKS", "register_task", "make_task", "task_names",
           "generate_svgs", "DIFFICULTIES"]
