"""The scenario content of the documentation site, generated from the corpus.

The site follows the CommonMark spec's pattern: a worked example lives in the prose
of the clause it illustrates, and the same example is a test.  The rules text under
``site/rules/`` is written by hand; everything that comes from the scenarios is
generated here at build time, so the site can never show an example that the suite
does not run, or miss one that it does:

* under each rule clause (a heading carrying a ruling's slug as ``{#slug}``), the
  scenarios that cite the slug: at most one short one open, the others folded, each
  with the sentence it proves and a link to its page (rules first, tests under them);
* one page per scenario, named by its permanent id, with the hands (as dealt, for a
  start from a deck), every step and the file;
* an index of scenarios by area, with how many scenarios cite each clause;
* the printable rulebook: every rules page on one page, without examples or boxes.

This module only turns data into Markdown strings and never touches the file
system or mkdocs, so it is cheap to test and to reuse; ``site_hooks`` wires it
into ``mkdocs build``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import (
    NotationError,
    card_token,
    deal_packets,
    get_profile,
    parse_card,
)
from ..scenarios import (
    ORDERED,
    ActionStep,
    AuctionStart,
    CallStep,
    Checkpoint,
    DealResultStep,
    DealStep,
    DeckStart,
    DiscardStep,
    NominateStep,
    PlayStart,
    PlayStep,
    RecordedResult,
    SansKittyStep,
    Scenario,
    expected_rejection,
    spelled_deck,
)
from ..scenarios.coverage import default_profile_only, is_default_profile
from ..scenarios.disputes import Dispute
from ..scenarios.rulings import BY_SLUG, EXTRA_ANCHORS, RULINGS
from ..scenarios.vocabulary import Rendering, observation
from . import disputes as _disputes
from .card_markup import _escape, call_html, card_html, cards_html, hand_html, none_html, suit_html
from .disputes import DISPUTES_PAGE, disputes_by_clause, profile_target
from .labels import DEFAULT_LANGUAGE, label, reason
from .table_drawing import stepper_html
from .table_states import frames

RULES_DIR = "rules/"
"""Pages under this folder of the docs are the rules text; only they define clauses."""

SCENARIOS_DIR = "scenarios/"
"""Folder of the generated scenario pages (virtual: never written into the docs)."""

SCENARIOS_INDEX = SCENARIOS_DIR + "index.md"

EXAMPLES_MARKER = "<!-- examples -->"
"""Optional marker inside a clause: its examples go there instead of at its end."""

CLAUSE_INDEX_MARKER = "<!-- fivehundred:clause-index -->"
"""Replaced, on any page, by the table of every clause, its page and its scenario counts."""

SCENARIO_COUNT_MARKER = "<!-- fivehundred:scenario-count -->"
"""Replaced, on any page, by the number of scenarios, so no page states a stale count."""

RENDER_CACHE: dict[str, Any] = {}
"""Storage the site hooks keep across the rebuilds of one process (``mkdocs serve``):
mkdocs loads the hooks file afresh for every rebuild, while this package stays imported.
The hooks key each page's rendering by a hash of its final Markdown."""

CLAUSE_ANCHORS: tuple[str, ...] = (*(r.slug for r in RULINGS), *EXTRA_ANCHORS)
"""Every anchor a scenario may cite: the rulings' slugs and the extra anchors."""

AREA_TITLES: dict[str, str] = {
    "deck": "Deck and ranks",
    "deal": "The deal",
    "auction": "The auction",
    "kitty": "The kitty and the start of play",
    "play": "Following suit and winning tricks",
    "joker": "The joker without trumps",
    "misere": "Misère and open misère",
    "scoring": "Scoring",
    "game": "End of the game",
    "full-deals": "Whole deals",
}
"""Display names and order of the scenario areas (the folders under ``scenarios/``);
an area not listed comes after these, by name, so a new folder needs no code change."""

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*\{([^}]*)\}[ \t]*#*[ \t]*$")
_ANY_HEADING = re.compile(r"^(#{1,6})[ \t]")
_ID_IN_ATTRS = re.compile(r"(?:^|\s)#([A-Za-z0-9_-]+)")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_NUMBER = re.compile(r"^(\d+)\.\s")
_SEATS = ("N", "E", "S", "W")
_PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}


# ---- the rules text: where each clause is -----------------------------------------


@dataclass(frozen=True, slots=True)
class Heading:
    """A Markdown heading that carries an explicit ``{#anchor}``."""

    level: int
    title: str
    anchor: str
    line: int
    """Index of the heading's line in the page."""


def _fence_mask(lines: Sequence[str]) -> list[bool]:
    """For each line, whether it is inside (or delimits) a fenced code block.

    A ``# comment`` in a YAML or shell block is not a heading; scanning without
    this would invent clauses out of code.
    """
    inside: str | None = None
    mask: list[bool] = []
    for line in lines:
        match = _FENCE.match(line)
        if inside is None and match:
            inside = match.group(1)[0] * len(match.group(1))
            mask.append(True)
        elif inside is not None:
            mask.append(True)
            if line.strip().startswith(inside) and not line.strip().strip(inside[0]):
                inside = None
        else:
            mask.append(False)
    return mask


def anchored_headings(markdown: str) -> list[Heading]:
    """Headings written as ``## Title {#anchor}`` (attr_list syntax), in page order."""
    lines = markdown.splitlines()
    found: list[Heading] = []
    for index, (line, fenced) in enumerate(zip(lines, _fence_mask(lines), strict=True)):
        if fenced:
            continue
        match = _HEADING.match(line)
        if not match:
            continue
        anchor = _ID_IN_ATTRS.search(match.group(3))
        if anchor:
            found.append(Heading(len(match.group(1)), match.group(2), anchor.group(1), index))
    return found


@dataclass(frozen=True, slots=True)
class Citation:
    """A scenario citing a clause; ``primary`` when the clause comes first in its ``rules``."""

    scenario: Scenario
    primary: bool


