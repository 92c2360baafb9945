"""The words a request is made of, by what they do: element classes, pronouns, prepositions, directions.

Element classes
    :data:`CLASS_WORDS` maps a noun (singular, as typed after spelling and
    plural are evened out) to the *class* of element it names. A class is
    matched against an element by :func:`assistant.instructions.requests.refs.classes_of`:
    by role (``title``, ``cta`` …), by kind (``text``, ``image`` …) or by what
    its text looks like (a date, a web address, an e-mail address, a price).
Page words
    :data:`PAGE_WORDS` name the page itself ("centre it on the page",
    "across the cover"), :data:`EDGE_WORDS` its sides and corners.
"""

from __future__ import annotations

#: noun → element class (see the module docstring).
CLASS_WORDS: dict[str, str] = {
    # titles and headings
    "title": "title", "headline": "title", "heading": "heading", "header": "header", "masthead": "title",
    "nameplate": "title", "head": "title", "hed": "title",
    "subtitle": "subtitle", "subheading": "subtitle", "subhead": "subtitle", "tagline": "subtitle",
    "strapline": "subtitle", "standfirst": "subtitle", "kicker": "subtitle", "deck": "subtitle",
    "slogan": "subtitle", "byline": "subtitle",
    # what a text's content makes it: "the instagram handle" is an @name; where no text is one, there is none
    "handle": "handle", "hashtag": "hashtag",
    # running text
    "text": "text", "copy": "body", "paragraph": "body", "para": "body", "body": "body", "blurb": "body",
    "block": "text", "description": "body", "details": "body", "detail": "body", "intro": "body", "bullet": "body",
    "point": "body", "item": "body", "line": "line", "sentence": "text", "label": "text", "words": "text",
    "wording": "text", "lettering": "text", "type": "text", "list": "body",
    # small print
    "caption": "caption", "credit": "credit", "footnote": "footnote", "question": "question", "footer": "caption",
    "note": "caption",
    "source": "caption", "disclaimer": "caption", "print": "caption", "legal": "caption", "credits": "credit",
    "copyright": "credit", "licence": "credit", "license": "credit", "attribution": "credit",
    # calls to action
    "button": "cta", "cta": "cta", "link": "link", "action": "cta", "pill": "cta", "tab": "cta",
    # pictures
    "photo": "image", "image": "image", "picture": "image", "pic": "image", "photograph": "image",
    "shot": "image", "illustration": "image", "graphic": "image", "artwork": "image", "visual": "image",
    "figure": "image", "chart": "image", "graph": "image", "diagram": "image", "map": "image",
    "drawing": "image", "img": "image", "hero": "image", "thumbnail": "image", "screenshot": "image",
    # marks
    "logo": "logo", "brand": "logo", "wordmark": "logo", "logotype": "logo", "emblem": "logo",
    "mark": "logo", "icon": "logo", "symbol": "logo", "seal": "logo",
    "qr": "qr", "qrcode": "qr", "barcode": "qr", "code": "qr",
    "badge": "badge", "sticker": "badge", "tag": "badge", "stamp": "badge", "price": "price",
    "roundel": "badge", "flash": "badge",
    # what the text says
    "date": "date", "dates": "date", "time": "time", "times": "time", "schedule": "date", "hours": "time",
    "when": "date", "day": "date", "days": "date",
    "degree": "degree", "qualification": "degree", "diploma": "degree",
    "url": "url", "website": "url", "web": "url", "address": "text", "site": "url", "domain": "url",
    "contact": "contact", "contacts": "contact", "info": "text", "information": "text",
    "email": "email", "mail": "email", "phone": "phone", "number": "number", "telephone": "phone",
    "name": "name", "names": "name", "author": "name", "authors": "name", "speaker": "name", "speakers": "name",
    "presenter": "name", "presenters": "name",
    # shapes
    "shape": "shape", "box": "shape", "window": "shape", "rectangle": "shape", "rect": "shape", "panel": "shape",
    "band": "shape",
    "stripe": "shape", "bar": "shape", "circle": "shape", "square": "shape", "dot": "shape", "oval": "shape",
    "tile": "shape", "tiles": "shape", "strip": "shape", "triangle": "shape", "arrow": "shape", "wedge": "shape",
    "chevron": "shape",
    "blob": "shape", "bubble": "shape", "balloon": "shape", "rule": "rule", "divider": "rule", "separator": "rule",
    "hairline": "rule", "underline": "rule", "background": "background", "backdrop": "background",
    "group": "group", "element": "any", "thing": "any", "object": "any", "piece": "any", "stuff": "any",
    "content": "any",
}

