"""The actions a seat can take, and their canonical strings.

Action strings are how legal actions are listed in scenarios, the protocol and
reports.  Each phase has one kind of action, so a string is read in the phase it
belongs to (``6S`` is a bid in the auction and a card in play):

* auction: a call token, ``PASS``, ``7NT``, ``MIS``, ``OMIS``;
* kitty: ``DISCARD 5S 6C 4H`` (as many cards as the kitty has, in deck order: S, C, D,
  H, each ace first); under the ``sans-kitty`` toggle also ``SANS KITTY`` (the declarer
  leaves the kitty untouched);
* play: a card token, ``AS``; a suitless joker lead names its suit as ``JK:H``;
  and, before the first lead, ``NOMINATE H`` for the joker's suit.
"""

from __future__ import annotations

from dataclasses import dataclass

from .bids import Bid, Pass, parse_call
from .cards import (
    CARD_COUNT,
    SUITS,
    Card,
    NotationError,
    Suit,
    card_token,
    parse_card,
    sorted_cards,
)


@dataclass(frozen=True, slots=True)
class Discard:
    """The declarer's discard after taking the kitty (as many cards as the kitty has)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "DISCARD " + " ".join(card_token(c) for c in sorted_cards(self.cards))


@dataclass(frozen=True, slots=True)
class SansKitty:
    """The declarer plays without the kitty (the ``sans-kitty`` toggle): the kitty goes back
    face down, nothing is discarded and play begins.  One value, :data:`SANS_KITTY`."""

    def __str__(self) -> str:
        return SANS_KITTY_STRING


SANS_KITTY_STRING = "SANS KITTY"
"""The action string of :class:`SansKitty`: the only action string with no value."""


@dataclass(frozen=True, slots=True)
class Nominate:
    """The declarer's choice of a suit for the joker (no trumps and misères)."""

    suit: Suit

    def __str__(self) -> str:
        return f"NOMINATE {self.suit.letter}"


@dataclass(frozen=True, slots=True)
class Play:
    """Playing a card; ``names`` is the suit named when leading a suitless joker."""

    card: Card
    names: Suit | None = None

    def __str__(self) -> str:
        token = card_token(self.card)
        return token if self.names is None else f"{token}:{self.names.letter}"


Action = Bid | Pass | Discard | SansKitty | Nominate | Play

SANS_KITTY = SansKitty()

PLAYS: tuple[Play, ...] = tuple(Play(Card(i)) for i in range(CARD_COUNT))
"""Interned plain plays, so listing legal plays allocates nothing."""
JOKER_LEADS: tuple[Play, ...] = tuple(Play(Card(52), s) for s in SUITS)
NOMINATIONS: tuple[Nominate, ...] = tuple(Nominate(s) for s in SUITS)

_SUIT_BITS = 0x1FFF
"""The 13 bits of one suit in a card bitset (card index ``suit * 13 + rank - 2``)."""
_SUIT_PLAYS: tuple[list[tuple[Play, ...] | None], ...] = tuple(
    [None] * (_SUIT_BITS + 1) for _ in SUITS
)
"""Per suit, the plays of each set of that suit's cards, filled in as they are met."""
_SPADES, _CLUBS, _DIAMONDS, _HEARTS = _SUIT_PLAYS


def _suit_plays(suit: int, bits: int) -> tuple[Play, ...]:
    plays = tuple(PLAYS[suit * 13 + rank] for rank in range(13) if bits >> rank & 1)
    _SUIT_PLAYS[suit][bits] = plays
    return plays


def plays_in(mask: int) -> list[Action]:
    """The interned plays of the cards of a bitset, lowest card index first (the order of
    :func:`~.cards.cards_in`), each suit's 13 bits looked up in a table filled as sets are
    met (a non-empty tuple once filled, ``None`` before)."""
    out: list[Action] = []
    bits = mask & _SUIT_BITS
    if bits:
        out += _SPADES[bits] or _suit_plays(0, bits)
    bits = mask >> 13 & _SUIT_BITS
    if bits:
        out += _CLUBS[bits] or _suit_plays(1, bits)
    bits = mask >> 26 & _SUIT_BITS
    if bits:
        out += _DIAMONDS[bits] or _suit_plays(2, bits)
    bits = mask >> 39 & _SUIT_BITS
    if bits:
        out += _HEARTS[bits] or _suit_plays(3, bits)
    high = mask >> 52
    if high:
        if high == 1:
            out.append(PLAYS[52])
        else:  # the joker and the six-handed deck's numeral cards
            out += (PLAYS[i] for i in range(52, mask.bit_length()) if mask >> i & 1)
    return out


def parse_action(text: object, phase: str) -> Action:
    """Parse an action string as it reads in ``phase`` (auction, kitty or play)."""
    if not isinstance(text, str):
        raise NotationError(f"expected an action string; found {text!r}")
    if phase == "auction":
        return parse_call(text)
    words = text.split(" ")
    if phase == "kitty" and words[0] == "DISCARD":
        return Discard(tuple(parse_card(w) for w in words[1:]))
    if phase == "kitty" and text == SANS_KITTY_STRING:
        return SANS_KITTY
    if phase == "play":
        if words[0] == "NOMINATE" and len(words) == 2:
            return NOMINATIONS[Suit.parse(words[1])]
        card, sep, named = text.partition(":")
        return Play(parse_card(card), Suit.parse(named) if sep else None)
    raise NotationError(f"{text!r} is not an action of the {phase} phase")