@dataclass
class SiteModel:
    """Everything the generated pages need: the scenarios and where each clause lives."""

    scenarios: list[Scenario]
    clause_pages: dict[str, str] = field(default_factory=dict)
    """Clause anchor → ``src_uri`` of the rules page that defines it."""
    clause_titles: dict[str, str] = field(default_factory=dict)
    """Clause anchor → its heading text as written in the rules."""
    problems: list[str] = field(default_factory=list)
    """What is wrong with the rules text or the citations; the build reports each."""
    disputes: dict[str, list[Dispute]] = field(default_factory=dict)
    """Clause anchor → the dispute records whose ``rulings`` list it."""
    profile_pages: dict[str, str] = field(default_factory=dict)
    """Profile or toggle name → the docs page (``uri`` or ``uri#anchor``) describing it."""
    language: str = DEFAULT_LANGUAGE
    """The language the drawn tables of its pages are labelled in (the site hook sets it
    for each language it builds; :mod:`.labels`)."""
    _citations: dict[str, list[Citation]] | None = field(default=None, repr=False)

    @classmethod
    def build(
        cls,
        scenarios: Iterable[Scenario],
        rule_pages: Mapping[str, str],
        disputes: Iterable[Dispute] = (),
        profile_pages: Mapping[str, str] | None = None,
    ) -> SiteModel:
        """Scan the rules pages (``src_uri`` → Markdown) and check them against the corpus.

        Problems are collected, not raised, so that one build reports all of them:
        a ruling without a clause, an anchor defined twice, a heading number that
        disagrees with the ruling's, a scenario citing an anchor no page defines, a
        clause no scenario illustrates, a dispute record naming a ruling no page defines.
        ``disputes`` give the markers under the clauses (:func:`clause_flags`);
        ``profile_pages`` says where each profile and toggle is described.
        """
        model = cls(sorted(scenarios, key=_scenario_order))
        model.disputes = disputes_by_clause(disputes)
        model.profile_pages = dict(profile_pages or {})
        for uri in sorted(rule_pages):
            for heading in anchored_headings(rule_pages[uri]):
                if heading.anchor not in CLAUSE_ANCHORS:
                    continue
                if heading.anchor in model.clause_pages:
                    model.problems.append(
                        f"{uri}: clause anchor #{heading.anchor} is already defined in "
                        f"{model.clause_pages[heading.anchor]}"
                    )
                    continue
                model.clause_pages[heading.anchor] = uri
                model.clause_titles[heading.anchor] = heading.title
                ruling = BY_SLUG.get(heading.anchor)
                number = _NUMBER.match(heading.title)
                if ruling is not None and number and int(number.group(1)) != ruling.number:
                    model.problems.append(
                        f"{uri}: heading '{heading.title}' carries number {number.group(1)} "
                        f"but #{heading.anchor} is ruling {ruling.number}"
                    )
        for anchor in CLAUSE_ANCHORS:
            if anchor not in model.clause_pages:
                model.problems.append(f"no rules page has a clause heading {{#{anchor}}}")
        cited = model.citations()
        for scenario in model.scenarios:
            for anchor in scenario.rules:
                if anchor not in model.clause_pages:
                    model.problems.append(
                        f"scenario {scenario.id} cites #{anchor}, which no rules page defines"
                    )
        for anchor in CLAUSE_ANCHORS:
            if anchor in model.clause_pages and not cited.get(anchor):
                model.problems.append(f"clause #{anchor} has no scenario illustrating it")
        for anchor, touching in model.disputes.items():
            if anchor not in model.clause_pages:
                for dispute in touching:
                    model.problems.append(
                        f"{_record_name(dispute)}: dispute '{dispute.id}' lists ruling "
                        f"'{anchor}', which no rules page defines"
                    )
        return model

    def citations(self) -> dict[str, list[Citation]]:
        """Anchor → the scenarios citing it: primary citations first, then the rest,
        each group in area order."""
        if self._citations is not None:
            return self._citations
        out: dict[str, list[Citation]] = {}
        # The rules pages describe the default profile: other rule sets' scenarios are
        # never examples of its clauses (they are listed on their profile's page).
        default = default_profile_only(self.scenarios)
        for primary in (True, False):
            for scenario in default:
                for position, anchor in enumerate(scenario.rules):
                    if (position == 0) == primary:
                        out.setdefault(anchor, []).append(Citation(scenario, primary))
        self._citations = out
        return out

    def clause_link(self, anchor: str, from_uri: str) -> str:
        """A Markdown link to a clause, from the page ``from_uri``."""
        title = self.clause_titles.get(anchor, anchor)
        page = self.clause_pages.get(anchor)
        if page is None:
            return f"`{anchor}`"
        return f"[{_escape(title)}]({relative_link(from_uri, page)}#{anchor})"


def _area_rank(area: str) -> tuple[int, str]:
    order = list(AREA_TITLES)
    return (order.index(area), area) if area in order else (len(order), area)


def _scenario_order(scenario: Scenario) -> tuple[tuple[int, str], str]:
    path = str(scenario.path) if scenario.path is not None else scenario.title
    return (_area_rank(scenario.area), path)


def _record_name(dispute: Dispute) -> str:
    if dispute.path is None:
        return dispute.id
    return "scenarios/disputes/" + dispute.path.name


def area_title(area: str) -> str:
    return AREA_TITLES.get(area) or (area.replace("-", " ").capitalize() or "Other")


def scenario_uri(scenario_id: str) -> str:
    """The page of a scenario: its permanent id, so its URL never changes."""
    return f"{SCENARIOS_DIR}{scenario_id}.md"


def relative_link(from_uri: str, to_uri: str) -> str:
    """Path from one docs page to another, as mkdocs resolves Markdown links."""
    return posixpath.relpath(to_uri, posixpath.dirname(from_uri) or ".")


# ---- cards, calls and values as HTML ------------------------------------------------


def deck_html(tokens: Sequence[str], run: int = 5, *, language: str = DEFAULT_LANGUAGE) -> str:
    """A deck in its given order, in runs numbered by position (``1–5``, ``6–10``, …).

    Order is the whole point of a stacked deck, and the deal clause names cards by
    position, so positions are shown; gaps between suits would suggest packets
    that are not there.
    """
    runs = []
    for start in range(0, len(tokens), run):
        chunk = tokens[start : start + run]
        label = f"{start + 1}–{start + len(chunk)}" if len(chunk) > 1 else f"{start + 1}"
        cards = cards_html(chunk, group=False, in_order=True, language=language)
        runs.append(f'<span class="fh-run"><small>{label}</small> {cards}</span>')
    return " ".join(runs)


def action_html(token: str, language: str = DEFAULT_LANGUAGE) -> str:
    """A legal-action string of the scenario format, spelled for a reader."""
    if token.startswith("DISCARD "):
        cards = cards_html(token.split()[1:], group=False, language=language)
        return label("action.discard", language, cards=cards)
    if token.startswith("NOMINATE "):
        return label("action.nominate", language, suit=suit_html(token.split()[1]))
    if token.startswith("JK:"):
        joker = card_html("JK", language)
        return label("action.joker-naming", language, card=joker, suit=suit_html(token[3:]))
    try:
        parse_card(token)
    except NotationError:
        return call_html(token, language)
    return card_html(token, language)


