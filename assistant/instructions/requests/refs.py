"""Noun phrases of a request and the elements they name.

:func:`find_mentions` reads a clause's tokens in two passes. First, the
longest runs of words that spell an element's id, name, id family or a whole
text (line) of it become *name spans* ("sign up" → ``signup``, "cover lines"
→ the ``coverline`` family, "point 3" → ``point-3``, "gdal.org"). Then the
clause is chunked into noun phrases: determiners, counts ("the three"),
ordinals ("the second"), place adjectives ("the left one", "the bottom
caption") and nouns, ended by a verb, a preposition or punctuation. A phrase
becomes a :class:`Mention` when it names something: a name span, a quoted
text, a class word ("button", "photo", "the dates", "the url"), a pronoun
("it", "them"), "the others" / "everything else", or a determiner with a noun
("the QR code": a mention that names nothing in this layout). A phrase made
only of page, edge and measure words ("the top right corner", "the same left
edge", "the page") is not a mention; it stays in the clause's *skeleton*,
where each mention is written ``E0``, ``E1`` … for the intent patterns.

Which elements a mention names is decided in
:mod:`~assistant.instructions.requests.choose`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from PIL import ImageColor

from assistant.instructions.requests.colours import word_family
from assistant.instructions.requests.index import STRENGTH, ElementIndex
from assistant.instructions.requests.vocab import (
    CLASS_WORDS,
    COMMON_WORDS,
    DETERMINERS,
    EDGE_WORDS,
    FUNCTION_WORDS,
    INTENT_WORDS,
    LANGUAGE_SCRIPTS,
    MEASURE_WORDS,
    NOT_NOUNS,
    PAGE_WORDS,
    PLURALS,
    POSITION_ADJECTIVES,
    PRONOUNS,
    SAID_NOUNS,
)
from assistant.instructions.requests.words import ORDINALS, Token, fold, squash

COLOR_WORDS = set(ImageColor.colormap)

#: Nouns that name several elements at once ("the list" is all its items).
COLLECTIVES = {"list", "items", "column", "stack", "series", "set", "row"}
#: Longest run of words tried as one element name.
MAX_NAME_WORDS = 5
#: Longest run of words read as the whole of a text's line, typed out without quotes.
MAX_SPELLED_WORDS = 16
_OTHERS = {"others", "rest", "remaining"}
#: Words that may come before a request's verb: "could you please centre …", "can we just move …".
_LEAD_WORDS = {"could", "can", "would", "will", "you", "we", "please", "pls", "plz", "kindly", "i", "d", "like",
               "to", "want", "need", "just", "maybe", "also", "then", "now", "ok", "okay", "so", "and", "hey", "hi",
               "let", "lets", "s", "us", "try", "quickly", "oh", "mind", "possibly", "perhaps", "vertically",
               "horizontally", "gently", "slightly"}
_EVERYTHING = {"everything", "all"}


@dataclass
class Mention:
    """One noun phrase naming elements, and what it resolved to."""

    start: int
    end: int
    text: str
    words: list[str] = field(default_factory=list)
    names: list[tuple[str, str, float]] = field(default_factory=list)
    quote: str | None = None
    ordinal: int | None = None
    count: int | None = None
    plural: bool = False
    every: bool = False
    place: str | None = None
    pronoun: str | None = None
    others: bool = False
    everything: bool = False
    #: Said with "its" / "their": the one belonging to what was just named ("the date and its line").
    possessive: bool = False
    #: Resolved to copies of one text piled on each other (a title and its shadow), taken together.
    copies: bool = False
    #: Resolved element ids (empty until resolved), and the ranked candidates when more than one fits.
    ids: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)

    @property
    def has_head(self) -> bool:
        """Whether the phrase says what kind of thing it names (a noun, a name or a quote)."""
        return bool([w for w in self.words if w not in ("one", "ones")] or self.names or self.quote)


_COLUMN_WORDS = frozenset({"column", "columns", "col"})
_COLUMN_PLACES = frozenset({"left", "right", "middle"})
#: Nouns that say only "a part of the page" after a noun that says what it is ("the logo block", "the photo area").
_VAGUE_HEADS = frozenset({"block", "area", "bit", "thing", "piece", "part", "element", "graphic", "region", "zone"})
#: Classes of pictures and drawings, whose noun before a vague one names the element ("logo block" is the logo).
_THING_CLASSES = frozenset({"logo", "image"})
#: Words before "the right column" that make it a place on the page ("put it in the right column"), not what is in it.
_INTO = frozenset({"in", "into", "to", "onto", "within", "inside", "across", "over", "of"})
#: Words for the spacing of a set: "the spacing in the left column" is of the elements in it, not a place.
_SPACING = frozenset({"spacing", "gaps", "spaced", "distribute", "spread"})


def _spacing_before(tokens: list[Token], i: int) -> bool:
    """Whether ``i`` follows the spacing of a set and a word for where ("even out the spacing in the left column").

    Not where a noun comes between: "the gaps between the four boxes in the left column" are the boxes' there.
    """
    return i >= 2 and tokens[i - 2].text in _SPACING


def _column_follows(tokens: list[Token], j: int) -> bool:
    """Whether "column" (or "hand column") comes at ``j``: "the right hand column"."""
    j += j < len(tokens) and tokens[j].text == "hand"
    return j < len(tokens) and tokens[j].text in _COLUMN_WORDS


def _singular(word: str) -> tuple[str, bool]:
    if word in PLURALS:
        return PLURALS[word], PLURALS[word] != word and word not in ("details",)
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y", True
    if len(word) > 3 and word.endswith("es") and word[:-2] in CLASS_WORDS:
        return word[:-2], True
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1], True  # ("campus", "status", "analysis" are one)
    return word, False


def _name_spans(tokens: list[Token], index: ElementIndex) -> dict[int, tuple[int, list[tuple[str, str, float]]]]:
    """Start → (end, [(element id, kind, strength)]) of the longest runs that spell an element's name."""
    spans: dict[int, tuple[int, list[tuple[str, str, float]]]] = {}
    i = 0
    while i < len(tokens):
        found = None
        if _is_unit(tokens, i):
            i += 1
            continue
        for n in range(min(MAX_SPELLED_WORDS, len(tokens) - i), MAX_NAME_WORDS, -1):
            # "Zagłosuj i zachęć do tego samego znajomych → 85% size": a whole line of a text, typed out
            run = tokens[i:i + n]
            if all(t.kind == "word" for t in run) and (said := index.spelled(fold(" ".join(t.raw for t in run)))):
                found = (i + n, [(eid, "text", STRENGTH["text"]) for eid in said])
                break
        for n in range(min(MAX_NAME_WORDS, len(tokens) - i), 0, -1) if found is None else ():
            run = tokens[i:i + n]
            if any(t.kind in ("punct", "quote") for t in run) or (run[0].kind == "number" and not (
                    n == 1 and _whole_number_text(run[0], tokens, i, index)) and not (
                    # "4pm - 6pm" (typed "4 pm 6 pm"): a time's words, a number first
                    n >= 2 and run[1].kind == "word" and run[1].text in _TIME_WORDS)):
                continue
            # (a request may open with the words and their noun: "Date label - centre under its line")
            hits = _span_hits(run, index, after_the=(i == 0 or tokens[i - 1].text in ("the", "this", "that"))
                              and i + n < len(tokens) and tokens[i + n].text in CLASS_WORDS)
            if hits and all(kind == "part" for _e, kind, _s in hits) and _name_goes_on(tokens, i + n):
                hits = []  # "the Zeste de Savoir logo": a name of its own, not the text "Zeste de Code"
            if hits and n == 1 and i > 0 and tokens[i - 1].text in _BEFORE_VERB and run[0].raw.islower() and all(
                    kind == "part" for _e, kind, _s in hits):
                hits = []  # "… dont quite share a left edge": a verb, though a picture's words have it
            if not hits and n == 1:
                hits = _first_word_hits(tokens, i, index)
            if not hits and n == 1 and run[0].text in INTENT_WORDS and 0 < i < len(tokens) - 1 and \
                    tokens[i - 1].text in ("and", ",", "&") and tokens[i + 1].text in ("and", ",", "&"):
                # "fork / fix / test / merge": a verb inside a list of texts is the text that says it
                hits = [(eid, "text", STRENGTH["text"]) for eid, entry in index.entries.items()
                        if entry.texts and entry.texts[0] == fold(run[0].raw)]
            if hits:
                found = (i + n, hits)
                break
        if found:
            spans[i] = found
            i = found[0]
        else:
            i += 1
    return spans


