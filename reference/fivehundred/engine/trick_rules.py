"""How cards behave under a contract: effective suit, power, and suit bitsets.

Everything trick-taking needs to know about a card depends only on the trump suit
(or none) and the suit nominated for the joker (or none): at most 25 combinations, each
computed once into tables (see the package docstring).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from .cards import (
    CARD_COUNT,
    CARD_STRENGTH,
    JACK,
    JOKER,
    SUITS,
    Card,
    Suit,
    card_rank,
    card_suit,
    is_numeral,
    make_card,
)

NO_SUIT = 4
"""Effective suit of a suitless joker: it belongs to no suit."""

JOKER_POWER = 100
RIGHT_BOWER_POWER = 99
LEFT_BOWER_POWER = 98
TRUMP_KEY = 1000
"""Added to a trump's power when deciding a trick: any trump beats the suit led."""
SUITLESS_JOKER_KEY = 10_000


@dataclass(frozen=True, slots=True)
class TrickRules:
    trump: Suit | None
    joker_suit: Suit | None
    """Suit the declarer nominated for the joker (no trumps and misères only)."""
    suit_of: tuple[int, ...]
    """Effective suit of every card index (``NO_SUIT`` for a suitless joker)."""
    power: tuple[int, ...]
    """Strength of every card within its effective suit (higher wins): the plain strength
    of :data:`~.cards.CARD_STRENGTH` (at most 56), the bowers and the joker above it."""
    suit_masks: tuple[int, int, int, int]
    """Bitset of all cards whose effective suit is each suit."""
    joker_is_suitless: bool = field(init=False)
    """No trumps or a misère with the joker not nominated: it belongs to no suit."""
    trick_keys: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    """For each effective suit led, every card's claim to the trick: a suitless joker
    above everything, then trumps by power, then the suit led by power; -1 for a card
    that cannot win.  Filled in from the fields above."""

    def __post_init__(self) -> None:
        # Derived fields rather than properties: the deal asks these at every card.
        suitless = self.trump is None and self.joker_suit is None
        object.__setattr__(self, "joker_is_suitless", suitless)
        trump = -1 if self.trump is None else int(self.trump)
        keys = []
        for led in range(4):
            claims = []
            for suit, power in zip(self.suit_of, self.power, strict=True):
                if suit == NO_SUIT:
                    claims.append(SUITLESS_JOKER_KEY)  # wins any trick it is played to
                elif suit == trump:
                    claims.append(TRUMP_KEY + power)
                elif suit == led:
                    claims.append(power)
                else:
                    claims.append(-1)
            keys.append(tuple(claims))
        object.__setattr__(self, "trick_keys", tuple(keys))

    def winner(self, cards: list[Card], led: int) -> int:
        """Index in ``cards`` of the winning card, given the effective suit led."""
        keys = self.trick_keys[led]
        best_index, best_key = 0, keys[cards[0]]
        for i in range(1, len(cards)):
            key = keys[cards[i]]
            if key > best_key:
                best_index, best_key = i, key
        return best_index


@cache
def trick_rules(trump: Suit | None, joker_suit: Suit | None) -> TrickRules:
    suit_of: list[int] = []
    power: list[int] = []
    for i in range(CARD_COUNT):
        card = Card(i)
        printed = card_suit(card)
        suit = NO_SUIT if printed is None else int(printed)
        strength = CARD_STRENGTH[card]
        if card == JOKER:
            if trump is not None:
                suit, strength = trump, JOKER_POWER
            elif joker_suit is not None:
                suit, strength = joker_suit, JOKER_POWER
        elif (
            trump is not None
            and card_rank(card) == JACK
            and not is_numeral(card)
            and printed is not None
        ):
            if printed == trump:
                strength = RIGHT_BOWER_POWER
            elif printed == trump.same_colour:
                suit, strength = trump, LEFT_BOWER_POWER
        suit_of.append(suit)
        power.append(strength)
    masks = [0, 0, 0, 0]
    for i, suit in enumerate(suit_of):
        if suit != NO_SUIT:
            masks[suit] |= 1 << i
    return TrickRules(
        trump, joker_suit, tuple(suit_of), tuple(power), (masks[0], masks[1], masks[2], masks[3])
    )


def bowers(trump: Suit) -> tuple[Card, Card]:
    """(right bower, left bower) for a trump suit."""
    return make_card(trump, JACK), make_card(trump.same_colour, JACK)


__all__ = ["NO_SUIT", "SUITS", "TrickRules", "bowers", "trick_rules"]
