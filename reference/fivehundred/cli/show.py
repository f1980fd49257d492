"""``fivehundred show``: a scenario rendered for a person at a terminal.

Hands are grouped by suit with coloured suit symbols, steps read as sentences
("E plays J♦"), expected refusals stand out, and checkpoints list what must be seen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console, Group
from rich.markdown import Markdown
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine import DEFAULT_PROFILE, Card, get_profile, parse_card
from ..engine.cards import card_display, card_suit, card_token, sort_key
from ..safety import clean_text
from ..scenarios import (
    ORDERED,
    AuctionStart,
    Checkpoint,
    DeckStart,
    ObserveStep,
    PlayStart,
    Scenario,
    expected_rejection,
    spelled_deck,
)
from ..scenarios.derived.narration import (
    CallPart,
    CardPart,
    SuitPart,
    step_parts,
    suit_runs,
    suit_symbol,
)
from ..scenarios.format.rulings import anchor_title
from ..scenarios.format.vocabulary import Rendering, observation

SUIT_STYLE = {"S": "bold", "C": "bold", "D": "bold red", "H": "bold red"}


def card_text(token: str) -> Text:
    try:
        card = parse_card(token)
    except ValueError:
        return Text(token, style="yellow")
    suit = card_suit(card)
    if suit is None:
        return Text(card_display(card), style="bold magenta")
    return Text(card_display(card), style=SUIT_STYLE[suit.letter])


def cards_text(tokens: Sequence[str], group: bool = True) -> Text:
    """Cards in display order; grouped by suit with a gap between suits."""
    try:
        cards: list[Card] = sorted((parse_card(t) for t in tokens), key=sort_key)
    except ValueError:
        return Text(" ".join(tokens))
    runs = suit_runs(cards) if group else [cards]
    out = Text("  ").join(
        Text(" ").join(card_text(card_token(card)) for card in run) for run in runs
    )
    return out or Text("—", style="dim")


def _value_text(key: str, value: Any) -> Text:
    """An observed value drawn the way its observation says: cards, hands, a trick, plain."""
    registered = observation(key)
    rendering = Rendering.PLAIN if registered is None else registered.rendering
    drawn = _DRAWN[rendering](value) if rendering in _DRAWN else None
    return _plain_text(value) if drawn is None else drawn


def _cards_value(value: Any) -> Text | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return cards_text(value)
    return None


def _hands_value(value: Any) -> Text | None:
    return _hands_text(value) if isinstance(value, dict) else None


def _trick_value(value: Any) -> Text | None:
    return _trick_text(value) if isinstance(value, dict) else None


def _plain_text(value: Any) -> Text:
    if isinstance(value, dict):
        return Text(", ".join(f"{k} {v}" for k, v in value.items()))
    if isinstance(value, list):
        return Text(" ".join(str(v) for v in value) or "(none)")
    return Text("null" if value is None else str(value))


_DRAWN: dict[Rendering, Callable[[Any], Text | None]] = {
    Rendering.CARDS: _cards_value,
    Rendering.HANDS: _hands_value,
    Rendering.TRICK: _trick_value,
}
"""How each rendering draws a value of the shape it expects (``None``: drawn plain)."""


def _hands_text(hands: dict[str, Any]) -> Text:
    out = Text()
    for seat, cards in hands.items():
        out.append(f"{seat}: ")
        out.append_text(cards_text(cards))
        out.append("  ")
    return out


def _trick_text(trick: dict[str, Any]) -> Text:
    """The fields of a trick the scenario gives: leader, suit led, cards, winner."""
    out = Text()
    if trick.get("leader") is not None:
        out.append(f"led by {trick['leader']}  ")
    if "led" in trick:  # a check of the suit led alone is still a check: show it
        led = trick["led"]
        out.append("suit led ")
        if isinstance(led, str):
            out.append(suit_symbol(led), style=SUIT_STYLE.get(led, ""))
        else:
            out.append("none")
        out.append("  ")
    for seat, token in trick.get("cards", {}).items():
        out.append(f"{seat} ")
        out.append_text(card_text(token))
        out.append("  ")
    if "winner" in trick:
        out.append(f"→ won by {trick['winner']}", style="green")
    return out


def _setup_panel(scenario: Scenario) -> Panel:
    setup = scenario.setup
    table = Table.grid(padding=(0, 2))
    table.add_column(style="cyan", no_wrap=True)
    table.add_column()
    table.add_row("start", setup.kind)
    table.add_row("dealer", setup.dealer)
    if setup.scores is not None:
        table.add_row("scores", _value_text("scores", dict(setup.scores)))
    if isinstance(setup, PlayStart):
        _play_rows(table, setup)
    if isinstance(setup, DeckStart):
        deck = spelled_deck(setup.deck, get_profile(scenario.profile_name, scenario.variants))
        label = "ordered deck" if setup.deck == ORDERED else "deck"
        table.add_row(label, Text(" ").join(card_text(t) for t in deck))
    if isinstance(setup, AuctionStart | PlayStart):
        for seat, cards in setup.hands.items():
            table.add_row(f"{seat} hand", cards_text(cards))
    if isinstance(setup, AuctionStart):
        table.add_row("kitty", cards_text(setup.kitty))
    return Panel(table, title="Setup", title_align="left")


def _play_rows(table: Table, setup: PlayStart) -> None:
    """A play start's contract and the state of play it gives."""
    table.add_row("contract", setup.contract)
    table.add_row("declarer", setup.declarer)
    if setup.leader is not None:
        table.add_row("leader", setup.leader)
    if setup.nominated is not None:
        table.add_row("nominated", setup.nominated)
    if setup.tricks is not None:
        table.add_row("tricks", _value_text("tricks", dict(setup.tricks)))
    if setup.suits_led is not None:
        led = " ".join(suit_symbol(s) for s in setup.suits_led)
        table.add_row("suits led", led or "(none)")


