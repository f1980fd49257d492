#!/usr/bin/env python3
"""Protocol v1 adapter for halbrd/five-hundred, a Python engine that has an auction only.

The engine is not part of this suite: the adapter loads it from a checkout the user
fetched, named by FIVEHUNDRED_HALBRD_PATH (see README.md beside this file).  Standard
library only, with the protocol half in ../python_protocol.py, and nothing from the suite's
own package: this is the program an outside implementer would write.

The adapter translates notation and nothing else.  It never decides a rule: every call
goes to the engine's ``Hand.accept_bid`` and every observation is read from the engine's
own state, so each disagreement with the suite is the engine's.  What the engine has no
call for (taking the kitty, discarding, playing, scoring, a game of several deals) is
answered ``skipped`` with the reason.

How the engine's answers map onto the protocol:
* ``accept_bid`` returning normally: the call is accepted;
* ``accept_bid`` raising ``ValueError`` or one of its ``GameStateException`` classes
  (the engine's own ways of refusing, and ``Bid`` refusing a bid it does not know): rejected;
* any other exception (the engine crashing): the scenario is errored, with where the
  engine crashed, because the engine could not run it.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import python_protocol as protocol  # the protocol half shared with the other Python adapter

ENGINE = protocol.Engine(
    "halbrd",
    "https://github.com/halbrd/five-hundred",
    "FIVEHUNDRED_HALBRD_PATH",
    "c44e5620225646ecae737208ba8ecef5a9cc6531",
)
ENGINE_FOLDER = "five-hundred"  # the checkout keeps its modules here, imported by bare name

SEATS = ("N", "E", "S", "W")
SUIT_NAMES = {"S": "SPADES", "C": "CLUBS", "D": "DIAMONDS", "H": "HEARTS"}
RANK_NAMES = {
    "A": "ACE",
    "K": "KING",
    "Q": "QUEEN",
    "J": "JACK",
    "10": "TEN",
    "9": "NINE",
    "8": "EIGHT",
    "7": "SEVEN",
    "6": "SIX",
    "5": "FIVE",
    "4": "FOUR",
}
BID_STRAINS = {"S": "SPADES", "C": "CLUBS", "D": "DIAMONDS", "H": "HEARTS", "NT": "NO_TRUMPS"}
SUITLESS_BIDS = {"PASS": "PASS", "MIS": "MISERE", "OMIS": "OPEN_MISERE"}

# What the engine can be asked.  It has no list of legal calls and refuses without
# the suite's codes; its Hand knows the deal, the calls made and whose turn it is.
# contract and declarer are left out: the engine's winning_bid() does not return a bid.
CAPABILITIES = {
    "profiles": ["australian-4"],
    # The starts it can set up (a runner that does not know this member ignores it).
    "starts": ["deck", "auction"],
    "legal_actions": False,
    "error_codes": False,
    "observations": [
        "phase",
        "to_act",
        "high_bid",
        "high_bidder",
        "passed",
        "hands",
        "hand_sizes",
        "kitty",
        "dealer",
    ],
}

# Steps the engine has no call for, with the reason reported for the skip.
NO_KITTY = "the engine has no call to take the kitty or discard: a Hand takes only calls and cards"
MISSING_STEPS = {
    "discard": NO_KITTY,
    "sans_kitty": NO_KITTY,
    "nominate": "the engine has no joker nomination",
    "play": "card play comes after the kitty exchange, which the engine does not have",
    "deal": "the engine has no game of several deals: its Hand is one deal",
    "deal_result": "the engine has no game of several deals: its Hand is one deal",
}
MISSING_STARTS = {
    "play": "the engine cannot be set up in the middle of play: a Hand starts at the deal",
    "game": "the engine has no game of several deals: its Hand is one deal",
}


NotExpressible = protocol.NotExpressible


def load_engine():
    """Import the engine's modules from the checkout (or say in one line what to do)."""
    global BID, CARD, HAND, KITTY
    root = ENGINE.checkout(os.path.join(ENGINE_FOLDER, "hand.py"))
    sys.path.insert(0, os.path.join(root, ENGINE_FOLDER))
    import bid  # the engine's modules: importable once the path is known
    import card
    import hand
    import kitty

    BID, CARD, HAND, KITTY = bid, card, hand, kitty
    return root


