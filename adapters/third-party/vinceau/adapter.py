#!/usr/bin/env python3
"""Protocol v1 adapter for vinceau/fivehundred, a Python engine of the deal and the auction.

The engine is not part of this suite: the adapter loads it from a checkout the user
fetched, named by FIVEHUNDRED_VINCEAU_PATH (see README.md beside this file).  Standard
library only, with the protocol half in ../python_protocol.py, and nothing from the suite's
own package: this is the program an outside implementer would write.  (The engine's package is
also called ``fivehundred``; the adapter makes sure it loaded the engine's.)

The adapter translates notation and nothing else.  It never decides a rule: calls go to
the engine's ``Round.set_bid``, the discard to ``Round.return_kitty``, and every
observation is read from the engine's own state, so each disagreement with the suite is
the engine's.  What the engine has no call for (card play, the joker's nomination,
scoring, a game of several deals) is answered ``skipped`` with the reason.

How the engine's answers map onto the protocol:
* ``set_bid`` returns True or False: accepted or rejected (it prints its reason, which
  goes to stderr here, since stdout carries the protocol);
* ``return_kitty`` returns nothing either way: it declines by returning before it changes
  anything, and it finishes by moving the round to its play state, so the discard is
  accepted when the round moved to play and rejected when nothing changed;
* any exception (the engine crashing, or its own assert failing): the scenario is errored,
  with where the engine crashed, because the engine could not run it.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import python_protocol as protocol  # the protocol half shared with the other Python adapter

ENGINE = protocol.Engine(
    "vinceau",
    "https://github.com/vinceau/fivehundred",
    "FIVEHUNDRED_VINCEAU_PATH",
    "69c4dec7ca33d2f3aa68168cda6c863d352b0397",
)

SEATS = ("N", "E", "S", "W")  # the engine's players, named by seat, in its turn order
JOKER = "Birdie"  # the engine's name for the joker
PHASES = {"bidding": "auction", "kitty": "kitty", "play": "play"}
# The suite writes no trumps NT and the misères MIS and OMIS; the engine X, M and OM.
SUITLESS_BIDS = {"MIS": "M", "OMIS": "OM"}
NO_TRUMPS = ("NT", "X")

# What the engine can be asked.  It has no list of legal calls, refuses without the
# suite's codes, keeps no discards, dealer or score.
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
        "contract",
        "declarer",
        "hands",
        "hand_sizes",
        "kitty",
    ],
}

MISSING_STEPS = {
    "sans_kitty": "the engine has no way to play without the kitty",
    "nominate": "the engine has no joker nomination",
    "play": "the engine has no card play: its round ends at the kitty exchange",
    "deal": "the engine's game cannot take a deck for a new deal, nor record deal results",
    "deal_result": "the engine's game cannot take a deck for a new deal, nor record deal results",
}
MISSING_STARTS = {
    "play": "the engine cannot be set up in the middle of play: it has no card play",
    "game": "the engine's game cannot take a deck for a new deal, nor record deal results",
}


NotExpressible = protocol.NotExpressible


def load_engine():
    """Import the engine's package from the checkout (or say in one line what to do).

    The engine's package is called fivehundred, like the suite's: the checkout goes first
    on the path, and the adapter checks that the package it loaded is the checkout's."""
    global CORE, GAME
    root = ENGINE.checkout(os.path.join("fivehundred", "game.py"))
    sys.path.insert(0, root)
    import fivehundred.core  # the engine's: importable once the path is known
    import fivehundred.game

    package = os.path.realpath(os.path.join(root, "fivehundred"))
    loaded = os.path.realpath(os.path.dirname(fivehundred.game.__file__))
    if loaded != package:
        ENGINE.give_up(f" (a package called fivehundred was loaded from {loaded!r} instead)")
    CORE, GAME = fivehundred.core, fivehundred.game
    return root


CORE, GAME = None, None  # the engine's modules, once loaded

# ---- notation: the suite's codes to the engine's and back ----------------------------


def engine_card_id(code):
    """10H -> H10, JK -> Birdie: the engine names a card by suit, then rank."""
    return JOKER if code == "JK" else code[-1] + code[:-1]


def card_code(identifier):
    return "JK" if identifier == JOKER else identifier[1:] + identifier[0]


