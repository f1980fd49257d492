"""Fake of the engine's bid module: bids ranked on one ladder, misère after the sevens."""

STRAINS = ("SPADES", "CLUBS", "DIAMONDS", "HEARTS", "NO_TRUMPS")
LADDER = [(strain, str(level)) for level in (6, 7) for strain in STRAINS]
LADDER += [("MISERE", None)]
LADDER += [(strain, str(level)) for level in (8, 9, 10) for strain in STRAINS]
LADDER.insert(LADDER.index(("HEARTS", "10")), ("OPEN_MISERE", None))


class BidValue(str):
    """The engine's bid value prints as its number."""


class Bid:
    def __init__(self, suit, value=None, player_id=None):
        if suit != "PASS" and (suit, value) not in LADDER:
            raise ValueError(f"no bid {suit} {value}")
        self.suit = suit
        self.player_id = player_id
        if value is not None:
            self.value = BidValue(value)

    def key(self):
        return (self.suit, getattr(self, "value", None))

    def __eq__(self, other):
        return isinstance(other, Bid) and self.key() == other.key()

    def __gt__(self, other):
        return LADDER.index(self.key()) > LADDER.index(other.key())
