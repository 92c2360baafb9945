"""Words of a typed request: quotes kept aside, spelling and typos evened out, numbers written as digits.

:func:`tokenise` turns a request into :class:`Token` s:

* quoted text (``'Sign up online'``, ``"Reserve a table"``, curly quotes too)
  becomes one token of kind ``quote`` holding the text as typed; an apostrophe
  inside a word (``logo's``, ``don't``) is not a quote;
* the rest is lower-cased; ``-`` and ``_`` between letters become spaces
  (``left-align`` → ``left align``), arrows (``→``, ``->``) the word ``to`` before a value
  (``heading → 48pt``), a clause break before a verb (``jammed -> slide it left``) and nothing
  before a change (``→ 10% bigger``),
  ``&`` and ``+`` the word ``and``; a possessive ``'s`` is dropped
  (``the chart's top`` → ``the chart top``) and common contractions expanded
  (``it's`` → ``it is``, ``don't`` → ``do not``);
* British spellings become American ones (``centre`` → ``center``,
  ``colour`` → ``color``, ``grey`` → ``gray``), as the vocabulary is written;
* a word that is not known is corrected to the known word nearest in
  Damerau–Levenshtein distance (at most 1 edit for words of 4–6 letters, 2
  for longer ones; only when one nearest word wins), so ``titel`` is
  ``title`` and ``hedline`` is ``headline``; the known words are the
  vocabulary plus the words of the layout's element ids, names and texts;
* numbers in words become digits (``twenty five`` → ``25``); ``one`` only
  where it counts something (``point one``, ``one inch``), not in
  ``the left one``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

#: British → American spellings (whole words).
SPELLING: dict[str, str] = {
    "centre": "center", "centres": "centers", "centred": "centered", "centring": "centering",
    "centrally": "centrally", "colour": "color", "colours": "colors", "coloured": "colored", "grey": "gray",
    "greys": "grays", "metre": "meter", "metres": "meters", "millimetre": "millimeter",
    "millimetres": "millimeters", "centimetre": "centimeter", "centimetres": "centimeters",
    "organise": "organize", "emphasise": "emphasize", "emphasised": "emphasized", "realign": "realign",
    "optimise": "optimize", "normalise": "normalize", "enlargen": "enlarge", "favour": "favor",
    "behaviour": "behavior", "neighbouring": "neighboring", "neighbour": "neighbor", "visualise": "visualize",
    "harmonise": "harmonize", "standardise": "standardize", "minimise": "minimize", "maximise": "maximize",
    # chat shorthand
    "btwn": "between", "betw": "between", "bw": "between", "n": "and", "abt": "about", "txt": "text",
    "thru": "through", "u": "you", "plz": "please", "pls": "please", "sml": "small", "lil": "little",
}

CONTRACTIONS: dict[str, str] = {
    "it's": "it is", "that's": "that is", "there's": "there is", "what's": "what is", "they're": "they are",
    "don't": "do not", "doesn't": "does not", "isn't": "is not", "aren't": "are not", "can't": "can not",
    "cannot": "can not", "won't": "will not", "shouldn't": "should not", "mustn't": "must not",
    "wouldn't": "would not", "couldn't": "could not", "i'd": "i would", "let's": "let us", "i'm": "i am",
    "we'd": "we would", "you're": "you are", "hasn't": "has not", "haven't": "have not", "dont": "do not",
    "doesnt": "does not", "isnt": "is not", "shouldnt": "should not", "cant": "can not", "wont": "will not",
    "thats": "that is", "arent": "are not", "theres": "there is", "whats": "what is", "didnt": "did not",
    "wasnt": "was not", "werent": "were not", "couldnt": "could not", "wouldnt": "would not", "hasnt": "has not",
    "havent": "have not",
}

UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
         "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
         "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "dozen": 12}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
        "ninety": 90}
ORDINALS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6, "7th": 7, "8th": 8,
    "9th": 9, "10th": 10,
}
#: Words before which ``one`` is a pronoun ("the left one"), not a number.
ONE_PRONOUN_AFTER = {
    "the", "a", "this", "that", "other", "another", "which", "each", "every", "no", "any", "same", "left", "right",
    "top", "bottom", "upper", "lower", "middle", "first", "last", "second", "third", "big", "bigger", "small",
    "smaller", "large", "larger", "new", "old", "wrong", "next", "previous", "only", "one", "red", "blue",
    "green", "dark", "light", "main", "center", "centre", "central", "leftmost", "rightmost", "topmost",
    "bottommost", "lowest", "highest", "biggest", "smallest", "largest", "longer", "shorter", "long", "short",
    "colour", "color", "coloured", "colored", "grey", "gray", "white", "black", "yellow", "orange", "purple", "pink",
    "outline", "outlined", "filled", "plain", "full", "empty", "round", "square", "tiny", "little", "current",
    "original", "english", "bold", "wide", "narrow", "tall", "solid", "hollow", "faint",
}

_QUOTE_RE = re.compile(r"""(?<![\w])(?:'([^'\n]+?)'|"([^"\n]+?)"|\u2018([^\u2019\n]+?)\u2019|"""
                       r"""\u201c([^\u201d\n]+?)\u201d)(?![\w])""")
