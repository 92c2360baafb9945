"""A typed request → the steps that carry it out, a question back, or "not understood".

:func:`understand` reads a request against the layout it is about:

1. *turn commands* first: "undo", "redo", "more", "a bit less", "again",
   "no, the other one", "no, I meant the subtitle" (:func:`turn_command`);
2. the words (:func:`~assistant.instructions.requests.words.tokenise`, typos
   corrected against the vocabulary and the layout's own names), split into
   clauses on punctuation, *then*, *but*, *also*, and on *and* where both sides
   ask for something ("make the title bigger and move it up");
3. each clause's mentions resolved to element ids
   (:mod:`~assistant.instructions.requests.refs`): "it", "them", "that" to the
   elements of the clause before, or of the last turn (``context``); a
   clause without a mention acts on the clause before's ("photo: 10 %
   smaller", "bigger and bolder");
4. its intent (:mod:`~assistant.instructions.requests.intents`); a purpose
   clause ("move the photo *so it does not cover the text*") replaces the
   vague main one; a clause that only describes a problem ("the photo
   overlaps the text", "the logo is falling off the edge") becomes a step
   when nothing later in the request deals with it, or merges with the
   clause that does ("…, move it off", "…, fix that").

Ambiguity is never guessed: a singular mention that fits several elements,
and that the clause itself does not narrow (an overlap narrows "the text" to
the text the photo overlaps; "centre the word in the green band" the band to
the one the word is on; "on page 2" to what is on that page), gives a
:class:`Understanding` with ``status="question"`` and the candidates. A mention that fits nothing gives
``status="missing"``; a request with no intent ``status="not_understood"``,
naming what was not understood.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping

from assistant.document import Layout
from assistant.instructions.requests.amounts import first_length
from assistant.instructions.requests.asks import Ask, check_ambiguous, check_paint_guess
from assistant.instructions.requests.choose import (
    best_candidates,
    broad_candidates,
    describe,
    extreme,
    in_part,
    lined_up,
    names_single,
    narrow,
    panel_round,
    plain_text,
    score_mention,
    unknown_head,
)
from assistant.instructions.requests.clauses import (
    clauses,
    detect_intent,
    known_words,
    lists_joined,
    looks_english,
    split_and,
)
from assistant.instructions.requests.clauses import (
    described as described_topic,
)
from assistant.instructions.requests.followups import amend_last, move_is_how, size_of_subject, text_follows
from assistant.instructions.requests.index import ElementIndex
from assistant.instructions.requests.intents import Intent
from assistant.instructions.requests.mends import back_out, mend, out_of, purpose_pronoun, room_from_edge
from assistant.instructions.requests.outcome import RequestContext, Understanding
from assistant.instructions.requests.pictures import pictures_to_read
from assistant.instructions.requests.plan import Step
from assistant.instructions.requests.purpose import purposed
from assistant.instructions.requests.refs import Mention, find_mentions, names_one
from assistant.instructions.requests.related import carried, holding, named_ahead, narrow_by_relation, nearest_refs
from assistant.instructions.requests.said import (
    AFTER_SWAP,
    ALONG,
    CARRIES,
    CARRY,
    CLOSER_ONLY,
    DIRECTION,
    EDGES_ONLY,
    END_WORDS,
    EVEN_SIDES,
    EVEN_SO,
    FAMILY,
    FIRST_WORDS,
    HELD_EDGE,
    JUDGED_BESIDE,
    KEEP_PLACED,
    LOOKS,
    ONTO_LINE,
    PLACE_AFTER,
    PLACE_GAP_TAIL,
    PRAISE,
    RELATION_AFTER,
    ROOM_SAID,
    SAME_LEVEL,
    SAME_SIZE,
    SAME_SPACING,
    SHORT_OF_EDGE,
    SITS_IN,
    SWAP_ORDER,
    as_mend,
    describes,
    held_anchor,
    held_apart,
    held_tail,
    holds,
    inset_said,
    moved_by,
    only_talk,
    predicates,
    problem_axis,
    reason_after,
    reread,
    sizes_said_once,
)
from assistant.instructions.requests.scope import copies, page_said, stacked, texts_quoted, without_asides
from assistant.instructions.requests.sets import (
    alike,
    carried_along,
    counted_members,
    framed,
    held_by,
    held_said,
    member_quoted,
    page_column,
    related_mention,
    section_body,
    tab_panel,
    text_block,
    under_heading,
)
from assistant.instructions.requests.trailing import trailing_place
from assistant.instructions.requests.turns import turn_command
from assistant.instructions.requests.vocab import CLASS_WORDS, PAGE_WORDS, SAID_NOUNS
from assistant.instructions.requests.words import Token, tokenise
from assistant.render.looks import Look

#: Relations that say which items of a heading are meant ("the questions under Thrust 1").
_UNDER = ("under", "below", "beneath", "underneath")
#: Longest request read (characters); longer ones are refused with a message.
MAX_REQUEST = 1000


class _Reader:
    """Reads one request's clauses in order, keeping what "it" and a pending problem refer to."""

    def __init__(self, layout: Layout, index: ElementIndex, context: RequestContext, original: str = "") -> None:
        self.layout, self.index, self.context = layout, index, context
        self.original = original
        self.subject: list[str] = []
        #: The other elements the clause before named ("the title and the photo are too close": the photo).
        self.subject_refs: list[str] = []
        self.steps: list[Step] = []
        self.pending: Step | None = None
        #: Why a remark's element was not found, said if a later clause edits "it" and nothing else is known.
        self.unresolved: Ask | None = None
        #: Why the element a problem placed its subject against was not found ("… isn't centred under the phone").
        self.against: Ask | None = None
        self.remarks: list[str] = []
        self.clauses: list[str] = []  # every clause read, as said
        self.choices: list[str] = []
        #: Whether the last reference said with "their" pairs one element with each of those named before it.
        self.paired = False
        self.all_ids: list[str] = []
        self.understood = False
        #: Every element the last mention resolved could mean (for "the heading on the right", "the text above it").
        self.pool: list[str] = []
        #: The page of what the request named by its words, for the nouns said after it (several pages, none said).
        self.page_hint: int | None = None
        #: Whether the clause that set the subject said what is wrong ("… jammed together": "them" is both) rather
        #: than edited it ("move them closer to the name, make them bigger": "them" is what moved).
        self.said_wrong = False
        #: Every element the noun that named the subject could mean ("the one above": the other of them).
        self.kin: list[str] = []
        #: The words of the clause after the one being read (what a pronoun said before its names stands for).
        self.ahead: list[Token] = []
        #: Whether the subject is one set said with one plural noun ("the right column"), which "it" may stand for.
        self.whole = False
        #: Every element the clauses read so far named one by one (not by a pronoun or a plural noun), in order.
        self.mentioned: list[str] = []

    # -- mentions ------------------------------------------------------------------------
    def resolve(self, m: Mention, prev: Mention | None, intent: Intent | None, mentions: list[Mention],
                resolved: dict[int, list[str]]) -> list[str]:
        if m.pronoun:
            earlier = [n for n in sorted(resolved) if resolved[n] and not mentions[n].pronoun]
            if earlier and m.pronoun in ("it", "its", "itself", "they", "them", "their"):
                return list(resolved[earlier[0]])  # "keep the photo where it is"
            if len(earlier) >= 2 and m.pronoun == "both":  # "'que es esta convocatoria' and 'Dirección 666' both sit …"
                return list(dict.fromkeys(i for n in earlier for i in resolved[n]))
            ids = self.subject or list(self.context.last_ids)
            others = self.subject_refs or [r for s in [*self.steps[-1:], *([self.pending] if self.pending else [])]
                                           for r in s.refs if r not in self.subject]
            if m.plural and len(self.subject) == 1 and others and (self.said_wrong or self.pending is not None or (
                    m.pronoun == "them" and self.steps and re.search(r"\beach other\b", self.clauses[-1]))) and not (
                    self.pending is not None and JUDGED_BESIDE.search(self.pending.text)):
                # (where several were named first — "A and B run into the tab" — "them" is those; "X reads after
                # the name but it should come before it - swap them": X and the name; "X should be level with Y -
                # centre them on each other": X and Y)
                ids = list(dict.fromkeys(self.subject + others))  # "… jammed together; space them out"
            if not ids:
                # "swap them round: 'Open Source Club' underneath 'Winter Bash'"
                ids = named_ahead(self.ahead, self.index, m, intent is not None and intent.kind == "swap")
            if not ids:  # (where what "it" stands for was asked about before, that question)
                raise self.unresolved or Ask("question", f"what does '{m.text}' refer to? Name the element, e.g. "
                                                          "'the title'")
            return ids
        if m.text in ("the heading", "the headline") and not m.names and not m.quote and (back := [
                i for n in sorted(resolved) if (mentions[n].names or mentions[n].quote) and len(resolved[n]) == 1
                for i in resolved[n] if self.layout.get(i).role in ("title", "subtitle")]):
            return back[-1:]  # "the two questions under Thrust 2 float too far from the heading": Thrust 2
        if m.text.startswith(("that ", "this ")) and m.has_head and not m.quote:
            # "pull 'Where is it used' up so there's 15px between the last feature and that heading": the one
            # named before that the noun fits
            scores = score_mention(m, self.index)
            said = [i for n in sorted(resolved) if not mentions[n].pronoun for i in resolved[n]] + list(self.subject)
            said += list(reversed(self.mentioned))  # ("… above the right QR: …, centred over that QR")
            said += [a for i in said for a in self.index.ancestors(i)]  # ("… lower than Overview - move that section")
            fits = [i for i in dict.fromkeys(said) if scores.get(i, 0) > 0]
            if fits:
                return fits[:1]
        if m.everything and not m.others:
            return self.index.everything()
        if m.others:
            return []  # filled in by the caller once the other mentions are known
        if not m.has_head and (m.count or 0) > 1 and m.every and len(self.subject) >= m.count:
            return list(self.subject)  # "the feature bullets look uneven … space all six out evenly": those
        if not m.has_head and ("one" in m.words or m.ordinal is not None or m.place):
            # ("the 2 QR codes don't match, left one is smaller": one of those the request named before)
            named = next((resolved[k] for k, x in enumerate(mentions) if x is prev and len(resolved.get(k, [])) > 1),
                         [])  # (of the set the request named just before, when it named one)
            if not named and m.ordinal is not None and resolved:  # "pull both up so the first starts …": of both
                last = max(resolved)
                named = resolved[last] if mentions[last].pronoun in ("both", "them", "they") and len(
                    resolved[last]) > 1 else []
            pool = (list(named) if named else self._pool_from(prev) if prev is not None
                    else list(self.subject) if len(self.subject) > 1 and m.place
                    else list(self.kin) if len(self.kin) > 1 and m.place
                    # ("qr codes aren't the same size, make the right hand one match the left": of those two)
                    else list(dict.fromkeys(self.pending.patients + self.pending.refs))
                    if self.pending is not None and len(set(self.pending.patients + self.pending.refs)) > 1
                    else list(self.context.last_candidates) or list(self.context.pending_candidates))
            if not pool and "one" in m.words and not m.place and m.ordinal is None:
                # "the bottom 'Hunter Hack Day': line its left edge up with the one above": the other of its kind
                others = [i for i in self.kin if i not in self.subject]
                if len(others) == 1:
                    return others
                # "the two QR codes differ? make the left one as big as the one on the right": the other of the
                # pair a sentence before named
                said = {i for ids in resolved.values() for i in ids}
                rest = [i for i in self.subject if i not in said]
                if len(self.subject) == 2 and len(rest) == 1:
                    return rest
            if m.place == "other":
                taken = set(self.context.last_choice)
                pool = [i for i in pool if i not in taken] or pool
                return pool[:1] if pool else self._ask_unknown(m)
            picked = narrow(m, pool, self.index)
            return picked[:1] if picked else self._ask_unknown(m)
        if "one" in m.words and prev is not None and not m.names and not m.quote and not any(
                w in CLASS_WORDS for w in m.words) and (heads := [w for w in prev.words if w in CLASS_WORDS]):
            # "between the yellow arrow and the green one": the green arrow
            m = dataclasses.replace(m, words=[w for w in m.words if w != "one"] + heads[-1:])
        if m.words in (["word"], ["words"], ["text"], ["lettering"]) and not m.names and not m.quote and len(
                inside := [d.id for s in self.subject for d in [self.layout.get(s), *self.layout.descendants_of(s)]
                if d.kind == "text"]) == 1 and not any(inside[0] in ids for ids in resolved.values()):
            return inside  # "arXiv.org pokes out of the red box, scale the word down": the word of what was named
        if m.words == ["column"] and m.place and not m.names and not m.quote and (
                column := page_column(self.index, m.place)):
            return column  # "nudge the whole left column 2mm to the right"
        scores = score_mention(m, self.index)
        cands = best_candidates(scores, self.index)
        if self.index.page is None and self.index.pages > 1 and cands and (
                m.quote or m.names or self.page_hint is not None):
            # the same words on several pages and no page said: the first page, the one a viewer shows first (or
            # the page of what the request named before: "'Você sabe o que é' is sitting on the heading")
            top = max(scores[i] for i in cands)
            near = [i for i, s in scores.items() if s >= top - 1.5]
            page = self.page_hint if self.page_hint is not None else 0
            first = [i for i in near if self.layout.get(i).page == page]
            if first and len(first) < len(near) and len({self.layout.get(i).page for i in near}) > 1:
                cands = [i for i in cands if i in first] or first
            if m.quote or m.names:
                pages = {self.layout.get(i).page for i in cands}
                self.page_hint = pages.pop() if len(pages) == 1 else self.page_hint
        if not cands:
            return self._missing(m)
        # words of a text said beside a class noun ("the gvsig logo at the bottom") narrow, but a place said after
        # them chooses among every element of the class
        by_words = bool(m.names) and all(kind == "part" for _e, kind, _s in m.names) and not m.quote
        self.pool = broad_candidates(scores, self.index) if (not m.names and not m.quote) or by_words else cands
        if (m.count or 0) > 1 and not m.names and not m.quote and len(
                said := [i for i in self.mentioned if scores.get(i, 0) > 0]) == m.count:
            return said  # "the 'Figure' and 'Conclusions' tabs touch the blue. widen both tabs": those two
        if m.plural and m.words[-1:] == ["line"] and len(cands) == 1 and (self.layout.get(cands[0]).lines or 1) > 1 \
                and all(scores[i] <= scores[cands[0]] - 1.0 for i in self.pool if i != cands[0]):
            m.plural, self.pool = False, list(cands)  # "the address lines": the lines of the one address, one text
            return cands
        if (m.plural or m.every) and not m.count and not m.names:
            cands = self.pool  # "all the headings": the title and the subheadings
        elif m.plural and (m.count or 0) > len(cands):  # "both ACM circles": the next best too; "all five step boxes"
            if len(self.pool) < (m.count or 0) and m.words and CLASS_WORDS.get(m.words[-1]) == "title":
                # "the three headlines" where one text is the title: the headings, the title and its subheadings
                scores = score_mention(dataclasses.replace(m, words=[*m.words[:-1], "heading"]), self.index)
                self.pool = [i for i, s in scores.items() if s > 0]
            ranked = sorted(self.pool, key=lambda i: -scores[i])
            cands = alike(ranked, m.count, self.layout) or (cands + [i for i in ranked if i not in cands])[:m.count]
        if m.plural and not m.names and not m.quote:
            # "the thrust headings": those whose words say "thrust" (too many for a name, a few of the kind)
            said = [w for w in m.words if w not in CLASS_WORDS and len(w) > 2]
            worded = [i for i in dict.fromkeys(cands + self.pool) if said and all(
                any(w in t.split() or w + "s" in t.split() for t in self.index.entry(i).texts[:1]) for w in said)]
            cands = worded if len(worded) > 1 else under_heading(cands, said, self.index) if not worded else cands
        cands = plain_text(m, cands, self.index, self.clauses[-1] if self.clauses else "")
        for word in END_WORDS.keys() & set(m.words):
            if len(cands) > 1 and not m.names and not m.quote:  # "the footer links": those at the foot of the page
                kept = in_part(cands, END_WORDS[word], self.layout)
                cands = kept if m.plural or m.every else extreme(kept or cands, END_WORDS[word], self.index)
        if m.plural and not m.every and not m.count and not m.names and not m.quote and len(cands) > 1 and (
                unknown_head(m) not in (None, *SAID_NOUNS)):
            # "the planets": a thing drawn in pictures no name or text says; which of them show it is not known
            listing = "; ".join(describe(self.layout, i) for i in cands[:6])
            raise Ask("question", f"which are {m.text.removeprefix('the ')!r}: {listing}?", cands)
        owners = [i for n in sorted(resolved) for i in resolved[n]]
        if m.possessive and (m.plural or m.text.startswith("their ")) and not m.count and len(owners) > 1:
            owners = [i for n in (intent.patients if intent else []) for i in resolved.get(n, [])] or owners
            # "Welcome, Supported formats and their paragraphs": the one nearest each of those named ("… start flush
            # with the left edge of their picture": each its own, in pairs)
            boxes = {i: self.layout.get(i).box for i in cands + owners}
            cands = [min(others, key=lambda i: boxes[i].distance(boxes[o]))
                     for o in owners if (others := [i for i in cands if i not in owners])]
            self.paired = len(cands) == len(owners) and not m.plural
            m.plural, cands = True, cands if self.paired else list(dict.fromkeys(cands))
        if m.plural or m.every or (m.count and m.count > 1):
            if m.count and len(cands) > m.count:
                self.pool = list(cands)  # a place said after ("… in the middle column") chooses among them all
                ranked = sorted(cands, key=lambda i: -scores[i])
                tied = [i for i in ranked if scores[i] >= scores[ranked[m.count - 1]] - 0.5]  # (scores say not which)
                like = alike(tied, m.count, self.layout) if len(tied) > m.count else []
                cands = self.index.reading_order(like or ranked[:m.count])
            if len(cands) == 1 and (members := counted_members(self.index, cands[0], m.count)):
                return members  # "the three tips": the three items under the heading "Praktické tipy"
            return narrow(m, cands, self.index) if m.ordinal is not None else cands
        if m.words in (["text"], ["words"], ["wording"], ["copy"], ["lettering"]) and not (m.names or m.quote or m.place
                                                                                     or m.ordinal) and (
                block := text_block(self.index)):
            m.plural = True  # "swap the logo and the words": the title and tagline set together, the page's words
            return block
        whole = {e for e, kind, _s in m.names if kind == "text"}
        if len(whole) > 1 and set(cands) <= whole and not m.quote and m.place is None and m.ordinal is None and (
                stacked(cands, self.layout)):
            m.plural = True  # "the DConf 2018 heading": each text said whole, together the one heading
            return cands
        picked = narrow(m, cands, self.index)
        owner = [i for n in sorted(resolved) for i in resolved[n]][:1] or self.subject[:1]
        if m.possessive and len(picked) > 1 and owner:
            # "put the word 'Date' under its line": the line nearest the word; "the Feynman quote and his name": the
            # name set right under the quote, though texts further off read more as names
            own = self.layout.get(owner[0]).box
            far = {i: self.layout.get(i).box.distance(own) for i in dict.fromkeys(picked + self.pool) if i != owner[0]}
            picked = [min((i for i in picked if i != owner[0]), key=far.__getitem__)]
            if (near := min(far, key=far.__getitem__)) not in picked and far[near] < 0.25 * far[picked[0]] and not (
                    m.names or m.quote):
                picked = [near]
        if not picked:
            raise Ask("missing", f"there is no {m.text!r} here: I found {len(cands)} of that kind")
        if self.context.force and (len(picked) != 1 or set(picked) <= set(self.context.replace)):
            return list(self.context.force)
        preferred = [i for i in picked if i in self.context.prefer]
        if len(picked) > 1 and preferred:
            picked = preferred
        if len(picked) > 1 and copies(picked, self.layout):
            m.copies = True  # a title and its shadow: one text to whoever looks, both move together
            return picked
        if len(picked) > 1 and FIRST_WORDS.intersection(m.words):
            picked = self.index.reading_order(picked)[:1]  # "the intro paragraph": the first one read
        taken = {i for ids in resolved.values() for i in ids}  # ("… the tab": one said before, not the clause's own)
        said = [i for i in picked if (i in self.all_ids or i in self.subject and i not in taken) and (
            intent is None or intent.kind != "lock")]
        if len(picked) > 1 and len(said) == 1 and not m.names and not m.quote:
            picked = said  # "'Petr Viktorin' should start where … – slide the name across": the name said before
        picked = held_by(self.layout, picked, [i for ids in resolved.values() for i in ids] + self.subject) or picked
        if len(cands) > 1 and len(picked) == 1:
            self.choices = cands
        if len(picked) == 1 and not m.quote and (body := section_body(self.index, picked[0], m.words)):
            return [body]  # "the Welcome para": the text under the "Welcome" heading
        if len(picked) == 1 and m.names and (panel := tab_panel(self.layout, picked[0], m.words)):
            return [panel]  # "the Code box": the panel the "Code" tab heads
        return picked

    def _pool_from(self, prev: Mention) -> list[str]:
        # "make the second Hunter Hack Day 80 % the size of the top one": every one the noun could mean
        whole = dataclasses.replace(prev, ordinal=None, place=None, pronoun=None) if not prev.pronoun else prev
        return best_candidates(score_mention(whole, self.index), self.index)

    def _ask_unknown(self, m: Mention) -> list[str]:
        raise Ask("question", f"which element is '{m.text}'? Name it, e.g. 'the title'")

    def _missing(self, m: Mention) -> list[str]:
        shown = [e for e in self.index.content_ids() if self.layout.get(e).role != "decoration"
                 and self.layout.get(e).group is None][:12]
        names = ", ".join(f"{e} ({self.layout.get(e).role})" for e in shown)
        raise Ask("missing", f"there is no {m.text!r} in this layout (it has: {names})")

    # -- clauses -----------------------------------------------------------------------------
    def read(self, tokens: list[Token]) -> None:
        said = " ".join(t.text for t in tokens)
        self.clauses.append(said)
        if PRAISE.match(said):  # "love the grey wedges at the bottom": what the designer likes, not an edit
            return self.remarks.append(said)
        k = held_tail([t.text for t in tokens])
        if k:  # "10% smaller around the same centre": the resize, then what it holds
            self.read(tokens[:k])
            self.read(tokens[k:])
            return
        tail = PLACE_GAP_TAIL.search(said) if self.steps and self.steps[-1].kind == "place" else None
        if tail and tail.start() > 0 and (length := first_length(tail.group("len"))) is not None and (
                k := next((k for k in range(len(tokens), 0, -1)
                           if " ".join(t.text for t in tokens[:k]) == said[:tail.start()]), None)):
            # "put the logo just under the paragraph, left aligned with it, roughly 10px gap": the gap it is
            # placed at; the rest is an edit of its own
            self.steps[-1].intent.params["gap"] = length
            self.read(tokens[:k])
            return
        if CARRY.fullmatch(said) and self.steps and self.steps[-1].kind in (*CARRIES, "swap"):
            # ("swap 'Make your maps' and 'Analyze information' round, text and all": a swap of headings takes
            # their sections)
            return self._carry(self.steps[-1]) if self.steps[-1].kind != "swap" else None
        held = self.steps[-1] if self.steps else self.pending
        if text_follows(self.layout, held, said):  # "… give it another 10px or so, text follows"
            return
        last_step = self.steps[-1] if self.steps else None
        if amend_last(self.steps, self.pending, said, self.remarks):
            return  # "…, gap about 60px", "…, bottom-right corner", "…, same margin both sides"
        if not self.steps and (sized := size_of_subject(self.layout, self.subject, said)) is not None:
            return self._add(sized)  # "url in the footer - 18px please"
        if (inset := room_from_edge(self.pending, said)) is not None:
            self.pending = None  # "the compass is jammed against the left edge. give it 20px"
            self._add(inset)
            return
        held_edge = HELD_EDGE.fullmatch(said)
        if (edge := EDGES_ONLY.fullmatch(said)) and self.steps and self.steps[-1].kind == "align":
            self.steps[-1].intent.params["edge"] = edge.group("edge")  # "line up A and B with C, left edges"
            return
        if held_edge and self.steps and self.steps[-1].kind in ("align", "edge") and len(self.steps[-1].patients) == 1 \
                and held_anchor(held_edge) in ("left", "right", "top", "bottom"):
            # "make it start level with Bash but keep the bottom where it is": that edge reaches, the other holds
            self.steps[-1].intent.params["held"] = held_anchor(held_edge)
            return
        if held_edge and self.pending is not None and self.pending.kind == "resize":  # "…, keep its top left corner"
            self.pending.intent.params["anchor"] = held_anchor(held_edge, self.pending.intent.params.get("anchor"))
            return
        if held_edge and not (self.steps and self.steps[-1].kind == "resize") and self.pending is not None:
            return  # "… runs past the panel; keep its left edge but make it end where the panel ends": the mend says
        if held_edge and self.steps and self.steps[-1].kind in ("resize", "match", "style"):
            # "Chinese title 10% smaller, keep the left edge put": it grows or shrinks about that side (a colour or
            # an outline changes where nothing is: "thicker, 1.5mm, same centre")
            self.steps[-1].intent.params["anchor"] = held_anchor(held_edge, self.steps[-1].intent.params.get("anchor"))
            return
        if re.match(r"(?:and )?(?:together|along) with\b", said):
            # "…, together with the wedges either side": where they are says nothing more
            while len(tokens) > 2 and (tokens[-1].text in ("side", "sides") and tokens[-2].text in ("either", "both")):
                tokens = tokens[:-3] if len(tokens) > 3 and tokens[-3].text == "on" else tokens[:-2]
        mentions, skel = find_mentions(tokens, self.index)
        if re.match(r"(?:under|below|beneath|underneath|above) E0 E1 ", skel) and \
                not mentions[1].pronoun:
            # "under Thrust 2 the two questions float too far …": the two questions under Thrust 2
            a, b = mentions[0], mentions[1]
            tokens = tokens[b.start:b.end] + tokens[:a.end] + tokens[b.end:]
            mentions, skel = find_mentions(tokens, self.index)
        went = last_step or self.pending  # ("… should go on the left side, just under X": a place said as a goal)
        if went is not None and went.kind in ("region", "align", "edge", "nudge") and went.patients and (
                where := re.fullmatch(r"(?:and )?(?:right |just |directly )?(under|below|beneath|underneath|above|"
                                      r"over) E0", skel)) and (
                ref := self.resolve(mentions[0], None, None, mentions, {})):
            # "move the note over to the right hand side, under 'tan solo una frase'": under that, on that side
            rel = "above" if where.group(1) in ("above", "over") else "below"
            placed = Step(intent=Intent("place", [0], [1], params={"rel": rel, "tight": False, "gap": None}),
                          patients=list(went.patients), refs=ref,
                          text=f"{went.text}, {' '.join(t.raw for t in tokens)}")
            self.steps[-1:] = [placed] if went is last_step else [*self.steps[-1:], placed]
            self.pending = None if went is not last_step else self.pending
            return
        if last_step is not None and moved_by(last_step.intent) and CLOSER_ONLY.fullmatch(skel):
            self.remarks.append(" ".join(t.raw for t in tokens))  # "move the caption up 20 px, closer to the map"
            return
        if (held := self.pending or last_step) is not None and held.kind == "inside" and SAME_SIZE.fullmatch(skel):
            held.intent.params["keep_size"] = True  # "… is cut off, pull it back onto the page but don't shrink it"
            self.remarks.append(" ".join(t.raw for t in tokens))
            return
        if last_step is not None and FAMILY.get(last_step.kind) == "place" and (
                SAME_LEVEL.fullmatch(skel) or SAME_SIZE.fullmatch(skel)):
            self.remarks.append(" ".join(t.raw for t in tokens))  # "slide it left so it ends 8mm in, same height"
            return
        if last_step is not None and last_step.kind == "nudge" and len(last_step.patients) > 1 and \
                SAME_SPACING.fullmatch(skel):
            self.remarks.append(" ".join(t.raw for t in tokens))  # "bring both down 15px, same gap between them"
            return
        if last_step is not None and last_step.kind == "swap" and (
                all(AFTER_SWAP.fullmatch(p) for p in skel.split(" and ")) or SWAP_ORDER.fullmatch(skel)):
            self.remarks.append(" ".join(t.raw for t in tokens))  # "swap the two logos - GeoNode one up top right"
            return
        last = self.steps[-1] if self.steps else None
        if last is not None and last.kind in CARRIES and ALONG.fullmatch(skel):
            # "take 'Guidelines' up 15px, together with the wedges either side": they move with it, beside it
            for i in carried_along(self.layout, last.patients, mentions, skel,
                                   lambda m: self.resolve(m, None, last.intent, mentions, {})):
                last.patients.append(i)
                self.all_ids += [i] if i not in self.all_ids else []
            return
        if re.fullmatch(r"(?:(?:the )?same |just |exactly )?(?:like|as) E0(?: is| does| has)?(?: please)?", skel) and \
                last is not None and last.kind in ("align", "match") and not last.refs:
            # "align A and B to the left, same like text 'Do 18 września…'": to that text's edge
            found = self.resolve(mentions[0], None, last.intent, mentions, {})
            last.refs = [i for i in found if i not in last.patients]
            self.all_ids += [i for i in last.refs if i not in self.all_ids]
            return
        # ("drop it so the tops match": the edges of what the problem named)
        purpose = re.search(r"\bso (?:that )?(?=E\d+|there (?:is|are)\b|(?:the |their )?(?:tops|bottoms|baselines) )",
                            skel)
        intent = None
        place_says_which: bool | str = False
        if purpose:
            intent = purposed(skel, purpose, tokens, mentions, self.original)
        else:
            intent = detect_intent(skel, tokens, self.original)
            if intent is not None and intent.kind == "place" and described_topic(tokens, skel):
                intent = None  # "the CERN logo next to P1 ATLAS: make it …": which logo, not where it goes
            described = PLACE_AFTER.search(skel)
            if described and (intent is None or intent.kind in ("edge", "region", "nudge")) and not (
                    intent is not None and intent.kind == "region" and re.match(r"center (?:E\d+ (?:and )?)+at\b",
                                                                                skel)):
                # "the small print at the very bottom": a place after a noun says which one, when the clause
                # asks for something else ("… smaller", "… up 10px")
                reduced = skel[:described.end(1)] + skel[described.end():]
                rest = detect_intent(reduced, tokens, self.original)
                if rest is not None and rest.kind not in ("edge", "region") and (
                        rest.kind != "nudge" or DIRECTION.search(reduced)):
                    intent, place_says_which = rest, True
                elif rest is None and (describes(reduced) or self.ahead and re.fullmatch(
                        r"(?:(?:and |now )?(?:(?:the )?same|ditto|likewise) (?:for|with) )?E0", reduced)):
                    # "the × in the top row is rather small"; "cc licence badge bottom right: drop it …"
                    intent, place_says_which = None, True
        if intent is not None and (said_to_be := predicates(skel, [m.text for m in mentions])) and set(
                intent.patients) - said_to_be:
            # "Conclusions box is a skinny strip with a big hole next to it": what it is said to be is no element
            intent.patients = [n for n in intent.patients if n not in said_to_be]
        if not place_says_which and intent is not None and intent.kind in (
                "center", "match", "gap", "swap", "zorder", "style", "resize", "emphasis", "separate", "align"):
            described = PLACE_AFTER.search(skel)
            if described and int(described.group(1)[1:]) in intent.refs:
                place_says_which = "refs"  # "centred on the GeoNode logo bottom left": which logo, not where to go
            elif described and intent.kind in ("center", "align") and int(described.group(1)[1:]) in intent.patients \
                    and len(intent.patients) + len(intent.refs) > 1:
                place_says_which = True  # "gvSIG logo bottom left and www.gvsig.com should share a vertical centre"
        if intent is not None and intent.kind == "resize" and re.search(r"\b(?:to|so (?:that )?E\d+) fits?\b|"
                                                                        r"\buntil\b.*\bfits?\b|" + EVEN_SO + "|" +
                                                                        SITS_IN.pattern, skel):
            intent.params["fit"] = True  # "make it smaller so it fits": as small as it takes
            room = ROOM_SAID.search(skel)
            intent.params["room"] = first_length(room.group("len")) if room else None  # ("… with ~15px to spare")
            intent.params["even"] = intent.params.get("even") or bool(re.search(  # ("… with the same margin on both
                r"\b(?:with|and|leaving) (?:the )?" + EVEN_SIDES.pattern + "|" + EVEN_SO, skel))  # sides")
            within = re.search(r"\bfits? (?:within|inside|in|into|under|over) (E\d+)(?:'s)?(?: width| box)?\b",
                               skel) or SITS_IN.search(skel)
            if within:  # "… so it fits within the screenshot's width": that element's width, not the page's
                intent.refs = [int(within.group(1)[1:])]
                intent.params["inset"] = inset_said(skel)  # ("… inside the header with 40px above and below")
        elif intent is not None and intent.kind == "resize" and (short := SHORT_OF_EDGE.search(skel)):
            intent.params.update(fit=True, room=first_length(short.group("len")))  # "… so it stops 5mm short of it"
        relation = RELATION_AFTER.search(skel)
        if relation and intent is not None and intent.kind == "place" and re.search(
                rf"\bthan E{relation.group(1)}\b", skel) and (compared := detect_intent(
                skel[:relation.end(1)] + skel[relation.end():], tokens, self.original)) is not None:
            intent = compared  # "'Finitions' sits higher than the other captions above the photos": which captions
        if relation and mentions[int(relation.group(1))].plural and not mentions[int(relation.group(1))].count and (
                relation.group(2) not in _UNDER or mentions[int(relation.group(1))].names):
            relation = None  # "the photos next to the title": which ones is not said ("the questions under X": its)
        if relation:
            # "make the text above the picture bold": the relation says which text, the clause asks for bold
            rest = skel[:relation.end(1)] + skel[relation.end():]
            reduced = detect_intent(rest, tokens, self.original)
            counted = bool(mentions[int(relation.group(1))].count)  # "the two photos next to X": says which two
            # "pop the date under the photo": a verb of putting makes "under the photo" where to, not which one
            placed = intent is not None and intent.kind == "place" and int(relation.group(3)) in intent.refs and \
                bool(re.search(r"\b(?:put|place|move|pop|stick|drop|bring|shift|slide|tuck|park|plop)\b", skel)) and \
                not moved_by(reduced)  # ("move the title and the subtitle under it down 12px": which subtitle)
            if reduced is None and intent is not None and intent.kind == "place" and describes(rest) and not placed:
                intent = None  # "the subtitle under the title gets chopped at 'du H…'": which subtitle, and a problem
            elif reduced is None and (intent is not None or unknown_head(mentions[int(relation.group(1))]) or (
                    relation.group(2) not in _UNDER)) or placed or reduced is not None and (
                    reduced.kind == "place" or intent is not None and reduced.kind == intent.kind
                    and int(relation.group(3)) in intent.refs and not counted):
                relation = None  # (a remark keeps it: "the questions under Thrust 4 are spaced all over the place")
            else:
                intent = reduced
                n, k = int(relation.group(1)), int(relation.group(3))
                if intent is not None and intent.kind in ("align", "center") and intent.patients == [n] and \
                        mentions[k].pronoun and re.search(rf"\bE{n} (?:are|do|have) not\b", rest):
                    intent.patients.append(k)  # "the wordmark next to it aren't lined up": the two of them
        resolved: dict[int, list[str]] = {}
        pools: dict[int, list[str]] = {}
        prev = None
        for n, m in enumerate(mentions):
            # "the text beside it": "it" is not that text, but what the clause is about
            head = int(relation.group(1)) if relation and m.pronoun and n == int(relation.group(3)) else None
            prev = None if head is not None and prev is mentions[head] else prev
            seen = {k: v for k, v in resolved.items() if k != head}
            if m.pronoun and purpose and n > 0 and resolved:
                resolved[n] = purpose_pronoun(m, resolved[min(resolved)], resolved, self.pending, self.subject_refs)
            elif intent is None:  # a remark: what it names only matters if a later clause says "it"
                try:
                    resolved[n] = self.resolve(m, prev, intent, mentions, seen)
                except Ask as ask:
                    resolved[n] = []
                    self.unresolved = self.unresolved or ask
                if len(resolved[n]) > 1 and not (m.plural or m.every or m.pronoun or m.everything or m.others or (
                        intent is not None and intent.params.get("bound") and n in intent.refs)):  # (a limit: below)
                    # "GitHub logo should sit …": which logo is not known, so "their" is not all; "OSGeo logo: 20%
                    # smaller" asks which
                    listing = "; ".join(describe(self.layout, i) for i in resolved[n][:6])
                    what = " ".join(w for w in m.words if w != "one") or m.text.removeprefix("the ").strip()
                    self.unresolved = self.unresolved or Ask("question", f"which {what} do you mean: {listing}?",
                                                              list(resolved[n]))
                    resolved[n] = []
            else:
                self.pool = []
                try:
                    resolved[n] = self.resolve(m, prev, intent, mentions, seen)
                except Ask as ask:
                    if (describes(skel) or (intent.kind == "lock" and intent.params.get("keep"))) and \
                            ask.status in ("missing", "question") and not ask.candidates and not m.pronoun:
                        # "the CC badge is crashing into the credit line - slide the text left", "… leave the badge
                        # alone": a problem or a hold about what is not found; said if nothing else is asked
                        self.unresolved = self.unresolved or ask
                        self.against = self.against or (ask if n in intent.refs else None)
                        self.remarks.append(" ".join(t.raw for t in tokens))
                        lead = [k for k in intent.patients if k < n and resolved.get(k)]
                        if lead and describes(skel) and not self.subject:
                            # "'Mapbender Mobile Application' is glued to the bottom of the phone, take it down":
                            # what the problem is about is "it", though the phone is not found
                            self.subject = [i for k in lead for i in resolved[k]]
                        return
                    # (what only says where, or why, need not be found: "nudge the '18 000' on the chart right")
                    unused = n not in intent.patients + intent.refs and not m.pronoun
                    if not (intent.kind == "style" or intent.params.get("compare") or unused) or n in intent.patients:
                        raise  # (what only the purpose names — "so it sits closer to the mascots" — need not be found)
                    # "bold like the other names", "wider than the page": what it is compared with need not be found
                    resolved[n] = []
            pools[n] = list(self.pool) or list(resolved[n])
            prev = m if m.has_head else prev
        if relation:
            n, k = int(relation.group(1)), int(relation.group(3))
            resolved[n] = related_mention(self.index, mentions, n, k, relation.group(2), pools[n], resolved)
            if len(resolved[n]) == 1 and mentions[n].names and (
                    panel := tab_panel(self.layout, resolved[n][0], mentions[n].words)):
                resolved[n] = [panel]  # "the Code panel above it": the panel under the "Code" tab there
        if intent is not None:  # "the gap between the compass and the OSGeo text": two things, not one twice
            said = [n for n in dict.fromkeys(intent.patients + intent.refs) if n < len(mentions)]
            for a in said:
                for b in said:
                    one, many = resolved.get(a, []), resolved.get(b, [])
                    if a != b and len(one) == 1 and len(many) > 1 and one[0] in many and not (
                            mentions[b].plural or mentions[b].every or mentions[b].everything):
                        resolved[b] = [i for i in many if i != one[0]]
        named = [i for n, ids in resolved.items() if not mentions[n].others for i in ids]
        self.mentioned += [i for n, ids in sorted(resolved.items()) if not mentions[n].pronoun and (
            len(ids) == 1 or mentions[n].quote or mentions[n].names) for i in ids if i not in self.mentioned]
        for n, m in enumerate(mentions):
            if m.others:
                resolved[n] = [e for e in self.index.content_ids() if self.layout.get(e).group is None
                               and e not in named]
        trailing_place(self.layout, self.index, mentions, resolved, skel, pools, place_says_which)
        held_said(self.layout, resolved, pools, skel)
        for n, m in enumerate(mentions):
            if not m.pronoun:
                resolved[n] = list(dict.fromkeys(framed(self.layout, i, m) for i in resolved[n]))
            line = re.search(rf"\b(row|column) of E{n}\b", skel)
            if line and m.plural and len(resolved[n]) > 1:  # "the whole row of step buttons": those in one row
                resolved[n] = lined_up(self.index, resolved[n], line.group(1))
        if intent is not None and describes(skel):
            intent.state = True  # "the penguin is overpowering the text": a problem a request may say how to mend
            if intent.kind == "style" and LOOKS.match(skel):  # "… and reads heavy next to the others": what it is
                intent.patients, intent.refs = [], intent.patients + intent.refs  # compared with
        if intent is None:
            lead = re.match(r"(?:E\d+ (?:and |or )?)+", skel + " ")
            first = [int(x) for x in re.findall(r"E(\d+)", lead.group(0))] if lead else sorted(resolved)
            # (a clause that opens with what it is about makes that "it", whatever else it names: "CERN Library
            # heading starts almost on the trim")
            if mentions and all(resolved.get(n) for n in (first if lead else range(len(mentions)))):
                # "the logo is dominating the footer": the logo is what "it" will mean; "the photo and the text
                # overlap": both; "CERTIFICATE hugs the top of the green bar": the title, though no bar is green
                if self.subject and not any(mentions[n].names or mentions[n].quote or mentions[n].pronoun or any(
                        w in CLASS_WORDS for w in mentions[n].words) for n in first):
                    # "… is cut off at the top, only the bottoms of the letters show — bring it down": a remark
                    # about a part of what was named keeps "it" on that
                    self.remarks.append(" ".join(t.raw for t in tokens))
                    return
                self.subject = [i for n in first for i in resolved.get(n, [])]
                # ("the right column is tight …, give it 1mm more room": "it" is the column)
                self.whole = len(first) == 1 and (mentions[first[0]].plural or mentions[first[0]].everything)
                self.said_wrong = True
                self.kin = [i for n in first for i in pools.get(n, [])]
                self.subject_refs = [i for n in sorted(resolved) if n not in first for i in resolved[n]]
                self.remarks.append(" ".join(t.raw for t in tokens))
                return
            self.remarks.append(" ".join(t.raw for t in tokens))
            return
        self.understood = True
        patients = [i for n in intent.patients for i in resolved.get(n, [])]
        refs = [i for n in intent.refs for i in resolved.get(n, [])]
        moving = {i for n in intent.params.pop("movers", []) for i in resolved.get(n, [])}
        if "along" in intent.params:  # what moves with the one placed ("pull both up so the first …")
            intent.params["with"] = [i for n in intent.params.pop("along") for i in resolved.get(n, [])
                                     if i not in patients]
        if moving & set(patients) and set(patients) - moving:  # the one the main clause moves, from the other
            patients, refs = [i for i in patients if i in moving], [i for i in patients if i not in moving]
        elif moving and intent.kind == "align" and patients and all(any(a in moving for a in self.index.ancestors(p))
                                                                    for p in patients):
            patients = list(moving)  # "move that section up so its heading lines up with …": the section moves
        broad = any(mentions[n].everything or mentions[n].every for n in intent.patients if n < len(mentions))
        if intent.kind == "center" and not intent.refs and (broad or any(
                mentions[n].plural for n in intent.patients if n < len(mentions))):
            intent.params["block"] = True  # "centre everything horizontally": the set, not each one
        patients = [i for i in patients if i not in refs] if broad else patients  # "align everything to X"
        refs = [i for i in refs if i not in patients]
        if len(intent.refs) == 1 and intent.refs[0] < len(mentions) and mentions[intent.refs[0]].pronoun == "it" and \
                len(refs) > 1:  # "pull both up so the first starts 20px below it": it is not one of both
            others = {i for k, ids in resolved.items() if k != intent.refs[0] for i in ids}
            refs = [i for i in refs if i not in others] if len([i for i in refs if i not in others]) == 1 else refs
        if not patients and (intent.kind not in ("confirm", "separate", "distribute") or intent.params.get("bound")):
            if not self.subject and self.unresolved is not None:
                raise self.unresolved  # "the QR code top right is a bit big, 15% smaller" where none is found
            patients = list(self.subject) or list(self.context.last_ids)
        if intent.kind == "distribute" and len(patients) < 3:
            patients = [i for n in sorted(resolved) for i in resolved[n]] or patients
        if intent.kind == "distribute" and len(patients) < 3 and len(self.subject) >= 3 and all(
                any(p == s or s in self.index.ancestors(p) for s in self.subject) for p in patients):
            # "right column spacing is uneven, there's more room above A than above B": the column's parts
            patients = list(self.subject)
        if intent.kind == "match" and not refs and len(dict.fromkeys(patients)) >= 2:
            patients = list(dict.fromkeys(patients))
            patients, refs = patients[:-1], patients[-1:]  # "the two photos the same width": one takes the other's
        if intent.kind == "gap" and (intent.params.get("rel") == "around" or intent.params.get("rel") is None and (
                self.said_wrong)) and not refs and self.subject_refs and patients == self.subject:
            refs = list(self.subject_refs)  # "X is sitting on the list, give it 5px more room": room from the list
        if intent.kind == "align" and not refs and self.said_wrong and self.subject_refs and \
                len(self.subject) > 1 and set(patients) == set(self.subject):
            # "A and B sit a few px right of the C column; shift them left so the headings line up": onto C
            refs = list(self.subject_refs)
        if intent.kind == "lock" and intent.params.get("keep") and len(set(patients)) > 3 and not broad and not any(
                mentions[n].plural or mentions[n].count for n in intent.patients if n < len(mentions)):
            # "… don't touch the quote" where many texts could be it: a remark (only what is named is edited)
            self.remarks.append(" ".join(t.raw for t in tokens))
            return
        if intent.kind == "swap" and len(set(patients)) == 1 and len(intent.patients) == 2:
            # "swap 'association à but non lucratif' and 'zestedesavoir.com'": two lines of one lock-up, not it twice
            members = [member_quoted(self.index, patients[0], mentions[n]) for n in intent.patients
                       if n < len(mentions)]
            if all(members) and len(set(members)) == 2:
                patients = [str(x) for x in members]
        if intent.kind == "place" and KEEP_PLACED.match(skel) and (self.steps or self.pending) and refs and all(
                any(holds(self.layout.get(p).box, self.layout.get(r).box, intent.params.get("rel")) for r in refs)
                for p in patients):
            # "take it down ~10px but keep it above More Functionality": a bound the edit before must respect, which
            # holds now; not a move of its own
            self.remarks.append(" ".join(t.raw for t in tokens))
            return
        patients, refs = narrow_by_relation(self.layout, intent, mentions, resolved, patients, refs)
        if intent.kind == "inside" and intent.params.get("bound") and refs and intent.refs and not all(
                set(mentions[n].words) <= PAGE_WORDS for n in intent.refs if n < len(mentions)):
            holder = holding(self.index, mentions[intent.refs[0]], refs, patients, intent.params.get("axis"))
            if holder is None:
                self.remarks.append(" ".join(t.raw for t in tokens))  # what holds it is not known: no limit
                return
            refs = resolved[intent.refs[0]] = [holder]
        if intent.kind == "gap" and intent.params.get("side") and not refs:  # "… more air above it": above itself
            intent.params["rel"] = intent.params.pop("side")
        refs = nearest_refs(self.layout, intent, mentions, resolved, patients, refs, self.clauses[-1])
        try:
            check_ambiguous(self.layout, intent, mentions, resolved, self.subject if self.whole else [])
            check_paint_guess(intent, mentions)
        except Ask as ask:
            if not (describes(skel) and self.ahead and ask.candidates and set(ask.candidates).isdisjoint(patients)):
                raise
            # "the code block just floats in the middle of the panel. move it left …": which panel matters only if
            # nothing after says what to do; the subject is known
            self.unresolved = self.unresolved or ask
            refs = [r for r in refs if r not in ask.candidates]
        if len(refs) == 1 and set(refs) <= set(patients) and self.subject_refs and any(
                mentions[n].pronoun for n in intent.refs if n < len(mentions)):
            refs = list(self.subject_refs)  # "put the sign right of the title, centred with it": "it" is the title
        patients = [p for p in dict.fromkeys(patients) if not any(a in patients for a in self.index.ancestors(p))]
        if intent.kind == "center" and not refs and patients and re.search(r"\b(?:in|within|inside|on) the frame\b",
                                                                             skel):
            # "centre them in the frame": the panel they sit in, where there is one smaller than the page
            refs = panel_round(self.index, patients)
            if refs and intent.params.get("axis") is None:
                intent.params["axis"] = "x"
        if intent.kind in ("center", "align") and not refs and self.against is not None:
            raise self.against  # "the caption isn't centred under the phone, centre it": on what is not known
        if intent.kind == "inside" and all(set(mentions[n].words) <= PAGE_WORDS for n in intent.refs
                                           if n < len(mentions)):
            refs = []  # "… a little bigger, keep it inside the bookmark": the page
        if self.paired:  # ("the captions … flush with the left edge of their picture": each with its own)
            intent.params["pairs"], self.paired = len(refs) == len(patients), False
        step = Step(intent=intent, patients=list(dict.fromkeys(patients)), refs=list(dict.fromkeys(refs)),
                    text=" ".join(t.raw for t in tokens),
                    refs_are_others=any(mentions[n].others for n in intent.refs))
        self.all_ids += [i for i in patients + refs if i not in self.all_ids]
        if intent.kind in CARRIES and not intent.state and not re.search(r"\b(?:only|just)\b", skel):
            self._carry(step, shapes_only=True)  # "nudge the pink DATA LOVE square": its lettering goes with it
        self._add(step)
        if patients:
            self.subject = list(dict.fromkeys(patients))
            self.whole = len(intent.patients) == 1 and intent.patients[0] < len(mentions) and (
                mentions[intent.patients[0]].plural or mentions[intent.patients[0]].everything)  # ("shrink everything
            # and bring it onto the page": "it" is everything)
            self.subject_refs = [r for r in dict.fromkeys(refs) if r not in self.subject]
            self.said_wrong = intent.state

    def _carry(self, step: Step, shapes_only: bool = False) -> None:
        """Add to a move of a panel what lies on it ("the grey box up by 10mm, text and all")."""
        self.all_ids += [i for i in carried(step, self.layout, self.index, shapes_only) if i not in self.all_ids]

    def _add(self, step: Step) -> None:
        kind = step.intent.kind = reread(step.intent, step.text)
        step.intent.state = step.intent.state and not step.intent.params.get("bound")  # ("… and it still clears X")
        last = self.steps[-1] if self.steps else None
        if kind == "center" and step.intent.params.get("axis") == "both" and len(self.clauses) > 1 and not re.search(
                r"\bboth (?:ways|axes|directions)\b", step.text) and (axis := problem_axis(self.clauses[-2])):
            step.intent.params["axis"] = axis  # "X looks shoved over to the right, centre it in the band": across
        if kind == "center" and not step.refs and last is not None and last.refs and re.search(
                r"\b(?:on|with|to) (?:that|this|the same|its) (?:line|row)\b", step.text):
            step.refs = list(last.refs)  # "tuck it right after the quote and centre it vertically on that line"
        if move_is_how(last, step, self.index.ancestors):
            self.steps.pop()  # "a bit more room above the road sign, drop it 3mm": the move is how
        elif kind == "match" and step.intent.params.get("factor") and last is not None and last.kind == "resize" and \
                last.patients == step.patients and not any(last.intent.params.get(k) for k in (
                    "size", "factor", "percent", "fraction")):
            self.steps.pop()  # "X should be much bigger, about 60% of the band's width": how much
        if self.pending is not None and step.intent.params.get("bound") and (not self.pending.intent.state or (
                self.pending.kind in ("resize", "style") and not self.pending.intent.params.get("compare"))):
            # "footnote's tiny - 14px please, but keep it inside the panel": the problem (or the edit it became), then
            self.pending.intent = as_mend(self.pending.intent)  # the limit
            self.steps.append(self.pending)
            self.pending = None
        if self.pending is not None:
            held = self.pending
            if kind == held.kind == "style" and held.intent.state and step.intent.state:
                held.text = f"{held.text}, {step.text}"  # "… is all bold and reads heavy next to the others": one
                return
            if kind == "confirm":
                self.pending = None
                self.steps.append(held)
                return
            if kind == held.kind:
                self.pending = None
                merged = Step(intent=step.intent, patients=step.patients or held.patients,
                              refs=step.refs or [r for r in held.patients + held.refs if r not in step.patients],
                              text=f"{held.text}, {step.text}")
                if held.refs and not step.refs and set(step.patients) == set(held.patients + held.refs):
                    merged.patients, merged.refs = list(held.patients), list(held.refs)  # "X sits lower than the
                    # middle of Y, line their centres up": X moves to Y
                if kind == "nudge" and not moved_by(step.intent) and held.refs and ONTO_LINE.search(step.text):
                    merged.intent = as_mend(held.intent)  # "X sits higher than Y, drop it onto the same line": level
                    merged.refs = list(held.refs)
                elif (out := back_out(held, step)) is not None:  # "… hangs down into the bar, pull it up": out of it
                    merged.intent, merged.refs = out, out_of(held, step)
                if kind == "center" and held.intent.params.get("compared") and not step.refs:
                    merged.intent.params["compared"] = True  # "… off-centre compared to the icons, centre it"
                if kind == "distribute":  # "more room above A than above B. make the two gaps match": those
                    merged.intent.params = {**held.intent.params, **{k: v for k, v in step.intent.params.items()
                                                                     if v is not None}}
                if kind == "separate":
                    merged.intent = Intent("separate", step.intent.patients, step.intent.refs,
                                           params={**held.intent.params, **step.intent.params, "mover": True,
                                                   "pending": False})
                if step.intent.state and kind == "place":
                    self.pending = merged  # "X reads after the name but it should come before it": still a problem
                    return
                self.steps.append(merged)
                return
            if step.intent.state and FAMILY.get(kind, kind) != FAMILY.get(held.kind, held.kind) and set(
                    step.patients) & set(held.patients):  # "the text is too big, it touches the outline": one problem
                return
            self.pending = None
            kind, mends = mend(held, step, kind)
            # (two problems of one kind about the same elements, "both lean right, neither is centred": one, the later)
            same_problem = mends and step.intent.state and set(step.patients) == set(held.patients) or (
                not step.intent.state and FAMILY.get(held.kind) in ("place", "space") and not held.refs and set(
                    step.patients) & set(held.patients))  # ("… crashes into the right column. scale it down 8%")
            if not (mends and not step.intent.state) and not same_problem:
                self.steps.append(held)  # else "the penguin is overpowering the text, make it 25 % smaller": one edit
        if kind == "confirm":
            if not self.steps and not self.context.last_ids:
                raise Ask("question", "what should I fix? Say what is wrong, e.g. 'the photo overlaps the text'")
            return
        if step.intent.state and any(not s.intent.state for s in self.steps):
            return  # "move the penguin left, it feels crammed against the title": the reason for the edit made
        if kind == "gap" and reason_after(step, self.steps):
            return  # "push the title up 2mm, it needs more air above the columns": why, after how much
        if step.intent.state:
            self.pending = step
            return
        if kind == "separate" and step.intent.params.get("pending") and not step.refs:
            step.intent.params["any"] = True
        self.steps.append(step)

    def finish(self) -> None:
        """Close the request: a problem still pending becomes a step; "keep X where it is" holds throughout."""
        if not self.steps and self.pending is None and self.unresolved is not None and self.unresolved.status == \
                "missing":
            raise self.unresolved  # "keep the QR code where it is" where there is none
        if self.pending is not None and self.pending.intent.params.get("compare"):
            # "the subtitle is bigger than the date" says what is wrong, not what it should become
            raise Ask("question", f"'{self.pending.text}': should they become the same size, or one of them "
                                   "bigger or smaller? Say e.g. 'make it as big as …' or 'make it 20 % smaller'")
        if self.pending is not None:
            self.pending.intent = as_mend(self.pending.intent)  # "X sits 5px higher than Y" alone: level them
            if self.pending.kind in CARRIES:
                self._carry(self.pending, shapes_only=True)  # "the credit box hangs off the slide": words and all
            self.steps.append(self.pending)
            self.pending = None
        self.steps = held_apart(self.steps, self.index)
        self.steps = sizes_said_once(self.steps, self.remarks)


