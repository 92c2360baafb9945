"""Import speed and result per OSGeo flyer: elements, roles found, import time.

Run: ``python -m benchmarks.bench_import`` (prints the rows); ``benchmarks/run.py``
calls ``run()``. Each file is imported from its bytes (reading the file is not
timed) with ``assistant.importer.build.import_svg_text``; the time is CPU time
(``time.process_time``, best of three), so that other work on a shared machine
does not count; the decoded pictures are forgotten before each run
(``svg_image.forget_decoded``), so every run pays for decoding them, as a first
import does. ``elements`` counts every layout element (groups and their
children included); ``roles`` lists how many elements got each role.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path

from assistant.importer import import_svg_text
from assistant.svg.image import forget_decoded

#: XML elements of the synthetic pages (the limit is 50 000).
SYNTHETIC_SIZES = (8_000, 49_000)
#: Paths of the synthetic map (all in one group, as an exported map or chart has them).
MAP_PATHS = 49_000
CORPUS = Path(os.environ.get("LAYOUT_ASSISTANT_SHARED", Path(__file__).resolve().parents[2] / "shared")) / "corpus"
REPEATS = 3


def run() -> list[dict]:
    """One row per OSGeo flyer: elements, roles found and the best import time of ``REPEATS``."""
    rows: list[dict] = []
    for path in sorted((CORPUS / "osgeo").glob("*.svg")):
        data = path.read_bytes()
        best = float("inf")
        doc = None
        for _ in range(REPEATS):
            forget_decoded()
            t0 = time.process_time()
            doc = import_svg_text(data, source=str(path))
            best = min(best, time.process_time() - t0)
        assert doc is not None
        roles = Counter(e.role for e in doc.layout)
        rows.append({
            "file": path.name,
            "KiB": round(len(data) / 1024),
            "elements": len(doc.layout),
            "roles": ", ".join(f"{r} {n}" for r, n in sorted(roles.items())),
            "import ms": best * 1000.0,
        })
    pages = [(f"synthetic page, {n} XML elements", synthetic_page(n)) for n in SYNTHETIC_SIZES]
    pages.append((f"synthetic map, {MAP_PATHS} paths in one group", synthetic_map(MAP_PATHS)))
    for name, text in pages:
        data = text.encode("utf-8")
        forget_decoded()
        t0 = time.process_time()
        doc = import_svg_text(data, source="synthetic.svg")
        seconds = time.process_time() - t0
        roles = Counter(e.role for e in doc.layout)
        rows.append({
            "file": name,
            "KiB": round(len(data) / 1024),
            "elements": len(doc.layout),
            "roles": ", ".join(f"{r} {k}" for r, k in sorted(roles.items())),
            "import ms": seconds * 1000.0,
        })
    return rows


def synthetic_page(n: int) -> str:
    """A 2000 × 2000 page of about ``n`` XML elements: shapes, short labels, pictures and texts under them."""
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2000 2000">']
    for i in range((n - 1) // 4):
        x, y = (i * 37) % 1900, (i * 53) % 1900
        parts.append(f'<rect x="{x}" y="{y}" width="{8 + i % 30}" height="{6 + i % 20}" '
                     f'fill="#{(i * 7919) % 0xFFFFFF:06x}"/>')
        parts.append(f'<text x="{(x + 700) % 1900}" y="{y + 20}" font-size="{6 + i % 10}">Go {i}</text>')
        parts.append(f'<image x="{(x + 300) % 1900}" y="{(y + 300) % 1800}" width="110" height="100"/>')
        parts.append(f'<text x="{(x + 300) % 1900}" y="{(y + 300) % 1800 + 108}" font-size="6">Photo {i}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def synthetic_map(n: int) -> str:
    """A 2000 × 2000 map of ``n`` regions that tile it (neighbours share edges), all in one group."""
    across = max(1, round(n ** 0.5))
    side = 2000 / across
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2000 2000">', '<g id="regions">']
    for i in range(n):
        x, y = (i % across) * side, (i // across) * side
        parts.append(f'<path d="M{x:.2f},{y:.2f} h{side:.2f} l{-0.2 * side:.2f},{side:.2f} h{-0.6 * side:.2f} z" '
                     f'fill="#{(i * 7919) % 0xFFFFFF:06x}" stroke="#fff" stroke-width="0.2"/>')
    parts.append("</g></svg>")
    return "\n".join(parts)


if __name__ == "__main__":
    for row in run():
        print(row)