_WORD_RE = re.compile(r"[#]?[\w@]+(?:[.'/:@][\w@]+)*%?|%|[:,;.!?()]")
QUOTE_MARK = "\x00q"


@dataclass(frozen=True)
class Token:
    """One word of a request: ``text`` normalised, ``raw`` as typed, ``kind`` word, number, quote or punct."""

    text: str
    raw: str
    kind: str = "word"
    value: float | None = None

    @property
    def is_word(self) -> bool:
        """Whether the token is a word (not a number, quote or punctuation)."""
        return self.kind == "word"


def fold(text: str) -> str:
    """``text`` for loose comparison: accents removed, lower case, runs of space and punctuation one space."""
    t = unicodedata.normalize("NFKD", text)
    t = "".join(c for c in t if not unicodedata.combining(c)).lower()
    t = re.sub(r"(?<=[a-z0-9])[-_](?=[a-z0-9])", " ", t)
    return re.sub(r"[\s\u00a0]+", " ", re.sub(r"[^\w@.:/ ]+|(?<!\w)[.:/]|[.:/](?!\w)", " ", t)).strip()


def squash(text: str) -> str:
    """``text`` folded with every space and punctuation mark removed (``sign-up`` = ``signup`` = ``Sign Up``)."""
    return re.sub(r"[\W_]+", "", fold(text))


#: An arrow before a verb: the edit that mends what the words before it describe.
_ARROW_CLAUSE = re.compile(
    r"\s*(?:\u2192|->|=>)\s*(?=(?:please |pls |just |then )?(?:make|move|slide|shift|nudge|push|pull|bring|put|drop|"
    r"take|scale|shrink|enlarge|grow|align|line|center|centre|swap|switch|set|give|fix|raise|lift|lower|send|stretch|"
    r"resize|space|spread|even|match|keep|lock|unlock|reduce|increase|decrease|bump|knock|tone|turn)\b)", re.I)


