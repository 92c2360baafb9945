"""Safe parsing of SVG bytes into an lxml tree, with limits.

What is refused, each with one ``SvgImportError`` naming the source:

* files larger than ``ImportLimits.max_bytes`` (checked with ``stat`` before
  reading, and again while reading, so a 200 MB file is never loaded), and
  anything that is not a regular file (a FIFO, a device, a socket), which is
  never opened for a blocking read;
* gzip-compressed input (``.svgz``) is decompressed first, up to
  ``ImportLimits.max_decompressed_bytes``;
* empty input and input that is not well-formed XML (the message names the
  line);
* any ``<!ENTITY`` declaration: internal entities are how "billion laughs"
  payloads expand, external ones read files or URLs. A DOCTYPE that only names
  an external DTD (``<!DOCTYPE svg PUBLIC ... "svg11.dtd">``, common in real
  exports) is accepted; the DTD is never loaded;
* a root that is not ``<svg>`` (an HTML page, an arbitrary XML file);
* a namespace declared with a URI that is no URI (``xmlns:xlink="M 0 0 L 1 1"``);
* more than ``max_elements`` elements or nesting deeper than ``max_depth``,
  counted iteratively (no recursion, so depth cannot overflow the stack).
  libxml2 itself refuses documents nested deeper than 256 levels unless
  ``huge_tree`` is set (it is not), so that is the effective ceiling.

An undeclared namespace prefix (Illustrator writes ``i:pgf`` elements without
declaring ``i``) is the one well-formedness error tolerated: such a file is
parsed again in recovery mode, and only if every error is of that kind.

The parser runs with ``resolve_entities=False, no_network=True,
load_dtd=False, huge_tree=False``; comments, processing instructions, CDATA
and whitespace are kept so an unedited tree serialises back unchanged.
"""

from __future__ import annotations

import os
import re
import stat
import zlib
from pathlib import Path
from typing import Any

from lxml import etree

from assistant.errors import SvgImportError
from assistant.limits import DEFAULT_LIMITS, ImportLimits
from assistant.svg.tree import SvgNode

SVG_NS = "http://www.w3.org/2000/svg"

_ENTITY_RE = re.compile(rb"<!ENTITY", re.I)
_DOCTYPE_RE = re.compile(rb"<!DOCTYPE", re.I)


