"""A scenario's starting position, built by the engine.

Lint asks this module whether a setup is a position the engine accepts, and the
reference executor starts every run from it: one translation from the notation of
a start to engine objects, so that what lint accepts is exactly what runs.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..engine import (
    SEATS,
    Card,
    Deal,
    Game,
    NotationError,
    Profile,
    Seat,
    SetupError,
    Suit,
    parse_bid,
    parse_card,
)
from .model import AuctionStart, DeckStart, GameStart, PlayStart, Setup, SidePoints
from .parse import spelled_deck

__all__ = ["PositionError", "cards", "seat", "start_position"]


class PositionError(ValueError):
    """The engine refuses this start; ``where`` is the path of the offending field."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def cards(tokens: tuple[str, ...] | list[str], where: str) -> list[Card]:
    try:
        return [parse_card(t) for t in tokens]
    except NotationError as error:
        raise PositionError(where, str(error)) from None


def seat(token: str | None, where: str) -> Seat:
    try:
        return Seat.parse(token)
    except NotationError as error:
        raise PositionError(where, str(error)) from None


def _suit(token: str, where: str) -> Suit:
    try:
        return Suit.parse(token)
    except NotationError as error:
        raise PositionError(where, str(error)) from None


def _points(value: SidePoints | None) -> tuple[int, int]:
    return (0, 0) if value is None else (value["NS"], value["EW"])


def _hands(hands: Mapping[str, tuple[str, ...]]) -> list[list[Card]]:
    return [cards(hands.get(s.name, ()), f"setup.hands.{s.name}") for s in SEATS]


def _deal(profile: Profile, game: Game, setup: Setup) -> Deal | None:
    dealer = game.dealer
    if isinstance(setup, DeckStart):
        deck = cards(spelled_deck(setup.deck, profile.name), "setup.deck")
        return Deal.from_deck(profile, dealer, deck)
    if isinstance(setup, AuctionStart):
        return Deal(profile, dealer, _hands(setup.hands), cards(setup.kitty, "setup.kitty"))
    if isinstance(setup, PlayStart):
        try:
            contract = parse_bid(setup.contract)
        except NotationError as error:
            raise PositionError("setup.contract", str(error)) from None
        return Deal.in_play(
            profile,
            dealer,
            contract,
            seat(setup.declarer, "setup.declarer"),
            _hands(setup.hands),
            leader=None if setup.leader is None else seat(setup.leader, "setup.leader"),
            nominated=None
            if setup.nominated is None
            else _suit(setup.nominated, "setup.nominated"),
            suits_led=[_suit(s, "setup.suits_led") for s in setup.suits_led or ()],
            tricks=_points(setup.tricks),
        )
    assert isinstance(setup, GameStart)
    return None


def start_position(profile: Profile, setup: Setup) -> tuple[Game, Deal | None]:
    """The game and the deal on the table at the start; raises :class:`PositionError`."""
    try:
        game = Game(profile, seat(setup.dealer, "setup.dealer"), _points(setup.scores))
        return game, _deal(profile, game, setup)
    except SetupError as error:
        raise PositionError("setup", str(error)) from None