def engine_bid(code):
    """7NT -> 7X, MIS -> M, OMIS -> OM; anything else as written, for the engine to judge."""
    if code in SUITLESS_BIDS:
        return SUITLESS_BIDS[code]
    if code.endswith(NO_TRUMPS[0]):
        return code[: -len(NO_TRUMPS[0])] + NO_TRUMPS[1]
    return code


def bid_code(identifier):
    for code, engine in SUITLESS_BIDS.items():
        if identifier == engine:
            return code
    if identifier.endswith(NO_TRUMPS[1]):
        return identifier[: -len(NO_TRUMPS[1])] + NO_TRUMPS[0]
    return identifier


def engine_cards(codes):
    """The engine's own card objects for these codes, taken from a fresh engine deck."""
    deck = CORE.FiveHundredDeck(False)
    by_id = {card.identifier: card for card in deck}
    return [by_id[engine_card_id(code)] for code in codes]


# ---- the scenario on the engine ----------------------------------------------------------


def set_up(setup):
    """A Round with the players in seat order and the scenario's dealer.

    The engine deals inside Round() from a deck it builds and shuffles itself, in the same
    packets as the suite, drawing from the top.  For a deck start the adapter lets the
    engine deal the scenario's deck: while the Round is built, the engine's name
    FiveHundredDeck gives the engine's own cards in the scenario's order (top card drawn
    first).  An auction start replaces the dealt hands and kitty with the scenario's.
    The engine keeps no game score, so the setup's scores are not given to it (no score
    is observed either)."""
    dealer = SEATS.index(setup["dealer"])
    if setup["start"] == "deck":
        ordered = CORE.FiveHundredDeck(False)
        ordered.cards = list(reversed(engine_cards(setup["deck"])))  # the engine draws from the end
        shuffling = GAME.FiveHundredDeck
        GAME.FiveHundredDeck = lambda sixplayer: ordered
        try:
            return GAME.Round(list(SEATS), dealer)
        finally:
            GAME.FiveHundredDeck = shuffling
    round_ = GAME.Round(list(SEATS), dealer)
    for seat, codes in setup["hands"].items():
        round_.player_map[seat].hand.cards = engine_cards(codes)
    round_.kitty.cards = engine_cards(setup["kitty"])
    return round_


def call(round_, step):
    if round_.set_bid(step["seat"], engine_bid(step["call"])):
        return {"outcome": "accepted"}
    return {"outcome": "rejected"}


def discard(round_, step):
    round_.return_kitty(step["seat"], [engine_card_id(code) for code in step["discard"]])
    return {"outcome": "accepted" if round_.state == "play" else "rejected"}


def observe(round_, key):
    over = round_.state != "bidding"
    bidder, bid = round_.bid
    if key == "phase":
        return PHASES[round_.state]
    if key == "to_act":
        return round_.turn
    if key == "high_bid":
        return None if bid is None else bid_code(bid.identifier)
    if key == "high_bidder":
        return bidder
    if key == "contract":
        return bid_code(bid.identifier) if over and bid is not None else None
    if key == "declarer":
        return bidder if over else None
    if key == "passed":
        return [seat for seat in SEATS if seat not in round_.bidders]
    if key == "hands":
        # The hand as the engine holds it.  Its get_hand(), a sorted display of the same
        # cards, raises AttributeError for a hand holding the joker, which has no suit.
        hands = round_.player_map
        return {seat: [card_code(card.identifier) for card in hands[seat].hand] for seat in SEATS}
    if key == "hand_sizes":
        return {seat: round_.player_map[seat].hand.size() for seat in SEATS}
    if key == "kitty":
        return [card_code(card.identifier) for card in round_.kitty]
    raise NotExpressible(f"the observation {key}")


def run_scenario(scenario):
    protocol.check_expressible(scenario, MISSING_STARTS, MISSING_STEPS)
    round_ = set_up(scenario["setup"])
    results = []
    for step in scenario["steps"]:
        if "observe" in step:
            results.append({"observed": {key: observe(round_, key) for key in step["observe"]}})
        elif "discard" in step:
            results.append(discard(round_, step))
        else:
            results.append(call(round_, step))
    return results


if __name__ == "__main__":
    sys.exit(protocol.serve(ENGINE, "vinceau/fivehundred", CAPABILITIES, load_engine, run_scenario))