#: Words after a number that make it a time of day.
_TIME_WORDS = frozenset({"am", "pm", "h", "uhr"})
_UNITS = {"px", "pixel", "pixels", "pt", "point", "points", "mm", "cm", "in", "inch", "inches", "pc", "percent",
          "millimeter", "millimeters", "centimeter", "centimeters", "%", "x", "times"}


def _is_unit(tokens: list[Token], i: int) -> bool:
    """Whether ``tokens[i]`` is the unit of a number before it."""
    return i > 0 and tokens[i - 1].kind == "number" and tokens[i].text in _UNITS


def _whole_number_text(tok: Token, tokens: list[Token], i: int, index: ElementIndex) -> bool:
    """Whether a number is the whole text of an element ("2018", "26"), said as its name, not as an amount."""
    if i + 1 < len(tokens) and tokens[i + 1].text in _UNITS:
        return False
    if i > 0 and tokens[i - 1].text in ("by", "to", "of", "at", "about", "around", "than", "x"):
        return False
    raw = fold(tok.raw)
    return any(raw in entry.texts for entry in index.entries.values())


def _span_hits(run: list[Token], index: ElementIndex, after_the: bool = False) -> list[tuple[str, str, float]]:
    words = [t.text for t in run]
    key = squash(" ".join(words))
    single = len(run) == 1
    if single and (words[0] in INTENT_WORDS or len(key) < 2):
        return []
    if not single and all(w in INTENT_WORDS or w in FUNCTION_WORDS for w in words):
        # "… - make the left one …": words of the request that happen to stand in a text too; but "the Where to get
        # it heading" is a text's whole words, between "the" and a noun for it
        whole = fold(" ".join(t.raw for t in run))
        return [(eid, "text", STRENGTH["text"]) for eid, entry in index.entries.items()
                if entry.texts and entry.texts[0] == whole] if after_the and len(run) >= 3 else []
    if single and words[0] in FUNCTION_WORDS:  # "the about text": an id that is a common word, after "the"
        exact = [(eid, "id", STRENGTH["id"]) for eid, entry in index.entries.items()
                 if entry.keys.get(key, ("", 0.0))[0] in ("id", "name")]
        return exact if after_the else []
    keys = {key}
    if key.endswith("s") and len(key) > 3:
        keys.add(key[:-1])
    if key.endswith("es") and len(key) > 4:
        keys.add(key[:-2])
    if not key.endswith("s") and len(key) > 3 and not key.isdigit():
        keys.add(key + "s")  # "the sponsor logos": the group the file calls "Sponsors"
    folded = fold(" ".join(t.raw for t in run))
    hits: list[tuple[str, str, float]] = []
    for eid, entry in index.entries.items():
        best: tuple[str, float] | None = None
        for k in keys:
            if k in entry.keys:
                kind, strength = entry.keys[k]
                if single and kind in ("token", "family") and (words[0] in CLASS_WORDS or words[0] in MEASURE_WORDS
                                                   or words[0] in EDGE_WORDS or words[0] in PAGE_WORDS):
                    continue  # a class or page word is read as such, not as part of an id
                if best is None or strength > best[1]:
                    best = (kind, strength)
        if best is None and (len(folded) >= 3 or (single and run[0].kind == "number") or (
                entry.drawn and len(folded) == 2)) and folded in entry.texts \
                and not (single and words[0] in CLASS_WORDS and not after_the):
            # (a class word is a text's whole words when another noun follows: "the diagram label")
            # words read from a picture name it less surely than a text's own words ("the git workflow title")
            best = ("part", STRENGTH["part"]) if entry.drawn else ("text", STRENGTH["text"])
        if best is None and not single and len(key) >= 6 and key in entry.words:
            best = ("part", STRENGTH["part"])  # "zeste de savoir" run together in "zestedesavoir.com"
        if best is not None:
            hits.append((eid, best[0], best[1]))
    if any(kind == "id" for _e, kind, _s in hits):
        # a text that reads exactly the words said is what the person sees; an id that spells them is hidden
        # ("Date label": the label that reads "Date", not the date line the file calls "date")
        seen = [(e, "text", STRENGTH["id"] + 1.0) for e, entry in index.entries.items()
                if entry.texts and entry.texts[0] == folded and not entry.drawn
                and not (single and words[0] in CLASS_WORDS and not after_the)]
        hits = [h for h in hits if h[0] not in {e for e, *_ in seen}] + seen if seen else hits
    if not hits:  # "www.osgeo.org", set letter by letter as "ww w . o sg e o . o r g"
        hits = [(eid, "text", STRENGTH["text"]) for eid in index.squashed(key)]
    return hits or _part_hits(words, index)