def read_svg_bytes(path: str | Path, limits: ImportLimits | None = None) -> bytes:
    """Read a regular file's bytes, refusing it by size before reading it all.

    Only regular files are read: a FIFO, a socket or a device named ``x.svg``
    is refused from its ``stat`` before it is opened, and the file is opened
    non-blocking and checked again (``fstat``) so a file swapped for a FIFO in
    between cannot block the read.
    """
    limits = limits or DEFAULT_LIMITS
    p = Path(path)
    try:
        _check_regular(p, os.stat(p).st_mode)
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise SvgImportError(p, "file not found") from None
    except IsADirectoryError:
        raise SvgImportError(p, "is a directory, not an SVG file") from None
    except OSError as exc:
        raise SvgImportError(p, f"cannot read the file: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        _check_regular(p, st.st_mode)
        if st.st_size > limits.max_bytes:
            raise SvgImportError(p, f"file is too large ({_mib(st.st_size)}; the limit is {_mib(limits.max_bytes)})")
        chunks: list[bytes] = []
        total = 0
        while total <= limits.max_bytes:
            chunk = os.read(fd, min(1 << 20, limits.max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise SvgImportError(p, f"cannot read the file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if total > limits.max_bytes:  # grew after stat
        raise SvgImportError(p, f"file is too large (more than {_mib(limits.max_bytes)})")
    return b"".join(chunks)


def _check_regular(p: Path, mode: int) -> None:
    if stat.S_ISDIR(mode):
        raise SvgImportError(p, "is a directory, not an SVG file")
    if not stat.S_ISREG(mode):
        kind = ("a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
        raise SvgImportError(p, f"is {kind}, not a regular file; only regular files are read")


#: The first bytes of gzip data (a ``.svgz`` file).
GZIP_MAGIC = b"\x1f\x8b"


def gunzip(data: bytes, source: str, limits: ImportLimits | None = None) -> bytes:
    """The decompressed bytes of gzip ``data`` (a ``.svgz`` file), refusing more than ``max_decompressed_bytes``.

    Decompression stops as soon as the limit is passed, so a gzip bomb costs
    no more memory than the limit.
    """
    limits = limits or DEFAULT_LIMITS
    cap = limits.max_decompressed_bytes
    out: list[bytes] = []
    total = 0
    rest = data
    try:
        while rest:
            inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
            chunk = inflater.decompress(rest, cap + 1 - total)
            while True:
                total += len(chunk)
                out.append(chunk)
                if total > cap:
                    raise SvgImportError(source, f"decompresses to more than {_mib(cap)}, the limit for "
                                                 "compressed SVG (.svgz)")
                if inflater.eof or not inflater.unconsumed_tail:
                    break
                chunk = inflater.decompress(inflater.unconsumed_tail, cap + 1 - total)
            if not inflater.eof:
                raise SvgImportError(source, "the compressed SVG (.svgz) is truncated")
            rest = inflater.unused_data
            if rest and not rest.startswith(GZIP_MAGIC):
                break  # trailing garbage after the last member is ignored, as gzip does
    except zlib.error as exc:
        raise SvgImportError(source, f"not valid compressed SVG (.svgz): {exc}") from None
    return b"".join(out)


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MiB"


def _decoded_prolog(data: bytes) -> bytes:
    """The start of the document as ASCII-compatible bytes (UTF-16/32 decoded) for DTD checks."""
    head = data[: 1 << 20]
    for bom, enc in ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
                     (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if head.startswith(bom):
            return head.decode(enc, errors="replace").encode("utf-8", errors="replace")
    if head[:2] in (b"<\x00", b"\x00<"):
        enc = "utf-16-le" if head[:2] == b"<\x00" else "utf-16-be"
        return head.decode(enc, errors="replace").encode("utf-8", errors="replace")
    return head


def _make_parser(recover: bool = False) -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
        huge_tree=False, remove_blank_text=False, remove_comments=False, remove_pis=False,
        strip_cdata=False, recover=recover,
    )


def _only_namespace_errors(log: Any) -> bool:
    errors = [e for e in log if e.level_name in ("ERROR", "FATAL")]
    return bool(errors) and all(e.domain_name == "NAMESPACE" for e in errors)


def _parse_xml(data: bytes, source: str) -> SvgNode:
    """Parse ``data`` strictly and return the root node.

    An undeclared namespace prefix (as in Illustrator's ``i:`` attributes) is the
    one error tolerated: the element keeps its prefixed name, as browsers do.
    """
    parser = _make_parser()
    try:
        return etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        # the parser's own log: the exception's may also hold earlier parses' errors
        if not _only_namespace_errors(parser.error_log):
            raise SvgImportError(source, _syntax_message(exc, parser.error_log)) from None
    parser = _make_parser(recover=True)
    root = etree.fromstring(data, parser)
    if root is None or not _only_namespace_errors(parser.error_log):
        raise SvgImportError(source, "malformed XML: the document could not be parsed")
    return root


def parse_svg_bytes(data: bytes | str, source: str = "<string>",
                    limits: ImportLimits | None = None) -> etree._ElementTree:
    """Parse SVG text safely into an ``lxml.etree._ElementTree`` (see the module docstring)."""
    limits = limits or DEFAULT_LIMITS
    if isinstance(data, str):
        data = data.encode("utf-8")
        text_input = True
    else:
        text_input = False
    if len(data) > limits.max_bytes:
        raise SvgImportError(source, f"input is too large ({_mib(len(data))}; the limit is {_mib(limits.max_bytes)})")
    if data.startswith(GZIP_MAGIC):
        data = gunzip(data, source, limits)
    if not data.strip():
        raise SvgImportError(source, "the file is empty")
    prolog = _decoded_prolog(data)
    if _DOCTYPE_RE.search(prolog) and _ENTITY_RE.search(prolog):
        raise SvgImportError(source, "the document declares XML entities (<!ENTITY>); "
                                     "entity declarations are refused for safety")
    if text_input:
        # A str was given: drop an XML declaration naming another encoding, now wrong.
        data = re.sub(rb"^\s*<\?xml[^>]*?\?>", b"", data, count=1)
    try:
        tree = etree.ElementTree(_parse_xml(data, source))
    except ValueError as exc:  # e.g. unicode strings with an encoding declaration
        raise SvgImportError(source, f"not a readable XML document ({exc})") from None
    _check_doctype(tree, source)
    _check_root(tree.getroot(), source)
    check_size(tree.getroot(), source, limits)
    _check_namespaces(tree.getroot(), source)
    return tree


def _check_namespaces(root: Any, source: str) -> None:
    """Refuse a namespace URI lxml will not build elements with (``xmlns:xlink="M 0 0 L 1 1"``).

    Edits that rebuild nodes, and their undo, would fail half-way on it.
    """
    seen: dict[str, str | None] = {}
    for el in root.iter():
        if isinstance(el.tag, str):
            for prefix, uri in el.nsmap.items():
                seen.setdefault(uri, prefix)
    for uri, prefix in seen.items():
        try:
            etree.Element(f"{{{uri}}}x")
        except ValueError:
            where = f"xmlns:{prefix}" if prefix else "xmlns"
            shown = uri if len(uri) <= 60 else uri[:57] + "..."
            raise SvgImportError(source, f"{where}={shown!r} is not a valid namespace URI") from None


def _syntax_message(exc: etree.XMLSyntaxError, log: Any = None) -> str:
    first = next((e for e in (log or []) if e.level_name in ("ERROR", "FATAL")), None)
    if first is not None:
        msg, line = first.message.strip(), first.line
    else:
        msg = str(exc.msg or exc).strip()
        line = exc.lineno if exc.lineno else (exc.position[0] if exc.position else None)
    low = msg.lower()
    if "excessive depth" in low or "depth" in low and "huge" in low:
        return f"element nesting is too deep for a safe parse (line {line}): {msg}"
    if "document is empty" in low or "start tag expected" in low and line in (None, 1):
        return "not an XML document (no root element found)"
    if "entity" in low and ("amplification" in low or "loop" in low):
        return f"entity expansion refused (line {line}): {msg}"
    where = f"line {line}" if line else "unknown line"
    return f"malformed XML at {where}: {msg}"


def _check_doctype(tree: etree._ElementTree, source: str) -> None:
    dtd = tree.docinfo.internalDTD
    if dtd is not None and list(dtd.iterentities()):
        raise SvgImportError(source, "the document declares XML entities (<!ENTITY>); "
                                     "entity declarations are refused for safety")
    for node in tree.getroot().iter(etree.Entity):
        raise SvgImportError(source, f"the document uses an entity reference ({node.text}) that is refused for safety")


def _check_root(root: SvgNode, source: str) -> None:
    tag = root.tag if isinstance(root.tag, str) else ""
    if tag.startswith("{"):  # Clark notation; a namespace URI may itself hold "}"
        cut = tag.rfind("}")
        ns, local = tag[1:cut], tag[cut + 1:]
    else:
        ns, local = None, tag
    if local != "svg" or ns not in (SVG_NS, None):
        shown = f"<{local}>" if local else "no element"
        where = f" in namespace {ns}" if ns else ""
        raise SvgImportError(source, f"not an SVG document: the root element is {shown}{where}, not <svg>")


def check_size(root: SvgNode, source: str, limits: ImportLimits) -> None:
    """Refuse trees with too many elements or too deep nesting (iterative walk)."""
    count = 0
    depth = 0
    for event, _node in etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            count += 1
            depth += 1
            if count > limits.max_elements:
                raise SvgImportError(source, f"too many elements (more than {limits.max_elements})")
            if depth > limits.max_depth:
                raise SvgImportError(source, f"elements are nested too deeply (more than {limits.max_depth} levels)")
        else:
            depth -= 1
