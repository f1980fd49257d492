#!/usr/bin/env python3
"""Five Hundred conformance suite: protocol v1 adapter for Gareth001/500 (C).

Gareth001/500 is a TCP client/server game; its server holds the whole game (auction,
kitty, joker suit, play, scoring).  This adapter builds the server from the user's checkout
with the checkout's own ``make server``, runs one server per scenario as four scripted
clients, and fixes the deal through a small LD_PRELOAD library of ours (rand_shim.c) that
feeds the server's own shuffle.  It maps scenario steps onto the lines a player types and
reads back what the server says; acceptance is whatever the server answers.

    FIVEHUNDRED_GARETH001_PATH=/path/to/500 \\
        fivehundred verify --impl 'python3 adapters/third-party/gareth001/adapter.py'

Standard library only; it does not import the suite's package.  stdout carries protocol
messages only; logs go to stderr.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Mapping
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gareth_deal import SEATS, server_initial_deck, suite_deal, values_for_hands
from gareth_table import (
    ERRORS,
    Table,
    TableError,
    Trick,
    bid_to_server,
    build,
    card_to_server,
)

PROTOCOL = 1
REPOSITORY = "https://github.com/Gareth001/500"
COMMIT = "07806e58a7b8645d2fb39d71537f0686c54731c7"
VARIABLE = "FIVEHUNDRED_GARETH001_PATH"
SERVER_VARIABLE = "FIVEHUNDRED_GARETH001_SERVER"
HERE = os.path.dirname(os.path.abspath(__file__))

IMPLEMENTATION = {
    "name": "gareth001",
    "version": COMMIT[:7],
    "language": "c",
    "homepage": REPOSITORY,
}
# What the server's messages tell: no list of legal moves, no reasons in the suite's codes,
# no winner (it only says the game has ended), no kitty before it is taken, no seat told
# to sit out, no suits led.
OBSERVATIONS = [
    "phase",
    "to_act",
    "high_bid",
    "high_bidder",
    "passed",
    "contract",
    "declarer",
    "hands",
    "hand_sizes",
    "discards",
    "nominated",
    "trick",
    "last_trick",
    "tricks",
    "deal_score",
    "made",
    "scores",
    "dealer",
    "exposed",
    "game_over",
]
CAPABILITIES = {
    "profiles": ["australian-4"],
    "legal_actions": False,
    "error_codes": False,
    "observations": OBSERVATIONS,
}


class Skip(Exception):
    """A scenario the server cannot be set up for; the message is the reason."""


def log(text: str) -> None:
    print(f"gareth001 adapter: {text}", file=sys.stderr, flush=True)


def side_of(seat: str) -> str:
    return "NS" if seat in ("N", "S") else "EW"


class Game:
    """One scenario on one server: the seating and what the adapter did."""

    def __init__(self, table: Table, dealer: str) -> None:
        self.table = table
        self.view = table.view
        # Server player 0 bids first in the first deal: the seat left of the dealer.
        self.first_seat = SEATS[(SEATS.index(dealer) + 1) % 4]
        self.dealer = dealer
        self.started = False

    def seat(self, player: int) -> str:
        return SEATS[(SEATS.index(self.first_seat) + player) % 4]

    def player(self, seat: str) -> int:
        return (SEATS.index(seat) - SEATS.index(self.first_seat)) % 4

    def team_side(self, team: int) -> str:
        return side_of(self.seat(team))

    # ---- deals -------------------------------------------------------------------------

    def deal_hands(self, hands: Mapping[str, list[str]], kitty: list[str]) -> None:
        self.table.deal(values_for_hands(hands, kitty, self.first_seat))
        self.started = True
        bidder = self.view.first_bidder
        if bidder is None:
            raise TableError("the server did not ask anybody to bid after dealing")
        self.dealer = self.seat((bidder - 1) % 4)
        for seat, hand in hands.items():
            if sorted(self.view.hands.get(self.player(seat), [])) != sorted(hand):
                raise TableError(f"the server dealt {seat} other cards than the scenario's")

    def deal_step(self, deck: list[str]) -> dict[str, Any]:
        view = self.view
        if self.started and (view.game_over or not view.deal_over):
            return {"outcome": "rejected"}  # the server takes no new deal now
        # The server deals the next hand by itself: it asks the player after the last
        # deal's first bidder when that deal was played, the same one after a throw-in.
        dealer = self.dealer
        if self.started and not view.thrown_in:
            dealer = SEATS[(SEATS.index(dealer) + 1) % 4]
        expected = dealer
        hands, kitty = suite_deal(dealer, deck)
        self.deal_hands(hands, kitty)
        if self.dealer != expected:
            raise TableError(f"the server dealt with {self.dealer} as dealer, not {expected}")
        return {"outcome": "accepted"}

    def reach_play(self, setup: Mapping[str, Any]) -> None:
        """A play start before the first lead, reached through the server's own deal,
        auction and discard: the three cards in no hand are the kitty, the declarer bids
        the contract when asked and every other call is a pass (the server's auction ends
        when the declarer passes too), and the declarer lays the kitty away again.  Any
        refusal means the server cannot reach this position."""
        hands = setup["hands"]
        held = {card for hand in hands.values() for card in hand}
        deck = self.table_deck()
        kitty = [card for card in deck if card not in held]
        self.deal_hands(hands, kitty)
        declarer = self.player(setup["declarer"])
        contract_called = False
        for _ in range(12):
            asked = dict(self.view.pending)
            if list(asked.values()) != ["bet"]:
                break
            player = next(iter(asked))
            call = "PASS"
            if player == declarer and not contract_called:
                call, contract_called = setup["contract"], True
            if self.act({"seat": self.seat(player), "call": call}) != {"outcome": "accepted"}:
                raise Skip(f"the server refused the call {call} on the way to this position")
        if self.view.contract != setup["contract"] or self.view.declarer != declarer:
            raise Skip("the server's auction did not end with the scenario's contract")
        discard = {"seat": setup["declarer"], "discard": kitty}
        if self.act(discard) != {"outcome": "accepted"}:
            raise Skip("the server refused the discard that makes this position")
        nominated = setup.get("nominated")
        nomination = {"seat": setup["declarer"], "nominate": nominated}
        if nominated is not None and self.act(nomination) != {"outcome": "accepted"}:
            raise Skip("the server did not take the nomination this position has")
        # The position starts after the discard: what was laid away is not known there.
        self.view.discards = []

    @staticmethod
    def table_deck() -> list[str]:
        return server_initial_deck()

    # ---- actions -------------------------------------------------------------------------

    def act(self, step: Mapping[str, Any]) -> dict[str, Any]:
        player = self.player(step["seat"])
        asked = self.view.pending.get(player)
        if "call" in step:
            return self._answer(player, asked, "bet", [bid_to_server(step["call"])])
        if "discard" in step:
            if asked == "kitty" and len(step["discard"]) != 3:
                # The server asks for exactly three cards, one at a time, and has no
                # discard of another number: typing part of it would be another action.
                raise Skip(
                    f"the server takes a discard as three cards typed one by one; a discard "
                    f"of {len(step['discard'])} cards cannot be put to it"
                )
            cards = [card_to_server(c) for c in step["discard"]]
            return self._answer(player, asked, "kitty", cards)
        if "nominate" in step:
            return self._answer(player, asked, "joker", [step["nominate"]])
        if "play" in step:
            return self._answer(player, asked, "play", [card_to_server(step["play"])])
        raise Skip(f"the server has no action like {sorted(step)}")

    def _answer(
        self, player: int, asked: str | None, kind: str, lines: list[str]
    ) -> dict[str, Any]:
        """Type the lines as this player; rejected when the server is not asking this
        player for this kind of input, or answers a line with one of its refusals."""
        if asked != kind or self.view.game_over:
            return {"outcome": "rejected"}
        for line in lines:
            replies = self.table.say(player, line)
            if replies and replies[0] in ERRORS:
                return {"outcome": "rejected"}
            if kind == "kitty":
                self.view.discards.append(line if line != "JOKER" else "JK")
                hand = self.view.hands.get(player, [])
                if self.view.discards[-1] in hand:
                    hand.remove(self.view.discards[-1])
        return {"outcome": "accepted"}

    # ---- observations --------------------------------------------------------------------

    def observe(self, key: str) -> Any:
        view = self.view
        on_table = self.started
        if key == "phase":
            if not on_table:
                return "none"
            if view.deal_over:
                return "over"
            kinds = set(view.pending.values())
            if kinds == {"bet"}:
                return "auction"
            if kinds == {"kitty"}:
                return "kitty"
            return "play"
        if key == "to_act":
            if len(view.pending) != 1 or view.deal_over:
                return None
            return self.seat(next(iter(view.pending)))
        if key == "high_bid":
            return view.bids[-1][1] if on_table and view.bids else None
        if key == "high_bidder":
            return self.seat(view.bids[-1][0]) if on_table and view.bids else None
        if key == "passed":
            return sorted(self.seat(p) for p in view.passed) if on_table else []
        if key == "contract":
            return view.contract if on_table else None
        if key == "declarer":
            return self.seat(view.declarer) if on_table and view.declarer is not None else None
        if key == "hands":
            return {self.seat(p): list(view.hands.get(p, [])) if on_table else [] for p in range(4)}
        if key == "hand_sizes":
            return {self.seat(p): len(view.hands.get(p, [])) if on_table else 0 for p in range(4)}
        if key == "discards":
            return list(view.discards) if on_table else []
        if key == "nominated":
            return view.joker_suit if on_table else None
        if key == "trick":
            return self._trick(view.trick) if on_table else None
        if key == "last_trick":
            return self._trick(view.last_trick) if on_table else None
        if key == "tricks":
            if not on_table:
                return None
            return {self.team_side(t): view.tricks[t] for t in (0, 1)}
        if key == "deal_score":
            if not on_table or not view.deal_over:
                return None
            return {self.team_side(t): view.scores[t] - view.scores_before[t] for t in (0, 1)}
        if key == "made":
            return view.made if on_table and view.deal_over else None
        if key == "scores":
            return {self.team_side(t): view.scores[t] for t in (0, 1)}
        if key == "dealer":
            return self._dealer()
        if key == "exposed":
            return list(view.shown[1]) if on_table and view.shown is not None else None
        if key == "game_over":
            return view.game_over
        raise Skip(f"observation {key} is not available")

    def _dealer(self) -> str:
        """The seat before the one the server asks first; once a deal is over, the seat
        before the one it will ask first in the next deal (it moves on after a played
        deal that does not end the game, and not after a throw-in)."""
        view = self.view
        if self.started and view.deal_over and not view.thrown_in and not view.game_over:
            return SEATS[(SEATS.index(self.dealer) + 1) % 4]
        return self.dealer

    def _trick(self, trick: Trick | None) -> dict[str, Any] | None:
        if trick is None or not trick.plays:
            return None
        shown: dict[str, Any] = {
            "leader": self.seat(trick.leader),
            "led": self._led(trick.plays[0][1]),
            "cards": {self.seat(p): card for p, card in trick.plays},
        }
        if trick.winner is not None:
            shown["winner"] = self.seat(trick.winner)
        return shown

    def _led(self, card: str) -> str:
        """The suit the server records as led for this card (cards.c handle_bower and
        server.c get_valid_card_from_player): the joker is its chosen suit in no trumps and
        the trump suit otherwise; a jack of the trump's colour is a trump; any other card
        is its own suit.  The server keeps this to itself, so it is read off its code."""
        contract = self.view.contract or ""
        suit_contract = contract[:-1].isdigit() and contract[-1:] in ("S", "C", "D", "H")
        trump = contract[-1] if suit_contract else None
        if card == "JK":
            return (trump if trump is not None else self.view.joker_suit) or "JK"
        suit = card[-1]
        if trump is not None and card[:-1] == "J":
            colours = ({"S", "C"}, {"D", "H"})
            if any(suit in colour and trump in colour for colour in colours):
                return trump
        return suit


# ---- the scenario --------------------------------------------------------------------


def check_setup(setup: Mapping[str, Any], steps: list[Mapping[str, Any]]) -> None:
    if any(setup.get("scores", {}).values()):
        raise Skip("the server starts every game at 0 to 0 and cannot be given other scores")
    start = setup["start"]
    if start == "play":
        if any(setup.get("tricks", {}).values()):
            raise Skip(
                "the server cannot start in the middle of the play (tricks already "
                "played); it plays every deal from its own deal"
            )
        if any(len(hand) != 10 for hand in setup["hands"].values()):
            raise Skip("the server deals ten cards to every seat, the misère partner too")
        if setup["contract"] == "MIS":
            raise Skip(
                "the server takes misère only over a seven bid: reaching a misère "
                "contract needs an auction that the position does not give"
            )
    if start == "game" and any("deal_result" in step for step in steps):
        raise Skip("the server cannot record a deal's result without playing the deal")


def run_scenario(scenario: Mapping[str, Any], server: str, shim: str) -> dict[str, Any]:
    setup = scenario["setup"]
    steps = scenario["steps"]
    check_setup(setup, steps)
    table = Table(server, shim)
    try:
        table.open()
        game = Game(table, setup["dealer"])
        if setup["start"] == "deck":
            game.deal_hands(*suite_deal(setup["dealer"], setup["deck"]))
        elif setup["start"] == "auction":
            game.deal_hands(setup["hands"], setup["kitty"])
        elif setup["start"] == "play":
            game.reach_play(setup)
        results: list[dict[str, Any]] = []
        for step in steps:
            if "observe" in step:
                results.append({"observed": {k: game.observe(k) for k in step["observe"]}})
            elif "deal" in step:
                results.append(game.deal_step(step["deal"]))
            elif "deal_result" in step:
                raise Skip("the server cannot record a deal's result without playing it")
            else:
                results.append(game.act(step))
        return {"steps": results}
    finally:
        table.close()


# ---- start-up and the protocol -------------------------------------------------------


def find_server() -> str:
    """The server binary: FIVEHUNDRED_GARETH001_SERVER if given, else built with the
    checkout's own makefile.  Exits with one line on stderr when neither works."""
    given = os.environ.get(SERVER_VARIABLE)
    if given:
        if not os.access(given, os.X_OK):
            fail(f"{SERVER_VARIABLE}={given!r} is not an executable server")
        return given
    checkout = os.environ.get(VARIABLE, "")
    if not checkout or not os.path.isfile(os.path.join(checkout, "server.c")):
        fail(
            f"set {VARIABLE} to a checkout of {REPOSITORY} at {COMMIT} "
            f"(git clone {REPOSITORY} && git -C 500 checkout {COMMIT})"
        )
    try:
        return build(checkout, subprocess.run)
    except (TableError, OSError, subprocess.TimeoutExpired) as error:
        fail(f"cannot build the server in {checkout} (needs gcc and make): {error}")
    raise AssertionError("unreachable")


