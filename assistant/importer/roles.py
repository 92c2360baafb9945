"""Inferring the design role of each element.

Roles: title, subtitle, body, caption, cta, logo, image, badge, background,
decoration (``assistant.document.ROLES``). Evidence, strongest first:

1. ``data-role`` on the element's node (always wins);
2. a keyword in the element's own name — ``data-name`` (Figma, Illustrator),
   ``inkscape:label``, ``class`` or a meaningful ``id`` — then in its
   ancestors' names. Ids that look generated (``path123``, ``g4567``,
   ``Layer_1``, ``_x3C_Layer_x3E_``, ``Fill-1``, ``Group-3``) say nothing.
   Names are split into words (``headline-text`` → ``headline``, ``text``;
   ``ctaButton`` → ``cta``, ``button``);
3. geometry and text:
   * a shape or image covering at least ``BACKGROUND_COVER`` of the page and
     painted below every other element → background;
   * images → image, except a small wide picture in the top or bottom band of
     the page (a raster logo) → logo; compound graphics (many paths, curves)
     → logo when drawn in a few flat colours, small, or a wide lock-up in the
     head or foot band, image (an illustration) otherwise; simple shapes →
     decoration;
   * text by effective font size (world units): the largest size, when it
     stands out from the body size (at least ``TITLE_RATIO`` times the most
     common size, weighted by characters) and the text is short (at most 4
     lines) → title; sizes between, up to 3 lines → subtitle;
     the most common size or long text → body; smaller short text, URLs and
     e-mail addresses → caption (a URL or address set larger than the body
     text, a footer's "visit us" line → cta); a short imperative ("Register
     now", "Join", "Download") → cta;
   * short text (at most 2 lines, not bold, no larger than body text) set
     just under a picture, within its width, and nearer to it than to any
     other text → caption, whatever its size: "Mapbender Application" under a
     screenshot is the picture's caption, though it has the body's size. The
     picture's edge is what shows of it (``Plan.ink``), not a white margin
     around it.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Iterable

from assistant.document import Canvas
from assistant.geometry import Box
from assistant.importer.spatial import BoxIndex
from assistant.importer.structure import Plan, explicit_role, walk_plans
from assistant.limits import checkpoint
from assistant.svg.tree import INKSCAPE_NS, SvgNode

BACKGROUND_COVER = 0.9
TITLE_RATIO = 1.3
LOGO_MAX_COLOURS = 4
LOGO_BAND = 0.2

#: Name keywords → role (matched as whole words of a name, in this order).
KEYWORDS: tuple[tuple[str, frozenset[str]], ...] = (
    ("background", frozenset({"bg", "background", "backdrop"})),
    ("cta", frozenset({"cta", "btn", "button", "calltoaction"})),
    ("logo", frozenset({"logo", "logotype", "brand", "logomark", "wordmark"})),
    ("badge", frozenset({"badge", "sticker", "tag", "ribbon", "seal"})),
    ("subtitle", frozenset({"subtitle", "subheading", "subhead", "tagline", "strapline", "kicker"})),
    ("title", frozenset({"title", "headline", "heading", "header", "h1"})),
    ("caption", frozenset({"caption", "footer", "footnote", "credit", "credits", "url", "legal", "copyright"})),
    ("body", frozenset({"body", "paragraph", "copy", "intro", "description"})),
    ("image", frozenset({"image", "photo", "img", "picture", "illustration", "hero"})),
    ("decoration", frozenset({"decoration", "deco", "divider", "separator", "ornament", "rule", "line"})),
)
_CTA_WORDS = frozenset({
    "register", "join", "download", "buy", "subscribe", "sign", "signup", "apply", "contact", "visit",
    "order", "book", "donate", "shop", "start", "try", "learn", "get", "discover", "call", "rsvp",
})
_GENERATED_ID = re.compile(
    r"^(?:_x[0-9a-f]{2}_.*|la-[a-z]+-\d+|(?:svg|path|rect|circle|ellipse|line|polyline|polygon|g|text|tspan|image|use|"
    r"flow\w*|layer|group|shape|fill|stroke|combined|oval|rectangle|page|artboard|clip|mask|defs|"
    r"linear\w*|radial\w*|stop|symbol|pattern|filter|path-effect|object|obj|id|a|switch|metadata|"
    r"namedview|guide|tspan\d*|i)[-_ ]*\d*(?:[-_.]\d+)*(?:[-_][0-9a-f]{4,})?)$",
    re.I,
)
_WORD_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")
_URL = re.compile(r"(https?://|www\.|\S+@\S+\.\w+|\.(org|com|net|io|de|fr|info)\b)", re.I)


def is_generated_id(value: str | None) -> bool:
    """Whether an id looks machine-made (``path123``, ``Layer_1``, ``_x3C_Layer_x3E_``, ``Fill-1``)."""
    return not value or bool(_GENERATED_ID.match(value.strip()))


def node_name(node: SvgNode) -> str | None:
    """The human label of a node: ``data-name``, ``inkscape:label``, or a ``<title>`` child."""
    if node is None:
        return None
    for attr in ("data-name", f"{{{INKSCAPE_NS}}}label"):
        v = node.get(attr)
        if v and v.strip():
            return v.strip()
    for child in node.iterchildren("{*}title"):  # filtered in lxml: a layer may hold thousands of children
        t = "".join(child.itertext()).strip()
        if t:
            return t
    return None


def name_words(node: SvgNode) -> list[str]:
    """Lower-case words of a node's name, class and (meaningful) id."""
    texts = [node_name(node) or "", node.get("class") or ""]
    ident = node.get("id")
    if ident and not is_generated_id(ident):
        texts.append(ident)
    words: list[str] = []
    for t in texts:
        words += [w.lower() for w in _WORD_SPLIT.split(t) if w]
    return words