#: Words after which a lower-case word is a verb ("do not quite share a left edge"), not a few words of a picture.
_BEFORE_VERB = frozenset({"not", "quite", "to", "can", "should", "must", "will", "would", "could", "dont", "doesnt",
                          "didnt", "cant", "wont"})
#: Most elements a few words of text may name ("the doi", "the Thrust 1 picture"); more: too common to say which.
MAX_PART_HITS = 3
#: Words that may sit inside a run of words quoted from a text without being rare themselves.
_PART_GLUE = {"of", "the", "and", "for", "to", "in", "on", "a", "de", "la", "le", "des", "du"}


def _first_word_hits(tokens: list[Token], i: int, index: ElementIndex) -> list[tuple[str, str, float]]:
    """"Start line", "welcome text": a common word that opens exactly one text, said before a noun for a text."""
    w = tokens[i].text
    if (tokens[i].kind != "word" or len(w) < 3 or not w.isalpha() or w in CLASS_WORDS or w in FUNCTION_WORDS
            or i + 1 >= len(tokens) or CLASS_WORDS.get(tokens[i + 1].text) not in ("line", "text", "body", "heading")):
        return []
    hits = [eid for eid, entry in index.entries.items() if entry.words[:1] == [fold(w)] and entry.content]
    owners = [e for e in hits if not any(a in hits for a in index.ancestors(e))]
    return [(e, "part", STRENGTH["part"]) for e in hits] if len(owners) == 1 else []


def _name_goes_on(tokens: list[Token], k: int) -> bool:
    """Whether the words from ``k`` go on naming something no text says ("… de Savoir logo").

    Not after "and": "the AIP and KIT logos" are two.
    """
    if k < len(tokens) and tokens[k].text == "and":
        return False
    while k < len(tokens) and tokens[k].kind == "word" and tokens[k].text in _PART_GLUE:
        k += 1
    # ("the ACM logos", "both ACM circles": a plural of a noun for a kind of element ends the name)
    return k < len(tokens) and tokens[k].kind == "word" and _rare(tokens[k].text) and _rare(
        _singular(tokens[k].text)[0]) and tokens[k].text not in SAID_NOUNS


def _rare(word: str) -> bool:
    """Whether ``word`` is not request vocabulary, so that finding it in a text says which text is meant."""
    if any(c.isdigit() for c in word) or re.fullmatch(r"(?:[a-z0-9-]+\.)+[a-z]{2,}", word):
        return True  # "thrust 1", "ec2"; a web site ("fb.com")
    return (len(word) >= 3 and word.isalpha() and word not in CLASS_WORDS and word not in FUNCTION_WORDS
            and word not in INTENT_WORDS and word not in COMMON_WORDS and word not in PAGE_WORDS
            and word not in EDGE_WORDS and word not in MEASURE_WORDS and word not in POSITION_ADJECTIVES
            and word not in NOT_NOUNS and word not in COLOR_WORDS and word not in PLURALS
            and _singular(word)[0] not in CLASS_WORDS)  # ("the questions": a noun for texts, not their words)


def _foreign_short(word: str) -> bool:
    """A word of one or two letters that is no request word ("po", "ze"): it may stand in a text's words."""
    return len(word) <= 2 and word.isalpha() and word not in FUNCTION_WORDS and word not in INTENT_WORDS and \
        word not in COMMON_WORDS and word not in EDGE_WORDS and word not in MEASURE_WORDS and word not in PAGE_WORDS