def _sides(value: Mapping[str, Any]) -> str:
    return ", ".join(f"{_escape(str(k))} {_escape(str(v))}" for k, v in value.items())


def trick_html(trick: Mapping[str, Any], language: str = DEFAULT_LANGUAGE) -> str:
    """A trick checkpoint: who led, the suit led, the cards in order, the winner."""
    parts: list[str] = []
    if "leader" in trick:
        parts.append(label("trick.led-by", language, seat=_escape(str(trick["leader"]))))
    if "led" in trick:
        led = trick["led"]
        suit = suit_html(led) if isinstance(led, str) else none_html(language)
        parts.append(label("trick.suit-led", language, suit=suit))
    cards = trick.get("cards")
    if isinstance(cards, Mapping):
        parts.append(
            " · ".join(f"{_escape(str(s))} {card_html(str(c), language)}" for s, c in cards.items())
        )
    if "winner" in trick:
        parts.append(label("trick.won-by", language, seat=_escape(str(trick["winner"]))))
    return "; ".join(parts)


def _actions_value(value: Any, language: str) -> str | None:
    if not isinstance(value, list):
        return None
    shown = ", ".join(action_html(str(v), language) for v in value)
    return shown or f"<em>{label('value.nothing', language)}</em>"


def _cards_value(value: Any, language: str) -> str | None:
    if not isinstance(value, list):
        return None
    return cards_html([str(v) for v in value], language=language)


def _hands_value(value: Any, language: str) -> str | None:
    if not isinstance(value, Mapping):
        return None
    return "<br>".join(
        f"{_escape(str(seat))}: {cards_html([str(c) for c in cards], language=language)}"
        for seat, cards in value.items()
    )


def _trick_value(value: Any, language: str) -> str | None:
    return trick_html(value, language) if isinstance(value, Mapping) else None


def _suits_value(value: Any, language: str) -> str | None:
    if not isinstance(value, list):
        return None
    return " ".join(suit_html(str(v)) for v in value) or none_html(language)


def _plain_value(value: Any, language: str) -> str:
    if isinstance(value, Mapping):
        return _sides(value)
    if isinstance(value, list):
        return " ".join(_escape(str(v)) for v in value) or none_html(language)
    return _escape(str(value))


_VALUE_RENDERERS: dict[Rendering, Callable[[Any, str], str | None]] = {
    Rendering.ACTIONS: _actions_value,
    Rendering.CALL: lambda value, language: call_html(str(value), language),
    Rendering.CARDS: _cards_value,
    Rendering.HANDS: _hands_value,
    Rendering.TRICK: _trick_value,
    Rendering.SUITS: _suits_value,
    Rendering.SUIT: lambda value, language: suit_html(str(value)),
}
"""How each kind of observation value is drawn; ``None`` back when the value does not
have the shape its rendering expects (it is then shown plainly)."""

_PHASES = frozenset({"auction", "kitty", "play", "over", "none"})


def value_html(key: str, value: Any, language: str = DEFAULT_LANGUAGE) -> str:
    """An observation's expected value, as it reads in a table cell (no ``|``, no newline)."""
    if value is None:
        return none_html(language)
    if isinstance(value, bool):
        return label("value.yes" if value else "value.no", language)
    if key == "phase" and value in _PHASES:
        return label(f"phase.{value}", language)
    registered = observation(key)
    renderer = None if registered is None else _VALUE_RENDERERS.get(registered.rendering)
    shown = None if renderer is None else renderer(value, language)
    return _plain_value(value, language) if shown is None else shown


def step_html(
    step: ActionStep | DealStep | DealResultStep, language: str = DEFAULT_LANGUAGE
) -> str:
    """An action step as a sentence, with the same words as ``fivehundred show`` (the
    sentences of ``scenarios.narration``, in the page's language: ``say.*`` labels)."""
    if isinstance(step, DealStep):
        return label("say.deal-ordered" if step.deck == ORDERED else "say.deal-given", language)
    if isinstance(step, DealResultStep):
        return _result_html(step, language)
    seat = _escape(step.seat)
    if isinstance(step, CallStep):
        if step.call == "PASS":
            return label("say.pass", language, seat=seat)
        return label("say.bid", language, seat=seat, call=call_html(step.call, language))
    if isinstance(step, DiscardStep):
        cards = cards_html(step.cards, group=False, language=language)
        return label("say.discard", language, seat=seat, cards=cards)
    if isinstance(step, NominateStep):
        return label("say.nominate", language, seat=seat, suit=suit_html(step.suit))
    if isinstance(step, SansKittyStep):
        return label("say.sans-kitty", language, seat=seat)
    assert isinstance(step, PlayStep)
    card = card_html(step.card, language)
    if step.names is None:
        return label("say.play", language, seat=seat, card=card)
    suit = suit_html(step.names)
    return label("say.lead-naming", language, seat=seat, card=card, suit=suit)


def _result_html(step: DealResultStep, language: str) -> str:
    result = step.result
    if not isinstance(result, RecordedResult):
        return label("say.thrown-in", language)
    seat, call = _escape(result.declarer), call_html(result.contract, language)
    if isinstance(result.tricks, int):
        tricks = str(result.tricks)
        return label("say.result-tricks", language, seat=seat, call=call, tricks=tricks)
    split = _escape(result.tricks_text)
    return label("say.result-split", language, seat=seat, call=call, split=split)


# ---- one scenario -------------------------------------------------------------------


_STARTS = {
    "deck": "before the deal",
    "auction": "the auction, at the first call",
    "play": "in play, after the discard",
    "game": "between deals",
}