BID, CARD, HAND, KITTY = None, None, None, None  # the engine's modules, once loaded

# ---- notation: the suite's codes to the engine's objects and back ---------------------


def engine_card(code):
    if code == "JK":
        return CARD.Card("JOKER")
    return CARD.Card(SUIT_NAMES[code[-1]], RANK_NAMES[code[:-1]])


def card_code(card):
    if card.is_joker():
        return "JK"
    suit = next(letter for letter, name in SUIT_NAMES.items() if card.suit == name)
    rank = next(short for short, name in RANK_NAMES.items() if card.rank == name)
    return rank + suit


def engine_bid(code, seat):
    """The engine's Bid for a call; the engine's Bid raises ValueError for one it lacks."""
    if code in SUITLESS_BIDS:
        return BID.Bid(SUITLESS_BIDS[code], player_id=seat)
    for strain, name in BID_STRAINS.items():
        if code.endswith(strain) and code[: -len(strain)].isdigit():
            return BID.Bid(name, code[: -len(strain)], player_id=seat)
    return BID.Bid(code, player_id=seat)  # not a call of the suite's: the engine judges it


def bid_code(bid):
    for code, name in SUITLESS_BIDS.items():
        if bid.suit == name:
            return code
    strain = next(short for short, name in BID_STRAINS.items() if bid.suit == name)
    return str(bid.value) + strain


# ---- the scenario on the engine ----------------------------------------------------------


def set_up(setup):
    """A Hand whose seats run from the dealer's left round to the dealer, as the engine wants.

    The engine deals from its own deck, top card first, in the same packets as the suite;
    a deck start hands it the scenario's deck in place of its shuffled one and lets it
    deal.  An auction start gives the hands and kitty directly.  The engine keeps no game
    score, so the setup's scores are not given to it (no score is observed either)."""
    dealer = SEATS.index(setup["dealer"])
    player_ids = [SEATS[(dealer + offset) % 4] for offset in (1, 2, 3, 4)]
    hand = HAND.Hand(player_ids, deal=False)
    if setup["start"] == "deck":
        hand.deck.cards = [engine_card(code) for code in setup["deck"]]
        hand.deal()
    else:
        for seat, codes in setup["hands"].items():
            hand.hands[seat] = [engine_card(code) for code in codes]
        hand.kitty = KITTY.Kitty([engine_card(code) for code in setup["kitty"]])
    return hand


def call(hand, step):
    try:
        hand.accept_bid(engine_bid(step["call"], step["seat"]))
    except (ValueError, HAND.GameStateException) as refusal:
        ENGINE.log(f"{step['seat']} {step['call']} refused: {type(refusal).__name__}: {refusal}")
        return {"outcome": "rejected"}
    return {"outcome": "accepted"}


def observe(hand, key):
    if key == "phase":
        if hand.bidding_is_concluded():
            raise NotExpressible("the engine has no phase after the auction")
        return "auction"
    if key == "to_act":
        return hand.next_player()
    if key in ("high_bid", "high_bidder"):
        last = hand.last_normal_bid()
        if last is None:
            return None
        return bid_code(last) if key == "high_bid" else last.player_id
    if key == "passed":
        return [bid.player_id for bid in hand.bids if bid == BID.Bid("PASS")]
    if key == "hands":
        return {seat: [card_code(card) for card in cards] for seat, cards in hand.hands.items()}
    if key == "hand_sizes":
        return {seat: len(cards) for seat, cards in hand.hands.items()}
    if key == "kitty":
        return [card_code(card) for card in hand.kitty.cards]
    if key == "dealer":
        return hand.dealer_id
    raise NotExpressible(f"the observation {key}")


def run_scenario(scenario):
    protocol.check_expressible(scenario, MISSING_STARTS, MISSING_STEPS)
    hand = set_up(scenario["setup"])
    results = []
    for step in scenario["steps"]:
        if "observe" in step:
            results.append({"observed": {key: observe(hand, key) for key in step["observe"]}})
        else:
            results.append(call(hand, step))
    return results


if __name__ == "__main__":
    sys.exit(protocol.serve(ENGINE, "halbrd/five-hundred", CAPABILITIES, load_engine, run_scenario))
