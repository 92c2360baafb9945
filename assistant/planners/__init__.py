"""The planner registry: every planner registers itself by name.

The CLI (``fix --planner NAME``), the MCP server and the evaluation look
planners up the same way (a registry, as in simonw/llm's ``register_models``)::

    from assistant.planners import get_planner
    planner = get_planner("heuristic", beam_width=3)
    actions = planner.propose(state)          # ranked list of Actions

A planner module registers a factory with ``@register_planner("name")``; the
factory receives the keyword options and returns an object following
``assistant.planners.base.Planner``. Planner modules bundled with the package
are imported lazily on first look-up, so importing this package stays cheap.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from assistant.errors import PlannerError

if TYPE_CHECKING:  # the registry stays cheap to import: the planner contract pulls in the whole core
    from assistant.planners.base import Planner

F = TypeVar("F", bound=Callable[..., Any])

_REGISTRY: dict[str, Callable[..., Any]] = {}
_HELP: dict[str, str] = {}
#: The modules of this package that register planners (the rest is support code).
_PLANNER_MODULES = ("heuristic", "local", "remote")


def register_planner(name: str) -> Callable[[F], F]:
    """Class/function decorator: make ``name`` resolve to the decorated factory.

    The factory's docstring's first line becomes the planner's help text in
    ``available_planners()`` and ``layout-assistant fix --help``.
    """
    if not name or not name.replace("-", "").replace("_", "").isalnum():
        raise PlannerError(f"planner name {name!r} must be letters, digits, '-' or '_'")

    def decorator(factory: F) -> F:
        existing = _REGISTRY.get(name)
        if existing is not None and existing is not factory and _qualname(existing) != _qualname(factory):
            raise PlannerError(f"planner {name!r} is already registered by {_qualname(existing)}")
        _REGISTRY[name] = factory
        doc = (factory.__doc__ or "").strip().splitlines()
        _HELP[name] = doc[0].strip() if doc else ""
        return factory

    return decorator


def _qualname(obj: Any) -> str:
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', repr(obj))}"


def _load_bundled() -> None:
    """Import the planner modules of this package (each registers itself)."""
    for name in _PLANNER_MODULES:
        importlib.import_module(f"{__name__}.{name}")


def available_planners() -> dict[str, str]:
    """Registered planner names mapped to their one-line description, sorted by name."""
    _load_bundled()
    return {name: _HELP[name] for name in sorted(_REGISTRY)}


def get_planner(name: str, **options: Any) -> Planner:
    """Build the planner registered as ``name`` with ``options``.

    Raises ``PlannerError`` listing the known planners when ``name`` is unknown,
    and ``PlannerError`` naming the option when the factory rejects an option.
    """
    if name not in _REGISTRY:
        _load_bundled()
    factory = _REGISTRY.get(name)
    if factory is None:
        known = ", ".join(sorted(_REGISTRY)) or "(none)"
        raise PlannerError(f"unknown planner {name!r}; known planners: {known}")
    try:
        return factory(**options)
    except TypeError as exc:
        raise PlannerError(f"planner {name!r}: bad options {sorted(options)}: {exc}") from exc


__all__ = ["register_planner", "get_planner", "available_planners"]
