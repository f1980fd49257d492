"""The adapter for Gareth001/500, checked against a fake of its TCP game server.

The engine itself is not part of the project; ``tests/third_party/fakes/gareth001/server``
is our own small Python server speaking the same line protocol with trivial rules (no
misère, no following suit, a made contract scores ten a trick bid), so that every answer
below can only have come from asking the server.  The adapter compiles its rand() shim
with the C compiler; without one the tests skip.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = ROOT / "adapters" / "third-party" / "gareth001" / "adapter.py"
FAKE = Path(__file__).resolve().parent / "fakes" / "gareth001" / "server"
HELLO = {"cmd": "hello", "protocol": 1, "suite": "1.5.0"}
VARIABLES = ("FIVEHUNDRED_GARETH001_PATH", "FIVEHUNDRED_GARETH001_SERVER")
DECK = [
    *(f"{r}S" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5")),
    *(f"{r}C" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5")),
    *(f"{r}D" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")),
    *(f"{r}H" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")),
    "JK",
]
# The suite's deal of DECK by N: packets of 3, 4 and 3 from E, a kitty card after each.
HANDS = {
    "E": DECK[0:3] + DECK[13:17] + DECK[30:33],
    "S": DECK[3:6] + DECK[17:21] + DECK[33:36],
    "W": DECK[6:9] + DECK[21:25] + DECK[36:39],
    "N": DECK[9:12] + DECK[25:29] + DECK[39:42],
}
KITTY = [DECK[12], DECK[29], DECK[42]]


@pytest.fixture(scope="module", autouse=True)
def compiler() -> None:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler (apt-get install gcc): the adapter compiles its rand() shim")


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    env.update(extra)
    return env


def exchange(messages: list[dict[str, Any]], env: dict[str, str]) -> list[Any]:
    text = "".join(json.dumps(m) + "\n" for m in [*messages, {"cmd": "bye"}])
    done = subprocess.run(
        [sys.executable, str(ADAPTER)],
        input=text,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def run_on_fake(*scenarios: dict[str, Any]) -> list[dict[str, Any]]:
    runs = [{"cmd": "run", "seq": n, "scenario": s} for n, s in enumerate(scenarios, 1)]
    replies = exchange([HELLO, *runs], environment(FIVEHUNDRED_GARETH001_SERVER=str(FAKE)))
    assert [r["seq"] for r in replies[1:]] == list(range(1, len(scenarios) + 1))
    return replies[1:]


def deck_start(*steps: dict[str, Any], dealer: str = "N") -> dict[str, Any]:
    return {
        "id": "TEST",
        "profile": "australian-4",
        "setup": {"start": "deck", "dealer": dealer, "deck": DECK},
        "steps": list(steps),
    }


def steps_of(reply: dict[str, Any]) -> list[dict[str, Any]]:
    assert "result" in reply, reply
    steps: list[dict[str, Any]] = reply["result"]["steps"]
    return steps


AUCTION_WON_BY_E = [
    {"seat": "E", "call": "7H"},
    {"seat": "S", "call": "PASS"},
    {"seat": "W", "call": "PASS"},
    {"seat": "N", "call": "PASS"},
    {"seat": "E", "call": "PASS"},  # the server's auction ends when the winner passes too
]


def test_hello_declares_what_the_server_tells() -> None:
    (hello,) = exchange([HELLO], environment(FIVEHUNDRED_GARETH001_SERVER=str(FAKE)))
    assert hello["implementation"]["name"] == "gareth001"
    assert hello["implementation"]["homepage"] == "https://github.com/Gareth001/500"
    capabilities = hello["capabilities"]
    assert capabilities["legal_actions"] is False
    assert capabilities["error_codes"] is False
    assert "last_trick" in capabilities["observations"]
    assert "winner" not in capabilities["observations"]
    assert "kitty" not in capabilities["observations"]


def test_the_server_deals_the_scenario_s_deck() -> None:
    (reply,) = run_on_fake(
        deck_start(
            {"observe": ["phase", "to_act", "dealer", "hands", "hand_sizes", "tricks"]},
            dealer="N",
        )
    )
    (observed,) = [step["observed"] for step in steps_of(reply)]
    assert observed["phase"] == "auction"
    assert observed["to_act"] == "E"
    assert observed["dealer"] == "N"
    assert {seat: sorted(cards) for seat, cards in observed["hands"].items()} == {
        seat: sorted(cards) for seat, cards in HANDS.items()
    }
    assert observed["hand_sizes"] == {"N": 10, "E": 10, "S": 10, "W": 10}
    assert observed["tricks"] == {"NS": 0, "EW": 0}


def test_calls_are_typed_and_the_server_s_answer_is_the_outcome() -> None:
    (reply,) = run_on_fake(
        deck_start(
            {"seat": "E", "call": "7H"},
            {"seat": "W", "call": "8S"},  # not W's turn: never typed, so refused
            {"seat": "S", "call": "6S"},  # the fake answers "Bet not high enough"
            {"seat": "S", "call": "7NT"},
            {"observe": ["high_bid", "high_bidder", "to_act", "passed"]},
            {"seat": "W", "call": "PASS"},
            {"observe": ["passed", "to_act"]},
        )
    )
    results = steps_of(reply)
    assert [r.get("outcome") for r in results[:4]] == [
        "accepted",
        "rejected",
        "rejected",
        "accepted",
    ]
    assert results[4]["observed"] == {
        "high_bid": "7NT",
        "high_bidder": "S",
        "to_act": "W",
        "passed": [],
    }
    assert results[5] == {"outcome": "accepted"}
    assert results[6]["observed"] == {"passed": ["W"], "to_act": "N"}


def test_discard_and_play_go_through_the_server() -> None:
    hand = HANDS["E"] + KITTY
    (reply,) = run_on_fake(
        deck_start(
            *AUCTION_WON_BY_E,
            {"observe": ["phase", "contract", "declarer", "to_act", "passed"]},
            {"seat": "E", "discard": KITTY},
            {"observe": ["phase", "to_act", "discards", "hand_sizes"]},
            {"seat": "E", "play": "5H"},  # not in E's hand
            {"seat": "E", "play": hand[0]},
            {"observe": ["trick", "to_act", "hand_sizes"]},
        )
    )
    results = steps_of(reply)
    assert results[5]["observed"] == {
        "phase": "kitty",
        "contract": "7H",
        "declarer": "E",
        "to_act": "E",
        "passed": ["E", "N", "S", "W"],
    }
    assert results[6] == {"outcome": "accepted"}
    assert results[7]["observed"]["phase"] == "play"
    assert results[7]["observed"]["to_act"] == "E"
    assert sorted(results[7]["observed"]["discards"]) == sorted(KITTY)
    assert results[7]["observed"]["hand_sizes"]["E"] == 10
    assert results[8] == {"outcome": "rejected"}
    assert results[9] == {"outcome": "accepted"}
    assert results[10]["observed"] == {
        "trick": {"leader": "E", "led": "S", "cards": {"E": "AS"}},
        "to_act": "S",
        "hand_sizes": {"N": 10, "E": 9, "S": 10, "W": 10},
    }


def test_a_nomination_answers_the_server_s_joker_question() -> None:
    (reply,) = run_on_fake(
        deck_start(
            {"seat": "E", "call": "PASS"},
            {"seat": "S", "call": "PASS"},
            {"seat": "W", "call": "PASS"},
            {"seat": "N", "call": "7NT"},  # N's kitty holds the joker
            {"seat": "N", "call": "PASS"},
            {"seat": "N", "discard": ["4H", "5H", "6H"]},
            {"seat": "N", "play": "AC"},  # the server asks for the joker's suit first
            {"seat": "N", "nominate": "H"},
            {"observe": ["nominated", "to_act", "phase"]},
        )
    )
    results = steps_of(reply)
    assert results[6] == {"outcome": "rejected"}
    assert results[7] == {"outcome": "accepted"}
    assert results[8]["observed"] == {"nominated": "H", "to_act": "N", "phase": "play"}


def test_a_throw_in_then_a_deal_step() -> None:
    passes = [{"seat": seat, "call": "PASS"} for seat in ("E", "S", "W", "N")]
    (reply,) = run_on_fake(
        deck_start(
            *passes,
            {"observe": ["phase", "to_act", "deal_score", "made"]},
            {"seat": "E", "call": "7H"},
            {"deal": list(reversed(DECK))},
            {"observe": ["phase", "to_act", "dealer"]},
        )
    )
    results = steps_of(reply)
    assert results[4]["observed"] == {
        "phase": "over",
        "to_act": None,
        "deal_score": {"NS": 0, "EW": 0},
        "made": None,
    }
    assert results[5] == {"outcome": "rejected"}
    assert results[6] == {"outcome": "accepted"}
    # The fake, like the server, does not move the deal on after a throw-in.
    assert results[7]["observed"] == {"phase": "auction", "to_act": "E", "dealer": "N"}


def test_what_the_server_cannot_start_from_is_skipped_with_the_reason() -> None:
    scored = deck_start({"observe": ["phase"]})
    scored["setup"]["scores"] = {"NS": 100, "EW": 0}
    mid_play = {
        "id": "TEST",
        "profile": "australian-4",
        "setup": {
            "start": "play",
            "dealer": "N",
            "contract": "7H",
            "declarer": "E",
            "leader": "E",
            "tricks": {"NS": 1, "EW": 0},
            "hands": {seat: cards[:9] for seat, cards in HANDS.items()},
        },
        "steps": [{"observe": ["phase"]}],
    }
    first, second = run_on_fake(scored, mid_play)
    assert "0 to 0" in first["skipped"]["reason"]
    assert "middle of the play" in second["skipped"]["reason"]


def test_a_discard_of_other_than_three_cards_is_not_typed_but_skipped() -> None:
    early, at_the_kitty = run_on_fake(
        deck_start({"seat": "E", "discard": KITTY[:2]}, {"observe": ["phase"]}),
        deck_start(*AUCTION_WON_BY_E, {"seat": "E", "discard": KITTY[:2]}),
    )
    # Not asked for a discard: refused without typing anything, as any step out of turn.
    assert steps_of(early) == [{"outcome": "rejected"}, {"observed": {"phase": "auction"}}]
    # Asked for it: the server takes exactly three cards one by one, so two cannot be put.
    assert "discard of 2 cards" in at_the_kitty["skipped"]["reason"]


def test_without_a_checkout_it_says_what_to_set() -> None:
    done = subprocess.run(
        [sys.executable, str(ADAPTER)],
        input=json.dumps(HELLO) + "\n",
        capture_output=True,
        text=True,
        env=environment(),
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "FIVEHUNDRED_GARETH001_PATH" in lines[0]
    assert "07806e58a7b8645d2fb39d71537f0686c54731c7" in lines[0]


@pytest.mark.slow
def test_verify_runs_the_adapter_on_the_fake(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "fivehundred",
            "verify",
            "--impl",
            f"{sys.executable} {ADAPTER}",
            "--id",
            "CTWR",
            "--format",
            "json",
            "-o",
            str(report),
        ],
        capture_output=True,
        text=True,
        env=environment(FIVEHUNDRED_GARETH001_SERVER=str(FAKE)),
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 1, done.stderr
    (scenario,) = json.loads(report.read_text())["scenarios"]
    assert scenario["status"] == "failed"
    # The fake, like the server, keeps the auction open until the winner passes.
    assert scenario["mismatches"][0]["what"] == "phase"
    assert scenario["mismatches"][0]["actual"] == "auction"
