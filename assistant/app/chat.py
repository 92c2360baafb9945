"""The offline layout assistant: one typed request per turn, no network.

Each turn is a command or a free-text edit request:

* a request ("make the title bigger", "logo to the top right", "the photo
  overlaps the text, fix that") is read first by the request understander
  (``assistant.instructions.requests`` through ``assistant.app.requests``):
  numbers, units, quoted text, directions and element names are parsed
  exactly, and the edit it plans is applied as one undo step. A reference that
  fits several elements is a question back ("which text do you mean: …?"), an
  element the layout lacks or a request it does not understand is said so,
  with no edit. Turns about the last edit work too: "undo that", "again",
  "a bit more", "a bit less", "no, the other one", "no, I meant the subtitle";
* a request about the whole layout that names no change ("tidy it up", "fix
  the layout", "make it look better") is answered as ``layout-assistant fix``
  answers a file: the heuristic planner edits only what is outside the norms of
  published designs, each edit checked on a render, and all of its edits are one
  undo step; a layout with nothing wrong is left as it is, and the answer says so;
* only a request the understander cannot place (an English layout request that
  names elements, or one whose brief compiles into constraints) goes to the
  local applicator model (``assistant.planners.local.LocalPlanner``), loaded
  on first use, with the
  applicator prompt of ``assistant.planners.prompting`` (the element list and the
  request). The model writes up to K grammar-constrained answers (its greedy answer always, the
  others while :data:`MODEL_SECONDS` last, so a larger model still answers in about a second); each is validated
  and simulated (``assistant.actions.trial.simulate``). The request is
  also compiled into constraints (``assistant.instructions``): when it is
  understood, the answer that raises the instruction fit most wins, and an
  answer that lowers it is never applied; otherwise the model's own (greedy)
  answer does. A model answer that changes an element the request did not name
  (or, when it names none, that does not raise the instruction fit) is never
  applied. The chosen action is applied through
  ``assistant.app.session.Session`` (one undo step), the composite and the metrics
  that moved are shown, and a preview PNG with the changed elements outlined
  is written (``assistant.render.overlay.render_overlay_png``);
* ``undo`` / ``redo``, ``show`` (element list, score, preview), ``score``,
  ``history``, ``save [PATH] [--force]``, ``export FORMAT [PATH]``, ``help``,
  ``quit``.

Files go to the output folder (``preview-NNN.png``, ``<name>.svg``,
``<name>.<format>``), written safely (:mod:`assistant.app.outputs`). The input
file is never overwritten unless ``save`` names it with ``--force``, and then a
backup of it is kept.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from assistant.actions import Action
from assistant.actions.trial import simulate
from assistant.app.batch import FixOptions, improve
from assistant.app.formats import export
from assistant.app.outputs import replace_input, write_output
from assistant.app.requests import Outcome, RequestRunner, read_pictures_ahead
from assistant.app.session import EditResult, Session
from assistant.document import Document
from assistant.errors import InvalidAction, LayoutError, PlannerError
from assistant.instructions.brief import compile_brief
from assistant.instructions.requests.kinds import plausible_actions
from assistant.metrics import MetricReport, evaluate
from assistant.planners.grammar import Distances, request_distances
from assistant.planners.loop import instruction_fit
from assistant.planners.modelstep import ModelStats, element_ids, validate_answer
from assistant.planners.prompting import build_prompt, format_target, layout_text
from assistant.render.overlay import render_overlay_png

HELP = """Type an edit request in plain words, or a command:
  make the title bigger | logo to the top right | the photo overlaps the text, fix that   (edit requests)
  again, a bit more, a bit less, no the other one, no I meant the subtitle   (about the last edit)
  tidy it up, fix the layout, make it look better   (fix what is outside the norms, as `fix` does)
  undo, redo             take back / repeat the last edit
  show                   list the elements and the score, write a preview PNG
  score                  the composite score and the weakest metrics
  history                the edits so far
  save [PATH] [--force]  write the SVG (default: OUT/<name>.svg; --force to overwrite the input)
  export FORMAT [PATH]   write png, pdf or svg (default: OUT/<name>.FORMAT)
  help, quit"""

COMMANDS = ("help", "quit", "exit", "undo", "redo", "show", "score", "history", "save", "export")
#: Metric changes smaller than this are not listed.
SHOWN_DELTA = 0.005
#: Instruction-fit gain a sample needs to win over the model's own (first) answer.
FIT_MARGIN = 1e-3
#: Seconds the model may spend on a request's further answers once its greedy answer is in.
MODEL_SECONDS = 1.0


@dataclass
class Reply:
    """What one turn produced: text for the user, files written, whether to stop."""

    text: str
    files: list[str] = field(default_factory=list)
    quit: bool = False
    edited: bool = False


class ChatModel(Protocol):
    """What the chat needs of its model (``assistant.planners.local.LocalPlanner``): answers to a prompt.

    A model may also have ``applicator_prompt(layout, request)``, to fit the
    prompt to its context, and ``stats`` (``ModelStats``).
    """

    def generate(self, prompt: str, *, ids: Sequence[str] | None, samples: int | None = None, step: int = 0,
                 deadline: float | None = None, distances: Distances | None = None,
                 answer_by: float | None = None) -> list[str]:
        """Answers to ``prompt`` naming only ``ids``, with different actions (no further one after ``answer_by``)."""
        ...


class ChatAssistant:
    """The assistant's state: a session on the document, the model, and where files go."""

    def __init__(self, document: Document, *, model: ChatModel | Callable[[], ChatModel] | None,
                 out_dir: str | Path, input_path: str | Path | None = None,
                 samples: int = 4, preview: bool = True, preview_size: int = 720, rules: bool = True) -> None:
        self.session = Session(document)
        #: The model, or a function that loads it (called the first time a request needs it).
        self._model = model
        #: Whether requests go to the request understander first (``False``: every request to the model).
        self.rules = rules
        self.requests = RequestRunner(self.session)
        self.out_dir = Path(out_dir)
        self.input_path = Path(input_path).resolve() if input_path else None
        self.stem = Path(input_path).stem if input_path else "layout"
        self.samples = max(1, int(samples))
        self.preview = preview
        self.preview_size = preview_size
        self.saved_revision = 0
        self._quit_warned = False
        self._previews = 0

    @property
    def document(self) -> Document:
        """The document being edited."""
        return self.session.document

    @property
    def model(self) -> ChatModel | None:
        """The local model, loaded on first use when a loader was given."""
        if callable(self._model) and not hasattr(self._model, "generate"):
            self._model = self._model()
        return self._model

    @property
    def dirty(self) -> bool:
        """True when there are edits since the last save."""
        return self.session.revision != self.saved_revision

    # -- turns -----------------------------------------------------------------
    def handle(self, line: str) -> Reply:
        """One turn: run the command or edit request in ``line``."""
        line = line.strip()
        if not line:
            return Reply("")
        try:
            words = shlex.split(line)
        except ValueError:
            words = line.split()
        head = words[0].lower() if words else ""
        # "save a row: put 4pm - 6pm on the same line" is a request; "save out/x.svg --force" and "export png
        # out/x.png" are commands (a path, a format and a path, and flags at most)
        most = {"save": 1, "export": 2}.get(head, 0)
        is_request = head not in COMMANDS or len([w for w in words[1:] if not w.startswith("--")]) > most
        self._quit_warned = self._quit_warned and head in ("quit", "exit") and not is_request
        try:
            if is_request:
                return self.edit(line)
            return getattr(self, f"_cmd_{'quit' if head == 'exit' else head}")(words[1:])
        except LayoutError as exc:
            return Reply(f"error: {exc}")

    def _cmd_help(self, _args: list[str]) -> Reply:
        return Reply(HELP)

    def _cmd_quit(self, _args: list[str]) -> Reply:
        if self.dirty and not self._quit_warned:
            self._quit_warned = True
            return Reply("There are unsaved edits: type 'save' to keep them, or 'quit' again to leave without saving.")
        return Reply("Bye.", quit=True)

    def _cmd_undo(self, _args: list[str]) -> Reply:
        return self._moved("Undone", self.session.undo)

    def _cmd_redo(self, _args: list[str]) -> Reply:
        return self._moved("Redone", self.session.redo)

    def _moved(self, what: str, step: Callable[[], EditResult]) -> Reply:
        before = self._score()
        result = step()
        after = self._score()
        files = self._write_preview(result.changed_ids)
        return Reply(f"{what}: {', '.join(result.changed_ids) or 'nothing'} changed. {self._delta(before, after)}"
                     + self._files_text(files), files=files, edited=True)

    def _cmd_show(self, _args: list[str]) -> Reply:
        files = self._write_preview([], force=True)
        return Reply(layout_text(self.document.layout) + "\n" + self._score_text(self._score())
                     + self._files_text(files), files=files)

    def _cmd_score(self, _args: list[str]) -> Reply:
        return Reply(self._score_text(self._score()))

    def _cmd_history(self, _args: list[str]) -> Reply:
        import json

        lines = [f"{h.revision:>3} {h.kind:<4} " + "; ".join(json.dumps(a, separators=(",", ":")) for a in h.actions)
                 for h in self.session.history]
        return Reply("\n".join(lines) or "No edits yet.")

    def _cmd_save(self, args: list[str]) -> Reply:
        force = "--force" in args
        paths = [a for a in args if a != "--force"]
        target = Path(paths[0]).expanduser() if paths else self.out_dir / f"{self.stem}.svg"
        data = export(self.document, "svg")
        backup = ""
        if self._is_input(target):
            if not force:
                return Reply(f"Not saved: {target} is the input file; use 'save {target} --force' to overwrite it "
                             "(a backup is kept).")
            backup = f" (the original kept as {replace_input(target, data).name})"
        else:
            write_output(target, data, inputs=self._inputs(), overwrite=True)
        self.saved_revision = self.session.revision
        return Reply(f"Saved {target}{backup}", files=[str(target)])

    def _cmd_export(self, args: list[str]) -> Reply:
        if not args:
            return Reply("Say which format: export png | export pdf | export svg [PATH]")
        fmt = args[0].lower().lstrip(".")
        target = Path(args[1]).expanduser() if len(args) > 1 else self.out_dir / f"{self.stem}.{fmt}"
        if self._is_input(target):
            return Reply(f"Not exported: {target} is the input file; use 'save {target} --force' to overwrite it.")
        write_output(target, export(self.document, fmt), inputs=self._inputs(), overwrite=True)
        return Reply(f"Exported {target}", files=[str(target)])

    def _inputs(self) -> list[Path]:
        return [self.input_path] if self.input_path is not None else []

    def _is_input(self, target: Path) -> bool:
        return self.input_path is not None and target.resolve() == self.input_path

    # -- edit requests ---------------------------------------------------------
    def edit(self, request: str) -> Reply:
        """Carry out ``request``: the understander first, the model for what it cannot place (module docstring)."""
        if not self.rules:
            return self.model_edit(request)
        before = self._score()
        outcome = self.requests.handle(request)
        if outcome.command is not None and outcome.command.kind in ("undo", "redo"):
            return self._cmd_undo([]) if outcome.command.kind == "undo" else self._cmd_redo([])
        if outcome.command is not None and outcome.command.kind == "improve":
            return self.improve_all()
        if outcome.edited:
            return self._edited(outcome, before)
        u = outcome.understanding
        if outcome.kind == "not_understood" and u is not None and (
                u.model_may_try or (u.english and self._brief_compiles(request))):
            return self.model_edit(request, named=u.targets)
        end = "" if outcome.message.endswith(("?", ".")) else "."
        if outcome.kind == "nothing":
            return Reply(f"Nothing to change: {outcome.message}{end}")
        return Reply(f"No edit made: {outcome.message}{end}")

    def improve_all(self) -> Reply:
        """Fix the whole layout as ``layout-assistant fix`` does; its edits are one undo step."""
        before = self._score()
        run = improve(self.document.copy(), FixOptions())  # as `fix` runs, on a copy: its edits become one step
        actions = [s.action for s in run.steps]
        if not actions:
            return Reply("Nothing to change: nothing in this layout is outside what published designs do "
                         f"({self._score_text(before)}). Ask for a change by name, e.g. 'move the logo up a bit'.")
        result = self.session.apply(actions)
        after = self._score()
        files = self._write_preview(result.changed_ids)
        reasons = "; ".join(dict.fromkeys(s.reason.split(" (suggested fix)")[0] for s in run.steps))
        return Reply(f"Fixed {len(actions)} thing{'s' if len(actions) != 1 else ''} outside the norms of published "
                     f"designs: {reasons}.\nChanged: {', '.join(result.changed_ids) or 'nothing'}. "
                     f"{self._delta(before, after)} 'undo' takes all of it back." + self._files_text(files),
                     files=files, edited=True)

    def _brief_compiles(self, request: str) -> bool:
        try:
            return bool(compile_brief(request, self.document.layout).constraints)
        except LayoutError:
            return False

    def _edited(self, outcome: Outcome, before: MetricReport) -> Reply:
        result = outcome.result
        changed = result.changed_ids if result is not None else []
        after = self._score()
        files = self._write_preview(changed)
        edits = "; ".join(format_target(a).strip() for a in outcome.actions)
        said = f" (understood: {'; '.join(outcome.understood)})" if outcome.understood else ""
        note = f"\nNote: {outcome.message}." if outcome.message else ""
        text = (f"Applied {edits}{said}.\n"
                f"Changed: {', '.join(changed) or 'nothing'}. {self._delta(before, after)}{note}")
        return Reply(text + self._files_text(files), files=files, edited=True)

    def model_edit(self, request: str, named: list[str] | None = None) -> Reply:
        """Turn ``request`` into one action with the model and apply it (see the module docstring).

        With ``named`` (the understander's reading of the request), an answer must change only those elements
        (and their members); with an empty list it must raise the instruction fit.
        """
        layout = self.document.layout
        try:
            constraints = compile_brief(request, layout).constraints
        except LayoutError:
            constraints = []
        before = evaluate(layout, constraints=constraints or None)
        fitted = getattr(self.model, "applicator_prompt", None)  # a local model fits it to its context
        prompt = fitted(layout, request) if fitted else build_prompt(layout_text(layout), request, kind="applicator")
        try:
            # a move goes the distance the request names ("37px left"), when it names one
            texts = self.model.generate(prompt, ids=element_ids(layout), samples=self.samples,
                                        step=self.session.revision,
                                        distances=request_distances(request, layout.canvas.px_per_unit),
                                        answer_by=time.monotonic() + MODEL_SECONDS)
        except PlannerError as exc:
            return Reply(f"error: {exc}")
        stats = getattr(self.model, "stats", None) or ModelStats()
        fit_b = instruction_fit(before)
        options: list[tuple[float, int, Action, MetricReport]] = []
        changed: dict[int, set[str]] = {}
        finalize = False
        for index, text in enumerate(texts):
            action = validate_answer(text, stats)
            if action is None:
                continue
            if action.type == "finalize":
                finalize = finalize or index == 0
                continue
            try:
                trial = simulate(self.document, action, constraints=constraints)
                report = trial.report
                changed[index] = set(trial.changed_ids)
            except InvalidAction as exc:
                stats.note_invalid(text, str(exc).splitlines()[0], rejected=True)
                continue
            fit_a = instruction_fit(report)
            gain = (fit_a - fit_b) if (constraints and fit_a is not None and fit_b is not None) else 0.0
            options.append((gain, index, action, report))
        applicable = len(options)
        kinds = plausible_actions(request)  # never an edit of another kind than the words ask for
        options = [o for o in options if kinds is None or o[2].type in kinds]
        sensible = len(options)
        options = [o for o in options if o[0] >= -FIT_MARGIN]  # never against an understood request
        fitting = len(options)
        if named is not None:  # never an element the request did not name, never a blind guess
            allowed = self._with_members(named)
            options = [o for o in options if (named and changed[o[1]] <= allowed) or (not named and o[0] > FIT_MARGIN)]
        if not options:
            why = ("the model answered that nothing needs to change" if finalize and not applicable else
                   "none of the model's answers was an edit that applies to this layout" if not applicable else
                   "none of the model's answers was the kind of edit the request asks for" if not sensible else
                   "every edit the model proposed works against the request as understood" if not fitting else
                   "the model's answers change elements the request does not name")
            return Reply(f"No edit made: {why} ({len(texts)} answer{'s' * (len(texts) != 1)}). "
                         "Try naming the element, e.g. 'move the logo to the top right'.")
        best = max(options, key=lambda o: (o[0], -o[1])) if any(o[0] > FIT_MARGIN for o in options) else \
            min(options, key=lambda o: o[1])
        _gain, index, action, _report = best
        result = self.session.apply(action)
        self.requests.note_edit([action.to_json()])
        after = evaluate(self.document.layout, constraints=constraints or None)
        files = self._write_preview(result.changed_ids)
        how = "the model's own choice" if index == 0 else f"sample {index + 1} of {len(texts)}, best instruction fit"
        text = (f"Applied {format_target(action).strip()} ({how}).\n"
                f"Changed: {', '.join(result.changed_ids) or 'nothing'}. {self._delta(before, after)}")
        return Reply(text + self._files_text(files), files=files, edited=True)

    # -- helpers ---------------------------------------------------------------
    def _with_members(self, ids: list[str]) -> set[str]:
        """``ids`` with the members and enclosing groups of each (what editing them may change)."""
        layout = self.document.layout
        out = set(ids)
        for i in ids:
            if i in layout:
                out.update(d.id for d in layout.descendants_of(i))
                g = layout.get(i).group
                while g is not None:
                    out.add(g)
                    g = layout.get(g).group
        return out

    def _score(self) -> MetricReport:
        return evaluate(self.document.layout)

    @staticmethod
    def _score_text(report: MetricReport) -> str:
        weak = ", ".join(f"{m.name} {m.score:.2f}" for m in report.weakest(3) if m.score < 1.0)
        return f"Score {report.composite:.3f}" + (f" (weakest: {weak})" if weak else "")

    @staticmethod
    def _delta(before: MetricReport, after: MetricReport) -> str:
        sign = "better" if after.composite > before.composite + 1e-9 else (
            "worse; 'undo' takes it back" if after.composite < before.composite - 1e-9 else "unchanged")
        moved = []
        for name, m in after.metrics.items():
            b = before.metrics.get(name)
            if b is not None and abs(m.score - b.score) >= SHOWN_DELTA:
                moved.append(f"{name} {b.score:.2f}→{m.score:.2f}")
        return (f"Score {before.composite:.3f} → {after.composite:.3f} ({sign})"
                + (f"; {', '.join(moved)}" if moved else "") + ".")

    def _write_preview(self, ids: list[str], *, force: bool = False) -> list[str]:
        if not (self.preview or force):
            return []

        known = [i for i in ids if i in self.document.layout]
        png = render_overlay_png(self.document, overlays=("boxes",), ids=known or None, max_size=self.preview_size)
        self._previews += 1
        target = self.out_dir / f"preview-{self.session.revision:03d}.png"
        write_output(target, png, inputs=self._inputs(), overwrite=True)
        return [str(target)]

    @staticmethod
    def _files_text(files: list[str]) -> str:
        return "".join(f"\nPreview: {f}" if f.endswith(".png") else f"\nWrote: {f}" for f in files)


def run_repl(assistant: ChatAssistant, *, read: Callable[[str], str] = input,
             write: Callable[[str], None] = print, prompt: str = "layout> ") -> int:
    """Read requests until ``quit`` or end of input; returns the number of turns.

    The pictures of the file are read in the background meanwhile (``requests.read_pictures_ahead``).
    """
    reading = read_pictures_ahead(assistant.document)
    try:
        return _repl(assistant, read, write, prompt)
    finally:
        if reading is not None:
            reading.stop()


def _repl(assistant: ChatAssistant, read: Callable[[str], str], write: Callable[[str], None], prompt: str) -> int:
    write(f"Layout assistant — {len(assistant.document.layout.elements)} elements, "
          f"{ChatAssistant._score_text(assistant._score())}. Type 'help' for commands.")
    turns = 0
    while True:
        try:
            line = read(prompt)
        except EOFError:
            write("")
            if assistant.dirty:
                write("Leaving with unsaved edits (end of input).")
            return turns
        except KeyboardInterrupt:
            write("\nInterrupted.")
            return turns
        turns += 1
        reply = assistant.handle(line)
        if reply.text:
            write(reply.text)
        if reply.quit:
            return turns


__all__ = ["ChatAssistant", "Reply", "run_repl", "HELP"]