def _part_hits(words: list[str], index: ElementIndex) -> list[tuple[str, str, float]]:
    """Elements whose text holds ``words`` in a row (rare words, as typed without quotes): a few, or none.

    A group and the member whose text it is count once.
    """
    run = [fold(w) for w in words if w != "and"]
    timed = any(w in _TIME_WORDS for w in run)  # "4 pm 6 pm": the numbers of a time are as rare as it is
    # (a short word of another language between rare ones is theirs: "po skončení platnosti")
    short = sum(_rare(w) for w in run) >= 2
    if not run or words[0] == "and" or words[-1] == "and" or run[0] in _PART_GLUE or run[-1] in _PART_GLUE or not all(
            _rare(w) or w in _PART_GLUE or timed and (w.isdigit() or w in _TIME_WORDS) or short and _foreign_short(w)
            for w in run) or not any(c.isalpha() for w in run for c in w):
        return []
    n = len(run)
    hits = [eid for eid, entry in index.entries.items()
            if any(entry.words[k:k + n] == run for k in range(len(entry.words) - n + 1))]
    if not hits and n == 1 and "." in run[0].strip("."):  # "fb.com" for "fb.com/kieleckamasa": the site of an address
        site = [p for p in re.split(r"[./]", run[0].removeprefix("www.")) if p]
        hits = [eid for eid, entry in index.entries.items() if any(
            entry.words[k:k + len(site)] == site and (k == 0 or entry.words[k - 1] == "www")
            for k in range(len(entry.words) - len(site) + 1))]
    owners = {eid for eid in hits if not any(a in hits for a in index.ancestors(eid))}
    if not owners or len(owners) > MAX_PART_HITS:
        return []
    return [(eid, "part", STRENGTH["part"]) for eid in hits]


def _numbered_siblings(tokens: list[Token], end: int, hits: list[tuple[str, str, float]],
                       index: ElementIndex) -> tuple[list[tuple[str, str, float]], int]:
    """After "coverline 2", the siblings a list of numbers names ("…, 3 and 4"), and where the list ends."""
    ids = [e for e, kind, _s in hits if kind == "id"]
    family = [e for e, kind, _s in hits if kind == "family"]
    more: list[tuple[str, str, float]] = []
    k = end
    if family and not ids and k < len(tokens) and tokens[k].kind == "number":
        # "cover lines 2 and 3": the members the numbers name, instead of the whole family
        ids = [e for e in family if squash(e).endswith(tokens[k].text)]
        if len(ids) != 1:
            return [], end
        hits[:] = [(ids[0], "id", STRENGTH["id"])]
        k += 1
    stem = re.sub(r"[-_\s]*\d+$", "", ids[0]) if len(ids) == 1 else ""
    if not stem or stem == ids[0]:
        return [], k
    while k + 1 < len(tokens) and tokens[k].text in ("and", "&", "or") and tokens[k + 1].kind == "number":
        key = squash(f"{stem} {tokens[k + 1].text}")
        found = [e for e, en in index.entries.items() if en.keys.get(key, ("", 0.0))[0] == "id"]
        if not found:
            break
        more += [(e, "id", STRENGTH["id"]) for e in found]
        k += 2
    return more, k


def _is_noun(tok: Token) -> bool:
    w = tok.text
    plain = w.replace("'", "")
    # a word, or letters and digits said as one ("the EC2 icon", "the S3 bucket"), not a number with its unit
    wordlike = plain.isalpha() or (plain.isalnum() and plain[0].isalpha() and any(c.isdigit() for c in plain)) or (
        plain.isalnum() and any(c.isalpha() for c in plain) and not re.fullmatch(r"\d+(?:[a-z]{1,2}|in|inch)", plain))
    return (tok.kind == "word" and wordlike and w not in FUNCTION_WORDS and w not in INTENT_WORDS
            and w not in DETERMINERS and w not in POSITION_ADJECTIVES and w not in ORDINALS
            and w not in NOT_NOUNS) or w in CLASS_WORDS or (len(w) > 3 and w.endswith("s") and w[:-1] in CLASS_WORDS)


def _shared_names(tokens: list[Token]) -> list[Token]:
    """"The AIP, FH Potsdam and KIT logos" as "the AIP logo and the FH Potsdam logo and the KIT logo".

    Names of one to three rare words each, joined by "and" (commas read as "and"), after "the" or "both", before a
    plural noun for a kind of element.
    """
    for n, noun in enumerate(tokens):
        single, plural = _singular(noun.text)
        if not plural or single not in CLASS_WORDS or noun.kind != "word":
            continue
        names: list[list[Token]] = [[]]
        k = n - 1
        while k >= 0 and tokens[k].kind == "word" and tokens[k].text not in ("the", "both"):
            if tokens[k].text in ("and", "or"):
                names.insert(0, [])
            elif (_rare(tokens[k].text) or len(tokens[k].text) == 2 and tokens[k].text.isalpha() and tokens[k].text
                  not in FUNCTION_WORDS and tokens[k].text not in _UNITS) and len(names[0]) < 3:  # ("FH Potsdam")
                names[0].insert(0, tokens[k])
            else:
                break
            k -= 1
        if k < 0 or tokens[k].text not in ("the", "both") or len(names) < 2 or not all(names):
            continue
        one = Token(single, single, "word")
        out = tokens[:k + 1]
        # ("the ACM and OSC logos in the top row": each of them there)
        place = _ROW_SAID.match(" ".join(t.text for t in tokens[n + 1:n + 5]) + " ")
        where = tokens[n + 1:n + 1 + len(place.group(0).split())] if place else []
        for j, name in enumerate(names):
            out += ([Token("and", "and", "word"), Token("the", "the", "word")] if j else []) + name + [one] + where
        return out + _shared_names(tokens[n + 1 + len(where):])
    return tokens


#: "… in the top row", "… on the left": where each of several named together is.
_ROW_SAID = re.compile(r"(?:in|at|on) the (?:top|bottom|upper|lower|left|right)(?: (?:row|column|half|part|line))? ")