def setup_markdown(
    scenario: Scenario,
    *,
    raw_html: bool = False,
    drawn: bool = False,
    stepped: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> list[str]:
    """The starting position: a one-line summary and the hands, one line per seat.

    ``raw_html`` writes the hands as an HTML block, which Markdown passes through
    untouched (much faster to build); only at the top level of a page, never inside
    an indented box.  Hands read like a hand record (by suit, high card first),
    because that is how players read a deal at a glance.  ``drawn`` shows them as a
    card table instead, with the stepper through the scenario (:func:`drawn_steps`),
    when the reference can run the scenario.
    """
    setup = scenario.setup
    lines = [" · ".join(_setup_facts(scenario, language)), ""]
    if isinstance(setup, DeckStart):
        lines += [*_deck_lines(scenario, setup, raw_html=raw_html, language=language), ""]
    rows = "table.fh-steps" if raw_html else None  # a scenario page's steps table
    drawing = drawn_steps(scenario, language, rows=rows, stepped=stepped) if drawn else ""
    if drawing:
        return [*lines, drawing, ""]
    return lines + _hands_block(scenario, raw_html=raw_html, language=language)


def _setup_facts(scenario: Scenario, language: str) -> list[str]:
    """The one-line summary of the start: where it starts, the dealer, and for a start in
    play the contract, the leader, the tricks and suits so far and a nominated suit."""
    setup = scenario.setup
    facts = [f"**Starts** {_STARTS.get(setup.kind, setup.kind)}", f"dealer **{setup.dealer}**"]
    if isinstance(setup, PlayStart):
        facts.append(f"contract {call_html(setup.contract, language)} by **{setup.declarer}**")
        if setup.leader is not None:
            facts.append(f"**{setup.leader}** to lead")
        if setup.tricks:
            facts.append("tricks so far " + _sides(setup.tricks))
        if setup.suits_led is not None:
            led = " ".join(suit_html(s) for s in setup.suits_led) or none_html(language)
            facts.append("suits already led " + led)
        if setup.nominated:
            facts.append("joker nominated as " + suit_html(setup.nominated))
    if setup.scores is not None:
        facts.append("scores " + _sides(setup.scores))
    return facts


def _deck_lines(
    scenario: Scenario, setup: DeckStart, *, raw_html: bool, language: str
) -> list[str]:
    """What a start from a deck deals: the ordered deck in words, or the given deck."""
    if setup.deck == ORDERED and not is_default_profile(scenario):
        return [
            f"**{setup.dealer}** deals the ordered deck of `{scenario.profile_label}`: "
            "each suit from the ace down in the order spades, clubs, diamonds, hearts, "
            "then the joker if the deck has one, top card first."
        ]
    if setup.deck == ORDERED:
        return [
            f"**{setup.dealer}** deals the ordered deck: spades A to 5, clubs A to 5, "
            "diamonds A to 4, hearts A to 4, then the joker, top card first."
        ]
    deck = deck_html(list(setup.deck), language=language)
    return [
        f"**{setup.dealer}** deals this deck, top card first:",
        "",
        f'<p class="fh-deck">{deck}</p>' if raw_html else deck,
    ]


def _hands_block(scenario: Scenario, *, raw_html: bool, language: str) -> list[str]:
    """The hands as a hand record (when the start is not drawn): as given, or as a deck
    start deals them, with the kitty."""
    setup = scenario.setup
    lines: list[str] = []
    hands: dict[str, list[str]] = {}
    if isinstance(setup, AuctionStart | PlayStart):
        order = _seat_names(scenario)
        hands = {seat: list(setup.hands[seat]) for seat in order if seat in setup.hands}
    if isinstance(setup, AuctionStart):
        hands["kitty"] = list(setup.kitty)
    if isinstance(setup, DeckStart):
        dealt = dealt_hands(scenario)
        if dealt:
            lines += ["The hands and the kitty as dealt:", ""]
            hands = dealt
    if not hands:
        return lines
    hand = hands_lines(hands, _roles(scenario, language), language)
    if raw_html:
        hand = ['<p class="fh-hands">', *hand[:-1], "</p>"]
    return [*lines, *hand, ""]


def dealt_hands(scenario: Scenario) -> dict[str, list[str]]:
    """The four hands and the kitty that a ``deck`` start deals, computed with the
    engine's own dealing (packets from the seat left of the dealer), or nothing when
    the deck cannot be dealt (the linter reports that)."""
    setup = scenario.setup
    if not isinstance(setup, DeckStart):
        return {}
    try:
        profile = get_profile(scenario.profile_name, scenario.variants)
        deck = [parse_card(t) for t in spelled_deck(setup.deck, profile)]
        seats, kitty = deal_packets(profile, profile.parse_seat(setup.dealer), deck)
    except (NotationError, ValueError, KeyError, TypeError):
        return {}
    names = profile.seat_names
    out = {names[seat]: [card_token(c) for c in seats[seat]] for seat in profile.seat_list}
    out["kitty"] = [card_token(c) for c in kitty]
    return out


def _seat_names(scenario: Scenario) -> tuple[str, ...]:
    """The seats of the scenario's profile (``N E S W`` when it cannot be built)."""
    try:
        return get_profile(scenario.profile_name, scenario.variants).seat_names
    except (KeyError, ValueError):
        return _SEATS


def _roles(scenario: Scenario, language: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    setup = scenario.setup
    names = _seat_names(scenario)
    roles: dict[str, list[str]] = {seat: [] for seat in names}
    four = names == _SEATS
    if isinstance(setup, PlayStart) and setup.declarer in roles:
        roles[setup.declarer].append(label("role.declarer", language))
        if setup.contract in ("MIS", "OMIS") and four:
            roles[_PARTNER[setup.declarer]].append(label("role.sits-out", language))
    dealer = setup.dealer
    if dealer in roles:
        roles[dealer].append(label("role.dealer", language))
        if isinstance(setup, AuctionStart | DeckStart):
            left = names[(names.index(dealer) + 1) % len(names)]
            roles[left].append(label("role.calls-first", language))
    return {seat: ", ".join(r) for seat, r in roles.items() if r}


def hands_lines(
    hands: Mapping[str, list[str]],
    roles: Mapping[str, str],
    language: str = DEFAULT_LANGUAGE,
) -> list[str]:
    """The hands, one line per seat (``W: 5♦ 4♦ Joker``), each suit a run that never
    breaks, so a hand wraps between suits on a narrow screen and no card is hidden.

    A paragraph of inline HTML, so that it also works inside an indented example box.
    """
    lines: list[str] = []
    kitty = f"<em>{label('table.kitty', language)}</em>"
    for owner, cards in hands.items():
        who = f"<strong>{owner}</strong>" if owner != "kitty" else kitty
        if owner in roles:
            who += f" <small>{roles[owner]}</small>"
        hand = hand_html(cards, language)
        lines.append(f'<span class="fh-hand"><span class="fh-seat">{who}:</span> {hand}</span>')
    return [*lines, "{: .fh-hands }"]


def step_rows(scenario: Scenario, language: str = DEFAULT_LANGUAGE) -> list[tuple[int, str, str]]:
    """Each step as (number from 1, what happens, what is expected), cells as inline HTML
    in ``language`` (the scenario's own notes stay as written)."""
    rows: list[tuple[int, str, str]] = []
    refused = f'<span class="fh-refused">{label("step.refused", language)}</span>'
    accepted = f'<span class="fh-accepted">{label("step.accepted", language)}</span>'
    for index, step in enumerate(scenario.steps):
        if isinstance(step, Checkpoint):
            expected = "<br>".join(
                f"<code>{_escape(key)}</code> {value_html(key, value, language)}"
                for key, value in step.expect.items()
            )
            rows.append((index + 1, f"<em>{label('step.check', language)}</em>", expected))
            continue
        if not isinstance(step, ActionStep | DealStep | DealResultStep):
            continue
        code = expected_rejection(step)
        outcome = accepted if code is None else f"{refused} <code>{code}</code>"
        note = f"<br><small>{_escape(step.note)}</small>" if step.note else ""
        rows.append((index + 1, f"{step_html(step, language)}{note}", outcome))
    return rows


def drawn_steps(
    scenario: Scenario,
    language: str = DEFAULT_LANGUAGE,
    rows: str | None = None,
    *,
    stepped: bool = True,
) -> str:
    """The stepper of a scenario (:func:`.table_drawing.stepper_html`): the start drawn as
    a card table and the position after every step, as the reference plays them, each
    with a caption saying what the step did; empty when the reference cannot run it.
    Not ``stepped``: the start alone, without controls."""
    found = frames(scenario)
    if not stepped:
        found = found[:1]
    if not found:
        return ""
    cells = {n: (what, expected) for n, what, expected in step_rows(scenario, language)}
    captions = []
    for frame in found:
        if frame.index is None:
            captions.append(f"<strong>{label('step.start', language)}</strong>")
            continue
        what, expected = (
            _BOLD.sub(r"<strong>\1</strong>", c) for c in cells.get(frame.index + 1, ("", ""))
        )
        head = f'<strong class="fh-number">{frame.index + 1}</strong> '
        if frame.outcome == "check":
            checks = label("step.checks", language)
            captions.append(
                f"{head}<em>{label('step.check', language)}</em>: {checks}"
                f'<span class="fh-checks">{expected}</span>'
            )
        elif frame.outcome == "rejected" and frame.code is not None:
            why = label("step.reason", language, reason=_escape(reason(frame.code, language)))
            captions.append(
                f'{head}{what} · <span class="fh-refused">{label("step.refused", language)}</span>'
                f" <code>{_escape(frame.code)}</code><br><small>{why}</small>"
            )
        else:
            accepted = label("step.accepted", language)
            captions.append(f'{head}{what} · <span class="fh-accepted">{accepted}</span>')
    return stepper_html(found, captions, scenario.profile_name, language, rows)


def _steps_headers(language: str) -> tuple[str, str, str]:
    return (
        label("steps.step", language),
        label("steps.what", language),
        label("steps.expected", language),
    )


def steps_table(scenario: Scenario, language: str = DEFAULT_LANGUAGE) -> list[str]:
    """The steps as sentences beside what must be observed, numbered as reports number them.

    Step numbers start at 1, like ``fivehundred verify`` failure reports and
    ``fivehundred show``, so a reader can go from a failure straight to the step.
    """
    step, what_happens, expected_head = _steps_headers(language)
    lines = [f"| {step} | {what_happens} | {expected_head} |", "|--:|---|---|"]
    rows = step_rows(scenario, language)
    lines += [f"| {n} | {what} | {expected} |" for n, what, expected in rows]
    return lines


_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def steps_table_html(scenario: Scenario, language: str = DEFAULT_LANGUAGE) -> str:
    """The steps table of ``steps_table`` as one HTML block, for the top level of a page:
    Markdown passes it through as it is instead of parsing hundreds of inline tags."""
    heads = "".join(f"<th>{h}</th>" for h in _steps_headers(language))
    rows = ['<table class="fh-steps">', f"<thead><tr>{heads}</tr></thead>", "<tbody>"]
    for number, what, expected in step_rows(scenario, language):
        cells = (_BOLD.sub(r"<strong>\1</strong>", c) for c in (what, expected))
        rows.append(f"<tr><td>{number}</td><td>{next(cells)}</td><td>{next(cells)}</td></tr>")
    rows.append("</tbody></table>")
    return "\n".join(rows)


def _indent(lines: Iterable[str], by: str = "    ") -> list[str]:
    return [by + line if line else "" for line in lines]


def _quoted_title(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


INLINE_EXAMPLE_MAX_STEPS = 8
"""A clause shows one worked example open under its text only when a scenario written
for it is this short; every other example is folded."""


def example_block(
    scenario: Scenario,
    anchor: str,
    primary: bool,
    page_uri: str,
    model: SiteModel,
    *,
    open_: bool | None = None,
    stepped: bool = True,
) -> list[str]:
    """One scenario as a worked example under a clause: a collapsible box, open when it is
    the clause's inline example (``open_``; by default a primary citation) and folded
    otherwise.  Its start is drawn, with the stepper unless ``stepped`` is false (the
    scenario's page has it)."""
    is_open = primary if open_ is None else open_
    marker = "???+" if is_open else "???"
    title = _quoted_title(f"Example {scenario.id} · {scenario.title}")
    others = [model.clause_link(a, page_uri) for a in scenario.rules if a != anchor]
    body = [f"**Asserts:** {scenario.assertion.strip()}", ""]
    body += setup_markdown(scenario, drawn=True, stepped=stepped, language=model.language)
    body += steps_table(scenario, model.language)
    body.append("")
    footer = f"[Scenario page]({relative_link(page_uri, scenario_uri(scenario.id))})"
    footer += f" · `fivehundred verify --id {scenario.id}`"
    if others:
        footer += " · also illustrates " + ", ".join(others)
    body.append(footer)
    return [f"{marker} example fh-example {title}", "", *_indent(body), ""]


def inline_example(cited: Sequence[Citation]) -> Citation | None:
    """The one example a clause shows open under its text: the shortest scenario written
    for the clause (fewest steps, then fewest cards on the table), if it is short enough."""
    candidates = [c for c in cited if c.primary]
    if not candidates:
        return None
    best = min(candidates, key=lambda c: (len(c.scenario.steps), _setup_size(c.scenario)))
    return best if len(best.scenario.steps) <= INLINE_EXAMPLE_MAX_STEPS else None


def _setup_size(scenario: Scenario) -> int:
    setup = scenario.setup
    if isinstance(setup, AuctionStart | PlayStart):
        return sum(len(h) for h in setup.hands.values())
    return 0


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def example_line(scenario: Scenario, anchor: str, page_uri: str, model: SiteModel) -> str:
    """One worked example in a clause's folded list: its id and title linking to its
    page (the setup, the steps and the file), and the one sentence it proves."""
    link = relative_link(page_uri, scenario_uri(scenario.id))
    others = [model.clause_link(a, page_uri) for a in scenario.rules if a != anchor]
    also = f" <small>Also illustrates {', '.join(others)}.</small>" if others else ""
    assertion = " ".join(scenario.assertion.split())
    return f"- **Example [{scenario.id}]({link}) · {_escape(scenario.title)}.** {assertion}{also}"


def examples_for(anchor: str, page_uri: str, model: SiteModel) -> list[str]:
    """The worked examples of one clause, rules first: at most one short example open
    under the clause, then one folded box that says how many others there are and
    lists each with what it proves, linking to its page.

    The full examples live on the scenario pages; repeating every one of them under
    each clause it cites made the rules pages long to read, to print and to build."""
    cited = model.citations().get(anchor, [])
    if not cited:
        return ["*No scenario illustrates this clause yet.*", ""]
    shown = inline_example(cited)
    rest = [c for c in cited if c is not shown]
    lines: list[str] = []
    if shown is not None:
        lines += example_block(shown.scenario, anchor, True, page_uri, model, open_=True)
    if rest:
        more = "more worked example" if shown is not None else "worked example"
        first = sum(1 for c in rest if c.primary)
        detail = f"{first} written for this clause, {len(rest) - first} touching it"
        title = _quoted_title(f"{_plural(len(rest), more)} ({detail})")
        body = [example_line(c.scenario, anchor, page_uri, model) for c in rest]
        lines += [f"??? fh-more {title}", "", *_indent(body), ""]
    return lines


FLAGS_CLASS = "fh-flags"
"""CSS class of the block of markers under a clause heading (disputed, differs)."""


def _link_title(text: str) -> str:
    return text.replace('"', "'").replace("\n", " ")


def clause_flags(anchor: str, page_uri: str, model: SiteModel) -> list[str]:
    """The markers under a clause heading, from the dispute records alone.

    **disputed**, with one link per dispute touching the clause, to its entry on the
    disputes page; **differs per profile**, naming every profile or toggle that takes
    another answer than the default profile in one of those disputes, each linked to
    the page or section that describes it (or to the dispute when none does), its
    hover title naming the disputes.  Nothing for a clause no record touches."""
    touching = model.disputes.get(anchor, [])
    if not touching:
        return []
    page = relative_link(page_uri, DISPUTES_PAGE)
    links = [f"[{_escape(d.title)}]({page}#{d.id})" for d in touching]
    count = "a dispute" if len(touching) == 1 else f"{len(touching)} disputes"
    differing: dict[str, list[Dispute]] = {}
    for dispute in touching:
        for profile in _disputes.differing(dispute):
            differing.setdefault(profile, []).append(dispute)
    # One line folded (the markers, a summary), so the clause's first sentence comes right
    # under its heading on a phone; the links unfold.  Left out of the search index, so a
    # clause's search preview starts with the rule, not with its markers.
    summary = f'<span class="fh-flag fh-disputed" title="{count} about this clause">disputed</span>'
    if differing:
        summary += ' <span class="fh-flag fh-differs">differs per profile</span>'
    lines = [
        f'<details class="{FLAGS_CLASS}" data-search-exclude markdown>',
        f"<summary>{summary} <small>{count}</small></summary>",
        "",
        "**Disputed:** " + " · ".join(links),
    ]
    if differing:
        names = []
        for profile, disputes in differing.items():
            target = profile_target(profile, model.profile_pages)
            if target is None:
                href = f"{page}#{disputes[0].id}"
            else:
                path, hash_, fragment = target.partition("#")
                href = relative_link(page_uri, path) + hash_ + fragment
            why = _link_title("another answer in: " + "; ".join(d.title for d in disputes))
            names.append(f'[`{profile}`]({href} "{why}")')
        lines += ["", "**Differs in:** " + ", ".join(names)]
    return [*lines, "", "</details>", ""]


def inject_examples(markdown: str, page_uri: str, model: SiteModel) -> str:
    """The rules page with each clause followed by its worked examples.

    A clause runs from its heading to the next heading of the same or a higher
    level; its examples go at its end, or at an ``<!-- examples -->`` marker
    inside it, so the prose can keep a closing note after them.
    """
    lines = markdown.splitlines()
    fenced = _fence_mask(lines)
    headings = [
        h for h in anchored_headings(markdown) if model.clause_pages.get(h.anchor) == page_uri
    ]
    insert_at: dict[int, str] = {}
    flags_after: dict[int, list[str]] = {}
    for heading in headings:
        flags = clause_flags(heading.anchor, page_uri, model)
        if flags:
            flags_after[heading.line] = ["", *flags]
        end = len(lines)
        for index in range(heading.line + 1, len(lines)):
            match = _ANY_HEADING.match(lines[index])
            if match and not fenced[index] and len(match.group(1)) <= heading.level:
                end = index
                break
        target = end
        for index in range(heading.line + 1, end):
            if lines[index].strip() == EXAMPLES_MARKER:
                target = index
                break
        insert_at[target] = heading.anchor
    contents: dict[int, list[str]] = {}
    if len(headings) > 1:
        title = next(
            (i for i, line in enumerate(lines) if line.startswith("# ") and not fenced[i]), None
        )
        at = headings[0].line if title is None else title + 1
        contents[at] = ["", *clause_contents(headings)]
    out: list[str] = []
    for index in range(len(lines) + 1):
        out += contents.get(index, [])
        if index in insert_at:
            out += ["", *examples_for(insert_at[index], page_uri, model)]
        if index < len(lines) and lines[index].strip() != EXAMPLES_MARKER:
            out.append(lines[index])
        out += flags_after.get(index, [])
    return "\n".join(out) + "\n"


CONTENTS_CLASS = "fh-clauses"


def clause_contents(headings: Sequence[Heading]) -> list[str]:
    """The page's clauses as a list of links, put before the first of them: on a phone the
    table of contents is two taps away in the menu, so this makes every clause one tap from
    the top of its page (the stylesheet hides it where the contents are beside the page,
    and in print).  Out of the search index: it repeats the headings."""
    links = "".join(
        f'<li><a href="#{h.anchor}">{_escape(_MD_MARKS.sub("", h.title))}</a></li>'
        for h in headings
    )
    return [f'<nav class="{CONTENTS_CLASS}" data-search-exclude><ul>{links}</ul></nav>', ""]


_MD_MARKS = re.compile(r"[*_`]")

_INLINE_LINK = re.compile(r"(\[(?:[^\[\]]|\[[^\[\]]*\])*\])\(([^()\s]+)\)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def rewrite_repository_links(
    markdown: str,
    page_uri: str,
    docs_dir: str,
    published: Mapping[str, str],
    repo_url: str | None = None,
) -> str:
    """Make links from a page into the rest of the repository work on the site.

    Pages under ``site/`` are also read on the forge, where a link such as
    ``../schema/run.schema.json`` is right; mkdocs cannot resolve it, because it
    leaves the docs folder.  Such a link is pointed at the copy the site publishes
    (``published`` maps repository paths to docs URIs), else at the repository
    on ``repo_url`` when one is configured, else reduced to its text, so the page
    never carries a dead link.  ``docs_dir`` is the docs folder's path in the
    repository (``site``).
    """
    lines = markdown.splitlines(keepends=True)
    fenced = _fence_mask([line.rstrip("\n") for line in lines])

    def replace(match: re.Match[str]) -> str:
        text, target = match.group(1), match.group(2)
        if _SCHEME.match(target) or target.startswith(("#", "/")):
            return match.group(0)
        path, _, fragment = target.partition("#")
        inside = posixpath.normpath(posixpath.join(posixpath.dirname(page_uri), path))
        if not inside.startswith("../") and inside != "..":
            return match.group(0)
        repo_path = posixpath.normpath(posixpath.join(docs_dir, posixpath.dirname(page_uri), path))
        anchor = f"#{fragment}" if fragment else ""
        if repo_path in published:
            return f"{text}({relative_link(page_uri, published[repo_path])}{anchor})"
        if repo_url:
            kind = "tree" if path.endswith("/") else "blob"
            return f"{text}({repo_url.rstrip('/')}/{kind}/HEAD/{repo_path}{anchor})"
        return text[1:-1]

    return "".join(
        line if fenced[index] else _INLINE_LINK.sub(replace, line)
        for index, line in enumerate(lines)
    )


def fill_markers(markdown: str, page_uri: str, model: SiteModel) -> str:
    """Replace the generated-content markers a hand-written page may contain."""
    if CLAUSE_INDEX_MARKER in markdown:
        table = "\n".join(clause_index(page_uri, model))
        markdown = markdown.replace(CLAUSE_INDEX_MARKER, table)
    return markdown.replace(SCENARIO_COUNT_MARKER, str(len(model.scenarios)))


def scenario_page(scenario: Scenario, model: SiteModel, source: str | None = None) -> str:
    """The full page of one scenario: what it asserts and why, the clauses it
    illustrates (linking back into the rules), the setup, the steps with what must
    be observed, the commands that run it, and the file itself."""
    uri = scenario_uri(scenario.id)
    index = relative_link(uri, SCENARIOS_INDEX)
    # Searches land on the rules: a scenario page repeats the words of the clauses it
    # tests, and hundreds of them made the index slow to build and to download.  Ids and
    # titles stay searchable on the scenarios index, what each proves on the rules pages.
    lines = ["---", "search:", "  exclude: true", "---", ""]
    lines += [f"# {scenario.id} · {_escape(scenario.title)}", ""]
    lines += [
        '!!! abstract "Asserts"',
        "",
        *_indent([scenario.assertion.strip()]),
        "",
    ]
    meta = [f"**Area** [{area_title(scenario.area)}]({index}#{_area_anchor(scenario.area)})"]
    meta.append(f"**Profile** `{scenario.profile_name}`")
    if scenario.tags:
        meta.append("**Tags** " + " ".join(f"`{t}`" for t in scenario.tags))
    lines += [" · ".join(meta), "", "## Rules it illustrates", ""]
    for position, anchor in enumerate(scenario.rules):
        role = " (primary)" if position == 0 else ""
        lines.append(f"- {model.clause_link(anchor, uri)}{role}")
    lines.append("")
    if scenario.explanation.strip():
        lines += ["## Why", "", scenario.explanation.strip(), ""]
    drawn = setup_markdown(scenario, raw_html=True, drawn=True, language=model.language)
    lines += ["## Setup", "", *drawn]
    lines += ["## Steps and expected results", "", steps_table_html(scenario, model.language), ""]
    lines += [
        "Each action is accepted unless it says *refused*, with the rejection code an",
        "implementation must give; a *check* compares only the observations listed.",
        "",
        "## Run it",
        "",
        '<pre class="fh-commands"><code>'
        + _escape(
            f"fivehundred verify --id {scenario.id}   # against the reference\n"
            f"fivehundred show {scenario.id}          # read it at the terminal\n"
            f"fivehundred verify --id {scenario.id} --impl 'YOUR ADAPTER'"
        )
        + "</code></pre>",
        "",
    ]
    if source is not None:
        # An HTML block, not a fenced block: Markdown passes it through untouched, where
        # highlighting every file cost more build time than all the rest of the page.
        where = _escape(_repo_path(scenario))
        text = _escape(source.rstrip("\n"))
        lines += [
            f'<details class="note fh-source"><summary>The scenario file: {where}</summary>'
            f'<pre><code class="language-yaml">{text}</code></pre></details>',
            "",
        ]
    return "\n".join(lines)


def _repo_path(scenario: Scenario) -> str:
    if scenario.path is None:
        return f"{scenario.id}.yaml"
    parts = scenario.path.parts
    if "scenarios" in parts:
        start = len(parts) - 1 - parts[::-1].index("scenarios")
        return "/".join(parts[start:])
    return scenario.path.name


def _area_anchor(area: str) -> str:
    return "area-" + (area or "other")


def clause_index(page_uri: str, model: SiteModel) -> list[str]:
    """Every clause with its page and how many scenarios cite it (first / in all)."""
    cited = model.citations()
    lines = [
        "| # | clause | scenarios citing it first | in all |",
        "|--:|---|--:|--:|",
    ]
    for anchor in CLAUSE_ANCHORS:
        ruling = BY_SLUG.get(anchor)
        number = str(ruling.number) if ruling else ""
        citations = cited.get(anchor, [])
        first = sum(1 for c in citations if c.primary)
        link = model.clause_link(anchor, page_uri)
        lines.append(
            f"| {number} | {link} <small>`{anchor}`</small> | {first} | {len(citations)} |"
        )
    return lines


def scenarios_index(model: SiteModel) -> str:
    """The scenarios page: every scenario by area, and the per-clause counts."""
    areas: dict[str, list[Scenario]] = {}
    for scenario in model.scenarios:
        areas.setdefault(scenario.area, []).append(scenario)
    lines = [
        "# Scenarios",
        "",
        f"The suite has **{len(model.scenarios)} scenarios** in {len(areas)} areas. Each is a",
        "small, exact ruling that runs as a test: a starting position, a few actions, and what",
        "must be observed. Every scenario also appears as a worked example under each rule",
        "clause it cites, and has its own page under a permanent id.",
        "The format is described in [The scenario format](../scenario-format.md).",
        "",
        "```console",
        "fivehundred verify                # every scenario against the reference",
        "fivehundred verify --rule misere-needs-seven",
        "fivehundred verify --area joker",
        "```",
        "",
    ]
    for area, scenarios in areas.items():
        lines += [f"## {area_title(area)} {{#{_area_anchor(area)}}}", ""]
        lines += [f"{len(scenarios)} scenarios in `scenarios/{area}/`.", ""]
        lines += ["| id | title | rules it illustrates |", "|---|---|---|"]
        for scenario in scenarios:
            link = f"[{scenario.id}]({relative_link(SCENARIOS_INDEX, scenario_uri(scenario.id))})"
            rules = ", ".join(_short_clause_link(a, model, SCENARIOS_INDEX) for a in scenario.rules)
            lines.append(f"| {link} | {_escape(scenario.title)} | {rules} |")
        lines.append("")
    lines += ["## Scenarios per rule clause {#per-clause}", ""]
    lines += clause_index(SCENARIOS_INDEX, model)
    lines.append("")
    return "\n".join(lines)


def _short_clause_link(anchor: str, model: SiteModel, from_uri: str) -> str:
    page = model.clause_pages.get(anchor)
    if page is None:
        return f"`{anchor}`"
    return f"[`{anchor}`]({relative_link(from_uri, page)}#{anchor})"


# ---- the printable rulebook -----------------------------------------------------------


RULEBOOK = "rulebook.md"
"""The generated page with every clause of the rules on one page and no examples."""

RULEBOOK_SKIP = "<!-- rulebook:skip -->"
RULEBOOK_END_SKIP = "<!-- rulebook:end-skip -->"
"""Markers a rules page may put around text that belongs on the site only (how to read
the examples, the clause index): the rulebook leaves out what lies between them."""

_FOLDED = re.compile(r"^\?\?\?\+?[ \t]")
_MARKER_LINE = re.compile(r"^[ \t]*<!--.*-->[ \t]*$")


def rulebook_page(pages: Sequence[tuple[str, str]]) -> str:
    """Every rules page (``src_uri``, Markdown), in reading order, as one printable page.

    Generated from the same sources as the rules pages, so the two never drift: each
    page's title becomes a section (anchored ``#page-<name>``), the clause headings
    keep their permanent anchors, links between rules pages become links within the
    page, and what is not rule text is left out: folded boxes (background and other
    rule sets), generated-content markers and any text between the skip markers.
    Worked examples are added only to the rules pages, never here.
    """
    inside = {uri for uri, _ in pages}
    out = [
        "---",
        "search:",
        "  exclude: true",
        "---",
        "",
        "# The rulebook {#rulebook}",
        "",
        "Every clause of the rules on one page, without the worked examples and the background",
        "boxes, for reading straight through or printing. The clause numbers and anchors are",
        "those of the [rules pages](rules/index.md), and this page is generated from them. For a",
        "single sheet, see the [quick reference](quick-reference.md).",
        "{: .fh-rulebook-note }",
        "",
    ]
    for uri, markdown in pages:
        out += _rulebook_section(uri, markdown, inside)
    return "\n".join(out) + "\n"


def _page_anchor(uri: str) -> str:
    stem = posixpath.splitext(posixpath.basename(uri))[0]
    if stem == "index":
        stem = posixpath.basename(posixpath.dirname(uri)) or "index"
    return "page-" + stem


def _rulebook_section(uri: str, markdown: str, inside: set[str]) -> list[str]:
    lines = markdown.splitlines()
    fenced = _fence_mask(lines)
    kept: list[str] = []
    skipping = False
    folded = False
    for line, in_fence in zip(lines, fenced, strict=True):
        stripped = line.strip()
        if not in_fence and stripped == RULEBOOK_SKIP:
            skipping = True
            continue
        if not in_fence and stripped == RULEBOOK_END_SKIP:
            skipping = False
            continue
        if skipping:
            continue
        if folded:
            if not stripped or line.startswith(("    ", "\t")):
                continue
            folded = False
        if not in_fence and _FOLDED.match(line):
            folded = True
            continue
        if not in_fence and _MARKER_LINE.match(line):
            continue
        if not in_fence:
            heading = _ANY_HEADING.match(line)
            if heading:
                line = _demote(line, uri)
            line = _rulebook_links(line, uri, inside)
        kept.append(line)
    out: list[str] = []
    for line in kept:  # no runs of blank lines where boxes were taken out
        if not line.strip() and out and not out[-1].strip():
            continue
        out.append(line)
    return [*out, ""]


def _demote(line: str, uri: str) -> str:
    hashes, _, rest = line.partition(" ")
    if len(hashes) == 1 and "{" not in rest:
        rest = f"{rest.strip()} {{#{_page_anchor(uri)}}}"
    return "#" * min(len(hashes) + 1, 6) + " " + rest


def _rulebook_links(line: str, uri: str, inside: set[str]) -> str:
    def replace(match: re.Match[str]) -> str:
        text, target = match.group(1), match.group(2)
        if _SCHEME.match(target) or target.startswith("/"):
            return match.group(0)
        path, _, fragment = target.partition("#")
        if not path:
            return f"{text}(#{fragment})"
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(uri), path))
        if resolved in inside:
            return f"{text}(#{fragment or _page_anchor(resolved)})"
        anchor = f"#{fragment}" if fragment else ""
        return f"{text}({relative_link(RULEBOOK, resolved)}{anchor})"

    return _INLINE_LINK.sub(replace, line)