def step_sentence(step: Any) -> Text:
    """The step as a sentence ("E plays J♦"), words from :mod:`.narration`."""
    out = Text()
    for part in step_parts(step):
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, CardPart):
            out.append_text(card_text(part.token))
        elif isinstance(part, CallPart):
            out.append(part.token)
        elif isinstance(part, SuitPart):
            out.append(suit_symbol(part.letter))
        else:
            out.append_text(cards_text(list(part.tokens), group=part.group))
    return out


def _steps_table(scenario: Scenario) -> Table:
    """Each step as a sentence beside what it must do: be accepted, be refused with a
    code, or (a checkpoint) show the observations expected."""
    steps = Table(show_header=True, header_style="bold", expand=False, box=None, padding=(0, 1))
    steps.add_column("#", justify="right", style="dim")
    steps.add_column("step")
    steps.add_column("expected")
    for i, step in enumerate(scenario.steps):
        if isinstance(step, Checkpoint):
            expected = Text()
            for key, value in step.expect.items():
                if expected:
                    expected.append("\n")
                expected.append(f"{key}: ", style="cyan")
                expected.append_text(_value_text(key, value))
            steps.add_row(str(i + 1), Text("checkpoint", style="dim"), expected)
        elif not isinstance(step, ObserveStep):
            code = expected_rejection(step)
            outcome = (
                Text(f"refused: {code}", style="bold red")
                if code is not None
                else Text("accepted", style="green")
            )
            steps.add_row(str(i + 1), step_sentence(step), outcome)
    return steps


def render(scenario: Scenario) -> Group:
    header = Text()
    header.append(f"{scenario.id}  ", style="bold cyan")
    header.append(clean_text(scenario.title), style="bold")
    meta = Table.grid(padding=(0, 2))
    meta.add_column(style="cyan", no_wrap=True)
    meta.add_column()
    # Text written in a scenario file is shown as it is, never read as rich markup: a title
    # or an assert may well contain "[/]".
    meta.add_row("area", Text(clean_text(scenario.area or "-")))
    meta.add_row("rules", "\n".join(f"{r} — {anchor_title(r)}" for r in scenario.rules))
    meta.add_row("asserts", Text(clean_text(scenario.assertion)))
    if scenario.profile_label != DEFAULT_PROFILE.name:
        meta.add_row("profile", scenario.profile_label)
    if scenario.tags:
        meta.add_row("tags", ", ".join(scenario.tags))
    if scenario.path is not None:
        from ..reports.text import shown_path

        meta.add_row("file", Text(clean_text(shown_path(scenario.path))))
    steps = _steps_table(scenario)
    parts: list[Any] = [
        header,
        meta,
        _setup_panel(scenario),
        Panel(steps, title="Steps", title_align="left"),
    ]
    if scenario.explanation:
        parts.append(Panel(Markdown(scenario.explanation), title="Why", title_align="left"))
    return Group(*parts)


def show(scenario: Scenario, console: Console) -> None:
    # The console soft-wraps plain lines; panels and Markdown must be wrapped to fit.
    console.print(render(scenario), soft_wrap=False)