def _shared_noun(tokens: list[Token]) -> list[Token]:
    """"The yellow and green wedges" as "the yellow wedge and the green wedge": two colours of one noun.

    So are two names of one kind: "the AIP and KIT logos" are the AIP logo and the KIT logo.
    """
    out = _shared_names(list(tokens))
    k = 0
    while k + 3 < len(out):
        a, conj, b, noun = out[k:k + 4]
        plural, single = noun.text, _singular(noun.text)[0]
        if (a.text in COLOR_WORDS and b.text in COLOR_WORDS and conj.text in ("and", "or")
                and noun.kind == "word" and plural != single and _is_noun(noun)):
            one = Token(single, single, "word")
            out[k:k + 4] = [a, one, conj, Token("the", "the", "word"), b, one]
            k += 6
        elif a.kind == "quote" and b.kind == "quote" and conj.text in ("and", "&") and (run := _plural_run(out, k + 3)):
            # "the 'Figure and Text' and 'Conclusions' tabs": the 'Figure and Text' tab and the 'Conclusions' tab
            out[k:k + 3 + len(run)] = [a, *run, conj, Token("the", "the", "word"), b, *run]
            k += 4 + 2 * len(run)
        elif a.text in ORDINALS and b.text in ORDINALS and conj.text in ("and", "&") and (
                run := _plural_run(out, k + 3)):
            # "swap the 2nd and 4th photo placeholders": the 2nd photo placeholder and the 4th photo placeholder
            out[k:k + 3 + len(run)] = [a, *run, conj, Token("the", "the", "word"), b, *run]
            k += 4 + 2 * len(run)
        else:
            k += 1
    return _side_ones(out)


_SIDE_WORDS = frozenset({"left", "right", "top", "bottom", "upper", "lower"})


def _side_ones(tokens: list[Token]) -> list[Token]:
    """"… make the right hand one match the left": the left one, said without its noun at the end of a comparison."""
    out = list(tokens)
    for k in range(len(out) - 2, 0, -1):
        if out[k].text == "the" and out[k + 1].text in _SIDE_WORDS and out[k - 1].text in (
                "match", "matches", "as", "like", "than") and (k + 2 == len(out) or out[k + 2].kind == "punct"):
            out.insert(k + 2, Token("one", "one", "word"))
    return out


def _plural_run(tokens: list[Token], k: int) -> list[Token]:
    """The one to three words from ``k`` that end in a plural noun, that noun made singular; else nothing."""
    for end in range(k, min(k + 3, len(tokens))):
        tok = tokens[end]
        if tok.kind != "word":
            return []
        single, plural = _singular(tok.text)
        if plural and (single in CLASS_WORDS or _is_noun(tok)):
            return [*tokens[k:end], Token(single, single, "word")]
    return []


def find_mentions(tokens: list[Token], index: ElementIndex) -> tuple[list[Mention], str]:
    """The element mentions of a clause and its skeleton (mentions written ``E0``, ``E1`` …)."""
    tokens = _shared_noun(tokens)
    spans = _name_spans(tokens, index)
    mentions: list[Mention] = []
    skeleton: list[str] = []
    i = 0
    while i < len(tokens):
        if _is_unit(tokens, i):  # "2 points" is a length, not the bullet points
            skeleton.append(tokens[i].text)
            i += 1
            continue
        # ("colour ACM logo is a bit far …": which version of a picture, not "colour the logo …")
        version = tokens[i].text in _IN_COLOUR and i + 1 < len(tokens) and ((i + 1) in spans or _is_noun(tokens[i + 1]))
        if tokens[i].text in INTENT_WORDS and i not in spans and all(t.text in _LEAD_WORDS for t in tokens[:i]) and \
                not version:
            # a request starting with a verb: "line the photo up …", "could you centre the caption …"
            skeleton.append(tokens[i].text)
            i += 1
            continue
        m, j = _phrase(tokens, i, spans, index)
        listed = (m is not None and len(skeleton) >= 2 and skeleton[-1] == "and" and skeleton[-2].startswith("E")
                  and bool(m.words) and not all(w in PAGE_WORDS | EDGE_WORDS for w in m.words)
                  and m.text.split()[0] in DETERMINERS)  # "move the name and the degree up": a second element
        # "centre the date, the room and the time": after a comma, the first of a list, whatever its noun
        leading = (m is not None and i == 0 and bool(m.words) and m.text.split()[0] in DETERMINERS
                   and j + 1 < len(tokens) and tokens[j].text == "and" and tokens[j + 1].text in DETERMINERS)
        # "change place of penguin and devil": bare nouns after "of", "and", "between" name things too
        # ("move tux down 20px": a bare name right after the verb the request opens with)
        # ("shift the name + degree down": a noun for a kind, after one named and "and", is the second)
        listed_class = (m is not None and len(skeleton) >= 2 and skeleton[-1] == "and" and skeleton[-2].startswith("E")
                        and len(m.words) == 1 and m.words[0] in CLASS_WORDS and m.words[0] not in MEASURE_WORDS - {
                            "degree"})
        bare = (m is not None and not m.names and not m.quote and bool(m.words) and i > 0
                and (tokens[i - 1].text in ("of", "and", "between") or (
                    tokens[i - 1].text in INTENT_WORDS and all(t.text in _LEAD_WORDS for t in tokens[:i - 1])))
                and len(m.words) <= 2
                and all(w not in COMMON_WORDS and w not in PAGE_WORDS | EDGE_WORDS | MEASURE_WORDS
                        and not w.endswith("ly") or listed_class for w in m.words))
        if m is not None and i > 0 and tokens[i - 1].text in ("for", "like") and m.text.split()[0] in ("a", "an") \
                and not m.names and not m.quote:
            m = None  # "… is pretty small for a heading": the kind it is judged as, not an element
        if m is not None and not m.names and not m.quote and (i > 0 and tokens[i - 1].text == "as" and m.text in
                                                              _AS_ONE or (
                i > 1 and tokens[i - 2].text == "as" and tokens[i - 1].text in ("1", "one") and m.words in (
                    ["block"], ["unit"], ["group"], ["piece"]))):
            m = None  # "centre the name and the degree as one block": how they move, not another element
        if m is not None and m.words == ["column"] and m.place in _COLUMN_PLACES and not m.names and not m.quote \
                and i > 0 and tokens[i - 1].text in _INTO and not _spacing_before(tokens, i) and not (
                    i > 1 and tokens[i - 2].text in _RUNS_INTO):
            m = None  # "put it in the right column", "the frame in the left column": a part of the page
            # (but "it runs into the right column": what it overlaps)
        # "the gap between MultiROM and the line under it": a line of text, said where it is
        placed_line = (m is not None and m.words == ["line"] and not m.names and not m.quote and j < len(tokens)
                       and m.text.split()[0] in DETERMINERS
                       and tokens[j].text in ("under", "below", "above", "beneath", "underneath", "beside"))
        if m is not None and (_names_something(m) or listed or bare or leading or placed_line):
            skeleton.append(f"E{len(mentions)}")
            mentions.append(m)
            i = j
            if i + 1 < len(tokens) and tokens[i].text == "in" and word_family(tokens[i + 1].text):
                m.words.append(tokens[i + 1].text)  # "the code in violet": its colour, said after it
                i += 2
            continue
        if j > i:  # a phrase of page, edge and measure words: keep its words
            skeleton += [t.text if t.kind != "quote" else "QUOTE" for t in tokens[i:j]]
            i = j
            continue
        skeleton.append(tokens[i].text if tokens[i].kind != "quote" else "QUOTE")
        i += 1
    return _appositions(mentions, " ".join(skeleton))


