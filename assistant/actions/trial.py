"""Try an edit and score it: the one way every planner, the environment and the MCP tools simulate.

``attempt(doc, actions)`` applies the actions to ``doc`` in place and yields a
:class:`Trial`; when the ``with`` block ends the edit is undone exactly, unless
the block called ``trial.keep()``. Scoring is lazy and cached (``trial.report``),
so a caller that refuses an edit for another reason (it moves a kept element)
never pays for the metrics. ``simulate`` is the common case: apply, score,
undo, and return the trial.

Undoing in place costs far less than copying the document (the XML tree is
large); every diff is exact, so the document is byte for byte what it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel

from assistant.actions.apply import apply_actions, undo_diffs
from assistant.actions.diff import Diff
from assistant.actions.schema import Action
from assistant.document import Document
from assistant.metrics import MetricReport, ScoredConstraint, evaluate

ActionLike = Action | dict[str, Any] | str


class Trial:
    """An edit applied to a document for as long as its ``attempt`` block lasts."""

    def __init__(self, document: Document, diffs: list[Diff], *, constraints: Sequence[ScoredConstraint] | None,
                 weights: dict[str, float] | None) -> None:
        self.document = document
        self.diffs = diffs
        self.constraints = list(constraints or [])
        self.weights = weights
        self.kept = False
        self._report: MetricReport | None = None

    @property
    def changed_ids(self) -> tuple[str, ...]:
        """Ids of the elements the edit changed, sorted."""
        return tuple(sorted({i for d in self.diffs for i in d.changed_ids}))

    @property
    def report(self) -> MetricReport:
        """The metric report of the document with the edit applied (computed once)."""
        if self._report is None:
            self._report = evaluate(self.document.layout, constraints=self.constraints or None,
                                    weights=self.weights)
        return self._report

    def keep(self) -> None:
        """Keep the edit when the ``attempt`` block ends."""
        self.kept = True


def _as_list(actions: ActionLike | Iterable[ActionLike]) -> list[ActionLike]:
    if isinstance(actions, (str, bytes, dict, BaseModel)):
        return [actions]  # type: ignore[list-item]
    return list(actions)  # type: ignore[arg-type]


@contextmanager
def attempt(document: Document, actions: ActionLike | Iterable[ActionLike], *,
            constraints: Sequence[ScoredConstraint] | None = None,
            weights: dict[str, float] | None = None) -> Iterator[Trial]:
    """Apply ``actions`` atomically to ``document`` for the duration of the block (see the module docstring).

    Raises ``InvalidAction`` (document unchanged) when an action does not fit.
    """
    diffs = apply_actions(document, _as_list(actions))
    trial = Trial(document, diffs, constraints=constraints, weights=weights)
    try:
        yield trial
    finally:
        if not trial.kept:
            undo_diffs(document, diffs)


def simulate(document: Document, actions: ActionLike | Iterable[ActionLike], *,
             constraints: Sequence[ScoredConstraint] | None = None, weights: dict[str, float] | None = None) -> Trial:
    """The scored trial of ``actions`` on ``document``, which is left as it was.

    Raises ``InvalidAction`` when an action does not fit.
    """
    with attempt(document, actions, constraints=constraints, weights=weights) as trial:
        trial.report  # noqa: B018 - score while the edit is applied
    return trial


__all__ = ["Trial", "attempt", "simulate"]