def _prepare(text: str) -> str:
    t = unicodedata.normalize("NFC", text).replace("\u2019", "'").replace("\u2018", "'")
    # an arrow before a value is "to" ("heading → 48pt"); before words it leads from a problem to its edit
    # ("jammed against the right edge -> slide it left")
    t = re.sub(r"\s*(?:\u2192|->|=>)\s*(?=[~≈]?\s*[\d.+\-\u2212][\d.,]*\s*(?:%|[a-z]+)?\s*(?:bigger|larger|smaller|"
               r"more|less|wider|narrower|taller|shorter|higher|lower|up|down|left|right)\b)", " ", t, flags=re.I)
    t = re.sub(r"\s*(?:\u2192|->|=>)\s*(?=[~≈]?\s*[\d.+\-\u2212])", " to ", t)
    t = _ARROW_CLAUSE.sub("; ", t)
    t = t.replace("\u2192", " to ").replace("->", " to ").replace("=>", " to ").replace("&", " and ")
    # a dash between clauses: "… jammed together — leave …"; not in a range of times or numbers ("4pm - 6pm")
    dash = r"(?:\s*[\u2014\u2013]\s*|\s+-{1,2}\s+)"
    t = re.sub(r"(?<!\d)(?<!\d[ap]m)(?<!\d[AP]M)" + dash + "|" + dash + r"(?!\d)", "; ", t)
    t = re.sub(r"(?<=\s)\+(?=\s)|(?<=[A-Za-z])\+(?=[A-Za-z])", " and ", t)  # ("title+tagline")
    # "the Research Data... text": the first words of a text, cut short, then the noun (not a sentence's end)
    t = re.sub(r"\b([A-Z][\w'-]*)(?:\.\.\.|\u2026)(?= (?:text|title|heading|line|logo|box|block|paragraph|para|label|"
               r"caption|button|tagline|subtitle|lines|bit)\b)", r"\1", t)
    t = re.sub(r"\b(left|right)[- ]hand(?:ed)?\b", r"\1", t, flags=re.I)  # "the right-hand column": the right one
    t = re.sub(r"(?<![\w./:])([A-Za-z]{2,})/([A-Za-z]{2,})(?![\w./])", r"\1 \2", t)  # "the date/time block"
    # "fork / fix / test / merge", "(A / B)": a list ("the Building 52 / contact block" is one thing)
    t = re.sub(r"(?:\w[\w'-]*(?: \w[\w'-]*){0,3} / ){2,}\w[\w'-]*|\([^()/]*(?: / [^()/]*)+\)",
               lambda m: m.group(0).replace(" / ", " and "), t)
    t = re.sub(r"(?<=[A-Za-z]);(?=[A-Za-z])", " ", t)  # "the FH;P logo": a name with a stop in it, not two clauses
    # "the Welcome / Open Source Software headings": two names ("the fb / www links" is one row of links)
    t = re.sub(r"(?<=[^\W\d]) / (?=[A-ZÀ-Ž])", " and ", t)
    # "validate should come after build — swap those two boxes": the two just named
    t = re.sub(r"\b(?:those|these) (?:two|three|four|2|3|4) [a-z]+\b", "them", t, flags=re.I)
    # "the yellow date bit", "the two question bits": the noun, "bit" being no size
    t = re.sub(r"\b(date|time|question|text|title|code|logo|address|email|phone|name|heading|caption|credit|icon|"
               r"picture|photo|image|url|link|quote|label|number)( bit| piece)(s?)\b", r"\1\3", t, flags=re.I)
    # "both bits of text", "the two blocks of copy": the texts
    t = re.sub(r"\b(?:bits?|pieces?|chunks?|blocks?|snippets?|lumps?) of (?:text|copy|type|writing)\b", "texts", t,
               flags=re.I)
    t = re.sub(r"(?<=\w) (?:itself|themselves|himself|herself)\b", "", t, flags=re.I)
    # "60px square": a size both ways (as wide and as tall), not a square shape
    t = re.sub(r"\b(\d+(?:\.\d+)?) ?(px|pt|mm|cm)( square)\b(?! (?:shape|box|frame|block|panel|icon))",
               r"\1\2 wide both ways",
               t, flags=re.I)  # "the quote itself"
    # "tagline -15%", "logo +20 %": a signed share is a change of size by it
    t = re.sub(r"(?:(?<=\s)|^)([-+\u2212])\s?(\d+(?:[.,]\d+)?)\s?%",
               lambda m: f"{'smaller' if m.group(1) != '+' else 'bigger'} by {m.group(2)}%", t)
    t = t.lower()
    t = re.sub(r"\b(?:e\.g|i\.e|eg|ie|f\.ex)\.?,?(?=\s)", " ", t)  # "as e.g. 'Neznámkujeme'": not a sentence's end
    # "the white two-line title", "a 3-column list": how it is set says which one, and is no amount
    # (hyphenated only: "put the date and time on one line" asks for a row)
    t = re.sub(r"\b(?:one|two|three|four|five|six|single|double|\d)-(?:line|lined|column|word|row)\b", " ", t)
    t = re.sub(r"\bper ?cent\b", "percent", t)
    # "1/8 in", "3/4 inch": a fraction of a unit as the number it is
    t = re.sub(r"\b(\d+)\s*/\s*(\d+)(?=\s*(?:in|inch|inches|mm|cm|pt|px|\"))",
               lambda m: f"{int(m.group(1)) / int(m.group(2)):g}" if int(m.group(2)) else m.group(0), t)
    t = re.sub(r"(?<=[a-z])[-_](?=[a-z])", " ", t)
    t = re.sub(r"(?<=\d)(?=[a-z%])(?!st\b|nd\b|rd\b|th\b)", " ", t)  # 40px → 40 px, 2x → 2 x
    t = re.sub(r"\bx(?=\d)", "x ", t)                                  # x2 → x 2
    for phrase, plain in _PHRASES:
        t = re.sub(phrase, plain, t)
    return t


