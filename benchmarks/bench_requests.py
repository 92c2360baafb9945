"""Designer requests in plain words through the offline chat: met, wrong edits, other elements moved, seconds.

Each row of a request file (``../shared/requests/*.tsv``, the development set;
``tests/data/requests_heldout/*.tsv``, written apart in other voices, measured
as written before anything was changed because of them; batches 3 to 14,
``*_c.tsv`` to ``*_n.tsv``, are on real files of ``../shared/corpus``) is a
request and a Python check over the boxes before (``b``) and
after (``a``) the edit, as ``../shared/tools/requests_eval.py`` defines them:
the request goes to ``ChatAssistant.handle`` (what ``layout-assistant chat
--once`` runs) on a fresh import of the file; when the turn edits, the SVG is
written and imported again, so the boxes are the importer's, as a person's
tools would see them (an element of the file that the new import draws inside a
larger unit — two words set close enough to read as one line — keeps the box of
its own nodes); a turn that writes nothing leaves ``a`` equal to ``b``.

Columns: *met* (checks that hold), *other moved* (elements the check does not
name that moved more than 1 unit, summed; the members of a named group, the
groups around a named element, whose boxes follow it, the other parts of a unit the importer made
around a named element (a title's shadow) and the groups the importer made, which are not in the file,
are not counted), *wrong edits* (turns that edited and
either missed the check or moved an element it does not name), *asked*
(questions, "not understood" and "no such element" answers: no edit), *incl. members* (other
moved as ``requests_eval.py`` counts it, where the backdrop and label of a moved button count as
two other elements), *s/request*
(mean wall time of one turn in process, with the model loaded only when a
request needs it; the CLI adds Python's start-up) and *model* (turns the
understander passed to the local model).

Same command by hand: ``python -m benchmarks.bench_requests [FILES…] [--verbose]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.app.chat import ChatAssistant
from assistant.app.formats import export
from assistant.geometry import Box
from assistant.importer import import_svg, import_svg_text
from assistant.importer.walk import TEXTS, Walker
from assistant.limits import DEFAULT_LIMITS
from assistant.planners import get_planner
from assistant.svg.tree import NON_RENDERED, local_name

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("LAYOUT_ASSISTANT_SHARED", ROOT.parent / "shared"))
DEV = SHARED / "requests"
HELDOUT = ROOT / "tests" / "data" / "requests_heldout"


def real_files() -> list[Path]:
    """Batches 3 to 49 of the held-out set (``*_c.tsv`` … ``*_z.tsv``, ``*_za.tsv`` … ``*_zw.tsv``): real files."""
    batches = [*"cdefghijklmnopqrstuvwxyz", *(f"z{c}" for c in "abcdefghijklmnopqrstuvw")]
    return [p for batch in batches for p in sorted(HELDOUT.glob(f"*_{batch}.tsv"))]


@dataclass
class Case:
    """One request of a file, with its check."""

    svg: Path
    request: str
    check: str


def _area(b: tuple[float, ...]) -> float:
    return b[2] * b[3]


def _cx(b: tuple[float, ...]) -> float:
    return b[0] + b[2] / 2


def _cy(b: tuple[float, ...]) -> float:
    return b[1] + b[3] / 2


def read_cases(tsv: Path) -> list[Case]:
    """The requests of a TSV file; the SVG is ``# file: PATH`` (from the project root) or ``examples/<stem>.svg``."""
    lines = tsv.read_text(encoding="utf-8").splitlines()
    svg = ROOT / "examples" / f"{tsv.stem}.svg"
    for ln in lines:
        if ln.startswith("# file:"):
            svg = (ROOT / ln.split(":", 1)[1].strip()).resolve()
    cases = []
    for ln in lines:
        if not ln.strip() or ln.startswith("#"):
            continue
        request, check = ln.split("\t")
        cases.append(Case(svg, request, check))
    return cases


def boxes(doc: Any) -> dict[str, tuple[float, float, float, float]]:
    """Element id → (x, y, width, height)."""
    return {e.id: e.box.as_tuple() for e in doc.layout.elements}


def _drawn_by(layout: Any, e: Any) -> frozenset[str]:
    return frozenset(n for x in [e, *layout.descendants_of(e.id)] for n in x.nodes)


