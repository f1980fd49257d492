"""Fake of the engine's hand module: one deal, its auction, and a crash at open misère.

The auction ends after a bid and three passes (or four passes); a passed seat is skipped.
Open misère raises RuntimeError, standing in for an engine crash."""

from bid import Bid
from kitty import Kitty


class GameStateException(Exception):
    pass


class OutOfTurnError(GameStateException):
    pass


class Deck:
    def __init__(self):
        self.cards = []

    def draw_card(self):
        return self.cards.pop(0)


class Hand:
    def __init__(self, player_ids, deal=True):
        self.dealer_id = player_ids[-1]
        self.deck = Deck()
        self.hands = {player_id: [] for player_id in player_ids}
        self.kitty = None
        self.bids = []
        if deal:
            self.deal()

    def deal(self):
        self.kitty = Kitty()
        for packet in (3, 4, 3):
            for cards in self.hands.values():
                cards.extend(self.deck.draw_card() for _ in range(packet))
            self.kitty.append(self.deck.draw_card())

    def passed(self):
        return [bid.player_id for bid in self.bids if bid == Bid("PASS")]

    def bidding_is_concluded(self):
        return len(self.passed()) >= 3 and (self.last_normal_bid() or len(self.passed()) == 4)

    def last_normal_bid(self):
        bids = [bid for bid in self.bids if bid != Bid("PASS")]
        return bids[-1] if bids else None

    def next_player(self):
        seats = list(self.hands)
        if not self.bids:
            return seats[0]
        at = seats.index(self.bids[-1].player_id)
        for step in range(1, 5):
            seat = seats[(at + step) % 4]
            if seat not in self.passed():
                return seat
        return None

    def accept_bid(self, bid):
        if self.bidding_is_concluded():
            raise GameStateException("the auction is over")
        if bid.player_id != self.next_player():
            raise OutOfTurnError("not your turn")
        if bid == Bid("OPEN_MISERE"):
            raise RuntimeError("the fake crashes at open misère")
        last = self.last_normal_bid()
        if bid != Bid("PASS") and last is not None and not bid > last:
            raise ValueError("not higher")
        self.bids.append(bid)
