"""What a request is about before its words are read: the page it names, its asides, copies of one text.

* :func:`page_said` finds "on page 2", "first page:", "página 4 -" in a request
  to a layout of several pages (Inkscape's) and returns the page and the
  request without those words; the understander then reads the request
  against that page's elements only;
* :func:`without_asides` drops what a request says in brackets ("push the
  three detail lines (date, room, time) down"): an aside lists or repeats
  what the words around it name, and read with them it splits the request;
* :func:`copies` tells whether several elements are copies of one text piled
  on each other (a title and its shadow), which a person sees as one.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from assistant.document import Layout
from assistant.geometry import Box
from assistant.instructions.requests.said import HELD_EDGE
from assistant.instructions.requests.vocab import (
    CLASS_WORDS,
    COMMON_WORDS,
    FUNCTION_WORDS,
    INTENT_WORDS,
    POSITION_ADJECTIVES,
)
from assistant.instructions.requests.words import ORDINALS, QUOTE_MARK, Token, fold

_PAGE_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                  "eighth": 8, "ninth": 9, "tenth": 10, "last": -1, "opening": 1, "final": -1, "closing": -1}
_PAGE_SAID = re.compile(r"(?:\b(?:on|in|of) )?(?:\bthe (?:(?!(?:on|in|of|to|at|from|into|onto|and|or)\b)"
                        r"[^\W\d_][\w-]* ){0,2}?)?(?:\b(?:page|slide|poster|artboard|p\.|pg|página|pagina|seite|"
                        r"strona)\s*\(?(?P<n>\d+)\)?(?=\W|$)(?!\s*(?:px|pt|mm|cm|in|%|pixels?|points?))|"
                        r"\b(?:(?P<o>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|opening|final|"
                        r"closing)|(?P<d>\d{1,2})(?:st|nd|rd|th)) (?:page|slide|poster|artboard)\b)\s*[:,-]?", re.I)


def page_said(request: str, layout: Layout) -> tuple[int | None, str]:
    """The page a request names ("on page 2", "first page:") of a layout of several pages, and the rest of it."""
    pages = len(layout.canvas.pages)
    m = _PAGE_SAID.search(request)
    if pages >= 2 and m is None:
        return _page_named(request, layout)
    if pages < 2 or m is None:
        return None, request
    n = int(m.group("n") or m.group("d") or 0) or _PAGE_ORDINALS[m.group("o").lower()]
    n = pages if n == -1 else n
    if not 1 <= n <= pages:
        return None, request
    # "X is kissing the right edge on the opening slide, pull it in …": the clauses stay apart
    joint = ", " if request[:m.start()].strip() and m.group(0).rstrip().endswith(",") else " "
    # ("on the 2nd poster (Construção Tradicional) make …": the words in brackets name the page too)
    after = re.sub(r"^\s*\([^()]{1,80}\)\s*[:,-]?", " ", request[m.end():])
    return n - 1, (request[:m.start()].rstrip() + joint + after).strip()


#: Words that never name a page by its content ("the next page", "the whole slide", "the title slide").
_PLAIN = FUNCTION_WORDS | COMMON_WORDS | INTENT_WORDS | set(CLASS_WORDS) | set(POSITION_ADJECTIVES) | set(ORDINALS)
#: "the YouTube slide", "Bezplatné kurzy slide:": a page named by words of its own.
#: "Online materiály: …": a few words, then a colon, opening the request.
_TOPIC = re.compile(r"\s*(?P<name>[^\W\d_][\w/&'-]*(?: [\w/&'-]+){0,4})\s*:\s+")
_PAGE_NAMED = re.compile(r"(?:\b(?:on|in|of) )?(?:\bthe )?(?P<name>(?:[^\W\d_][\w/&'-]* ){1,3}?)(?:page|slide)\b\s*"
                         r"[:,–—-]?", re.I)


def _page_named(request: str, layout: Layout) -> tuple[int | None, str]:
    """The page a request names by words that only the texts of that page say, and the rest of the request.

    The words come before "page" or "slide" ("the YouTube slide"), or open the request before a colon as its
    topic, when they are the whole words of a text on one page only ("Online materiály: the Modularita line …").
    """
    topic = _TOPIC.match(request)
    if topic:
        said = fold(topic.group("name")).strip()
        pages = {e.page for e in layout.elements if e.text and e.page >= 0 and fold(e.text).strip() == said}
        if len(pages) == 1 and not all(w in _PLAIN for w in said.split()):
            return pages.pop(), request[topic.end():].strip()
    for m in _PAGE_NAMED.finditer(request):
        words = fold(m.group("name")).split()
        for start in range(len(words)):  # "move the logo on the YouTube slide": the words nearest "slide"
            said = " ".join(words[start:])
            if len(said) < 3 or all(w in _PLAIN for w in words[start:]):
                continue  # "to the top of the page", "on the next slide": no page's own words
            # (its words as the page has them, or each of two or more of them there: "git workflow" for a slide
            # headed "Git/GitHub workflow")
            pages = {e.page for e in layout.elements if e.text and e.page >= 0 and (said in fold(e.text) or len(
                words) - start >= 2 and set(words[start:]) <= set(re.findall(r"\w+", fold(e.text))))}
            if len(pages) == 1:
                kept = " ".join(m.group("name").split()[:start])  # words before the page's name
                head = request[:m.start()] if not kept else request[:m.start("name")] + kept
                return pages.pop(), re.sub(r"\s+", " ", head + " " + request[m.end():]).strip()
    return None, request


#: Words that open the noun phrase a bracketed list of quotes restates.
_LIST_OPENERS = frozenset({"the", "these", "those", "both", "my", "our", "two", "three", "four"})


def _quoted_list(inner: list[Token]) -> bool:
    """Whether bracketed tokens are only quotes joined by "and", "&" or commas (at least two of them)."""
    quotes = [x for x in inner if x.kind == "quote"]
    return len(quotes) >= 2 and all(x.kind == "quote" or x.text in ("and", ",", "&", "or") for x in inner)


def without_asides(tokens: list[Token], names: Callable[[list[Token]], bool] | None = None,
                   noun: Callable[[list[Token]], bool] | None = None) -> list[Token]:
    """The request without what it says in brackets ("push the three detail lines (date, room, time) down").

    An aside repeats or lists what the words around it name; read with them it splits the request in two.
    One that ``names`` says names one element by its own words ("the code block (Paramètres globaux etc)")
    stays, brackets and all: it says which element the words before it mean. A list whose parts ``noun`` says
    are each a noun phrase ("the bottom row (Autor, Maintainer, Sponzor)") takes the place of the words before it.
    """
    out: list[Token] = []
    depth = 0
    start = 0
    along: list[Token] = []  # the parts of a whole said in brackets, said again at the end of its clause
    for k, t in enumerate(tokens):
        if along and not depth and t.kind == "punct" and t.text in ",;:.!?":
            out += along
            along = []
        if t.kind == "punct" and t.text == "(":
            depth += 1
            start = k if depth == 1 else start
        elif t.kind == "punct" and t.text == ")" and depth:
            depth -= 1
            inner = [x.text for x in tokens[start + 1:k]]
            if not depth and inner[:1] in (["and"], ["plus"], ["with"]) and len(inner) > 1:
                # "push the wordmark (and Bronze Sponsor along with it) to the right": another to move with it
                said = " ".join(x.text for x in tokens[start + 2:k])
                kept = re.sub(r"\s*\b(?:along with (?:it|them)|with (?:it|them)|too|also|as well)$", "", said)
                out += [Token("and", "and", "word"), *tokens[start + 2:start + 2 + len(kept.split())]]
            elif not depth and _quoted_list(tokens[start + 1:k]):
                # "the two question bits in the bubble ('Vous avez…' and 'Participez…')": the quotes say which, in
                # place of the words that described them
                clause = len(out)
                while clause and out[clause - 1].kind != "punct":
                    clause -= 1
                cut = next((j for j in range(clause, len(out)) if out[j].text in _LIST_OPENERS), len(out))
                quotes = [x for x in tokens[start + 1:k] if x.kind == "quote"]
                out = out[:cut] + [y for q in quotes for y in (Token("and", "and", "word"), q)][1:]
            elif not depth and noun is not None and (parts := _named_parts(tokens[start + 1:k], noun)):
                # "right column headings (Maximum compatibility / Mobile application / More Functionality) aren't
                # on the same left edge": the elements the list names, in place of the noun that described them
                clause = len(out)
                while clause and out[clause - 1].kind != "punct":
                    clause -= 1
                cut = next((j for j in range(clause, len(out)) if out[j].text in _LIST_OPENERS), clause)
                # (a part said in a text's own words is that text, as if quoted: "(vous avez… and participez…)")
                # ("the Faironnerie ABC line": a text's words with a noun for it, read as said)
                said = [[Token(QUOTE_MARK, " ".join(x.raw for x in part), "quote")] if names is not None and names(
                    part) and not (len(part) > 1 and part[-1].text in CLASS_WORDS) else part for part in parts]
                out = out[:cut] + [y for part in said for y in (Token("and", "and", "word"), *part)][1:]
            elif not depth and out and out[-1].text in _WHOLES and len(parts := _split_list(
                    tokens[start + 1:k], (",", "and", "&", "+"))) >= 2:
                # "move the whole outline lockup (acm, ×, osc and its title) down 20mm": the lock-up is those parts,
                # each the one beside the others, so they go with it ("…, together with acm, ×, osc and its title")
                along = [Token(",", ",", "punct"), Token("together", "together"), Token("with", "with"),
                         *[y for part in parts for y in (Token("and", "and"), *part)][1:]]
            elif not depth and HELD_EDGE.fullmatch(" ".join(inner)):
                # "orange mascot 25% bigger (bottom stays)": what the resize holds, said as a clause of its own
                out += [Token(",", ",", "punct"), *tokens[start + 1:k]]
            elif not depth and (place := _aside_place(inner)):
                # "the filled OSC badge (top one)": where it is says which
                out += [Token("at", "at", "word"), Token("the", "the", "word"), Token(place, place, "word")]
            elif not depth and names is not None and names(tokens[start + 1:k]):
                # its dots ("nous vous proposons...") would end the clause
                out += [tokens[start], *(x for x in tokens[start + 1:k] if x.kind != "punct"), t]
        elif not depth:
            out.append(t)
    out += along
    out = _dashed_list(out, names) if names is not None else out
    return out if any(t.kind == "word" for t in out) else tokens


#: Nouns for a whole made of parts one may list ("the lockup (logo, × and badge)").
_WHOLES = frozenset({"lockup", "lockups", "set", "group", "unit", "block", "combo", "cluster", "trio", "pair",
                     "bundle", "ensemble", "assembly", "arrangement", "composition", "signature", "lineup"})


def _aside_place(inner: list[str]) -> str | None:
    """The place an aside in brackets says ("top one", "the left one", "on the right"), or None."""
    m = re.fullmatch(r"(?:the )?(top|bottom|left|right|upper|lower) (?:one|version|copy)|(?:on|at) the "
                     r"(top|bottom|left|right)", " ".join(inner))
    if m is None:
        return None
    place = m.group(1) or m.group(2)
    return {"upper": "top", "lower": "bottom"}.get(place, place)


def _split_list(tokens: list[Token], joints: tuple[str, ...]) -> list[list[Token]]:
    """``tokens`` split at the words or marks that join a list ("A, B and C"), empty parts left out."""
    parts: list[list[Token]] = [[]]
    for x in tokens:
        if x.text in joints:
            parts.append([])
        else:
            parts[-1].append(x)
    return [p for p in parts if p]


def _named_parts(inner: list[Token], names: Callable[[list[Token]], bool]) -> list[list[Token]] | None:
    """The parts of a list ("A, B and C", "A / B / C") when there are two or more and each names one element."""
    while inner and inner[-1].text in ("together", "both", "too"):  # "(title + tagline together)"
        inner = inner[:-1]
    parts = _split_list(inner, (",", "and", "&", "or"))
    if any(x.text in ("etc", "so", "others") for x in inner):
        return None  # "(home page, mailing list etc)": some of what it holds, not what it is
    return parts if len(parts) >= 2 and all(names(p) for p in parts) else None


def _dashed_list(tokens: list[Token], names: Callable[[list[Token]], bool]) -> list[Token]:
    """A list between dashes that says what the noun before it means, in its place.

    "the little bold subheads - High user-friendliness, Maximum compatibility, More Functionality - get lost":
    the elements each part names (dashes are read as ";"), said as a list where the noun was, so that the
    clause goes on with them as its subject. Each of at least two parts must name one element.
    """
    for k, t in enumerate(tokens):
        if t.text != ";" or t.kind != "punct":
            continue
        end = next((j for j in range(k + 1, len(tokens)) if tokens[j].kind == "punct" and tokens[j].text != ","),
                   None)
        if end is None or tokens[end].text != ";" or end + 1 >= len(tokens) or tokens[end + 1].kind != "word":
            continue
        parts = _split_list(tokens[k + 1:end], (",", "and", "&"))
        if len(parts) < 2 or not all(names(p) for p in parts):
            continue
        clause = k
        while clause and tokens[clause - 1].kind != "punct":
            clause -= 1
        cut = next((j for j in range(clause, k) if tokens[j].text in _LIST_OPENERS), None)
        if cut is None:
            continue
        listed = [y for p in parts for y in (Token("and", "and", "word"), *p)][1:]
        return tokens[:cut] + listed + _dashed_list(tokens[end + 1:], names)
    return tokens


def copies(ids: list[str], layout: Layout) -> bool:
    """Whether ``ids`` are copies of one text piled on each other (a title and its shadow)."""
    els = [layout.get(i) for i in ids]
    texts = {fold(e.text) for e in els if e.text}
    if len(texts) != 1 or any(not e.text for e in els):
        return False
    first = els[0].box
    return all((inter := first.intersection(e.box)) is not None and inter.area >= 0.5 * min(first.area, e.box.area)
               for e in els[1:])


def stacked(ids: list[str], layout: Layout) -> bool:
    """Whether ``ids`` sit together as the parts of one thing.

    Each lies within its own height of another, or on its line within a few heights of another: "the DConf
    2018 heading" set as two texts is one heading; two "OSC" badges in two rows are two badges.
    """
    boxes = [layout.get(i).box for i in ids]

    def near(b: Box, o: Box) -> bool:
        h = max(b.height, o.height)
        return b.distance(o) <= h or (abs(b.cy - o.cy) <= 0.5 * h and b.distance(o) <= 4 * h)

    return all(any(b is not o and near(b, o) for o in boxes) for b in boxes)


def texts_quoted(request: str, layout: Layout) -> str:
    """The request with the design's own words that hold a sentence mark put in quotes.

    Typed as they stand ("Arquitetura Tradicional? heading is a bit shouty", "push Due date: down"), their "?",
    "." or ":" ends no sentence.
    """
    lines = {ln.strip() for e in layout.elements for ln in (e.text or "").splitlines()}
    for said in sorted(lines, key=len, reverse=True):  # the longest first: "Arquitetura Tradicional?", then parts
        if len(said) < 6 or not re.search(r"[?!.…:;]", said) or said.count('"') or said.count("'"):
            continue
        found = re.search(rf"(?<![\w'\"]){re.escape(said)}(?![\w'\"])", request, re.I)
        if found and request.count('"') % 2 == 0 and not _inside_quotes(request, found.start()):
            request = f'{request[:found.start()]}"{found.group(0)}"{request[found.end():]}'
    return request


def _inside_quotes(text: str, at: int) -> bool:
    """Whether position ``at`` of ``text`` lies between a pair of quote marks."""
    return any(text[:at].count(q) % 2 == 1 for q in ('"', "\u201c"))


__all__ = ["page_said", "without_asides", "copies", "stacked", "texts_quoted"]
