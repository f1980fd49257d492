"""The pack and the deal: which cards, how many to each hand and to the kitty, in which
packets, and what is left out of play (dead hands, undealt cards)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..cards import Card, mask_of
from ..seats import Seat


@dataclass(frozen=True)
class Pack:
    """The deck and how it is dealt."""

    deck: tuple[Card, ...]
    hand_size: int
    kitty_size: int
    packets: tuple[tuple[int, int], ...]
    """Dealing rounds as (cards to each hand, cards to the kitty), starting left of the
    dealer; each round gives the seats in order, then any dead hands."""
    dead_hands: int = 0
    """Hands dealt like a player's but not played (two-handed game)."""
    undealt: int = 0
    """Cards left over after the packets, set aside unseen."""
    deck_mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "deck_mask", mask_of(self.deck))
        if sum(p for p, _ in self.packets) != self.hand_size:
            raise ValueError("packets do not make the hand size")
        if sum(k for _, k in self.packets) != self.kitty_size:
            raise ValueError("packets do not deal the whole deck")

    def has_card(self, card: Card) -> bool:
        return bool(self.deck_mask >> card & 1)

    def fits(self, players: int) -> bool:
        """Whether the packets deal exactly the whole deck to ``players`` hands."""
        hands = players + self.dead_hands
        dealt = sum(p * hands + k for p, k in self.packets) + self.undealt
        return dealt == len(self.deck)

    def deal(
        self, deck: Sequence[Card], dealer: Seat, left: Sequence[Seat], players: int
    ) -> tuple[list[list[Card]], list[Card], list[Card]]:
        """Deal an ordered deck in packets round the seats after ``dealer`` (``left`` gives
        the next seat taking part after each seat): the hands by seat (a seat passed over
        gets none), the kitty, and the cards out of play, the dead hands (dealt after the
        players in each round) then the undealt rest."""
        if len(deck) != len(self.deck):
            raise ValueError(f"a deck has {len(self.deck)} cards, not {len(deck)}")
        hands: list[list[Card]] = [[] for _ in range(len(left))]
        dead: list[Card] = []
        kitty: list[Card] = []
        position = 0
        for each, to_kitty in self.packets:
            seat = left[dealer]
            for _ in range(players):
                hands[seat].extend(deck[position : position + each])
                position += each
                seat = left[seat]
            for _ in range(self.dead_hands):
                dead.extend(deck[position : position + each])
                position += each
            kitty.extend(deck[position : position + to_kitty])
            position += to_kitty
        dead.extend(deck[position:])
        return hands, kitty, dead
