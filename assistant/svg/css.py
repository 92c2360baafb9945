"""Computed CSS style of SVG nodes: presentation attributes, ``<style>`` sheets, ``style``.

Matching is indexed: cssselect2's ``Matcher`` files every selector under the
id, class or tag of its rightmost compound selector, so an element is tested
only against the selectors that name its id, one of its classes or its tag,
plus those that name none of them (``*``, ``[attr]``, ``:not(…)``). Style
sheets are bounded (``ImportLimits.max_css_rules`` rules, and
``max_css_tests`` tests of the selectors no index narrows down, elements ×
selectors), so a sheet of 40 000 selectors is refused with one clear error
instead of hanging the import and every render.

The cascade follows SVG 2 §6.4 and CSS Cascading 4:

1. presentation attributes (``fill="red"``) count as author rules with
   specificity 0 that come before every style sheet rule;
2. ``<style>`` sheets (parsed with tinycss2, matched with cssselect2: type,
   class, id, attribute, descendant, child and compound selectors) in order of
   specificity, then of appearance;
3. the ``style`` attribute, above any selector;
4. ``!important`` declarations: sheet ones by specificity, then the ``style``
   attribute's.

A property the node does not specify is inherited from the parent's computed
value when it is inheritable (CSS "inherited: yes" in the SVG 2 property
index: fonts, fill, stroke, visibility, text properties, …); ``inherit`` takes
the parent's value for any property. The ``font`` shorthand is expanded into
its longhands (CSS Fonts 3 §3.7). Values stay strings, except for the helpers
``font_size``, ``font_weight`` and ``color`` that resolve lengths, relative
weights and colours.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

import cssselect2
import tinycss2
from lxml import etree

from assistant.errors import SvgImportError
from assistant.limits import DEFAULT_LIMITS, ImportLimits
from assistant.svg.tree import SvgNode

#: SVG presentation attributes (SVG 2 §6.6 plus the SVG 1.1 ones still seen in files).
PRESENTATION_ATTRIBUTES: frozenset[str] = frozenset("""
alignment-baseline baseline-shift clip clip-path clip-rule color color-interpolation
color-interpolation-filters color-profile color-rendering cursor direction display
dominant-baseline enable-background fill fill-opacity fill-rule filter flood-color
flood-opacity font-family font-size font-size-adjust font-stretch font-style font-variant
font-weight glyph-orientation-horizontal glyph-orientation-vertical image-rendering kerning
letter-spacing lighting-color marker-end marker-mid marker-start mask opacity overflow
pointer-events shape-rendering stop-color stop-opacity stroke stroke-dasharray
stroke-dashoffset stroke-linecap stroke-linejoin stroke-miterlimit stroke-opacity
stroke-width text-anchor text-decoration text-rendering unicode-bidi visibility
word-spacing writing-mode mix-blend-mode isolation paint-order vector-effect
""".split())

#: Properties whose computed value children inherit (CSS "Inherited: yes").
INHERITED: frozenset[str] = frozenset("""
clip-rule color color-interpolation color-interpolation-filters color-rendering cursor
direction dominant-baseline fill fill-opacity fill-rule font-family font-size
font-size-adjust font-stretch font-style font-variant font-weight font-kerning
font-variant-ligatures font-feature-settings glyph-orientation-horizontal
glyph-orientation-vertical image-rendering kerning letter-spacing line-height marker
marker-end marker-mid marker-start paint-order pointer-events shape-rendering stroke
stroke-dasharray stroke-dashoffset stroke-linecap stroke-linejoin stroke-miterlimit
stroke-opacity stroke-width text-anchor text-align text-align-last text-indent
text-rendering text-transform visibility white-space word-spacing writing-mode
-inkscape-font-specification line-spacing
""".split())

_FONT_KEYWORD_SIZES = {
    "xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0,
    "large": 18.0, "x-large": 24.0, "xx-large": 32.0, "xxx-large": 48.0,
}
_ABSOLUTE_UNITS = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54,
                   "in": 96.0, "q": 96 / 101.6}
_WEIGHTS = {"normal": 400, "bold": 700}
#: Last characters of a length with no unit (a number ends in a digit or a point).
_PLAIN_NUMBER_ENDS = frozenset("0123456789.")
_STYLE_KEYWORDS = {"italic", "oblique"}
_VARIANT_KEYWORDS = {"small-caps"}
_WEIGHT_KEYWORDS = {"bold", "bolder", "lighter"}
_STRETCH_KEYWORDS = {"ultra-condensed", "extra-condensed", "condensed", "semi-condensed",
                     "semi-expanded", "expanded", "extra-expanded", "ultra-expanded"}

#: Default font size in CSS px (CSS Fonts 3: ``medium``).
DEFAULT_FONT_SIZE = 16.0

# A declaration as it sits in the cascade: (important, origin rank, specificity, order).
_Key = tuple[int, int, tuple[int, int, int], int]


def _local(tag: Any) -> str:
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


#: A declaration list made only of plain declarations (``fill:#fff;stroke-width:0.26px``), which
#: ``_plain_declarations`` reads without the tokenizer: names are identifiers, and values are
#: identifiers, numbers (with a unit or %), hashes, ``url(#id)`` and functions of these, each
#: followed by a space, a comma, a closing bracket or the end. No strings, escapes, comments, blocks,
#: delimiters or ``!important``, which the tokenizer and its serializer handle (through tinycss2).
_PLAIN_LIST = re.compile(r"[A-Za-z0-9#.,%:;()_+\- \t\n]*")
_PLAIN_NAME = re.compile(r"-?[A-Za-z_][A-Za-z0-9_-]*")
_IDENT = r"-?[A-Za-z_][A-Za-z0-9_-]*"
# a unit is an identifier that cannot be read as an exponent ("1e" and "1e-x" are escaped when serialized)
_NUMBER = r"[+-]?(?:\d+\.\d+|\d+|\.\d+)(?:[eE][+-]?\d+)?(?:%|(?![eE](?![A-Za-z0-9_-])|[eE]-)" + _IDENT[2:] + ")?"
_END = r"(?=[\s,)]|$)"  # a word before "(" is a function
_PLAIN_VALUE = re.compile(
    r"(?:[\s,]+|\(|\)" + _END + r"|(?:[uU][rR][lL])\(#[A-Za-z0-9_-]*\)" + _END
    + r"|(?![uU][rR][lL]\()" + _IDENT + r"\(|(?:" + _IDENT + "|" + _NUMBER + r"|#[A-Za-z0-9_-]+)" + _END + ")*")
#: Parsed declaration lists kept per text: the style attributes of a drawing repeat (one per path).
#: Only texts up to ``_CACHED_CHARS`` long are kept, so the cache stays small.
_DECLARATION_CACHE = 4096
_CACHED_CHARS = 2048


def parse_declarations(text: str) -> tuple[tuple[str, str, bool], ...]:
    """``(name, value, important)`` for each declaration of a CSS declaration list.

    Names are lower-cased; values are the serialized tokens, stripped.
    Unparsable pieces are skipped (CSS error recovery). Lists of plain
    declarations, what drawing programs write in ``style`` attributes, are
    read by splitting (the same result as the tokenizer's, checked on the
    corpus in the tests); results are cached per text.
    """
    return _cached_declarations(text) if len(text) <= _CACHED_CHARS else _read_declarations(text)


def _read_declarations(text: str) -> tuple[tuple[str, str, bool], ...]:
    plain = _plain_declarations(text)
    return tuple(plain) if plain is not None else tuple(_tokenized_declarations(text))


_cached_declarations = functools.lru_cache(maxsize=_DECLARATION_CACHE)(_read_declarations)


def _plain_declarations(text: str) -> list[tuple[str, str, bool]] | None:
    """The declarations of a list of plain ones (see ``_PLAIN_LIST``); None when it is not one."""
    if _PLAIN_LIST.fullmatch(text) is None:
        return None
    out: list[tuple[str, str, bool]] = []
    for part in text.split(";"):
        name, colon, value = part.partition(":")
        name = name.strip()
        if not colon:
            if name:
                return None  # a stray word: leave the error recovery to the tokenizer
            continue
        value = value.strip()
        if _PLAIN_NAME.fullmatch(name) is None or _PLAIN_VALUE.fullmatch(value) is None or not _balanced(value):
            return None
        out.extend((n, v, False) for n, v in expand_shorthand(name.lower(), value))
    return out


def _balanced(value: str) -> bool:
    """Whether the brackets of a value close in order (``url(#a)``)."""
    depth = 0
    for ch in value:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _tokenized_declarations(text: str) -> list[tuple[str, str, bool]]:
    out: list[tuple[str, str, bool]] = []
    for decl in tinycss2.parse_declaration_list(text, skip_comments=True, skip_whitespace=True):
        if decl.type != "declaration":
            continue
        value = tinycss2.serialize(decl.value).strip()
        out.extend((n, v, decl.important) for n, v in expand_shorthand(decl.lower_name, value))
    return out


def expand_shorthand(name: str, value: str) -> list[tuple[str, str]]:
    """Expand ``font`` (CSS Fonts 3 §3.7) into longhands; other names pass through."""
    if name != "font":
        return [(name, value)]
    return _expand_font(value)


def _expand_font(value: str) -> list[tuple[str, str]]:
    tokens = [t for t in tinycss2.parse_component_value_list(value) if t.type not in ("whitespace", "comment")]
    if len(tokens) == 1 and tokens[0].type == "ident" and tokens[0].lower_value in ("inherit", "initial", "unset"):
        kw = tokens[0].lower_value
        return [(p, kw) for p in ("font-style", "font-variant", "font-weight", "font-stretch",
                                  "font-size", "line-height", "font-family")]
    out = {"font-style": "normal", "font-variant": "normal", "font-weight": "normal",
           "font-stretch": "normal", "line-height": "normal"}
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.type == "ident":
            v = t.lower_value
            if v in _STYLE_KEYWORDS:
                out["font-style"] = v
            elif v in _VARIANT_KEYWORDS:
                out["font-variant"] = v
            elif v in _WEIGHT_KEYWORDS:
                out["font-weight"] = v
            elif v in _STRETCH_KEYWORDS:
                out["font-stretch"] = v
            elif v == "normal":
                pass
            else:
                break
        elif t.type == "number" and t.is_integer and 1 <= t.int_value <= 1000 and i + 1 < len(tokens):
            out["font-weight"] = str(t.int_value)
        else:
            break
        i += 1
    if i >= len(tokens):
        return []  # no size and family: invalid shorthand, ignored
    out["font-size"] = tinycss2.serialize([tokens[i]]).strip()
    i += 1
    if i < len(tokens) and tokens[i].type == "literal" and tokens[i].value == "/" and i + 1 < len(tokens):
        out["line-height"] = tinycss2.serialize([tokens[i + 1]]).strip()
        i += 2
    family = value
    # The family is the source text after the size (and line height) tokens.
    rest = tokens[i:]
    if not rest:
        return []
    family = ", ".join(
        part.strip() for part in tinycss2.serialize(rest).split(",") if part.strip()
    )
    out["font-family"] = family
    return list(out.items())


class StyleResolver:
    """Computed style of every node of one SVG tree (cached per node).

    ``root`` is the root element (or an ``ElementTree``). Build one resolver per
    tree; it reads the tree's ``<style>`` elements once. After editing styles in
    the tree, call ``invalidate()`` (or build a new resolver). Style sheets over
    the CSS limits of ``limits`` are refused with an ``SvgImportError`` naming
    ``source``.
    """

    def __init__(self, root: SvgNode | etree._ElementTree, *, source: str = "<string>",
                 limits: ImportLimits | None = None) -> None:
        if hasattr(root, "getroot"):
            root = root.getroot()
        self.root = root
        self.source = source
        self.limits = limits or DEFAULT_LIMITS
        self._computed: dict[SvgNode, dict[str, str]] = {}
        self._sizes: dict[SvgNode, float] = {}
        self._specified: dict[SvgNode, dict[str, str]] = {}
        self._weights: dict[SvgNode, int] = {}
        self._matched: dict[SvgNode, list[tuple[_Key, str, str]]] | None = None
        self._matcher = self._build_matcher()

    # -- style sheets ------------------------------------------------------
    def _style_sheets(self) -> Iterable[str]:
        for el in self.root.iter():
            if _local(el.tag) == "style":
                kind = (el.get("type") or "text/css").strip().lower()
                if kind in ("text/css", ""):
                    yield "".join(el.itertext())

    def _build_matcher(self) -> cssselect2.Matcher | None:
        sheets = list(self._style_sheets())
        if not sheets:
            return None
        chars = sum(len(sheet) for sheet in sheets)
        if chars > self.limits.max_css_chars:
            raise SvgImportError(self.source, f"the style sheets hold {chars} characters, more than the "
                                              f"{self.limits.max_css_chars} accepted")
        cap = self.limits.max_css_rules
        braces = sum(sheet.count("{") for sheet in sheets)
        if braces > 2 * cap:  # refused before parsing: every rule has a brace
            raise self._too_many_rules(f"about {braces}")
        matcher = cssselect2.Matcher()
        self._count = self._unindexed = 0
        for sheet in sheets:
            rules = tinycss2.parse_stylesheet(sheet, skip_comments=True, skip_whitespace=True)
            self._add_rules(matcher, rules)
        if self._count > cap:
            raise self._too_many_rules(str(self._count))
        if self._unindexed:
            elements = sum(1 for _ in self.root.iter())
            if self._unindexed * elements > self.limits.max_css_tests:
                raise SvgImportError(self.source, (
                    f"the style sheets have {self._unindexed} selectors that name no id, class or element "
                    f"(such as '*', '[attr]' or ':not(...)'), too many to match against {elements} elements "
                    f"(at most {self.limits.max_css_tests} tests, selectors × elements)"))
        return matcher if self._count else None

    def _too_many_rules(self, count: str) -> SvgImportError:
        return SvgImportError(self.source, f"the style sheets have {count} rules, more than the "
                                           f"{self.limits.max_css_rules} accepted")

    def _add_rules(self, matcher: cssselect2.Matcher, rules: list[Any]) -> None:
        for rule in rules:
            if rule.type == "at-rule" and rule.lower_at_keyword == "media" and rule.content is not None:
                media = tinycss2.serialize(rule.prelude).strip().lower()
                if not media or any(m.strip() in ("all", "screen") for m in media.split(",")):
                    inner = tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True)
                    self._add_rules(matcher, inner)
                continue
            if rule.type != "qualified-rule":
                continue
            decls = parse_declarations(tinycss2.serialize(rule.content))
            if not decls:
                continue
            try:
                selectors = cssselect2.compile_selector_list(rule.prelude)
            except cssselect2.SelectorError:
                continue  # an unsupported selector drops only its rule (CSS error recovery)
            for selector in selectors:
                if selector.pseudo_element is None:
                    matcher.add_selector(selector, decls)
                    self._count += 1
                    if selector.id is None and selector.class_name is None and selector.local_name is None \
                            and not selector.never_matches:
                        self._unindexed += 1

    def _match_all(self) -> dict[SvgNode, list[tuple[_Key, str, str]]]:
        """Match every element once against the sheets; declarations per node."""
        matched: dict[SvgNode, list[tuple[_Key, str, str]]] = {}
        if self._matcher is None:
            return matched
        wrapper = cssselect2.ElementWrapper.from_xml_root(self.root)
        order = 0
        for w in wrapper.iter_subtree():
            hits = self._matcher.match(w)
            if not hits:
                continue
            decls: list[tuple[_Key, str, str]] = []
            for specificity, rule_order, _pseudo, payload in hits:
                for name, value, important in payload:
                    order += 1
                    decls.append(((int(important), 1, specificity, rule_order * 10000 + order), name, value))
            matched[w.etree_element] = decls
        return matched

    # -- cascade -----------------------------------------------------------
    def specified(self, node: SvgNode) -> dict[str, str]:
        """Declarations that apply to ``node`` itself after the cascade (no inheritance)."""
        hit = self._specified.get(node)
        if hit is None:
            hit = self._specified[node] = self._cascade(node)
        return hit

    def _cascade(self, node: SvgNode) -> dict[str, str]:
        decls: list[tuple[_Key, str, str]] = []
        order = 0
        for name, value in node.attrib.items():
            if name in PRESENTATION_ATTRIBUTES:
                order += 1
                decls.append(((0, 0, (0, 0, 0), order), name, value.strip()))
        if self._matcher is not None:
            if self._matched is None:
                self._matched = self._match_all()
            decls.extend(self._matched.get(node, ()))
        style = node.get("style")
        if style:
            if len(style) > self.limits.max_style_chars:
                tag = _local(node.tag) or "element"
                raise SvgImportError(self.source, f"<{tag}> (line {node.sourceline}) has a style attribute of "
                                                  f"{len(style)} characters, more than the "
                                                  f"{self.limits.max_style_chars} accepted")
            for name, value, important in parse_declarations(style):
                order += 1
                decls.append(((int(important), 2, (0, 0, 0), order), name, value))
        decls.sort(key=lambda d: d[0])
        return {name: value for _key, name, value in decls}

    def computed(self, node: SvgNode) -> dict[str, str]:
        """Every property value that applies to ``node``: its own, then inherited ones."""
        hit = self._computed.get(node)
        if hit is not None:
            return hit
        parent = node.getparent()
        inherited: dict[str, str] = {}
        if parent is not None and isinstance(parent.tag, str):
            parent_style = self.computed(parent)
            inherited = {k: v for k, v in parent_style.items() if k in INHERITED}
        else:
            parent_style = {}
        own = self.specified(node)
        result = dict(inherited)
        for name, value in own.items():
            low = value.lower()
            if low == "inherit":
                if name in parent_style:
                    result[name] = parent_style[name]
                else:
                    result.pop(name, None)
            elif low in ("initial", "unset"):
                if low == "unset" and name in INHERITED and name in parent_style:
                    result[name] = parent_style[name]
                else:
                    result.pop(name, None)
            else:
                result[name] = value
        self._computed[node] = result
        return result

    def get(self, node: SvgNode, prop: str, default: str | None = None) -> str | None:
        """The computed value of ``prop`` on ``node`` (``default`` when unset)."""
        return self.computed(node).get(prop, default)

    def invalidate(self) -> None:
        """Forget cached results (after the tree's styles or structure changed)."""
        self._computed.clear()
        self._sizes.clear()
        self._specified.clear()
        self._weights.clear()
        self._matched = None
        self._matcher = self._build_matcher()

    # -- resolved values -----------------------------------------------------
    def font_size(self, node: SvgNode) -> float:
        """Font size of ``node`` in its user units (CSS px), ``em``/``%``/keywords resolved.

        Defaults to 16 (``medium``). Relative sizes resolve against the parent.
        """
        hit = self._sizes.get(node)
        if hit is not None:
            return hit
        parent = node.getparent()
        parent_size = DEFAULT_FONT_SIZE
        if parent is not None and isinstance(parent.tag, str):
            parent_size = self.font_size(parent)
        own = self.specified(node).get("font-size")
        size = parent_size if own is None else resolve_length(own, parent_size, parent_size, default=parent_size)
        self._sizes[node] = size
        return size

    def font_weight(self, node: SvgNode) -> int:
        """Numeric font weight (100–900) of ``node``, ``bolder``/``lighter`` resolved (CSS Fonts 4 §2.2)."""
        hit = self._weights.get(node)
        if hit is not None:
            return hit
        parent = node.getparent()
        parent_weight = 400
        if parent is not None and isinstance(parent.tag, str):
            parent_weight = self.font_weight(parent)
        own = self.specified(node).get("font-weight")
        weight = parse_font_weight(own, parent_weight) if own is not None else parent_weight
        self._weights[node] = weight
        return weight

    def color(self, node: SvgNode, prop: str = "fill") -> str | None:
        """``fill``/``stroke``/… of ``node`` as ``#rrggbb``; None for none, paint servers, unknown."""
        value = self.get(node, prop, "black" if prop == "fill" else None)
        if value is None:
            return None
        if value.strip().lower() == "currentcolor":
            value = self.get(node, "color", "black") or "black"
        return parse_color(value)


def parse_font_weight(value: str | None, parent: int = 400) -> int:
    """CSS ``font-weight`` as a number; ``bolder``/``lighter`` per CSS Fonts 4 §2.2 table."""
    if value is None:
        return parent
    v = value.strip().lower()
    if v in _WEIGHTS:
        return _WEIGHTS[v]
    if v == "bolder":
        return 400 if parent < 350 else 700 if parent < 550 else 900
    if v == "lighter":
        return 100 if parent < 550 else 400 if parent < 750 else 700
    try:
        w = int(float(v))
    except ValueError:
        return parent
    return min(max(w, 1), 1000)


def resolve_length(value: str, font_size: float, percent_of: float, default: float = 0.0) -> float:
    """A CSS length in user units (px): px/pt/pc/mm/cm/in/Q, em, ex (½ em), %, font keywords."""
    v = value.strip().lower()
    if not v:
        return default
    if v[-1] in _PLAIN_NUMBER_ENDS:  # a plain number: no unit, no keyword
        try:
            return float(v)
        except ValueError:
            return default
    if v in _FONT_KEYWORD_SIZES:
        return _FONT_KEYWORD_SIZES[v]
    if v == "larger":
        return font_size * 1.2
    if v == "smaller":
        return font_size / 1.2
    for unit, factor in (("rem", DEFAULT_FONT_SIZE), ("em", font_size), ("ex", font_size / 2)):
        if v.endswith(unit):
            try:
                return float(v[: -len(unit)]) * factor
            except ValueError:
                return default
    if v.endswith("%"):
        try:
            return float(v[:-1]) / 100.0 * percent_of
        except ValueError:
            return default
    for unit, factor in _ABSOLUTE_UNITS.items():
        if v.endswith(unit):
            try:
                return float(v[: -len(unit)]) * factor
            except ValueError:
                return default
    try:
        return float(v)
    except ValueError:
        return default


@functools.lru_cache(maxsize=4096)
def parse_color(value: str | None) -> str | None:
    """A CSS colour as ``#rrggbb`` (names, ``#rgb``, ``#rrggbb(aa)``, ``rgb()``, ``hsl()``).

    None for ``none``, ``transparent``, paint servers (``url(#…)``) and text
    that is no colour. A fallback colour after a ``url()`` is used.
    """
    if value is None:
        return None
    v = value.strip()
    low = v.lower()
    if low.startswith("url("):
        end = v.find(")")
        if end < 0:  # an unclosed paint-server reference paints nothing
            return None
        rest = v[end + 1:].strip()
        return parse_color(rest) if rest and rest.lower() != "none" else None
    if low in ("none", "transparent", "") or low.startswith("var("):
        return None
    from PIL import ImageColor

    try:
        rgb = ImageColor.getrgb(v.replace(" ", "") if low.startswith("#") else v)
    except ValueError:
        return None
    return "#{:02x}{:02x}{:02x}".format(*rgb[:3])
