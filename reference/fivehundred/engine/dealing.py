"""Shuffling and dealing.  Randomness comes only from an RNG the caller passes in."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import Card
from .profile import DEFAULT_PROFILE, Profile
from .seats import Seat


def shuffled_deck(profile: Profile, rng: random.Random) -> list[Card]:
    """The profile's deck shuffled and cut, as the physical deal does."""
    deck = list(profile.deck)
    rng.shuffle(deck)
    cut = rng.randrange(1, len(deck))
    return deck[cut:] + deck[:cut]


def first_dealer(rng: random.Random, profile: Profile = DEFAULT_PROFILE) -> Seat:
    return Seat(rng.randrange(profile.seats))


def deal_all(
    profile: Profile, dealer: Seat, deck: Sequence[Card]
) -> tuple[list[list[Card]], list[Card], list[Card]]:
    """Deal an ordered deck in the profile's packets, starting left of the dealer.

    Returns the hands (indexed by seat, in the order each card arrived), the kitty, and
    the cards that take no part: any dead hands (dealt after the dealer in each round)
    and then the undealt rest of the deck.  A seat resting from the deal (a dealer who
    sits out) is passed over and gets an empty hand.
    """
    return profile.pack.deal(deck, dealer, profile.left_in_deal[dealer], profile.players)


def deal_packets(
    profile: Profile, dealer: Seat, deck: Sequence[Card]
) -> tuple[list[list[Card]], list[Card]]:
    """The hands and the kitty of :func:`deal_all` (for the default profile: 3 to each
    player then 1 to the kitty, 4 each then 1, 3 each then 1)."""
    hands, kitty, _dead = deal_all(profile, dealer, deck)
    return hands, kitty
