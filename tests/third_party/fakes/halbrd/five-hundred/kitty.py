"""Fake of the engine's kitty module."""


class Kitty:
    def __init__(self, cards=None):
        self.cards = list(cards or [])

    def append(self, card):
        self.cards.append(card)
