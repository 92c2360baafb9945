"""The words the server gives the model: its instructions and three workflow prompts.

The instructions stay under 2 KB (clients put them in every context). The
prompts walk the same loop — outline → metrics → edits → preview → re-check —
each with its own goal.
"""

from __future__ import annotations

SERVER_INSTRUCTIONS = """\
Layout Assistant measures and edits SVG layouts (posters, flyers, social cards, slides) precisely.

Loop: open_document -> get_outline / find_elements -> get_layout_metrics -> apply_edits -> \
get_layout_metrics again (render_preview to look) -> export_document or save_document.

- Coordinates are world units of the SVG viewBox: x right, y down; a box is x, y, width, height.
- Batch related edits in ONE apply_edits call: it is atomic (all or nothing), is one undo step \
and returns each edit's changed ids and boxes plus the metric delta.
- Always pass expected_revision from your last result; a stale revision is refused so you never \
edit a state you have not seen. dry_run=true shows the metric delta without changing anything.
- Trust the metrics over screenshots: findings name exact element ids and carry a suggested edit \
you can pass to apply_edits unchanged; previews are downscaled and only for a visual check.
- Prefer few, meaningful edits; undo any call that lowers the composite score.
- set_instruction turns a plain-language brief into constraints scored as instruction_fit.
- suggest_edits ranks candidate edits without applying them; improve_layout runs a planner.
- Files: paths are relative to the workspace; nothing outside it is read or written, and \
exports never overwrite unless overwrite=true.
"""

_LOOP = """\
1. get_outline(doc_id="{doc_id}") to learn the elements, their roles and boxes.
2. get_layout_metrics(doc_id="{doc_id}") and read the composite, the weakest metrics and the findings.
3. Plan a small batch of edits that addresses the worst findings{focus}. Use the findings' \
suggestions where they fit; check ids with inspect_elements when unsure.
4. apply_edits with expected_revision set, as ONE batch. Inspect metric_delta: if the composite \
dropped, undo and try something else.
5. render_preview(doc_id="{doc_id}", overlays=["boxes", "findings"]) to check visually.
6. get_layout_metrics again; repeat steps 3-5 until the findings that matter are gone \
(at most {rounds} rounds), then report what changed and the before/after composite."""


def polish_layout(doc_id: str, goal: str = "") -> str:
    """General polish: alignment, spacing, margins, overlaps."""
    brief = f'\nFirst call set_instruction(doc_id="{doc_id}", brief="{goal}").' if goal else ""
    return (
        f"Polish the layout of document {doc_id}: fix overlaps, misalignments, uneven spacing and "
        f"margin violations without changing its content.{brief}\n"
        + _LOOP.format(doc_id=doc_id, focus=" (overlap, alignment, spacing, margins first)", rounds=3)
    )


def fix_hierarchy(doc_id: str) -> str:
    """Make the visual hierarchy follow importance: title, then subtitle, then body and captions."""
    return (
        f"Fix the visual hierarchy of document {doc_id}: the title must dominate, then the subtitle or "
        "call to action, then body text and captions; reading order should run top-left to bottom-right. "
        "Use promote, demote, set_text_style and reflow_group; do not recolour or move the logo unless "
        "a finding asks for it.\n"
        + _LOOP.format(doc_id=doc_id, focus=" (hierarchy, reading_order, text_fit first)", rounds=3)
    )


def prepare_for_print(doc_id: str, path: str = "print.pdf") -> str:
    """Check margins, text size and contrast, then export a PDF."""
    return (
        f"Prepare document {doc_id} for print: every element that is not the background must sit inside "
        "the safe margins, text must be legible (text_fit) and have enough contrast against what lies "
        "under it.\n"
        + _LOOP.format(doc_id=doc_id, focus=" (margins, text_fit, contrast first)", rounds=2)
        + f'\n7. export_document(doc_id="{doc_id}", path="{path}", format="pdf") and report its size and sha256.'
    )
