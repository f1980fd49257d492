"""Fake of the engine's deck: 43 cards named suit first (S10, HA), the joker Birdie."""

import random


class Card:
    def __init__(self, identifier):
        self.identifier = identifier


class Pile:
    def __init__(self):
        self.cards = []

    def __iter__(self):
        return iter(self.cards)

    def size(self):
        return len(self.cards)


class FiveHundredDeck(Pile):
    def __init__(self, sixplayer):
        super().__init__()
        ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5"]
        for suit in "SCDH":
            self.cards += [Card(suit + rank) for rank in ranks + (["4"] if suit in "DH" else [])]
        self.cards.append(Card("Birdie"))
        random.shuffle(self.cards)

    def get_top(self):
        return self.cards.pop()
