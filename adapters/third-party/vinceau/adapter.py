#!/usr/bin/env python3
"""Protocol v1 adapter for vinceau/fivehundred, a Python engine of the deal and the auction.

The engine is not part of this suite: the adapter loads it from a checkout the user
fetched, named by FIVEHUNDRED_VINCEAU_PATH (see README.md beside this file).  Standard
library only, and nothing from the suite's own package is imported (the engine's package
is also called ``fivehundred``; the adapter makes sure it loaded the engine's).

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

import json
import os
import sys
import traceback

PROTOCOL = 1
CHECKOUT_VARIABLE = "FIVEHUNDRED_VINCEAU_PATH"
REPOSITORY = "https://github.com/vinceau/fivehundred"
PINNED_COMMIT = "69c4dec7ca33d2f3aa68168cda6c863d352b0397"

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


class NotExpressible(Exception):
    """The engine has no call for what the scenario needs: the scenario is skipped."""


def log(text):
    print(f"vinceau adapter: {text}", file=sys.stderr, flush=True)


def checkout_commit(root):
    """The commit the checkout is at, read from its .git folder, or None if unknown."""
    git = os.path.join(root, ".git")
    try:
        with open(os.path.join(git, "HEAD"), encoding="utf-8") as head_file:
            head = head_file.read().strip()
        if not head.startswith("ref: "):
            return head
        ref = head[len("ref: ") :]
        ref_path = os.path.join(git, *ref.split("/"))
        if os.path.isfile(ref_path):
            with open(ref_path, encoding="utf-8") as ref_file:
                return ref_file.read().strip()
        with open(os.path.join(git, "packed-refs"), encoding="utf-8") as packed:
            for line in packed:
                parts = line.split()
                if len(parts) == 2 and parts[1] == ref:
                    return parts[0]
    except OSError:
        return None
    return None


def give_up(root, why):
    print(
        f"set {CHECKOUT_VARIABLE} to a checkout of {REPOSITORY} at {PINNED_COMMIT}"
        f"{why}: git clone {REPOSITORY} /tmp/vinceau && "
        f"git -C /tmp/vinceau checkout {PINNED_COMMIT}",
        file=sys.stderr,
    )
    sys.exit(2)


def load_engine():
    """Import the engine's package from the checkout, or say in one line what to do."""
    root = os.environ.get(CHECKOUT_VARIABLE, "")
    if not root:
        give_up(root, "")
    package = os.path.realpath(os.path.join(root, "fivehundred"))
    if not os.path.isfile(os.path.join(package, "game.py")):
        give_up(root, f" (it is {root!r}, which has no fivehundred/game.py)")
    sys.path.insert(0, root)
    import fivehundred.core as core_module  # the engine's: importable once the path is known
    import fivehundred.game as game_module

    loaded = os.path.realpath(os.path.dirname(game_module.__file__))
    if loaded != package:
        give_up(root, f" (a package called fivehundred was loaded from {loaded!r} instead)")
    commit = checkout_commit(root)
    if commit and commit != PINNED_COMMIT:
        log(f"the checkout is at {commit}, not at the tested commit {PINNED_COMMIT}")
    return core_module, game_module, commit


CORE, GAME, COMMIT = None, None, None

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


def check_expressible(scenario):
    """Skip before running anything the engine has no call for (a reply covers a whole scenario)."""
    start = scenario["setup"]["start"]
    if start in MISSING_STARTS:
        raise NotExpressible(MISSING_STARTS[start])
    for step in scenario["steps"]:
        for kind, reason in MISSING_STEPS.items():
            if kind in step:
                raise NotExpressible(reason)


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
    check_expressible(scenario)
    round_ = set_up(scenario["setup"])
    results = []
    for step in scenario["steps"]:
        if "observe" in step:
            results.append({"observed": {key: observe(round_, key) for key in step["observe"]}})
        elif "discard" in step:
            results.append(discard(round_, step))
        else:
            results.append(call(round_, step))
    return {"steps": results}


# ---- the protocol ------------------------------------------------------------------------


def where(error):
    """The last frames of an engine crash as file:line (function), without the source lines
    (the engine's code stays in the engine) and with the checkout's path as the variable
    that names it, so that a report does not depend on where the checkout lives."""
    root = os.path.realpath(os.environ.get(CHECKOUT_VARIABLE, "")) + os.sep
    frames = []
    for frame in traceback.extract_tb(error.__traceback__)[-4:]:
        path = os.path.realpath(frame.filename)
        if path.startswith(root):
            path = f"${CHECKOUT_VARIABLE}/{path[len(root) :]}"
        else:
            path = os.path.basename(path)
        frames.append(f"{path}:{frame.lineno} ({frame.name})")
    return frames


def answer(message):
    """The reply to one message, or None for bye."""
    command = message.get("cmd")
    if command == "hello":
        implementation = {
            "name": "vinceau/fivehundred",
            "version": (COMMIT or "unknown")[:7],
            "language": "python",
            "homepage": REPOSITORY,
        }
        return {
            "protocol": PROTOCOL,
            "implementation": implementation,
            "capabilities": CAPABILITIES,
        }
    if command == "bye":
        return None
    if command != "run":
        raise ValueError(f"unknown cmd {command!r}")
    seq = message["seq"]
    try:
        return {"seq": seq, "result": run_scenario(message["scenario"])}
    except NotExpressible as missing:
        return {"seq": seq, "skipped": {"reason": str(missing)}}
    except Exception as error:  # the engine crashed: it could not run this scenario
        return {
            "seq": seq,
            "errored": {
                "message": f"the engine raised {type(error).__name__}: {error}",
                "context": {"where": where(error)},
            },
        }


def main():
    global CORE, GAME, COMMIT
    protocol_out = sys.stdout
    sys.stdout = sys.stderr  # the engine prints its refusals; they must not reach the protocol
    CORE, GAME, COMMIT = load_engine()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = answer(json.loads(line))
        except Exception as error:
            log(f"cannot answer {line[:200]!r}: {error}")
            return 2
        if reply is None:
            return 0
        protocol_out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        protocol_out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