#: Nouns for something said, which no class names: "the Feynman quote" is the text beside "Feynman".
SAID_NOUNS = frozenset({"quote", "quotation", "motto", "saying", "phrase", "question", "message", "statement",
                        "greeting", "verse", "lyric", "lyrics", "citation", "punchline", "answer", "code", "snippet",
                        "claim", "command"})

#: Language words → the script their texts are written in ("the English line", "the Chinese title").
LANGUAGE_SCRIPTS = {"english": "latin", "french": "latin", "german": "latin", "spanish": "latin", "italian": "latin",
                    "dutch": "latin", "polish": "latin", "czech": "latin", "portuguese": "latin", "latin": "latin",
                    "slovak": "latin", "norwegian": "latin", "danish": "latin", "swedish": "latin", "catalan": "latin",
                    "chinese": "cjk", "japanese": "cjk", "korean": "cjk", "cjk": "cjk", "russian": "cyrillic",
                    "ukrainian": "cyrillic", "cyrillic": "cyrillic", "greek": "greek", "arabic": "arabic",
                    "hebrew": "hebrew"}

#: Plural forms that are not the singular + s/es.
PLURALS: dict[str, str] = {"details": "details", "dates": "dates", "times": "times", "credits": "credits",
                           "hours": "hours", "words": "words", "days": "days", "copies": "copy",
                           "boxes": "box", "graphics": "graphic", "headlines": "headline",
                           "everything": "everything", "others": "other", "ones": "one", "this": "this",
                           "its": "its", "has": "has", "is": "is", "was": "was", "bus": "bus", "plus": "plus",
                           "less": "less", "across": "across", "us": "us", "as": "as", "yes": "yes",
                           "always": "always", "perhaps": "perhaps", "thus": "thus", "pixels": "pixel",
                           "points": "point", "inches": "inch"}

#: Words that mean the page itself.
PAGE_WORDS = {"page", "canvas", "artboard", "poster", "flyer", "leaflet", "card", "slide", "cover", "layout",
              "design", "document", "sheet", "banner", "frame", "screen", "post", "postcard", "spread",
              "composition", "doc", "file", "paper", "format", "pdf", "svg", "bookmark", "ticket", "a0", "a1", "a2",
              "a3", "a4", "a5", "a6"}
#: Words for sides, corners and the middle of the page or of an element.
EDGE_WORDS = {"left", "right", "top", "bottom", "center", "middle", "side", "edge", "edges", "corner",
              "margin", "margins", "border", "centre", "half", "third", "thirds", "upper", "lower",
              "baseline", "sides", "area", "region", "zone", "column", "row", "axis", "line", "vertical",
              "horizontal"}
#: Nouns of size, space and style that a request talks about, never elements.
MEASURE_WORDS = {"size", "width", "height", "gap", "gaps", "gutter", "gutters", "space", "spacing", "room", "distance",
                 "hole", "holes",
                 "margin", "padding", "order", "font", "weight", "color", "colour", "typeface", "bit", "lot", "touch",
                 "tad", "way", "amount", "scale", "position", "place", "spot", "overlap", "overlaps", "alignment",
                 "same", "much", "more", "less", "percent", "half", "quarter", "fifth", "tenth", "times",
                 "leading", "tracking", "kerning", "air", "breathing", "whitespace", "rest", "stack",
                 "sequence", "hierarchy", "focus", "attention", "level", "grid", "pixel", "px", "pt", "mm",
                 "cm", "inch", "fraction", "factor", "step", "notch", "smidge", "hair", "degree", "wrong",
                 "shouty", "loud", "one", "front", "back", "foreground", "layer", "layers", "end", "beginning",
                 "start", "bounds", "bleed", "look", "feel", "balance", "style", "millimeter", "centimeter",
                 "pica", "thickness", "opacity", "transparency"}