def boxes_after(before: Any, after: Any) -> dict[str, tuple[float, float, float, float]]:
    """The boxes of ``after`` (the edited file, imported again) under the ids ``before`` gave them.

    Ids the importer makes up (``la-cluster-2``) are numbered in the order it finds the units, which an edit may
    change (the compass moved left of the wordmark is now ``la-cluster-1``): such an element is the one that draws
    the same nodes of the file.
    """
    out = boxes(after)
    drawn = {_drawn_by(after.layout, e): e.id for e in after.layout.elements if e.id.startswith("la-")}
    for e in before.layout.elements:
        if not e.id.startswith("la-") or not (key := _drawn_by(before.layout, e)):
            continue
        if key in drawn:
            out[e.id] = after.layout.get(drawn[key]).box.as_tuple()
            continue
        # units the importer now draws apart (the letters of a wordmark moved away from their compass): their union
        parts = [x for x in after.layout.elements if x.nodes and set(x.nodes) <= key]
        if parts and {n for x in parts for n in x.nodes} == key:
            x0, y0 = min(x.box.x for x in parts), min(x.box.y for x in parts)
            x1, y1 = max(x.box.x2 for x in parts), max(x.box.y2 for x in parts)
            out[e.id] = (x0, y0, x1 - x0, y1 - y0)
        else:
            out.pop(e.id, None)  # not to be read as another unit that took its number
    # an element of the file that the importer now draws as part of a larger unit ("DConf" and "2018" set 20px
    # apart read as one line): the box of its own nodes, measured as the importer measures a drawn node
    walker = None
    drawn_nodes = {n for x in after.layout.elements for n in x.nodes}
    for e in before.layout.elements:
        if e.id in out or e.id.startswith("la-") or not e.nodes or e.children:
            continue
        try:
            nodes = [after.node(n) for n in e.nodes]
        except Exception:  # noqa: BLE001 - a node the edit took away: no box
            continue
        if not all(any(a.get("id") in drawn_nodes for a in [n, *n.iterancestors()]) for n in nodes):
            continue
        walker = walker or Walker(after.root, "", DEFAULT_LIMITS)
        found = [b for n in nodes for d in _drawn_leaves(n) if (b := walker.leaf_box(d)) is not None]
        if found:
            out[e.id] = Box.union_all(found).as_tuple()
    return out


