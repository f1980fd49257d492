"""Profiles: the rules that differ between forms of the game, held as data.

The engine reads every rule that varies between rule sets from a :class:`Profile`
instead of branching on the name of a rule set.  The default profile is the
Australian four-handed partnership game; others (three players, American bidding,
house variations) are meant to be added as new instances plus, where a rule cannot be
said as data, a small hook.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .bids import MISERE, OPEN_MISERE, SUIT_BIDS, Bid, Strain
from .cards import JOKER, SUITS, Card, Suit, make_card, mask_of


@dataclass(frozen=True, eq=False)
class Profile:
    """One form of the game.

    Frozen and compared by identity: a profile is shared by every deal that uses it
    and keys the engine's caches.
    """

    name: str
    title: str
    deck: tuple[Card, ...]
    hand_size: int
    kitty_size: int
    packets: tuple[tuple[int, int], ...]
    """Dealing rounds as (cards to each player, cards to the kitty), starting left of the dealer."""
    bid_order: tuple[Bid, ...]
    """Every bid of the profile, lowest first."""
    bid_values: Mapping[Bid, int]
    misere_needs: Bid | None
    """Misère may be bid only when the highest bid so far ranks at least this high."""
    slam_value: int
    """A slam of a contract worth less than this scores this instead."""
    defender_trick_points: int
    win_score: int
    lose_score: int
    bid_rank: Mapping[Bid, int] = field(init=False, repr=False, compare=False)
    deck_mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ranks = MappingProxyType({bid: i for i, bid in enumerate(self.bid_order)})
        object.__setattr__(self, "bid_rank", ranks)
        object.__setattr__(self, "deck_mask", mask_of(self.deck))
        dealt = sum(p * 4 + k for p, k in self.packets)
        if dealt != len(self.deck) or sum(k for _, k in self.packets) != self.kitty_size:
            raise ValueError(f"profile {self.name}: packets do not deal the whole deck")

    def has_card(self, card: Card) -> bool:
        return bool(self.deck_mask >> card & 1)


def _australian_deck() -> tuple[Card, ...]:
    lowest = {Suit.SPADES: 5, Suit.CLUBS: 5, Suit.DIAMONDS: 4, Suit.HEARTS: 4}
    cards = [make_card(s, r) for s in SUITS for r in range(14, lowest[s] - 1, -1)]
    cards.append(JOKER)
    return tuple(cards)


def _australian_bids() -> tuple[tuple[Bid, ...], dict[Bid, int]]:
    order: list[Bid] = []
    values: dict[Bid, int] = {}
    for level in range(6, 11):
        for strain in Strain:
            if level == 8 and strain is Strain.SPADES:
                order.append(MISERE)  # above every seven, below every eight
            if level == 10 and strain is Strain.HEARTS:
                order.append(OPEN_MISERE)  # above 10♦, below 10♥
            bid = SUIT_BIDS[(level, strain)]
            order.append(bid)
            values[bid] = 40 + 100 * (level - 6) + 20 * strain  # the Avondale table
    values[MISERE] = 250
    values[OPEN_MISERE] = 500
    return tuple(order), values


_BIDS, _VALUES = _australian_bids()

AUSTRALIAN = Profile(
    name="australian-4",
    title="Australian four-handed partnership game (default)",
    deck=_australian_deck(),
    hand_size=10,
    kitty_size=3,
    packets=((3, 1), (4, 1), (3, 1)),
    bid_order=_BIDS,
    bid_values=MappingProxyType(_VALUES),
    misere_needs=SUIT_BIDS[(7, Strain.SPADES)],
    slam_value=250,
    defender_trick_points=10,
    win_score=500,
    lose_score=-500,
)
DEFAULT_PROFILE = AUSTRALIAN

PROFILES: Mapping[str, Profile] = MappingProxyType({AUSTRALIAN.name: AUSTRALIAN})


def get_profile(name: str | None) -> Profile:
    """The named profile; the default profile for ``None``."""
    if name is None:
        return DEFAULT_PROFILE
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(sorted(PROFILES))
        raise KeyError(f"unknown profile {name!r}; known profiles: {known}") from None