#: "the code block (Paramètres globaux etc)": a mention, then words in brackets that name an element.
_APPOSITION = re.compile(r"E(\d+) \( E(\d+)(?: etc)? \)")


def several_before(n: int, mentions: list[Mention]) -> bool:
    """Whether a mention before the ``n``-th names several elements on purpose ("the logos … their")."""
    return any(m.plural or m.every or m.everything or (m.count or 0) > 1 for m in mentions[:n])


def names_one(tokens: list[Token], index: ElementIndex) -> bool:
    """Whether ``tokens`` (what a request says in brackets) name one element by its name or its words."""
    mentions, skel = find_mentions(tokens, index)
    rest = re.sub(r"\b(?:etc|and so on)\b|[.…]", " ", skel).split()
    return rest == ["E0"] and (bool(mentions[0].names) or mentions[0].quote is not None)


def _appositions(mentions: list[Mention], skel: str) -> tuple[list[Mention], str]:
    """Words in brackets after a mention that name an element ("the blurb (nous vous proposons...)") say which.

    The bracketed mention takes the place of the one before it, whose noun ("pseudo code block") the file
    may have no word for; the brackets leave the skeleton.
    """
    while True:
        m = _APPOSITION.search(skel)
        if m is None:
            return mentions, skel
        a, b = int(m.group(1)), int(m.group(2))
        if not mentions[b].names and mentions[b].quote is None:
            return mentions, skel
        mentions = list(mentions)
        mentions[a] = replace(mentions[b], start=mentions[a].start, words=[w for w in mentions[b].words if w != "etc"])
        skel = skel[:m.start()] + f"E{a}" + skel[m.end():]


