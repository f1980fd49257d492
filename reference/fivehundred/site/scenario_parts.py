"""A scenario's parts as a reader sees them: values, steps, the setup and the drawn table.

Cards, calls, observation values and step sentences are written in the page's language
from the start (:mod:`.labels`), so no page is translated afterwards; the setup reads
like a hand record, and the drawn table with its stepper shows the position after every
step as the reference plays it (:mod:`.table_drawing`).  The scenario pages and the
worked examples assemble their content from these parts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
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
from ..scenarios.derived.coverage import is_default_profile
from ..scenarios.format.vocabulary import Rendering, StepOutcome, observation
from .card_markup import _escape, call_html, card_html, cards_html, hand_html, none_html, suit_html
from .labels import DEFAULT_LANGUAGE, label, reason
from .table_drawing import stepper_html
from .table_states import frames

_SEATS = ("N", "E", "S", "W")


_PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}


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
    sentences of ``scenarios.derived.narration``, in the page's language: ``say.*`` labels)."""
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
        elif frame.outcome == StepOutcome.REJECTED and frame.code is not None:
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
