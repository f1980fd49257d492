"""Fake of the engine's card module: a card knows its suit and rank by name."""


class Card:
    def __init__(self, suit, rank=None):
        if suit not in ("SPADES", "CLUBS", "DIAMONDS", "HEARTS", "JOKER"):
            raise ValueError(f"no suit {suit}")
        self.suit = suit
        self.rank = rank

    def is_joker(self):
        return self.suit == "JOKER"

    def __eq__(self, other):
        return isinstance(other, Card) and (self.suit, self.rank) == (other.suit, other.rank)

    def __hash__(self):
        return hash((self.suit, self.rank))