def understand(text: str, layout: Layout, context: RequestContext | None = None,
               read: Callable[[list[str]], Mapping[str, str]] | None = None,
               see: Callable[[list[str]], Mapping[str, Look]] | None = None) -> Understanding:
    """What ``text`` asks of ``layout`` (see the module docstring).

    ``read``: ids → the words drawn in those pictures, asked only for pictures a word of the request may name (see
    :mod:`.pictures`); the words it finds name a picture as a text's own words name it. ``see``: ids → how those
    elements look (``assistant.render.looks``), asked only to tell pictures apart by colour or shape ("the purple
    cable", "the round photo", "the outline logo").
    """
    context = context or RequestContext()
    request = (text or "").strip()
    if not request:
        return Understanding("not_understood", request, message="the request is empty; say what to change, "
                                                                  "e.g. 'make the title bigger'")
    if len(request) > MAX_REQUEST:
        return Understanding("not_understood", request[:80], message=f"the request is {len(request)} characters "
                             f"long; ask for one or two changes at a time (at most {MAX_REQUEST} characters)")
    command = turn_command(request)
    if command is not None:
        return Understanding("command", request, command=command)
    if re.match(r"\s*(?:is|are|was|were|does|do|did|has|have|am)\b", request, re.I) and request.rstrip().endswith("?"):
        return Understanding("not_understood", request, message="that is a question about the design, not an edit; "
                             "say what to change, e.g. 'make the URL bigger'")  # "is the url spelt right?"
    page, request = page_said(request, layout)
    request = texts_quoted(request, layout)
    index = ElementIndex(layout, page, see=see)
    if read is not None and (ids := pictures_to_read(request, layout, index)) and (drawn := read(ids)):
        index = ElementIndex(layout, page, drawn, see=see)
    tokens = without_asides(tokenise(request, known_words(index)), lambda inner: names_one(inner, index),
                            lambda inner: names_single(inner, index))
    reader = _Reader(layout, index, context, request)
    try:
        parts = [part for clause in lists_joined(clauses(tokens), index) for part in split_and(clause, index)]
        for k, part in enumerate(parts):
            reader.ahead = parts[k + 1] if k + 1 < len(parts) and not reader.steps and k == 0 else []
            reader.read(part)
        reader.finish()
    except Ask as ask:
        return Understanding(ask.status, request, message=ask.message, candidates=ask.candidates,
                             model_may_try=False)
    if not reader.steps:
        english = looks_english(tokens) and not only_talk(request, reader.remarks)  # (a question: no guess)
        reader.all_ids += [i for i in reader.subject if i not in reader.all_ids]
        what = "; ".join(reader.remarks) or request
        return Understanding("not_understood", request, remarks=reader.remarks,
                             message=f"I did not understand {what!r}: say what to change and how, e.g. 'move the "
                                     f"logo to the top right' or 'make the title a bit bigger'",
                             model_may_try=english and bool(reader.all_ids), english=english,
                             targets=list(reader.all_ids))
    return Understanding("edit", request, steps=reader.steps, remarks=reader.remarks if reader.understood else [],
                         targets=reader.all_ids, choices=reader.choices)


__all__ = ["understand", "Understanding", "RequestContext", "MAX_REQUEST"]