def _drawn_leaves(node: Any) -> list[Any]:
    """The node and what it holds that draws on its own: a text's runs and a flowed text's frame are the text's."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        name = local_name(n)
        if name is None or name in NON_RENDERED:
            continue
        out.append(n)
        if name not in TEXTS:
            stack.extend(n)
    return out


class _LazyModel:
    """The local model, loaded the first time a turn needs it (and counted).

    That is the bundled model unless ``model`` and ``adapter`` name GGUF files.
    """

    def __init__(self, model: str | None = None, adapter: str | None = None) -> None:
        self.planner: Any = None
        self.calls = 0
        self.options = {k: v for k, v in (("model", model), ("adapter", adapter)) if v}

    def __call__(self) -> Any:
        self.calls += 1
        if self.planner is None:
            self.planner = get_planner("local", samples=4, **self.options)
        return self.planner


def run_case(case: Case, model: Any, out: Path, *, rules: bool = True) -> dict[str, Any]:
    """One request through the chat; the check's verdict and what else moved.

    ``rules=False`` passes every request to the model (the understander is skipped).
    """
    doc = import_svg(case.svg)
    b = boxes(doc)
    c = doc.layout.canvas
    chat = ChatAssistant(doc, model=model, out_dir=out, input_path=case.svg, samples=4, preview=False, rules=rules)
    t0 = time.perf_counter()
    reply = chat.handle(case.request)
    took = time.perf_counter() - t0
    a = b
    if reply.edited:
        data = export(chat.document, "svg")
        a = boxes_after(doc, import_svg_text(data.decode() if isinstance(data, bytes) else data,
                                             source=case.svg.name))
    env = {"a": a, "b": b, "W": c.width, "H": c.height, "area": _area, "cx": _cx, "cy": _cy}
    try:
        met = bool(eval(case.check, env))  # noqa: S307 - the checks are this project's own data files
    except Exception:  # noqa: BLE001 - a check that cannot be evaluated (a missing element) is not met
        met = False
    named = [k for k in b if f"'{k}'" in case.check]
    moved = [k for k in b if k in a and k not in named and max(abs(p - q) for p, q in zip(a[k], b[k])) > 1.0]
    # a button's backdrop and label move with the button: members of a named group are not "other" elements;
    # nor is a group whose box follows a named member (the section of a heading made bigger)
    members = {d.id for k in named if k in doc.layout for d in doc.layout.descendants_of(k)}
    for k in named:
        parent = doc.layout.get(k).group if k in doc.layout else None
        while parent is not None:
            members.add(parent)
            if parent.startswith("la-"):  # a unit the importer made (a title and its shadow): its parts go together
                members.update(d.id for d in doc.layout.descendants_of(parent))
            parent = doc.layout.get(parent).group
    # nor is a group the importer made, which is not in the file (its box follows its members, and an import
    # of the edited file may draw it round other members)
    members.update(k for k in b if k.startswith("la-") and doc.layout.get(k).kind == "group")
    return {"request": case.request, "met": met, "moved": [k for k in moved if k not in members],
            "moved_raw": moved, "edited": reply.edited, "seconds": took,
            "reply": reply.text.splitlines()[0] if reply.text else ""}


def evaluate_files(files: list[Path], *, verbose: bool = False, rules: bool = True, model_path: str | None = None,
                   adapter: str | None = None) -> dict[str, Any]:
    """Run every case of ``files``; totals and per-case rows (``rules=False``: the model alone).

    ``model_path`` and ``adapter`` name the local model's GGUF files (default: the bundled model).
    """
    model = _LazyModel(model_path, adapter)
    out = Path(os.environ.get("TMPDIR", "/tmp")) / "bench-requests"
    rows = []
    for tsv in files:
        for case in read_cases(tsv):
            if not case.svg.is_file():
                continue
            row = run_case(case, model, out, rules=rules)
            rows.append(row)
            if verbose:
                print(f"{'MET ' if row['met'] else 'miss'} | {case.request[:58]:58s} | moved {len(row['moved'])} | "
                      f"{row['seconds']:.2f}s | {row['reply'][:100]}", file=sys.stderr)
    n = len(rows)
    return {
        "requests": n, "met": sum(r["met"] for r in rows),
        "other_moved": sum(len(r["moved"]) for r in rows),
        "other_moved_raw": sum(len(r["moved_raw"]) for r in rows),
        "wrong_edits": sum(1 for r in rows if r["edited"] and (not r["met"] or r["moved"])),
        "asked": sum(1 for r in rows if not r["edited"]),
        "seconds": sum(r["seconds"] for r in rows) / max(n, 1),
        "model": model.calls, "rows": rows,
    }


def _row(name: str, res: dict[str, Any]) -> dict[str, Any]:
    n = max(res["requests"], 1)
    return {"set": name, "requests": res["requests"], "met": res["met"], "met %": 100.0 * res["met"] / n,
            "other moved": res["other_moved"], "incl. members": res["other_moved_raw"],
            "wrong edits": res["wrong_edits"],
            "wrong %": 100.0 * res["wrong_edits"] / n, "asked": res["asked"], "s/request": res["seconds"],
            "model": res["model"]}


def run() -> list[dict[str, Any]]:
    """Rows for BENCHMARKS.md: the development set (when ``../shared`` is there) and the held-out set."""
    rows = []
    if DEV.is_dir():
        rows.append(_row("../shared/requests (development)", evaluate_files(sorted(DEV.glob("*.tsv")))))
    real = real_files()
    rows.append(_row("tests/data/requests_heldout, batches 1-2 (examples and three real files)",
                     evaluate_files([p for p in sorted(HELDOUT.glob("*.tsv")) if p not in real])))
    if DEV.is_dir():  # batches 3 and later are on ../shared/corpus files
        later = {letter: sorted(HELDOUT.glob(f"*_{letter}.tsv")) for letter in _LATER}
        rows.append(_row("tests/data/requests_heldout, batches 3-8 (real files, ids that say nothing)",
                         evaluate_files([p for p in real if not any(p in files for files in later.values())])))
        for letter, (number, what) in _LATER.items():
            rows.append(_row(f"tests/data/requests_heldout, batch {number} ({what})", evaluate_files(later[letter])))
    return rows


#: The batches after the eighth, each by a new writer: the letter of their files, their number, what they are.
_LATER = {
    "i": (9, "eight real files, a seventh writer"), "j": (10, "eight other real files, an eighth writer"),
    "k": (11, "eight more real files, a ninth writer"), "l": (12, "eight real files used least, a tenth writer"),
    "m": (13, "eight more real files, an eleventh writer"), "n": (14, "eight more real files, a twelfth writer"),
    "o": (15, "eight more real files, a thirteenth writer"),
    "p": (16, "eight more real files, a fourteenth writer"),
    "q": (17, "eight more real files, a fifteenth writer"),
    "r": (18, "eight real files used least, a sixteenth writer"),
    "s": (19, "the other eight used least, a seventeenth writer"),
    "t": (20, "eight real files used least, an eighteenth writer"),
    "u": (21, "the other eight used least, a nineteenth writer"),
    "v": (22, "eight real files used least, a twentieth writer"),
    "w": (23, "the other eight used least, a twenty-first writer"),
    "x": (24, "eight real files used least, a twenty-second writer"),
    "y": (25, "eight more real files, a twenty-third writer"),
    "z": (26, "eight real files used least, a twenty-fourth writer"),
    "za": (27, "eight more real files, a twenty-fifth writer"),
    "zb": (28, "eight real files used least, a twenty-sixth writer"),
    "zc": (29, "eight more real files, a twenty-seventh writer"),
    "zd": (30, "eight real files used least, a twenty-eighth writer"),
    "ze": (31, "eight more real files, a twenty-ninth writer"),
    "zf": (32, "eight real files used least, a thirtieth writer"),
    "zg": (33, "eight more real files, a thirty-first writer"),
    "zh": (34, "eight real files used least, a thirty-second writer"),
    "zi": (35, "eight more real files, a thirty-third writer"),
    "zj": (36, "eight real files used least, a thirty-fourth writer"),
    "zk": (37, "eight more real files, a thirty-fifth writer"),
    "zl": (38, "eight real files used least, a thirty-sixth writer"),
    "zm": (39, "eight more real files, a thirty-seventh writer"),
    "zn": (40, "eight real files used least, a thirty-eighth writer"),
    "zo": (41, "eight more real files, a thirty-ninth writer"),
    "zp": (42, "eight real files used least, a fortieth writer"),
    "zq": (43, "eight more real files, a forty-first writer"),
    "zr": (44, "eight real files used least, a forty-second writer"),
    "zs": (45, "eight more real files, a forty-third writer"),
    "zt": (46, "eight real files used least, a forty-fourth writer"),
    "zu": (47, "eight more real files, a forty-fifth writer"),
    "zv": (48, "eight real files used least, a forty-sixth writer"),
    "zw": (49, "eight more real files, a forty-seventh writer"),
}


def main(argv: list[str] | None = None) -> int:
    """Command line: evaluate the given TSV files (default: both sets) and print the totals."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path, help="request TSV files (default: both sets)")
    ap.add_argument("--verbose", "-v", action="store_true", help="one line per request")
    ap.add_argument("--model-only", action="store_true",
                    help="pass every request to the local model, skipping the understander")
    ap.add_argument("--model", help="GGUF of the local model (default: the bundled one)")
    ap.add_argument("--adapter", help="GGUF LoRA adapter over --model")
    args = ap.parse_args(argv)
    models = {"model_path": args.model, "adapter": args.adapter}
    if args.model_only:
        files = args.files or [*sorted(DEV.glob("*.tsv")), *sorted(HELDOUT.glob("*.tsv"))]
        for name, group in (("development", [f for f in files if f.resolve().parent == DEV.resolve()]),
                            ("held-out", [f for f in files if f.resolve().parent != DEV.resolve()])):
            if group:
                res = evaluate_files(group, verbose=args.verbose, rules=False, **models)
                print({k: v for k, v in _row(f"{name}, model only", res).items()})
        return 0
    if not args.files:
        for r in run():
            print(r)
        return 0
    res = evaluate_files(args.files, verbose=args.verbose, **models)
    print({k: v for k, v in _row(" ".join(f.stem for f in args.files), res).items()})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
