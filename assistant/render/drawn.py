"""Words drawn in pictures: what a logo, a badge or lettering set as outlines says, read from its render.

A designer names a sponsor's logo by its name ("the DFG logo", "the Travis CI logo") and a badge by what it
says ("the cc-by badge"), though the file holds only a picture or a heap of paths with no text in it. This
module renders such an element alone (everything else cut from a copy of the tree), on white, or on black where
its own ink is light, and reads the words in it with an optical character reader (RapidOCR: PP-OCR detection and
recognition models that ship inside its wheel, run by ONNX Runtime on the CPU; no download).

:func:`drawn_words` returns the words read per element id. Results are cached in the process by what the
element draws (its markup and size), so a picture read once is not read again while it is unchanged, and on
disk (one small file per picture under the user's cache folder, see :func:`cache_dir`), so a poster opened
again tomorrow is not read again either. Where the reader is not installed (``pip install
'layout-assistant[see]'``), nothing is read and the answer is empty: a request then names pictures only by what
their ids, labels and neighbours say.

Reading a picture takes a render and a pass of the reader, 0.2–1 s each on two cores; a large poster has
twenty. :func:`read_ahead` reads them in a thread of its own while the user looks at the file and types (the
interactive chat starts it when a file is opened); a request that needs a picture being read waits for that
read instead of doing it again.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import os
import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np
from lxml import etree

from assistant.document import Document, Element
from assistant.errors import ExportError
from assistant.geometry import Box
from assistant.render.raster import render_image
from assistant.svg.tree import local_name

log = logging.getLogger(__name__)

#: Longest side of an element's render (px); shorter renders read faster, and logos still read at this size.
READ_SIDE = 640
#: Shortest side (px): a thin wordmark is drawn at least this tall.
MIN_SIDE = 48
#: Recognition confidence a word needs to count.
MIN_CONFIDENCE = 0.8
#: Most lines read in one element: the tallest (a screenshot full of small print is named by its big words).
MAX_LINES = 8
#: Most elements read for one request.
MAX_READ = 24
_CACHE_SIZE = 512
#: What decides the words read besides the picture: a change of any of these reads every picture again.
_READING = f"rapidocr-1.4.4 side={READ_SIDE} min={MIN_SIDE} conf={MIN_CONFIDENCE} lines={MAX_LINES} v1"
#: Most files kept in the cache folder; the oldest go first.
DISK_ENTRIES = 20_000

_cache: OrderedDict[str, str] = OrderedDict()
_lock = threading.Lock()
#: Keys being read now, by any thread: another thread that needs one waits for it.
_reading: dict[str, threading.Event] = {}
_engine: Any = None
_engine_failed = False
_engine_lock = threading.Lock()


def _reader() -> Any:
    global _engine, _engine_failed
    if _engine is None and not _engine_failed:
        try:
            from rapidocr_onnxruntime import RapidOCR  # optional: the ``see`` extra
        except ImportError:  # the reader is not installed: nothing is read
            _engine_failed = True
            return None
        # detection on the render's longest side (a wordmark 20:1 is not blown up to 736 px tall); no rotation
        _engine = RapidOCR(det_limit_side_len=READ_SIDE, det_limit_type="max", use_cls=False)
    return _engine


def nodes_of(doc: Document, element: Element) -> list[str]:
    """The ids of the XML nodes that draw ``element`` and its members."""
    return [n for e in [element, *doc.layout.descendants_of(element.id)] for n in e.nodes]


def _key(doc: Document, element: Element, by_id: dict[str, etree._Element]) -> str:
    h = hashlib.sha1(_READING.encode())
    for xml_id in nodes_of(doc, element):
        node = by_id.get(xml_id)
        if node is not None:
            h.update(etree.tostring(node))
    b = element.box
    h.update(f"{b.width:.3g}x{b.height:.3g}".encode())
    return h.hexdigest()


_REF = re.compile(r"#([^\s)'\"]+)")


def alone(doc: Document, element: Element) -> etree._ElementTree:
    """A copy of ``doc``'s tree with only ``element`` drawn: its nodes, what holds them and what they refer to.

    Everything else is cut from the copy (not hidden), so a poster of embedded screenshots is not parsed again
    for each logo read; definitions (gradients, clips, patterns) stay.
    """
    tree = copy.deepcopy(doc.tree)
    root = tree.getroot()
    by_id = {n.get("id"): n for n in root.iter() if isinstance(n.tag, str) and n.get("id")}
    keep: set[etree._Element] = set()
    todo = [by_id[n] for n in nodes_of(doc, element) if n in by_id]
    while todo:
        node = todo.pop()
        if node in keep:
            continue
        keep.update(node.iterancestors())
        for sub in node.iter():
            keep.add(sub)
            if isinstance(sub.tag, str):
                for value in sub.attrib.values():
                    todo.extend(by_id[r] for r in _REF.findall(value) if r in by_id and by_id[r] not in keep)
    for node in list(root.iter()):
        if node is root or node in keep or not isinstance(node.tag, str) or node.getparent() is None:
            continue
        if any(local_name(a) in ("defs", "style") for a in [node, *node.iterancestors()]):
            continue  # definitions and stylesheets stay
        node.getparent().remove(node)
    return tree


def _size(box: Box) -> tuple[int, int]:
    scale = READ_SIDE / max(box.width, box.height)
    scale = max(scale, MIN_SIDE / max(min(box.width, box.height), 1e-9))
    scale = min(scale, READ_SIDE * 2 / max(box.width, box.height))
    return max(int(box.width * scale), 8), max(int(box.height * scale), 8)


def _on_ground(rgba: np.ndarray) -> np.ndarray:
    """The render on white, or on black where its ink is mostly light (a white logo for a dark band)."""
    arr = rgba.astype(np.float32)
    alpha = arr[..., 3:] / 255.0
    ink = alpha.sum()
    light = float((arr[..., :3].mean(axis=2, keepdims=True) * alpha).sum() / ink) if ink > 0 else 0.0
    ground = 0.0 if light > 200 else 255.0
    return (arr[..., :3] * alpha + ground * (1.0 - alpha)).astype(np.uint8)


def _read(engine: Any, image: np.ndarray) -> list[tuple[str, float]]:
    """The lines found in ``image`` (at most :data:`MAX_LINES`, the tallest, in reading order), read."""
    image, _h, _w = engine.preprocess(image)
    image, _record = engine.maybe_add_letterbox(image, {})
    boxes, _elapsed = engine.auto_text_det(image)
    if boxes is None or len(boxes) == 0:
        return []
    tall = sorted(range(len(boxes)), key=lambda k: -float(np.linalg.norm(boxes[k][0] - boxes[k][3])))[:MAX_LINES]
    crops = engine.get_crop_img_list(image, [boxes[k] for k in sorted(tall)])
    lines, _elapsed = engine.text_rec(crops)
    return [(str(line[0]), float(line[1])) for line in lines]


def _words(lines: list[tuple[str, float]]) -> str:
    found = []
    for text, confidence in lines:
        text = text.strip()
        if confidence >= MIN_CONFIDENCE and sum(ch.isalnum() for ch in text) >= 2:
            found.append(text)
    return re.sub(r"\s+", " ", " ".join(found)).strip()


def cache_dir() -> Path:
    """Where words read from pictures are kept between runs.

    ``$LAYOUT_ASSISTANT_HOME/cache/drawn-words`` when that is set, else ``$XDG_CACHE_HOME/layout-assistant/
    drawn-words`` (``~/.cache/layout-assistant/drawn-words``).
    """
    home = os.environ.get("LAYOUT_ASSISTANT_HOME")
    if home:
        return Path(home) / "cache" / "drawn-words"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "layout-assistant" / "drawn-words"


def _disk_get(key: str) -> str | None:
    try:
        return (cache_dir() / key[:2] / key).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _disk_put(key: str, text: str) -> None:
    """Keep ``text`` on disk (written whole or not at all); a cache that cannot be written is no cache."""
    folder = cache_dir() / key[:2]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{key}.{os.getpid()}.{threading.get_ident()}"
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, folder / key)
        if int(key[2:6], 16) % 512 == 0:  # now and then: keep the folder to its size
            _prune(cache_dir())
    except OSError as exc:
        log.debug("words of a picture not kept on disk: %s", exc)


def _prune(root: Path) -> None:
    files = [f for f in root.glob("*/*") if not f.name.startswith(".")]
    if len(files) <= DISK_ENTRIES:
        return
    files.sort(key=lambda f: f.stat().st_mtime)
    for f in files[: len(files) - DISK_ENTRIES]:
        f.unlink(missing_ok=True)


def _remember(key: str, text: str) -> None:
    with _lock:
        _cache[key] = text
        _cache.move_to_end(key)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def _known(key: str) -> str | None:
    """The words read for ``key`` before (in this process or on disk), or None."""
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    text = _disk_get(key)
    if text is not None:
        _remember(key, text)
    return text


def _read_element(engine: Any, doc: Document, element: Element) -> str:
    width, height = _size(element.box)
    try:
        image = render_image(alone(doc, element), region=element.box, width=width, height=height)
        ground = _on_ground(np.asarray(image.convert("RGBA")))
        with _engine_lock:  # one reader, one picture at a time (the chat's thread and the one reading ahead)
            return _words(_read(engine, ground))
    except ExportError as exc:  # a picture that cannot be rendered says nothing
        log.debug("%s: %s not read: %s", doc.source, element.id, exc)
    except Exception as exc:  # noqa: BLE001 - the reader's own failure on odd pixels: the picture says nothing
        log.warning("%s: the words in %s could not be read (%s: %s)", doc.source, element.id,
                    type(exc).__name__, exc)
    return ""


def drawn_words(doc: Document, ids: list[str], stop: threading.Event | None = None) -> dict[str, str]:
    """The words drawn in each of ``ids`` (elements of ``doc``), where any can be read; see the module docstring.

    ``stop``: once set, no further picture is read (what was read stays).
    """
    engine = _reader()
    if engine is None or not ids:
        return {}
    by_id = {n.get("id"): n for n in doc.root.iter() if isinstance(n.tag, str) and n.get("id")}
    out: dict[str, str] = {}
    waiting: list[tuple[Element, str, threading.Event]] = []
    for eid in ids[:MAX_READ]:
        if stop is not None and stop.is_set():
            break
        if eid not in doc.layout:
            continue
        element = doc.layout.get(eid)
        if element.box.width <= 0 or element.box.height <= 0:
            continue
        key = _key(doc, element, by_id)
        text = _known(key)
        if text is None:
            with _lock:
                other = _reading.get(key)
                if other is None:
                    mine = _reading[key] = threading.Event()
            if other is not None:  # another thread reads it now: take its answer below
                waiting.append((element, key, other))
                continue
            try:
                text = _read_element(engine, doc, element)
                _remember(key, text)
                _disk_put(key, text)
            finally:
                with _lock:
                    _reading.pop(key, None)
                mine.set()
        if text:
            out[eid] = text
    for element, key, event in waiting:
        event.wait()
        text = _known(key)
        if text is None:  # the other reader failed outright: read it here
            text = _read_element(engine, doc, element)
            _remember(key, text)
        if text:
            out[element.id] = text
    return out


class ReadAhead:
    """Pictures being read in a thread of its own (see :func:`read_ahead`)."""

    def __init__(self, doc: Document, ids: list[str]) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=drawn_words, args=(doc, ids, self._stop), name="read-pictures",
                                        daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> None:
        """Wait until every picture is read."""
        self._thread.join(timeout)

    def stop(self) -> None:
        """Read no further picture and wait for the one being read (a second or so): before the program ends."""
        self._stop.set()
        self._thread.join()


def read_ahead(doc: Document, ids: list[str]) -> ReadAhead | None:
    """Read the words of ``ids`` in a thread of its own (None when there is nothing to read or no reader).

    It reads a copy of ``doc`` made now, so edits made meanwhile do not touch what it reads; what it finds is
    kept by what each picture draws, so it serves ``doc`` as long as the picture is unchanged. Call ``stop()``
    before the program ends (a reader still running then brings the process down).
    """
    if not ids or _reader() is None:
        return None
    return ReadAhead(doc.copy(), list(ids))


__all__ = ["MAX_READ", "ReadAhead", "alone", "cache_dir", "drawn_words", "nodes_of", "read_ahead"]
