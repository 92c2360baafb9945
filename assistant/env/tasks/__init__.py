"""Seeded layout tasks: realistic clean layouts, realistically broken.

::

    from assistant.env.tasks import TASKS, make_task
    task = make_task("poster", seed=3)
    task.broken, task.clean          # Documents (imported from generated SVG)
    task.instruction, task.constraints, task.weights, task.difficulty

Every registered task (``TASKS``; :func:`task_names` lists them easiest
first) lives in its own module with a sectioned docstring (Description,
Breakage, Instruction, Weights).
"""

# Each task module registers its generator on import.
from assistant.env.tasks import banner, editorial, flyer, poster, slide, social  # noqa: F401,E402
from assistant.env.tasks.base import (
    DIFFICULTIES,
    TASKS,
    Generated,
    Task,
    TaskInfo,
    generate_svgs,
    make_task,
    register_task,
    task_names,
)

__all__ = ["TASKS", "Task", "TaskInfo", "Generated", "make_task", "register_task", "task_names",
           "generate_svgs", "DIFFICULTIES"]
