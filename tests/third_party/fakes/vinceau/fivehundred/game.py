"""Fake of the engine's round: deal, auction and the return of the kitty.

Calls return True or False and print why they were refused; the auction ends when a bid
stands and the other three have passed; return_kitty returns early when it is not the
declarer's turn to discard and asserts that every card is held."""

from .core import FiveHundredDeck, Pile

LADDER = [f"{level}{strain}" for level in (6, 7) for strain in "SCDHX"] + ["M"]
LADDER += [f"{level}{strain}" for level in (8, 9, 10) for strain in "SCDHX"]
LADDER.insert(LADDER.index("10H"), "OM")


class Bid:
    def __init__(self, identifier):
        self.identifier = identifier


class Player:
    def __init__(self):
        self.hand = Pile()


class Round:
    def __init__(self, players, dealer=0):
        self.players = players
        self.player_map = {name: Player() for name in players}
        self.kitty = Pile()
        deck = FiveHundredDeck(False)
        for packet in (3, 4, 3):
            for offset in range(1, 5):
                hand = self.player_map[players[(dealer + offset) % 4]].hand
                hand.cards += [deck.get_top() for _ in range(packet)]
            self.kitty.cards.append(deck.get_top())
        self.state = "bidding"
        self.bidders = list(players)
        self.turn = players[(dealer + 1) % 4]
        self.bid = (None, None)

    def set_bid(self, player, bid):
        if self.state != "bidding" or player != self.turn:
            print("refused: not your turn")
            return False
        if bid != "PASS" and bid not in LADDER:
            print("refused: no such bid")
            return False
        if bid != "PASS":
            high = self.bid[1]
            if high is not None and LADDER.index(bid) <= LADDER.index(high.identifier):
                print("refused: not higher")
                return False
            self.bid = (player, Bid(bid))
        self.turn = self.bidders[(self.bidders.index(player) + 1) % len(self.bidders)]
        if bid == "PASS":
            self.bidders.remove(player)
        if len(self.bidders) == 1 and self.bid[0] is not None:
            self.turn = self.bid[0]
            self.player_map[self.turn].hand.cards += self.kitty.cards
            self.kitty.cards = []
            self.state = "kitty"
        return True

    def return_kitty(self, player, kitty):
        if self.state != "kitty" or player != self.turn:
            print("refused: not now")
            return
        hand = self.player_map[player].hand
        held = {card.identifier: card for card in hand}
        assert all(identifier in held for identifier in kitty)
        hand.cards = [card for card in hand if card.identifier not in kitty]
        self.state = "play"
