"""A scenario's starting position, built by the engine.

Lint asks this module whether a setup is a position the engine accepts, and the
reference executor starts every run from it: one translation from the notation of
a start to engine objects, so that what lint accepts is exactly what runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ...engine import (
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
from ..format.model import AuctionStart, DeckStart, GameStart, PlayStart, Setup, SidePoints
from .parse import spelled_deck

__all__ = ["PositionError", "cards", "seat", "side_points", "start_position"]


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


def seat(profile: Profile, token: str | None, where: str) -> Seat:
    """A seat of the profile's table from its name."""
    try:
        return profile.parse_seat(token)
    except NotationError as error:
        raise PositionError(where, str(error)) from None


def _suit(token: str, where: str) -> Suit:
    try:
        return Suit.parse(token)
    except NotationError as error:
        raise PositionError(where, str(error)) from None


def side_points(profile: Profile, value: SidePoints | None, where: str) -> list[int] | None:
    """One number per side of the profile, from a mapping keyed by side names (every side
    of the profile, no other); ``None`` when not given."""
    if value is None:
        return None
    names = profile.side_names
    _every_name(
        value, names, where, f"{profile.name} has the sides", f"every side of {profile.name}"
    )
    return [value[name] for name in names]


def _every_name(
    given: Iterable[str], names: Sequence[str], where: str, known: str, wanted: str
) -> None:
    """Refuse a mapping keyed by names unless its keys are exactly ``names``: an unknown
    key at its own path, else the missing ones at ``where``."""
    keys = list(given)
    for name in keys:
        if name not in names:
            raise PositionError(f"{where}.{name}", f"{known} {', '.join(names)}")
    missing = [name for name in names if name not in keys]
    if missing:
        raise PositionError(where, f"give {wanted}: missing {', '.join(missing)}")


def _hands(profile: Profile, hands: Mapping[str, tuple[str, ...]]) -> list[list[Card]]:
    names = profile.seat_names
    _every_name(hands, names, "setup.hands", f"{profile.name} has the seats", "every seat's hand")
    return [cards(hands[name], f"setup.hands.{name}") for name in names]


def _deal(profile: Profile, game: Game, setup: Setup) -> Deal | None:
    dealer = game.dealer
    if isinstance(setup, DeckStart):
        deck = cards(spelled_deck(setup.deck, profile), "setup.deck")
        return Deal.from_deck(profile, dealer, deck)
    if isinstance(setup, AuctionStart):
        return Deal(
            profile, dealer, _hands(profile, setup.hands), cards(setup.kitty, "setup.kitty")
        )
    if isinstance(setup, PlayStart):
        try:
            contract = parse_bid(setup.contract)
        except NotationError as error:
            raise PositionError("setup.contract", str(error)) from None
        return Deal.in_play(
            profile,
            dealer,
            contract,
            seat(profile, setup.declarer, "setup.declarer"),
            _hands(profile, setup.hands),
            leader=None if setup.leader is None else seat(profile, setup.leader, "setup.leader"),
            nominated=None
            if setup.nominated is None
            else _suit(setup.nominated, "setup.nominated"),
            suits_led=[_suit(s, "setup.suits_led") for s in setup.suits_led or ()],
            tricks=side_points(profile, setup.tricks, "setup.tricks"),
        )
    assert isinstance(setup, GameStart)
    return None


def start_position(profile: Profile, setup: Setup) -> tuple[Game, Deal | None]:
    """The game and the deal on the table at the start; raises :class:`PositionError`."""
    try:
        dealer = seat(profile, setup.dealer, "setup.dealer")
        game = Game(profile, dealer, side_points(profile, setup.scores, "setup.scores"))
        return game, _deal(profile, game, setup)
    except SetupError as error:
        raise PositionError("setup", str(error)) from None
