"""Shuffling and dealing.  Randomness comes only from an RNG the caller passes in."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import Card
from .profile import Profile
from .seats import Seat


def shuffled_deck(profile: Profile, rng: random.Random) -> list[Card]:
    """The profile's deck shuffled and cut, as the physical deal does."""
    deck = list(profile.deck)
    rng.shuffle(deck)
    cut = rng.randrange(1, len(deck))
    return deck[cut:] + deck[:cut]


def first_dealer(rng: random.Random) -> Seat:
    return Seat(rng.randrange(4))


def deal_packets(
    profile: Profile, dealer: Seat, deck: Sequence[Card]
) -> tuple[list[list[Card]], list[Card]]:
    """Deal an ordered deck in the profile's packets, starting left of the dealer.

    Returns the four hands (indexed by seat, in the order each card arrived) and the
    kitty.  For the default profile: 3 to each player then 1 to the kitty, 4 each then
    1, 3 each then 1.
    """
    if len(deck) != len(profile.deck):
        raise ValueError(f"a deck has {len(profile.deck)} cards, not {len(deck)}")
    hands: list[list[Card]] = [[], [], [], []]
    kitty: list[Card] = []
    position = 0
    for each, to_kitty in profile.packets:
        seat = dealer.left
        for _ in range(4):
            hands[seat].extend(deck[position : position + each])
            position += each
            seat = seat.left
        kitty.extend(deck[position : position + to_kitty])
        position += to_kitty
    return hands, kitty
