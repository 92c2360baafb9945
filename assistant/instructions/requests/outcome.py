"""What reading a request gives: the understanding of one request, and what the conversation tells the next one."""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.instructions.requests.plan import Step
from assistant.instructions.requests.turns import TurnCommand


@dataclass
class RequestContext:
    """What the conversation so far tells the next request: the elements last acted on, and so on."""

    #: Ids the last edit was about ("it", "them", "more").
    last_ids: list[str] = field(default_factory=list)
    #: Ranked candidates of the last resolved reference, and which one was taken ("no, the other one").
    last_candidates: list[str] = field(default_factory=list)
    last_choice: list[str] = field(default_factory=list)
    #: The request a question was asked about, and the candidates offered.
    pending_request: str | None = None
    pending_candidates: list[str] = field(default_factory=list)
    #: Elements to take when a reference fits several of them and some of these (an answer to a question).
    prefer: list[str] = field(default_factory=list)
    #: A choice made for this request: a singular reference that fits several elements, or that named
    #: ``replace``, names ``force`` instead ("no, I meant the subtitle").
    force: list[str] = field(default_factory=list)
    replace: list[str] = field(default_factory=list)


@dataclass
class Understanding:
    """What a request means on one layout (see the module docstring for ``status``)."""

    status: str
    text: str
    steps: list[Step] = field(default_factory=list)
    message: str = ""
    remarks: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    command: TurnCommand | None = None
    #: Whether the request reads as a layout request the rules could not place (a model may try it).
    model_may_try: bool = False
    #: Whether the request reads as English (a request in another language is never guessed at).
    english: bool = True
    #: The ids the request is about, in order (for "it" in the next turn).
    targets: list[str] = field(default_factory=list)
    #: The ambiguous mention's candidates and the one each step chose (for "no, the other one").
    choices: list[str] = field(default_factory=list)


__all__ = ["RequestContext", "Understanding"]