#: Idioms said in words the rest of the reading knows ("out of line" is misaligned, not a line).
_PHRASES = [(r"\b(?:out of line|not in line|out of alignment|off line)\b", "misaligned"),
            (r"\bin line with\b", "aligned with"), (r"\bin a line\b", "aligned"),
            (r"\b(?:on|onto|to|into) the same (?:line|level) as\b", "level with"),
            # "15% larger, growing upwards so it doesn't hit the bar": about the edge it grows away from
            (r"\b(?:growing|grows|grow|expanding|expands|expand|extending|extends|extend|shrinking|shrinks) "
             r"(?:upwards?|up)\b,?", "keep the bottom edge,"),
            (r"\b(?:growing|grows|grow|expanding|expands|expand|extending|extends|extend) (?:downwards?|down)\b,?",
             "keep the top edge,"),
            (r"\b(?:growing|grows|grow|expanding|expands|expand|extending|extends|extend) (?:leftwards?|to the left|"
             r"left)\b,?", "keep the right edge,"),
            (r"\b(?:growing|grows|grow|expanding|expands|expand|extending|extends|extend) (?:rightwards?|to the right|"
             r"right)\b,?", "keep the left edge,"),
            # "centre it under the short line": a drawn line (a rule), where "the same line" is a level
            (r"\b(the|its|their|that|this) (short|shorter|shortest|long|longer|longest|little|thin|thick|"
             r"horizontal|dotted|dashed|signature|underline) line\b", r"\1 \2 rule"),
            (r"\b(?:for|in) (?:print|printing|the printer|the print|the press)\b", ""),  # "too tight for print"
            (r"(\d (?:px|pt|points?)) (?:type|text|font|lettering)\b", r"\1"),  # "take it down to ~15px type"
            # "snap all their left edges to the subtitle's left edge": align them, on that side
            (r"\b(?:snap|align|line up|bring|move|set|push|pull|shift) (?:all )?(?:of )?(their|its) (left|right|top|"
             r"bottom) (?:edges?|sides?) (?:to|with|against|on)\b",
             lambda m: f"align {'them' if m.group(1) == 'their' else 'it'} {m.group(2)} with"),
            # "centre the whole thing on the page": all of it
            (r"\b(?:the|this) (?:whole|entire) (?:thing|lot|design|layout|composition|artwork|content)\b",
             "everything"),
            # "3mm from the window's left edge": from the left edge of the window
            (r"\b(from|to|off|of|with|at) the ([a-z][\w-]*)['’]s (left|right|top|bottom)(?: hand)? (edge|side)\b",
             r"\1 the \3 \4 of the \2"),
            # "so their left edges line up": they are aligned (the line is no element)
            (r"\b(edges?|tops?|bottoms?|sides?|centers?|centres?|baselines?|middles?) lines? up\b", r"\1 aligned"),
            # "make the big title like 90% of what it is now": that share of its size
            (r"\b(?:like|maybe|say) (\d+(?:\.\d+)? ?%)", r"about \1"),
            (r"(\d ?%) of (?:what (?:it|they|he|she) (?:is|are|was|were)(?: now| currently| at the moment)?|"
             r"(?:its|their|the) (?:current |present |original |own )?size)\b", r"\1 of its size")]


def _glyphs_quoted(text: str) -> str:
    """A lone symbol said as a word ("the × in the top row", "the ★") is quoted: it can only be a text's own.

    Not an arrow (said for "to"), nor a sign between numbers ("2 × 3 cm").
    """
    def quote(m: re.Match[str]) -> str:
        ch = m.group(1)
        if unicodedata.category(ch) not in ("Sm", "So") or ch in "+=<>|~^\u2190\u2191\u2192\u2193\u21d2" or (
                re.search(r"\d\s*$", text[:m.start()])):
            return m.group(0)
        return f'"{ch}"'

    return re.sub(r"(?<![^\s(])(\S)(?![^\s,;:.!?)])", quote, text)  # ("the lockup (acm, ×, osc)")