#: Pronouns that point back to what was just named (this turn or the last).
PRONOUNS = {"it", "its", "itself", "them", "they", "those", "these", "that", "this", "both"}
#: Words that start a noun phrase.
DETERMINERS = {"the", "a", "an", "my", "our", "your", "all", "every", "each", "both", "any", "some", "its",
               "their", "his", "her", "whole", "entire"}
#: Words that pick one of several by place, size or order.
POSITION_ADJECTIVES = {
    "left": "left", "leftmost": "left", "right": "right", "rightmost": "right", "top": "top", "topmost": "top",
    "upper": "top", "highest": "top", "bottom": "bottom", "bottommost": "bottom", "lower": "bottom",
    "lowest": "bottom", "middle": "middle", "center": "middle", "central": "middle", "big": "big",
    "bigger": "big", "biggest": "big", "large": "big", "larger": "big", "largest": "big", "main": "big",
    "small": "small", "smaller": "small", "smallest": "small", "little": "small", "tiny": "small",
    "last": "last", "final": "last", "other": "other", "next": "next", "previous": "previous",
    "long": "long", "longest": "long", "short": "short", "shortest": "short",
}
#: Function words (never element names, never typo targets of names).
FUNCTION_WORDS = {
    "the", "a", "an", "to", "of", "in", "on", "at", "by", "for", "with", "from", "into", "onto", "and", "or",
    "but", "so", "then", "than", "as", "is", "are", "be", "been", "being", "was", "were", "it", "its", "this",
    "that", "these", "those", "them", "they", "their", "theirs", "his", "her", "hers", "there", "here", "i", "we",
    "you", "me", "us", "my", "our", "your",
    "please", "pls", "plz", "can", "could", "would", "will", "should", "shall", "must", "might", "may", "do",
    "does", "did", "done", "have", "has", "had", "just", "also", "too", "very", "really", "quite", "rather",
    "not", "no", "nor", "any", "some", "all", "each", "every", "both", "more", "less", "most", "least", "bit",
    "little", "lot", "lots", "loads", "heaps", "tons", "plenty", "much", "many", "few", "about", "around", "roughly",
    "approximately", "like", "up",
    "down", "over", "under", "above", "below", "beneath", "underneath", "behind", "between", "across", "along",
    "away", "off", "out", "back", "again", "still", "even", "now", "ok", "okay", "thanks", "thank", "hey", "hi",
    "need", "needs", "want", "wants", "let", "lets", "make", "makes", "made", "get", "gets", "got",
    "same", "other", "others", "rest", "else", "which", "what", "where", "when", "how", "why", "who", "whole",
    "own", "one", "ones", "if", "while", "until", "since", "because", "after", "before", "against", "near",
    "next", "beside", "besides", "alongside", "towards", "toward", "inside", "outside", "within", "without",
    "right", "left", "top", "bottom", "tad", "touch", "smidge", "slightly", "somewhat", "way", "far", "further",
    "farther", "closer", "nearer", "together", "apart", "evenly", "equally", "exactly", "precisely", "sure",
    "yeah", "yes", "oh", "well",
    "actually", "maybe", "perhaps", "kind", "sort", "bits", "whatever",
}

#: Verbs and other intent words: they end a noun phrase and are never read as element names.
INTENT_WORDS = {
    "move", "moves", "moved", "invert", "put", "span", "spans",
    "place", "position", "shift", "nudge", "push", "pull", "bring", "send", "drop",
    "raise", "lift", "lower", "align", "aligned", "center", "centered", "centering", "line", "lines", "lined", "lining",
    "space",
    "spaced", "distribute", "swap", "switch", "exchange", "flip", "reverse", "resize", "scale", "shrink",
    "enlarge", "grow", "increase", "decrease", "reduce", "bump", "set", "give", "keep", "lock", "unlock", "pin",
    "leave", "fix", "tidy", "stop", "stretch", "fill", "match", "stack", "spread", "tighten", "loosen", "sit", "sits",
    "go", "goes", "overlaps", "overlap", "overlapping", "covers", "covering", "touches", "touching", "hangs",
    "hanging", "falling", "falls", "collides", "clashes", "bigger", "larger", "smaller", "bold", "make", "change",
    "turn", "use", "swapped", "even", "nudged", "shove", "slide", "jump", "bolder", "lighter", "heavier",
    "enlarged", "shrunk", "double", "halve", "triple", "widen", "narrow", "expand", "compress", "crop",
    "justify", "flush", "level", "recolor", "color", "paint", "tint", "boost", "up", "down",
    "stand", "standout", "pop", "emphasize", "highlight", "tone", "mute", "hide", "show", "delete", "remove",
    "add", "undo", "redo", "revert", "restore", "sitting", "runs", "running", "crashes", "crashing",
    "competing", "fight", "fighting", "cut", "clipped", "bleeds", "bleeding", "spill", "spills", "spilling",
    "knock", "dial", "oversized", "undersized", "shouting", "shouty", "take", "tuck", "scoot",
}