def keyword_role(node: SvgNode) -> str | None:
    """The role a node's name words point to, if any."""
    words = set(name_words(node))
    if not words:
        return None
    for role, keys in KEYWORDS:
        if words & keys:
            return role
    return None


def _named_role(plan: Plan, ancestors: dict[SvgNode, str | None]) -> str | None:
    """Keyword role from the plan's own node(s), then its nearest named ancestors (up to 3).

    ``ancestors`` remembers each container's keyword role for the whole import: a container is asked once,
    not once per element inside it (finding a ``<title>`` child scans every child of a crowded group).
    """
    nodes: list[SvgNode] = [n for n in plan.nodes if n is not None]
    for n in nodes:
        r = keyword_role(n)
        if r:
            return r
    first = plan.items[0]
    chain = list(first.containers)
    if plan.node is not None and plan.node in chain:
        chain = chain[: chain.index(plan.node)]
    for c in reversed(chain[-3:]):
        if c not in ancestors:
            ancestors[c] = keyword_role(c)
        r = ancestors[c]
        if r:
            return r
    return None


def font_size(plan: Plan) -> float:
    """Largest effective font size (world units) among the plan's text items."""
    sizes = [i.metrics.font_size * i.ctm.scale_factor for i in plan.text_items if i.metrics is not None]
    return max(sizes) if sizes else 0.0


def body_size(plans: Iterable[Plan]) -> float:
    """The most common effective font size, weighted by number of characters."""
    c: Counter[float] = Counter()
    for p in plans:
        for i in p.text_items:
            if i.metrics is not None:
                c[round(i.metrics.font_size * i.ctm.scale_factor, 1)] += max(len(i.metrics.text or ""), 1)
    return c.most_common(1)[0][0] if c else 0.0


def is_background(plan: Plan, canvas: Canvas, lowest_z: int) -> bool:
    """True when ``plan`` is a shape or picture under everything that covers most of the canvas."""
    if plan.kind not in ("shape", "image") or plan.z > lowest_z:
        return False
    box = plan.box
    inter = box.intersection(canvas.box)
    covered = inter.area / canvas.box.area if inter is not None else 0.0
    return plan.kind in ("shape", "image") and covered >= BACKGROUND_COVER and plan.z <= lowest_z


def is_address(text: str) -> bool:
    """A short web or e-mail address (letter-spaced ones, "w w w . a . o r g", too)."""
    return len(text) <= 60 and bool(_URL.search(text) or _URL.search("".join(text.split())))


