"""Scenario steps told as sentences, independent of how the sentence is drawn.

``fivehundred show`` (rich text at a terminal) and the documentation site (HTML)
both read a step as "E plays J♦".  The words are decided once here; each renderer
only decides how a card looks.  A sentence is therefore a list of parts: plain
strings, and card parts that the renderer draws in its own way (a coloured
``rich`` span, an HTML span with a CSS class).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .engine import SUITS, Card
from .engine.cards import card_suit
from .scenario import action_key, step_kind


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


def step_parts(step: Mapping[str, Any]) -> list[Part]:
    """The sentence for an action, ``deal`` or ``deal_result`` step (not a checkpoint).

    The wording is the same everywhere a person reads a scenario, so that the
    terminal and the site never describe one step in two ways.
    """
    kind = step_kind(step)
    if kind == "deal":
        source = "ordered deck" if step["deal"] == "ordered" else "given deck"
        return [f"A new deal is dealt from the {source}"]
    if kind == "deal_result":
        result = step["deal_result"]
        if result == "thrown-in":
            return ["A deal is thrown in (everybody passed)"]
        return [
            f"{result['declarer']} plays ",
            CallPart(result["contract"]),
            f" and the declarers take {result['tricks']} tricks",
        ]
    key = action_key(step)
    parts: list[Part] = [f"{step['seat']} "]
    if key == "call":
        if step["call"] == "PASS":
            parts.append("passes")
        else:
            parts += ["bids ", CallPart(step["call"])]
    elif key == "discard":
        parts.append("discards ")
        parts.append(CardsPart(tuple(step["discard"]), group=False))
    elif key == "nominate":
        parts += ["nominates ", SuitPart(step["nominate"]), " for the joker"]
    else:
        parts.append("leads " if "names" in step else "plays ")
        parts.append(CardPart(step["play"]))
        if "names" in step:
            parts += [" naming ", SuitPart(step["names"])]
    return parts


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
