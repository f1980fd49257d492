"""Cards, suits and the one canonical card notation.

A card is a small int, and a hand an int bitset of them (why: see the package
docstring, which explains the engine's speed techniques in one place).
The index space covers every card any form of Five Hundred uses (2 to ace in four
suits, the joker, and the six-handed deck's numeral 11s, 12s and 13s); a profile's deck
is a subset of it.

Notation (the same in scenarios, the protocol and reports): rank then suit letter,
``AS KH QD JC 10S 9H … 4D``, ``JK`` for the joker, and ``11S 12H 13D`` for the numeral
cards of the six-handed deck (they rank between the 10 and the jack).  Nothing else is accepted:
``TH``, ``as`` or ``10♥`` are rejected with a message that says what was expected.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import NewType

Card = NewType("Card", int)
"""Index of a card: ``suit * 13 + rank - 2`` for the 2 to the ace, 52 for the joker, and
``53 + suit * 3 + number - 11`` for the six-handed deck's numeral 11, 12 and 13."""


class NotationError(ValueError):
    """Text that is not a well-formed card, suit, bid or seat token."""


class Suit(IntEnum):
    """The four suits, numbered in the bidding order (spades lowest, hearts highest)."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        return "SCDH"[self]

    @property
    def symbol(self) -> str:
        return "♠♣♦♥"[self]

    @property
    def same_colour(self) -> Suit:
        """The other suit of this colour: the suit whose jack becomes the left bower."""
        return Suit(self ^ 1)

    @classmethod
    def parse(cls, text: object) -> Suit:
        if isinstance(text, str) and len(text) == 1 and text in "SCDH":
            return cls("SCDH".index(text))
        raise NotationError(f"expected a suit letter S, C, D or H; found {text!r}")


SUITS: tuple[Suit, ...] = tuple(Suit)
ALL_SUITS_MASK = 0b1111
"""Bitset of suits (bit = suit number) meaning 'every suit'."""

JOKER = Card(52)
ACE, KING, QUEEN, JACK = 14, 13, 12, 11

NUMERAL_BASE = 53
"""Index of the first numeral card (11♠); the numerals of a suit are three in a row."""
CARD_COUNT = NUMERAL_BASE + 12
"""Size of the card index space: 52 ordinary cards, the joker, 12 numeral cards."""

_RANK_TOKENS = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "10"}
for _r in range(2, 10):
    _RANK_TOKENS[_r] = str(_r)


def make_card(suit: Suit, rank: int) -> Card:
    """The card of ``suit`` with ``rank`` (2–14, ace high)."""
    if not 2 <= rank <= 14:
        raise ValueError(f"rank must be 2..14, not {rank}")
    return Card(suit * 13 + rank - 2)


def make_numeral(suit: Suit, number: int) -> Card:
    """The six-handed deck's numeral card ``number`` (11, 12 or 13) of ``suit``."""
    if not 11 <= number <= 13:
        raise ValueError(f"numeral cards are 11, 12 and 13, not {number}")
    return Card(NUMERAL_BASE + suit * 3 + number - 11)


def is_numeral(card: Card) -> bool:
    return card >= NUMERAL_BASE