def _address_role(size: float, body: float) -> str:
    """Small print, or — set larger than the body text — a footer's "visit us" line: a call to action."""
    return "cta" if body and size >= 1.12 * body else "caption"


def _text_role(plan: Plan, size: float, body: float, top_size: float) -> str:
    text = plan.text
    words = re.findall(r"[A-Za-z]+", text.lower())
    lines = plan.lines or max((len(i.metrics.lines) for i in plan.text_items if i.metrics is not None), default=1)
    n = len(text)
    if is_address(text):
        return _address_role(size, body)
    if words and len(words) <= 4 and words[0] in _CTA_WORDS and n <= 32 and lines == 1 and size >= body:
        return "cta"
    if body and size >= top_size - 1e-6 and size >= TITLE_RATIO * body and n <= 160 and lines <= 4:
        return "title"
    if body and size >= 1.12 * body and n <= 200 and lines <= 3:
        return "subtitle"
    if body and size < 0.9 * body and n <= 120:
        return "caption"
    return "body"


def _graphic_role(plan: Plan, canvas: Canvas) -> str:
    box = plan.box
    page = canvas.box
    frac = box.area / page.area
    aspect = box.width / box.height if box.height else 0.0
    in_band = box.y2 <= page.y + LOGO_BAND * page.height or box.y >= page.y2 - (LOGO_BAND + 0.05) * page.height
    wide_in_band = in_band and aspect >= 1.8 and frac <= 0.12
    if plan.kind == "image":
        # a small, wide picture in the page's head or foot band is a logo (a raster wordmark)
        return "logo" if wide_in_band and frac <= 0.05 else "image"
    if plan.compound:
        if any(i.kind == "image" for i in plan.items) and frac > 0.02:
            return "image"
        complex_shape = sum(i.segments for i in plan.items) >= 24 or any(i.curved for i in plan.items)
        if not complex_shape:
            return "decoration"
        colours = {i.fill for i in plan.items if i.kind != "text"}
        # logos use a few flat colours; a many-coloured vector drawing is an illustration
        return "logo" if len(colours) <= LOGO_MAX_COLOURS or frac <= 0.05 or wide_in_band else "image"
    return "decoration"


#: A caption sits within this many of its font sizes of its picture's edge.
CAPTION_GAP = 1.5
#: Pictures smaller than this share of the page (icons, bullets) take no captions.
CAPTION_PICTURE = 0.01


def assign_roles(plans: list[Plan], canvas: Canvas) -> None:
    """Set ``role`` on every plan (and on group children) in place."""
    body = body_size(plans)
    sizes = [font_size(p) for p in plans if p.kind == "text"]
    top_size = max(sizes) if sizes else 0.0
    zs = sorted(p.z for p in plans)
    pictures = _pictures(plans, canvas)
    texts = Captions(pictures, [p.box for p in walk_plans(plans) if p.kind == "text"] if pictures else [])
    ancestors: dict[SvgNode, str | None] = {}
    for n, plan in enumerate(plans):
        if n % 256 == 0:
            checkpoint()
        if plan.role is None:
            plan.role = explicit_role(plan.node) or explicit_role(plan.items[0].node if len(plan.items) == 1 else None)
            plan.explicit_role = plan.role is not None
        if plan.role is None:
            plan.role = _infer(plan, canvas, body, top_size, zs, texts, ancestors)
        for child in plan.children:
            own = explicit_role(child.node)
            child.role = own or plan.role
            child.explicit_role = own is not None


def _pictures(plans: list[Plan], canvas: Canvas) -> list[Box]:
    """What shows of every picture big enough to take a caption (not a page background), nested ones too."""
    page = canvas.box.area
    return [p.ink or p.box for p in walk_plans(plans)
            if p.kind == "image" and CAPTION_PICTURE * page <= p.box.area < BACKGROUND_COVER * page]


#: Most pictures examined above one text when looking for the picture it captions (bounds degenerate files).
CAPTION_CANDIDATES = 256


