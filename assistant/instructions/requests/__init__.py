"""Requests in plain words → exact edits: words, references, intents and the geometry of each edit.

::

    from assistant.instructions.requests import understand, plan_step
    u = understand("make the title bigger and move it up a bit", layout)
    u.status            # "edit", "question", "missing", "not_understood" or "command"
    for step in u.steps:
        alternatives = plan_step(step, layout)   # lists of action dicts, best first

The modules, in the order a request flows through them: :mod:`.words`
(tokens, spelling, typos, numbers), :mod:`.index` and :mod:`.refs` (what the
elements are called and which one a phrase names), :mod:`.intents` and
:mod:`.style` (what a clause asks for), :mod:`.understand` (clauses, pronouns,
questions), :mod:`.build`, :mod:`.plan` and :mod:`.fixes` (the actions).
:mod:`.turns` reads chat turns about the last edit ("undo", "a bit more",
"no, the other one").
"""

from assistant.instructions.requests.build import plan_step
from assistant.instructions.requests.plan import CannotPlan, Step
from assistant.instructions.requests.turns import TurnCommand, turn_command
from assistant.instructions.requests.understand import MAX_REQUEST, RequestContext, Understanding, understand

__all__ = ["understand", "Understanding", "RequestContext", "Step", "plan_step", "CannotPlan", "TurnCommand",
           "turn_command", "MAX_REQUEST"]