#: Adjectives and adverbs that never continue a noun phrase after its noun ("the logo twice as big").
NOT_NOUNS = {
    # people, who read the page but are not on it ("ppl have to write next to it")
    "ppl", "people", "folks", "someone", "somebody", "everyone", "everybody", "visitors", "readers", "users",
    "viewers", "attendees", "guests", "audience",
    # what a gap is said to be ("so there's a proper gutter before it"), what a text looks like ("… and garbled")
    "proper", "decent", "reasonable", "generous", "healthy", "garbled", "mangled", "jumbled", "scrambled",
    "almost", "nearly", "practically", "basically", "kisses", "kissing", "kiss", "hugs", "hugging", "grazes",
    # verbs that end a noun phrase ("the title feels oversized", "leave the badge alone")
    "ends", "sticks", "pokes", "alone", "stay", "stays", "remain", "remains", "comes", "come", "becomes",
    "reads", "grazing", "brushes", "run", "runs", "hits", "bumps", "crashes", "touches", "sits", "overlaps", "hangs",
    "needs", "collides", "clashes", "starts", "begins", "finishes",
    # (said of several: "the echo lines stick out of the terminal", "the labels overlap the map")
    "stick", "poke", "jut", "juts", "spill", "spills", "overlap", "collide", "clash",
    "brushing", "feels", "feel", "seems", "seem",
    "appears", "appear", "looks",
    "fits", "fit", "twice", "thrice", "double", "triple", "half", "quarter", "times", "once", "big", "small",
    "large", "wide",
    "tall", "high", "long", "short", "huge", "tiny", "bold", "heavy", "light", "thin", "thick", "dark", "pale",
    "bright", "prominent", "visible", "straight", "level", "flush", "centered", "aligned", "evenly", "smaller",
    "bigger", "larger", "wider", "narrower", "taller", "shorter", "closer", "further", "farther", "lower",
    "higher", "fine", "good", "bad", "ok", "okay", "great", "nice", "ugly", "off", "crooked", "wonky", "messy",
    "cramped", "crowded", "shouty", "loud", "quiet", "subtle", "same", "different", "equal", "uneven", "apart",
    "together", "horizontal", "vertical", "upside", "instead", "too", "enough", "again", "else", "first",
    "italic", "regular", "semibold", "underlined", "please", "pls", "plz", "thanks", "asap", "now", "today",
    "backwards", "backward", "forwards", "forward", "upwards", "downwards", "sideways", "along", "across",
    "around", "dead", "slightly", "bit", "full", "complete", "total", "breathing", "lean", "leans", "leaning",
    "horizontally", "vertically", "drift", "drifts", "float", "floats", "sag", "sags", "say", "though", "tho",
    "cheers", "thx", "thinner", "thicker", "fatter", "skinnier", "darker", "brighter", "paler", "transparent",
    "opaque", "translucent", "fainter", "faded", "semi",
}