def _split_quotes(text: str) -> list[tuple[str, bool]]:
    parts: list[tuple[str, bool]] = []
    pos = 0
    for m in _QUOTE_RE.finditer(text):
        parts.append((text[pos:m.start()], False))
        parts.append((next(g for g in m.groups() if g is not None), True))
        pos = m.end()
    parts.append((text[pos:], False))
    return parts


#: Words after "X's" that make it "X is" ("the headline's too wide"), not a possessive ("the chart's top").
_IS_NEXT = frozenset({
    "too", "way", "wider", "taller", "bigger", "smaller", "larger", "higher", "lower", "longer", "shorter", "cut",
    "off", "over", "out", "not", "a", "overlapping", "touching", "hanging", "sitting", "clipped", "still", "so",
    "very", "really", "kinda", "quite", "much", "all", "almost", "barely", "nearly", "slightly", "running",
    "spilling", "falling", "going", "crammed", "cramped", "squashed", "tiny", "huge", "overpowering", "misaligned",
    "crooked", "stuck", "lost", "hidden", "covered", "sticking", "poking", "now", "kind", "bit", "tight", "enormous",
    "massive", "giant", "gigantic", "oversized", "undersized", "big", "small", "little", "wide", "narrow", "tall",
    "short", "low", "high", "loose", "jammed", "squished", "miles", "floating", "drifting", "hugging", "colliding",
    "clashing", "offset", "off-centre", "uncentred", "lopsided", "wonky", "skewed", "pushed", "shoved",
    "buried", "sat", "overlapped", "overflowing", "sagging", "dwarfed", "dwarfing", "dominating", "bleeding"})


def _words(text: str) -> list[str]:
    out: list[str] = []
    verb_next = False
    for w in _WORD_RE.findall(_prepare(text)):
        w = w.strip("'")
        if not w:
            continue
        if verb_next and w in _IS_NEXT:
            out.append("is")
        verb_next = False
        if w in CONTRACTIONS:
            out += CONTRACTIONS[w].split()
        elif w.endswith("'s"):
            out.append(w[:-2])
            verb_next = True
        else:
            out.append(SPELLING.get(w, w))
    return out


