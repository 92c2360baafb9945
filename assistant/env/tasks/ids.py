"""Element ids as real files spell them: a seeded renaming of a task's ids.

The generators name their elements after their part (``title``, ``cta``,
``photo``, ``bullet-2``). Real SVG files use whatever their author or tool
chose: ``slide-title``, ``headline``, ``point-1``, ``text1234``, ``g5678``.
A model trained only on the generators' names learns those names instead of
reading the layout (the bundled slide's ``slide-title`` and ``point-1`` were
never seen). ``rename_ids`` draws one naming style per task and renames
every block of a spec, consistently in the clean and broken specs; parts
drawn inside a block (a button's ``-bg`` and ``-label``, a logo's ``-mark``)
follow their block.

Styles:

- ``prefixed``: a document prefix before every id (``slide-title``, ``card_logo``);
- ``synonyms``: another word for the same part (``headline``, ``button``,
  ``point-1``), the same word for every element of a series, numbering kept;
- ``tool``: what a drawing program writes, element name plus a number
  (``text1234``, ``g482``, ``rect77``, ``image905``).

Same spec and seed → the same ids; ids stay unique and valid XML names.
"""

from __future__ import annotations

import numpy as np

from assistant.env.tasks.spec import Block, Spec

STYLES = ("prefixed", "synonyms", "tool")

PREFIXES = ("slide", "page", "card", "promo", "hero", "main", "doc", "ad", "post", "layout", "sheet", "cover")

#: other words for each generator part (the first word of an id; numbering is kept)
SYNONYMS: dict[str, tuple[str, ...]] = {
    "title": ("headline", "heading", "main-title", "h1", "page-title", "hero-title"),
    "subtitle": ("subheading", "tagline", "subhead", "strapline", "deck", "sub-title"),
    "body": ("copy", "text", "paragraph", "blurb", "body-copy", "description"),
    "cta": ("button", "btn", "action", "cta-button", "signup", "link-button"),
    "logo": ("brand", "logo-mark", "brandmark", "wordmark", "company-logo"),
    "photo": ("picture", "hero-image", "visual", "img", "main-photo", "illustration"),
    "background": ("bg", "backdrop", "base", "page-bg", "fill"),
    "bullet": ("point", "item", "line", "fact", "stat"),
    "chart": ("graph", "figure", "plot", "diagram"),
    "credit": ("byline", "photo-credit", "attribution"),
    "date": ("when", "event-date", "dates"),
    "details": ("info", "more-info", "fine-print"),
    "intro": ("lede", "lead", "opening"),
    "kicker": ("eyebrow", "overline", "label"),
    "masthead": ("nameplate", "magazine-title", "flag"),
    "issue": ("edition", "issue-number", "volume"),
    "coverline": ("teaser", "cover-line", "story"),
    "price": ("cost", "price-tag", "offer"),
    "smallprint": ("legal", "disclaimer", "terms"),
    "standfirst": ("summary", "dek", "standfirst-text"),
    "venue": ("location", "place", "address"),
    "caption": ("note", "legend", "source"),
}

#: the drawing-program element name by block kind (``tool`` style)
TOOL_NAMES = {"text": "text", "image": "image", "photo_gradient": "rect", "logo": "g", "button": "g",
              "badge": "g", "panel": "rect", "rule": "rect", "background": "rect"}


def rename_ids(blocks: list[Block], rng: np.random.Generator, style: str | None = None) -> dict[str, str]:
    """``{old block id: new id}`` for ``blocks`` in one style (``None``: drawn from ``STYLES`` with ``rng``)."""
    style = style or STYLES[int(rng.integers(len(STYLES)))]
    if style not in STYLES:
        raise ValueError(f"unknown id style {style!r}; use one of {', '.join(STYLES)}")
    out: dict[str, str] = {}
    taken: set[str] = set()
    chosen: dict[str, str] = {}  # one synonym per word in a file: bullets stay a series
    prefix = PREFIXES[int(rng.integers(len(PREFIXES)))] + ("-", "_")[int(rng.integers(2))]
    for b in blocks:
        if b.id in out:
            continue
        if style == "prefixed":
            new = prefix + b.id
        elif style == "synonyms":
            new = _synonym(b.id, rng, chosen)
        else:
            new = f"{TOOL_NAMES.get(b.kind, 'path')}{int(rng.integers(1, 10000))}"
        while new in taken:
            new = f"{new}{int(rng.integers(10))}"
        taken.add(new)
        out[b.id] = new
    return out


def _synonym(block_id: str, rng: np.random.Generator, chosen: dict[str, str]) -> str:
    """``photo-caption`` → ``picture-caption``: the first word with synonyms swapped, the same way every time."""
    words = block_id.split("-")
    for k, w in enumerate(words):
        if w in SYNONYMS:
            if w not in chosen:
                options = SYNONYMS[w]
                chosen[w] = options[int(rng.integers(len(options)))]
            words[k] = chosen[w]
            break
    return "-".join(words)


def apply_ids(spec: Spec, mapping: dict[str, str]) -> Spec:
    """A copy of ``spec`` with its blocks renamed by ``mapping``."""
    out = spec.copy()
    for b in out.blocks:
        b.id = mapping.get(b.id, b.id)
    return out