#: Everyday words of requests that are right as typed (never "corrected" into another word).
COMMON_WORDS = {
    "letter", "letters", "word", "words", "character", "characters", "glyph", "glyphs", "bottoms", "tops",
    "close", "near", "far", "big", "small", "tall", "wide", "high", "low", "long", "short", "huge", "tiny", "large",
    "thin", "thick", "bold", "light", "dark", "same", "other", "different", "new", "old", "good", "bad", "nice",
    "fine", "great", "better", "best", "worse", "worst", "want", "need", "like", "love", "hate", "think", "look",
    "looks", "looking", "seems", "feel", "feels", "see", "seen", "show", "hide", "keep", "keeping", "stay", "stays",
    "remain", "leave", "leaving", "gutter", "gutters", "inset", "hand", "hands",
    "wavy", "wiggly", "squiggly", "curvy", "curly", "dashed", "dotted", "swirly", "round", "rounded", "filled",
    "outlined", "hollow", "solid", "faint", "tile", "tiles",
    "sit", "sits", "sitting", "stand", "stands", "go", "goes", "going", "come", "comes", "give", "gives", "take",
    "takes", "try", "tried", "help", "fix", "fixed", "change", "changed", "turn", "turned", "put", "puts", "set",
    "get", "move", "moved", "moving", "make", "made", "making", "thing", "things", "stuff", "bit", "bits", "lot",
    "lots", "way", "ways", "side", "sides", "end", "ends", "start", "middle", "half", "whole", "part", "parts",
    "piece", "place", "places", "spot", "line", "lines", "row", "rows", "column", "columns", "grid", "block",
    "blocks", "edge", "edges", "corner", "corners", "page", "pages", "front", "back", "top", "bottom", "left",
    "right", "center", "centre", "above", "below", "under", "over", "next", "nearer", "nearest", "closer",
    "closest", "further", "farther", "furthest", "away", "apart", "together", "again", "still", "also", "too",
    "very", "really", "quite", "rather", "pretty", "much", "more", "most", "less", "least", "enough", "almost",
    "nearly", "about", "around", "exactly", "just", "only", "even", "ever", "never", "always", "often", "now",
    "then", "here", "there", "where", "when", "why", "how", "what", "which", "who", "whose", "whom", "this",
    "that", "these", "those", "some", "any", "none", "each", "every", "both", "either", "neither", "all", "few",
    "many", "several", "one", "two", "first", "last", "second", "third", "once", "twice", "double", "triple",
    "wrong", "correct", "order", "size", "sizes", "width", "height", "space", "spacing", "gap", "gaps",
    "room", "margin", "margins", "padding", "font", "fonts", "color", "colors", "weight", "style", "styles",
    "level", "layer", "layers", "stack", "clear", "clean", "neat", "tidy", "messy", "off", "onto", "into", "out",
    "upper", "lower", "inner", "outer", "overlap", "overlaps", "overlapping", "touch", "touches", "touching",
    "cover", "covers", "covering", "falling", "hanging", "sticking", "poking", "crowded", "cramped", "tight",
    "loose", "lose", "shave", "trim", "wider", "narrower", "taller", "shorter", "bigger", "smaller", "larger",
    "higher", "lighter",
    "darker", "bolder", "heavier", "thinner", "thicker", "longer", "shrink", "grow", "enlarge", "reduce", "increase",
    "decrease", "scale", "resize", "stretch", "squash", "squeeze", "fill", "fit", "fits", "span", "match", "align",
    "aligned", "distribute", "swap", "switch", "flip", "reverse", "lock", "unlock", "pin", "raise", "lift", "drop",
    "push", "pull", "shift", "nudge", "bump", "slide", "drag", "bring", "send", "position", "please",
    "thanks", "sorry", "okay", "ok", "yes", "no", "not", "don", "won", "can", "cannot", "could", "would", "should",
    "shall", "will", "might", "must", "may", "have", "has", "had", "does", "did", "done", "doing", "been", "being",
    "dead", "exact", "odd", "plain", "simple", "main", "key", "primary", "secondary",
    "blow", "puff", "snap", "tuck", "hang", "fall", "crop", "fade", "slot", "stick",
    "jam", "shove", "park", "plop", "nest", "sort", "tweak", "adjust", "tune", "lean", "bend", "spin",
}

#: Colour adjectives a request may put before a colour name.
COLOR_MODIFIERS = {"dark": "dark", "deep": "dark", "light": "light", "pale": "light", "bright": "", "pure": ""}

__all__ = ["CLASS_WORDS", "SAID_NOUNS", "LANGUAGE_SCRIPTS", "PLURALS", "PAGE_WORDS", "EDGE_WORDS", "MEASURE_WORDS",
           "PRONOUNS", "DETERMINERS", "POSITION_ADJECTIVES", "FUNCTION_WORDS", "COLOR_MODIFIERS", "INTENT_WORDS",
           "NOT_NOUNS", "COMMON_WORDS"]
