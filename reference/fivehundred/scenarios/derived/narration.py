"""Scenario steps told as sentences, independent of how the sentence is drawn.

``fivehundred show`` (rich text at a terminal) and the documentation site (HTML)
both read a step as "E plays J♦".  The words are decided once here; each renderer
only decides how a card looks.  A sentence is therefore a list of parts: plain
strings, and card parts that the renderer draws in its own way (a coloured
``rich`` span, an HTML span with a CSS class).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ...engine import SUITS, Card
from ...engine.cards import card_suit
from ..format.model import (
    ORDERED,
    ActionStep,
    CallStep,
    Checkpoint,
    DealResultStep,
    DealStep,
    DiscardStep,
    NominateStep,
    ObserveStep,
    PlayStep,
    RecordedResult,
    SansKittyStep,
    Step,
)


@dataclass(frozen=True, slots=True)
class CardPart:
    """One card token, drawn by the renderer (coloured, with its suit symbol)."""

    token: str


@dataclass(frozen=True, slots=True)
class CardsPart:
    """Several cards, drawn in display order; ``group`` leaves a gap between suits."""

    tokens: tuple[str, ...]
    group: bool = True


@dataclass(frozen=True, slots=True)
class CallPart:
    """A call or contract token (``7NT``, ``MIS``): the terminal prints the token,
    the site spells it out (``7♠``, ``misère``)."""

    token: str


@dataclass(frozen=True, slots=True)
class SuitPart:
    """A suit letter, drawn as its symbol (coloured where the renderer colours suits)."""

    letter: str


Part = str | CardPart | CardsPart | CallPart | SuitPart
"""One piece of a sentence."""


def suit_symbol(letter: str) -> str:
    """``H`` → ``♥``; anything that is not a suit letter comes back unchanged."""
    for suit in SUITS:
        if suit.letter == letter:
            return suit.symbol
    return letter


def step_parts(step: ActionStep | DealStep | DealResultStep) -> list[Part]:
    """The sentence for an action, ``deal`` or ``deal_result`` step (not a checkpoint).

    The wording is the same everywhere a person reads a scenario, so that the
    terminal and the site never describe one step in two ways.
    """
    if isinstance(step, DealStep):
        source = "ordered deck" if step.deck == ORDERED else "given deck"
        return [f"A new deal is dealt from the {source}"]
    if isinstance(step, DealResultStep):
        result = step.result
        if not isinstance(result, RecordedResult):
            return ["A deal is thrown in (everybody passed)"]
        return [
            f"{result.declarer} plays ",
            CallPart(result.contract),
            f" and the declarers take {result.tricks} tricks"
            if isinstance(result.tricks, int)
            else f" and the tricks go {result.tricks_text}",
        ]
    parts: list[Part] = [f"{step.seat} "]
    if isinstance(step, CallStep):
        if step.call == "PASS":
            parts.append("passes")
        else:
            parts += ["bids ", CallPart(step.call)]
    elif isinstance(step, DiscardStep):
        parts.append("discards ")
        parts.append(CardsPart(step.cards, group=False))
    elif isinstance(step, NominateStep):
        parts += ["nominates ", SuitPart(step.suit), " for the joker"]
    elif isinstance(step, SansKittyStep):
        parts.append("plays sans kitty, leaving the kitty face down")
    else:
        assert isinstance(step, PlayStep)
        parts.append("leads " if step.names is not None else "plays ")
        parts.append(CardPart(step.card))
        if step.names is not None:
            parts += [" naming ", SuitPart(step.names)]
    return parts


def step_text(step: Step) -> str:
    """A one-line description of a step in the notation, as reports show it."""
    if isinstance(step, Checkpoint | ObserveStep):
        keys = list(step.keys)
        shown = ", ".join(keys[:4])
        return f"expect {shown}" + (f", … ({len(keys)} observations)" if len(keys) > 4 else "")
    if isinstance(step, DealStep):
        return "deal " + ("ordered deck" if step.deck == ORDERED else "given deck")
    if isinstance(step, DealResultStep):
        result = step.result
        if not isinstance(result, RecordedResult):
            return "deal result: thrown in"
        return f"deal result: {result.contract} by {result.declarer}, {result.tricks_text} tricks"
    assert isinstance(step, ActionStep)
    value = step.value
    if isinstance(value, bool):  # an action named by its key alone (sans_kitty)
        return f"{step.seat} {step.action}"
    shown = " ".join(value) if isinstance(value, tuple) else value
    names = f" naming {step.names}" if isinstance(step, PlayStep) and step.names else ""
    return f"{step.seat} {step.action} {shown}{names}"


def suit_runs(cards: Iterable[Card]) -> list[list[Card]]:
    """Consecutive cards of the same printed suit, so a renderer can put a gap between
    suits when it shows a hand (the joker is a run of its own)."""
    runs: list[list[Card]] = []
    for card in cards:
        if runs and card_suit(runs[-1][-1]) == card_suit(card):
            runs[-1].append(card)
        else:
            runs.append([card])
    return runs