def damerau(a: str, b: str, limit: int) -> int:
    """Damerau–Levenshtein distance (optimal string alignment), or ``limit + 1`` when larger."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


@lru_cache(maxsize=4096)
def _correct(word: str, known: frozenset[str]) -> str:
    if word in known or len(word) < 4 or not word.isalpha():
        return word
    for suffix in ("s", "es", "ed", "ing", "er", "est", "ly"):
        if word.endswith(suffix) and word[:-len(suffix)] in known:
            return word
    limit = 1 if len(word) <= 7 else 2  # "compass" is not "compress" two letters away
    best: list[tuple[int, str]] = []
    for k in known:
        if abs(len(k) - len(word)) > limit or len(k) < 3:
            continue
        d = damerau(word, k, limit)
        if d <= limit:
            best.append((d, k))
    if not best:
        return word
    if len(word) <= 5:  # a short word keeps its first letter ("tall" is not "all") and is not swapped for
        # another word by one changed letter ("dead" is not "head"); transposed or missing letters are typos
        best = [(d, k) for d, k in best if k[0] == word[0] and (len(k) != len(word) or sorted(k) == sorted(word))]
    best = [(d, k) for d, k in best if not (k.startswith(word) and k[len(word):] in ("r", "s", "d", "er", "ed", "es"))]
    # a typo keeps the first letter ("letters" is not "better"), unless two letters swapped places
    best = [(d, k) for d, k in best if k[0] == word[0] or sorted(k) == sorted(word)]
    if not best:
        return word
    best.sort()
    if best[0][0] >= 2 and word.endswith("s") and not word.endswith("ss") and _correct(word[:-1], known) == word[:-1]:
        return word  # "planets" is the plural of a word not known, not "places" two letters away
    top = [k for d, k in best if d == best[0][0]]
    if len(top) > 1:
        same_start = [k for k in top if k[0] == word[0]]
        top = same_start if len(same_start) == 1 else top
    return top[0] if len(top) == 1 else word


def _number_words(words: list[str], typed: list[str] | None = None) -> list[Token]:
    """Numbers in words as number tokens (see the module docstring)."""
    out: list[Token] = []
    i = 0
    while i < len(words):
        w = words[i]
        if re.fullmatch(r"\d+(?:\.\d+)?", w):
            out.append(Token(w, w, "number", float(w)))
            i += 1
            continue
        if w in UNITS or w in TENS or (w == "hundred" and out and out[-1].kind == "number"):
            if w == "one" and ((not out or out[-1].text in ONE_PRONOUN_AFTER) and not _unit_next(words, i) or (
                    i + 1 < len(words) and words[i + 1] == "another")):  # ("centre them on one another")
                out.append(Token(w, typed[i] if typed else w))
                i += 1
                continue
            total, j = 0.0, i
            while j < len(words) and (words[j] in UNITS or words[j] in TENS or words[j] == "hundred"
                                      or (words[j] == "and" and j + 1 < len(words) and words[j + 1] in UNITS
                                          and total >= 100)):
                if words[j] == "hundred":
                    total = max(total, 1.0) * 100
                elif words[j] != "and":
                    total += UNITS.get(words[j], TENS.get(words[j], 0))
                j += 1
            if w == "dozen" and out and out[-1].text in ("a", "half"):
                total = 12 if out[-1].text == "a" else 6
                out.pop()
            out.append(Token(str(int(total)), " ".join(words[i:j]), "number", total))
            i = j
            continue
        if w in ("half", "quarter", "a", "an") and _unit_after_article(words, i):
            # "half a centimetre", "a quarter of an inch", "an inch"
            value = {"half": 0.5, "quarter": 0.25}.get(w, 1.0)
            j = i + 1 if w in ("a", "an") else i + 2 + (words[i + 2] == "of" if i + 2 < len(words) else 0)
            if w not in ("a", "an") and words[j - 1] == "of":
                j += 1
            out.append(Token(f"{value:g}", " ".join(words[i:j]), "number", value))
            i = j
            continue
        if (k := _couple_of(words, i)) is not None:  # "a couple of mm", "a few px": two, three
            value = 2.0 if "couple" in words[i:k] else 3.0
            out.append(Token(f"{value:g}", " ".join(words[i:k]), "number", value))
            i = k
            continue
        if w == "a" and i + 1 < len(words) and words[i + 1] == "hundred":
            out.append(Token("100", "a hundred", "number", 100.0))
            i += 2
            continue
        kind = "punct" if re.fullmatch(r"[:,;.!?()]", w) else "word"
        out.append(Token(w, typed[i] if typed else w, kind))
        i += 1
    return out


_UNIT_WORDS = {"px", "pixel", "pixels", "pt", "point", "points", "mm", "cm", "in", "inch", "inches", "percent",
               "%", "millimeter", "millimeters", "centimeter", "centimeters", "pc", "x", "times", "more", "less"}


_LENGTH_UNITS = {"px", "pixel", "pt", "point", "mm", "millimeter", "cm", "centimeter", "inch", "pc", "pica"}


_SIDES_SWAPPED = re.compile(
    r"\b(?:swap|flip|switch|reverse|turn|mirror)\s+(?:it|them|things|that|those|these|the two|everything|the \w+)?\s*"
    r"(?:round|around|over)?\s*[:;,\-\u2013\u2014]+\s*(?P<a>(?:[^,;:.!?]|\.(?=\w)){1,60}?)\s+(?:goes\s+|go\s+|on\s+|to\s+|at\s+)+"
    r"(?:the\s+)?(?P<s1>right|left|top|bottom)\b[^,;:.!?]{0,20}[,;]\s*(?:and\s+)?(?P<b>(?:[^,;:.!?]|\.(?=\w)){1,60}?)\s+"
    r"(?:goes\s+|go\s+|on\s+|to\s+|at\s+)+(?:the\s+)?(?P<s2>right|left|top|bottom)\b", re.I)


def _couple_of(words: list[str], i: int) -> int | None:
    """Where the unit after "a couple of", "a few" starting at ``words[i]`` is, when one follows; else None."""
    j = i + 1 if words[i] == "a" else i
    if j >= len(words) or words[j] not in ("couple", "few"):
        return None
    k = j + 1 + (j + 1 < len(words) and words[j + 1] == "of")
    return k if k < len(words) and words[k] in _UNIT_WORDS - {"x", "times", "more", "less", "percent", "%"} else None


def _unit_after_article(words: list[str], i: int) -> bool:
    """Whether ``words[i]`` starts "half a cm", "a quarter of an inch", "an inch" (an amount, not an article)."""
    rest = words[i + 1:i + 5]
    if words[i] in ("a", "an"):
        return bool(rest) and rest[0] in _LENGTH_UNITS and (i == 0 or words[i - 1] in _AMOUNT_BEFORE)
    if len(rest) >= 2 and rest[0] in ("a", "an") and rest[1] in _LENGTH_UNITS:
        return True
    return len(rest) >= 3 and rest[0] == "of" and rest[1] in ("a", "an") and rest[2] in _LENGTH_UNITS


#: Words after which "a cm" is an amount ("up a cm", "by an inch").
_AMOUNT_BEFORE = {"by", "up", "down", "left", "right", "about", "around", "roughly", "over", "another", "just",
                  "only", "further", "more", "less", "than", "to", "move", "shift", "nudge", "raise", "lower",
                  "push", "pull", "drop", "bump"}


def _unit_next(words: list[str], i: int) -> bool:
    return i + 1 < len(words) and words[i + 1] in _UNIT_WORDS


def tokenise(text: str, known: Iterable[str] = ()) -> list[Token]:
    """The tokens of ``text`` (see the module docstring).

    ``known`` words are never corrected, and they are what unknown words are corrected to.
    """
    vocab = frozenset(known)
    tokens: list[Token] = []
    # "lower 'Hunter Hack Day': line it up …": which of two, said before the colon that opens the request
    text = re.sub(r"^\s*(lower|upper)\s+(?=[^:;,.]{1,60}:)", lambda m: "the bottom " if m.group(1).lower() == "lower"
                  else "the top ", text, flags=re.I)
    # "swap it round: logo on the right, words on the left": those two change places
    text = _SIDES_SWAPPED.sub(lambda m: f"swap {m.group('a')} and {m.group('b')}" if m.group("s1") != m.group("s2")
                              and not re.search(r"\b(?:and|&|plus)\b", m.group("a") + " " + m.group("b"))
                              else m.group(0), text)
    # "so there's at least 2mm of white before the divider": of space, no white element
    text = re.sub(r"\b(\d+(?:\.\d+)?\s?(?:mm|px|pt|cm))\s+of\s+(?:white|white\s?space|clear\s+space|empty\s+space|"
                  r"blank)\b",
                  r"\1 of space", text, flags=re.I)
    # "indent the 'Projekt' list by three mm": a move to the right by that much
    text = re.sub(r"\b(?P<v>indent|outdent|unindent)\b(?P<what>[^.;!?]{1,120}?)\bby\b",
                  lambda m: f"move{m.group('what')}{'right' if m.group('v') == 'indent' else 'left'} by", text,
                  flags=re.I)
    # "centre the word Date under the line": those words as the design has them
    text = re.sub(r"\b([Tt]he (?:word|words|label)) ([A-Z][\w.&-]*(?: [A-Z][\w.&-]*)*)\b(?!['\"])", r'\1 "\2"', text)
    # "C++ and Java should trade places": a name that ends in signs is that text's own, signs and all
    text = re.sub(r"(?<![\w\"'])([A-Za-z][\w.]*(?:\+\+|#))(?=[\s,.;:!?)]|$)", r'"\1"', text)
    for part, quoted in _split_quotes(_glyphs_quoted(text)):
        if quoted:
            tokens.append(Token(QUOTE_MARK, part.strip(), "quote"))
            continue
        typed = _words(part)
        words = [_correct(w, vocab) if vocab else w for w in typed]
        tokens += _number_words(words, typed)
    return tokens


__all__ = ["Token", "tokenise", "fold", "squash", "damerau", "ORDINALS", "SPELLING", "QUOTE_MARK"]