def _phrase(tokens: list[Token], i: int, spans: dict[int, tuple[int, list]],
            index: ElementIndex) -> tuple[Mention | None, int]:
    """The noun phrase starting at ``i`` (or None) and where it ends."""
    t = tokens[i]
    if t.kind == "word" and t.text in PRONOUNS and t.text not in DETERMINERS - {"its"}:
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        demonstrative = t.text in ("that", "this", "these", "those", "its", "their") and nxt is not None and (
            _is_noun(nxt) or (i + 1) in spans or nxt.kind == "quote" or nxt.text in POSITION_ADJECTIVES
            or nxt.text == "one" or (
                # "that huge GDAL", "this little icon": an adjective, then what it describes
                nxt.text in NOT_NOUNS and nxt.text not in INTENT_WORDS and i + 2 < len(tokens) and (
                    (i + 2) in spans or tokens[i + 2].kind == "quote" or _is_noun(tokens[i + 2]))))
        prev = tokens[i - 1].text if i else ""
        if not demonstrative:
            if t.text == "that" and prev in ("so", "such", "sure", "ensure", "than", "now"):
                return None, i
            return Mention(start=i, end=i + 1, text=t.text, pronoun=t.text,
                           plural=t.text in ("them", "they", "those", "these", "both")), i + 1
    m = Mention(start=i, end=i, text="")
    j = i
    started = False
    while j < len(tokens):
        tok = tokens[j]
        w = tok.text
        if j in spans and not (m.names and spans[j][0] == j + 1 and _singular(w)[0] in CLASS_WORDS):
            # (after a name, "logos" is the noun of "sponsor logos", not the element whose id is "logo")
            end, hits = spans[j]
            more, end = _numbered_siblings(tokens, end, hits, index)
            m.names += hits + more
            m.plural = m.plural or bool(more) or (
                _singular(tokens[end - 1].text)[1] and not any(k == "id" for _e, k, _s in hits))
            j, started = end, True
            continue
        if tok.kind == "quote":
            m.quote, j, started = tok.raw, j + 1, True
            continue
        if tok.kind == "number" and started and not m.has_head and m.count is None and m.ordinal is None:
            m.count, j = int(tok.value or 0), j + 1
            continue
        if tok.kind != "word":
            break
        if w in DETERMINERS or w in ("this", "that", "these", "those"):
            if m.has_head:
                break
            m.every = m.every or w in ("all", "every", "each", "both")
            m.possessive = m.possessive or w in ("its", "their", "his", "her")  # ("the quote and his name")
            m.count = 2 if w == "both" else m.count
            j, started = j + 1, True
            continue
        fraction = j > 0 and tokens[j - 1].text in ("a", "an", "one") and w in ("third", "fourth", "fifth", "sixth",
                                                                               "eighth", "tenth")
        if fraction:  # "by a fifth" is an amount, not "the fifth one"
            return None, i
        if w in ORDINALS and not m.has_head and not (j > 0 and tokens[j - 1].text in POSITION_ADJECTIVES
                                                     and w in ("third", "fourth")):
            m.ordinal, j, started = ORDINALS[w], j + 1, True
            continue
        if w in ("text", "type", "letter", "lettering") and not m.has_head and j + 1 < len(tokens) and tokens[
                j + 1].text in ("size", "sizes"):
            break  # "the same text size as the credit": the size of type, no element
        if w in ("small", "fine") and j + 1 < len(tokens) and tokens[j + 1].text == "print":
            m.words.append("print")  # "the small print" is a caption, not the smallest print
            j, started = j + 2, True
            continue
        if w in _COLUMN_WORDS and m.place in _COLUMN_PLACES and not m.has_head and not m.names and not (
                i > 0 and tokens[i - 1].text in _INTO and not _spacing_before(tokens, i)):
            m.words.append("column")  # "the left column", "right hand column": the elements in it
            m.plural, j, started = True, j + 1, True
            break
        if w in POSITION_ADJECTIVES and m.place is None and POSITION_ADJECTIVES[w] in _COLUMN_PLACES and \
                not m.has_head and _column_follows(tokens, j + 1) and not (
                    i > 0 and tokens[i - 1].text in _INTO and not _spacing_before(tokens, i)):
            m.place = POSITION_ADJECTIVES[w]
            j, started = j + 1 + (tokens[j + 1].text == "hand"), True
            continue
        if w in POSITION_ADJECTIVES and not m.has_head and j + 1 < len(tokens) and (
                _is_noun(tokens[j + 1]) or tokens[j + 1].text in ("one", "ones") or (j + 1) in spans
                or _adjective_as_noun(tokens, j + 1, m, True)
                or tokens[j + 1].kind == "quote" or tokens[j + 1].text in POSITION_ADJECTIVES):
            m.place = POSITION_ADJECTIVES[w] if m.place is None or w in ("last", "other") else m.place
            if w == "last":
                m.ordinal = -1
            j, started = j + 1, True
            continue
        if w in ("one", "ones") and started:
            m.plural = w == "ones"
            j += 1
            m.words.append("one")
            break
        if w in _OTHERS and (started or w == "others"):
            m.others, j = True, j + 1
            break
        if w == "everything" or (w == "else" and m.everything):
            m.everything, j = True, j + 1
            if j < len(tokens) and tokens[j].text == "else":
                m.others, j = True, j + 1
            break
        if w in ("pale", "light", "pastel", "dark", "deep") and not m.has_head and j + 2 < len(tokens) and tokens[
                j + 1].text in COLOR_WORDS and (_is_noun(tokens[j + 2]) or (j + 2) in spans):
            j, started = j + 1, True  # "the pale blue box": a shade of the colour said next (kept in the text)
            continue
        if w in ("pale", "dark") and not m.has_head and j + 1 < len(tokens) and CLASS_WORDS.get(
                tokens[j + 1].text) in ("background", "shape", "header"):
            j, started = j + 1, True  # "the dark background": of the grounds, the dark one (kept in the text)
            continue
        if w in _IN_COLOUR and not m.has_head and j + 1 < len(tokens) and (
                _is_noun(tokens[j + 1]) or (j + 1) in spans):
            m.words.append(w)  # "the colour ACM logo": its full-colour version
            j, started = j + 1, True
            continue
        if w in WEIGHT_WORDS and not m.has_head and j + 1 < len(tokens) and (CLASS_WORDS.get(tokens[j + 1].text) in (
                "body", "text", "line", "heading", "title", "subtitle", "caption", "credit") or (j + 1) in spans):
            m.words.append(w)  # "the bold intro paragraph": its weight says which
            j, started = j + 1, True
            continue
        # "the English line", "the red box", "the three detail lines": what comes before the noun of a class
        modifiers_only = bool(m.words) and not m.names and not m.quote and (all(
            x in COLOR_WORDS or x in LANGUAGE_SCRIPTS for x in m.words) or (
            w in CLASS_WORDS and not any(x in CLASS_WORDS for x in m.words)))
        # "the blue map pin icon": a word that is also a verb, between two nouns, is part of the name ("the pin
        # icon", "the scale bar": or right after the article)
        verb_in_name = (m.has_head or (not m.words and j > 0 and tokens[j - 1].text in ("the", "a", "an", "this",
                                                                                         "that"))) and _noun_follows(
            tokens, j)
        if (_is_noun(tok) or _adjective_as_noun(tokens, j, m, started) or verb_in_name) and not (
                m.has_head and not modifiers_only and not verb_in_name and (_not_compound(w) or (
                    w in INTENT_WORDS and not (
                        # "the date line is as loud as …": a noun that is also a verb ("line up"), said as a noun
                        _singular(w)[0] in CLASS_WORDS and (j + 1 == len(tokens) or tokens[j + 1].text in
                                                            _AFTER_NOUN_VERB or _moved_by(tokens, j + 1)))))):
            word, plural = _singular(w)
            m.words.append(word)
            m.plural = plural or word in COLLECTIVES
            j, started = j + 1, True
            continue
        break
    if j == i:
        return None, i
    if t.text in ("its", "their") and not (m.names or m.quote or any(w in CLASS_WORDS for w in m.words)):
        # "make its font bigger": "its" points back; what follows is what to change about it
        return Mention(start=i, end=i + 1, text=t.text, pronoun=t.text, plural=t.text == "their"), i + 1
    if not m.has_head and not m.words and m.ordinal is None and m.place is None and m.count == 2 and m.every:
        m.pronoun, m.plural = "both", True
    if len(m.words) >= 2 and m.words[-1] in _VAGUE_HEADS and CLASS_WORDS.get(m.words[-2]) in _THING_CLASSES:
        m.words.pop()  # "the logo block top left": the logo, however much of it there is
    if len(m.names) > 1 and all(k == "part" and not index.entry(e).drawn for e, k, _s in m.names) and (
            said := [fold(w) for w in m.words if w not in CLASS_WORDS]):
        # "the Start w każdą... line": of the texts its rare word names, the one that says the other words too
        m.names = [(e, k, s + (1.0 if all(w in index.entry(e).words for w in said) else 0.0)) for e, k, s in m.names]
    m.end = j
    m.text = " ".join(tk.raw for tk in tokens[i:j])
    return m, j