def card_suit(card: Card) -> Suit | None:
    """Printed suit; ``None`` for the joker (its suit depends on the contract)."""
    if card < JOKER:
        return Suit(card // 13)
    if card == JOKER:
        return None
    return Suit((card - NUMERAL_BASE) // 3)


def card_rank(card: Card) -> int:
    """Printed rank, 2–14 (J 11, Q 12, K 13, A 14); 0 for the joker.

    A numeral card also answers its number (11–13); tell it from a court card with
    :func:`is_numeral`, and compare cards with :func:`card_strength`.
    """
    if card < JOKER:
        return card % 13 + 2
    if card == JOKER:
        return 0
    return (card - NUMERAL_BASE) % 3 + 11


def _strength(card: int) -> int:
    if card < JOKER:
        return (card % 13 + 2) * 4  # 2 → 8 … 10 → 40, J → 44, Q → 48, K → 52, A → 56
    if card == JOKER:
        return 0
    return 41 + (card - NUMERAL_BASE) % 3  # 11 → 41, 12 → 42, 13 → 43: above 10, below J


CARD_STRENGTH: tuple[int, ...] = tuple(_strength(i) for i in range(CARD_COUNT))
"""Plain-suit strength of each card index (higher beats lower; 0 for the joker)."""


def card_strength(card: Card) -> int:
    """Strength of a card in a plain suit: A K Q J 13 12 11 10 9 … 2, high to low."""
    return CARD_STRENGTH[card]


def _build_tokens() -> tuple[str, ...]:
    tokens = [_RANK_TOKENS[i % 13 + 2] + "SCDH"[i // 13] for i in range(52)]
    tokens.append("JK")
    tokens += [f"{11 + i % 3}{'SCDH'[i // 3]}" for i in range(12)]
    return tuple(tokens)


CARD_TOKENS: tuple[str, ...] = _build_tokens()
_TOKEN_TO_CARD = {token: Card(i) for i, token in enumerate(CARD_TOKENS)}


def parse_card(text: object) -> Card:
    """Parse one card token such as ``AS``, ``10H`` or ``JK``."""
    if isinstance(text, str):
        card = _TOKEN_TO_CARD.get(text)
        if card is not None:
            return card
    hint = ""
    if isinstance(text, str):
        upper = text.upper().replace("T", "10", 1) if text[:1] in "Tt" else text.upper()
        for symbol, letter in zip("♠♣♦♥", "SCDH", strict=True):
            upper = upper.replace(symbol, letter)
        if upper in _TOKEN_TO_CARD and upper != text:
            hint = f" (did you mean {upper}?)"
    elif isinstance(text, int):
        hint = " (quote it: cards are strings such as 10H)"
    raise NotationError(
        f"expected a card: rank A K Q J 10 9 … 2 (or 11 12 13) then suit S C D H (e.g. AS, "
        f"10H), or JK; "
        f"found {text!r}{hint}"
    )


def card_token(card: Card) -> str:
    """Canonical ASCII token of a card."""
    return CARD_TOKENS[card]


def card_display(card: Card) -> str:
    """Human form with a suit symbol, e.g. ``10♥``; the joker is ``Jkr``."""
    if card == JOKER:
        return "Jkr"
    suit = card_suit(card)
    assert suit is not None
    return CARD_TOKENS[card][:-1] + suit.symbol


# ---- bitsets of cards -------------------------------------------------------------


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


_SUIT_BITS = 0x1FFF
"""The 13 bits of one suit in a bitset of cards."""
_SUIT_CARDS: tuple[list[tuple[Card, ...] | None], ...] = tuple(
    [None] * (_SUIT_BITS + 1) for _ in range(4)
)
"""Per suit, the cards of each set of that suit's 13 bits, filled in as they are met."""


def _suit_cards(suit: int, bits: int) -> tuple[Card, ...]:
    cards = tuple(Card(suit * 13 + i) for i in range(13) if bits >> i & 1)
    _SUIT_CARDS[suit][bits] = cards
    return cards


def cards_in(mask: int) -> list[Card]:
    """Cards of a bitset, lowest index first (each suit's 13 bits looked up in a table
    that is filled as sets are met: a non-empty tuple once filled, ``None`` before)."""
    out: list[Card] = []
    for suit, table in enumerate(_SUIT_CARDS):
        bits = mask >> suit * 13 & _SUIT_BITS
        if bits:
            out += table[bits] or _suit_cards(suit, bits)
    high = mask >> 52
    if high == 1:
        out.append(JOKER)
    elif high:  # bits past the joker: not cards of any deck, but list them all the same
        out += (Card(i) for i in range(52, mask.bit_length()) if mask >> i & 1)
    return out


def sort_key(card: Card) -> tuple[int, int]:
    """Display order: by suit (S C D H, joker last), high rank first."""
    suit = card_suit(card)
    return (4, 0) if suit is None else (int(suit), -CARD_STRENGTH[card])


def _display_positions() -> tuple[int, ...]:
    order = sorted(range(CARD_COUNT), key=lambda i: sort_key(Card(i)))
    places = [0] * CARD_COUNT
    for place, card in enumerate(order):
        places[card] = place
    return tuple(places)


_DISPLAY_POSITION: tuple[int, ...] = _display_positions()
"""Each card's place in display order, as one int (same order as :func:`sort_key`)."""


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    cards = list(cards)
    try:
        return sorted(cards, key=_DISPLAY_POSITION.__getitem__)  # a C-level key: faster
    except (IndexError, TypeError):
        return sorted(cards, key=sort_key)  # not a card index: let sort_key say what it is