def build_shim(folder: str) -> str:
    shim = os.path.join(folder, "rand_shim.so")
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or "cc"
    done = subprocess.run(
        [compiler, "-shared", "-fPIC", "-O1", "-o", shim, os.path.join(HERE, "rand_shim.c")],
        capture_output=True,
        timeout=60,
    )
    if done.returncode != 0:
        fail(f"cannot compile rand_shim.c: {done.stderr.decode('utf-8', 'replace')[-300:]}")
    return shim


def fail(text: str) -> None:
    print(f"gareth001 adapter: {text}", file=sys.stderr, flush=True)
    sys.exit(2)


def answer(message: Mapping[str, Any], server: str, shim: str) -> dict[str, Any] | None:
    command = message.get("cmd")
    if command == "hello":
        return {
            "protocol": PROTOCOL,
            "implementation": IMPLEMENTATION,
            "capabilities": CAPABILITIES,
        }
    if command == "bye":
        return None
    if command != "run":
        raise ValueError(f"unknown cmd {command!r}")
    seq = message["seq"]
    scenario = message["scenario"]
    try:
        return {"seq": seq, "result": run_scenario(scenario, server, shim)}
    except Skip as reason:
        return {"seq": seq, "skipped": {"reason": str(reason)}}
    except Exception as error:  # the server, a connection or this adapter failed
        log(traceback.format_exc())
        return {
            "seq": seq,
            "errored": {
                "message": f"{type(error).__name__}: {error}",
                "context": {"id": scenario.get("id")},
            },
        }


def main() -> int:
    server = find_server()
    with tempfile.TemporaryDirectory(prefix="gareth001-shim-") as folder:
        shim = build_shim(folder)
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                reply = answer(json.loads(line), server, shim)
            except (ValueError, KeyError, TypeError) as error:
                log(f"cannot answer {line[:200]!r}: {error}")
                return 2
            if reply is None:
                return 0
            sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
