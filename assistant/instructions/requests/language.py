"""Which language a design's text is in, for "the Czech note", "the English line", "the French subtitle".

A script (Latin, CJK, Cyrillic…) tells a Chinese title from an English one, not a
Czech note from an English one. ``language_of`` tells the languages written in
Latin letters apart by what marks them on a poster's few words: letters only
one language uses (ř, ą, ñ, ß, ã…) and its commonest short words ("und",
"les", "para", "the"). It says nothing when the evidence is thin (a name, a
date, a web address), so that such a text is not taken for any language.
"""

from __future__ import annotations

import re

#: Letters that mark a language (several languages may share one; each counts for all that use it).
_LETTERS: dict[str, str] = {
    "czech": "ěščřžůťďň", "slovak": "ľĺŕôäčšžťď", "polish": "ąćęłńśźż", "german": "äöüß",
    "french": "éèêëàâçœîïûù", "spanish": "ñ¿¡áéíóú", "portuguese": "ãõçáâêéíóôú", "norwegian": "æøå",
    "danish": "æøå", "swedish": "åäö", "italian": "àèéìòù", "dutch": "ĳë", "catalan": "àçèéíïòóúü·",
}
#: Each marked letter → the languages that use it.
_MARKED: dict[str, list[str]] = {}
for _lang, _letters in _LETTERS.items():
    for _ch in _letters:
        _MARKED.setdefault(_ch, []).append(_lang)
#: Short words common in running text of each language (a word several of them use counts less for each).
_WORDS: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    "english": "the and of to for with is are on in at by from your you this that our be will free join using",
    "czech": "a je se na pro v ve z ze do od jak nebo jsou prosím svého",
    "slovak": "a je sa na pre v vo z zo do od ako alebo sú",
    "polish": "i w na z do się jest dla nie od oraz czy",
    "german": "und der die das mit für ist im den von zu auf ein eine nicht",
    "french": "le la les des et du une un est pour dans sur avec au aux en de l d qui",
    "spanish": "el la los las y de para con por una un es del al en que",
    "portuguese": "o os as e de para com por uma um é do da dos das no na que você",
    "norwegian": "og i på til med for er som av det en et",
    "italian": "il lo gli di e per con che una un è del della nel",
    "dutch": "de het een en van voor met op is in te",
}.items()}
#: Each common word → the languages that use it.
_USED_BY: dict[str, list[str]] = {}
for _lang, _common in _WORDS.items():
    for _w in _common:
        _USED_BY.setdefault(_w, []).append(_lang)
#: Spoken names of the languages above, as typed ("the Czech note").
LANGUAGES = frozenset(_WORDS) | frozenset(_LETTERS)
#: Least evidence for a guess.
_ENOUGH = 1.0


def language_of(text: str) -> str | None:
    """The language a Latin-script text is most likely in, or None when its words say too little."""
    # words of web and e-mail addresses are no language's ("join.example.org")
    folded = " ".join(w for w in text.lower().split() if not re.search(r"[./@:]\w", w))
    scores: dict[str, float] = {}
    for ch in set(folded) & _MARKED.keys():
        for lang in _MARKED[ch]:  # a letter one language alone uses says more than one five share
            scores[lang] = scores.get(lang, 0.0) + min(folded.count(ch), 2) * 1.5 / len(_MARKED[ch])
    for w in re.findall(r"[^\W\d_]+", folded):
        for lang in _USED_BY.get(w, ()):  # "de" is four languages' word, "und" one's
            scores[lang] = scores.get(lang, 0.0) + 1.0 / len(_USED_BY[w])
    if not scores:
        return None
    best = max(scores, key=scores.__getitem__)
    ranked = sorted(scores.values(), reverse=True)
    if ranked[0] < _ENOUGH or (len(ranked) > 1 and ranked[1] > ranked[0] - 0.5):
        return None
    return best


__all__ = ["language_of", "LANGUAGES"]