class Captions:
    """The pictures that take captions and every text's box, indexed for :func:`captions_picture`.

    Pictures are sorted by their bottom edge and texts filed in a ``BoxIndex``,
    so each question costs O(log n) instead of a pass over the document.
    """

    def __init__(self, pictures: list[Box], texts: list[Box]) -> None:
        self.pictures = sorted(pictures, key=lambda b: b.y2)
        self._bottoms = [b.y2 for b in self.pictures]
        self.texts = texts
        self._index = BoxIndex(enumerate(texts)) if pictures else BoxIndex()

    def above(self, top: float, size: float) -> list[Box]:
        """Pictures whose bottom edge lies between ``CAPTION_GAP`` sizes above ``top`` and half a size below it."""
        lo = bisect.bisect_left(self._bottoms, top - CAPTION_GAP * size)
        hi = bisect.bisect_right(self._bottoms, top + 0.5 * size)
        return self.pictures[lo:min(hi, lo + CAPTION_CANDIDATES)]

    def text_within(self, box: Box, distance: float) -> bool:
        """Whether a text other than ``box`` (a box equal to it does not count) lies within ``distance`` of it."""
        grown = (box.x - distance, box.y - distance, box.x2 + distance, box.y2 + distance)
        return any(t != box and box.distance(t) <= distance
                   for t in (self.texts[k] for k in self._index.query(grown)))


def captions_picture(plan: Plan, size: float, body: float, captions: Captions) -> bool:
    """Whether a text plan is set like a picture's caption (see the module docstring)."""
    lines = plan.lines or max((len(i.metrics.lines) for i in plan.text_items if i.metrics is not None), default=1)
    if not captions.pictures or lines > 2 or len(plan.text) > 120 or (body and size > 1.05 * body):
        return False
    if any(i.metrics is not None and i.metrics.font_weight >= 600 for i in plan.text_items):
        return False
    b = plan.box
    for pic in captions.above(b.y, size):
        gap = b.y - pic.y2
        if min(b.x2, pic.x2) - max(b.x, pic.x) < 0.8 * b.width or not -0.5 * size <= gap <= CAPTION_GAP * size:
            continue  # not under the picture, within its width
        reach = 1.5 * max(gap, 0.0) + 0.1 * size
        if not captions.text_within(b, reach):
            return True  # no other text is nearer: this one belongs to the picture
    return False


def _infer(plan: Plan, canvas: Canvas, body: float, top_size: float, zs: list[int],
           captions: Captions, ancestors: dict[SvgNode, str | None]) -> str:
    # A full-page shape painted first is the background, whatever its name says.
    if plan.kind in ("shape", "image") and is_background(plan, canvas, _bottom_z(plan, zs)):
        return "background"
    named = _named_role(plan, ancestors)
    if plan.kind == "group":
        if named in ("cta", "badge"):
            return named
        shape = plan.children[0] if plan.children else plan
        b = shape.box
        aspect = b.width / b.height if b.height else 1.0
        tags = {i.tag for i in shape.items}
        return "badge" if (tags & {"circle", "ellipse"} or 0.75 <= aspect <= 1.34) else "cta"
    if named == "background":
        inter = plan.box.intersection(canvas.box)
        if plan.kind != "text" and inter is not None and inter.area >= 0.5 * canvas.box.area:
            return "background"  # named so and covering at least half the page
    elif named:
        if plan.kind == "text" and named == "title" and font_size(plan) < 0.75 * top_size:
            return "subtitle"  # a section heading named "Title", well below the page's title
        text_role = named in ("title", "subtitle", "body", "caption")
        if plan.kind == "text" and named == "caption" and is_address(plan.text):
            return _address_role(font_size(plan), body)  # a "Footer" group's big URL is still its call to action
        if (plan.kind == "text") == text_role or named in ("cta", "badge"):
            return named
    if plan.kind == "text":
        size = font_size(plan)
        role = _text_role(plan, size, body, top_size)
        if role in ("body", "subtitle") and captions_picture(plan, size, body, captions):
            return "caption"
        return role
    return _graphic_role(plan, canvas)


def _bottom_z(plan: Plan, zs: list[int]) -> int:
    """The plan counts as painted first when nothing but other full-page layers lies below it.

    ``zs``: every top-level plan's z, sorted (so counting those below is a bisection).
    """
    below = bisect.bisect_left(zs, plan.z)
    return plan.z if below <= 2 else -1