#: Verbs before "into" that say an overlap, not a destination ("the paragraph runs into the right column").
_RUNS_INTO = frozenset({"runs", "run", "running", "crashes", "crashing", "bumps", "bumping", "spills", "spilling",
                        "bleeds", "bleeding", "cuts", "cutting", "eats", "eating", "pokes", "poking", "creeps",
                        "creeping", "intrudes", "intruding"})
#: "… as one block": how several move, not an element.
_AS_ONE = frozenset({"one block", "a block", "a single block", "one unit", "a unit", "a single unit", "one group",
                     "a group", "one piece", "a whole", "one whole"})
#: "Colour" said before a noun: which version of a picture ("the colour ACM logo"), not a property to change.
_IN_COLOUR = frozenset({"color", "colored", "colorful"})
#: Words that follow a noun, not a verb: "the date line is …", "the name line should …".
_AFTER_NOUN_VERB = frozenset({"is", "are", "was", "looks", "feels", "seems", "sits", "should", "could", "needs",
                              "has", "and", "in", "on", "at", "of", "from", "to", "by", "under", "below", "above",
                              "beneath", "underneath", "beside", "near", "please", "pls", "do", "does", "did",
                              "dont", "doesnt", "aren", "were", "sit", "look", "feel", "seem", "need", "have", "start",
                              "starts", "begin", "begins", "overlap", "overlaps", "stay", "stays", "must", "can",
                              "together", "exactly", "as", "too", "so"})
def _moved_by(tokens: list[Token], k: int) -> bool:
    """Whether ``tokens[k:]`` start a move by an amount ("… line up by 50px", "… line down 2mm"): no "line up"."""
    return k + 1 < len(tokens) and tokens[k].text in ("up", "down") and (
        tokens[k + 1].text == "by" or tokens[k + 1].kind == "number")


#: Words after which an adjective that ends a noun phrase was its noun ("the little light on the word …").
_AFTER_A_NOUN = {"on", "in", "at", "over", "near", "by", "behind", "beside", "is", "are", "sits", "looks"}


def _noun_follows(tokens: list[Token], j: int) -> bool:
    """Whether ``tokens[j]``, a word that is also a verb ("pin", "move"), stands before a noun of a class."""
    w = tokens[j].text
    return (w in INTENT_WORDS and w not in FUNCTION_WORDS and w.isalpha() and j + 1 < len(tokens)
            and tokens[j + 1].text in CLASS_WORDS and tokens[j + 1].text not in INTENT_WORDS)


#: Weights a text is named by ("the bold paragraph", "the light line").
WEIGHT_WORDS = frozenset({"bold", "bolded", "heavy", "light", "thin", "regular"})


def _adjective_as_noun(tokens: list[Token], j: int, m: Mention, started: bool) -> bool:
    """Whether ``tokens[j]``, a word that is mostly an adjective, is the noun of the phrase begun before it."""
    w = tokens[j].text
    return (started and not m.has_head and not m.names and not m.quote and w in NOT_NOUNS and w.isalpha()
            and not w.endswith(("er", "ly")) and j + 1 < len(tokens) and tokens[j + 1].text in _AFTER_A_NOUN)


def _not_compound(word: str) -> bool:
    """Whether ``word``, after a noun, starts something else (an adjective, adverb or colour), not a compound."""
    return (word in NOT_NOUNS or word in POSITION_ADJECTIVES or word.endswith("ly") or word in COLOR_WORDS
            or word in MEASURE_WORDS
            or (word.endswith(("er", "est")) and word not in CLASS_WORDS and len(word) > 4 and word[:-2] in NOT_NOUNS))


def _names_something(m: Mention) -> bool:
    if m.pronoun or m.others or m.everything or m.names or m.quote:
        return True
    if m.words == ["column"] and m.place in _COLUMN_PLACES:
        return True  # "the left column": what is in it
    heads = [w for w in m.words if w != "one"]
    if any(w in CLASS_WORDS for w in heads):
        return m.possessive or not all(w in PAGE_WORDS | EDGE_WORDS | MEASURE_WORDS for w in heads)
    if not heads:  # ("all six": those said before)
        return "one" in m.words or m.ordinal is not None or (m.every and (m.count or 0) > 1)
    if all(w in PAGE_WORDS | EDGE_WORDS | MEASURE_WORDS for w in heads):
        return False
    if m.start == 0 and all(w not in COMMON_WORDS and not w.endswith("ly") for w in heads):
        return True  # terse: "road sign to the top left"
    return m.text.split()[0] in DETERMINERS or m.text.split()[0] in ("this", "that", "these", "those")


__all__ = ["Mention", "find_mentions", "names_one", "several_before"]
