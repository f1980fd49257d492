"""The waldo/five_hundred adapter's mapping, tested against a fake of the engine's API.

The engine itself is never in this repository: ``tests/third_party/fakes/waldo/`` is our own
small stand-in with the class names, methods and instance variables the adapter uses and
simple made-up rules.  These tests check what the adapter adds: the hello reply, the
missing-checkout message, how a position is built, how calls, discards and plays reach the
engine and come back accepted or rejected, and what it answers ``skipped``.  The verdicts
against the real engine are in ``results/waldo.json``.

Ruby is needed; without it these tests skip, saying so (CI installs Debian's ``ruby``).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fivehundred.resources import validator
from fivehundred.verify import protocol as p

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = ROOT / "adapters" / "third-party" / "waldo" / "adapter.rb"
FAKE = Path(__file__).resolve().parent / "fakes" / "waldo"
VARIABLE = "FIVEHUNDRED_WALDO_PATH"
PINNED = "f360427cf24158904b3cdac4c5bed0e5a5f84aad"


@pytest.fixture(scope="module")
def ruby() -> str:
    found = shutil.which("ruby")
    if found is None:
        pytest.skip("ruby is not installed (apt-get install ruby): the waldo adapter is Ruby")
    return found


def _environment(checkout: Path | None) -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items() if key != VARIABLE}
    if checkout is not None:
        environment[VARIABLE] = str(checkout)
    return environment


def _exchange(
    ruby: str, messages: list[dict[str, Any]], checkout: Path | None = FAKE
) -> tuple[int, list[dict[str, Any]], str]:
    """Runs the adapter on these messages (then bye); its exit status, replies and stderr."""
    data = b"".join(p.encode(message) for message in [*messages, p.bye()])
    done = subprocess.run(
        [ruby, str(ADAPTER)],
        input=data,
        capture_output=True,
        env=_environment(checkout),
        timeout=60,
        check=False,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    return done.returncode, replies, done.stderr.decode()


def _run(ruby: str, setup: dict[str, Any], steps: list[dict[str, Any]]) -> dict[str, Any]:
    scenario = {"id": "TEST", "profile": "australian-4", "setup": setup, "steps": steps}
    status, replies, stderr = _exchange(ruby, [p.hello(), p.run(7, scenario)])
    assert status == 0, stderr
    reply = replies[1]
    assert reply["seq"] == 7
    assert validator("protocol/run-reply.schema.json").is_valid(reply), reply
    return reply


HANDS = {
    "N": ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S"],
    "E": ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "6C", "5C"],
    "S": ["AD", "KD", "QD", "JD", "10D", "9D", "8D", "7D", "6D", "5D"],
    "W": ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H"],
}
KITTY = ["4D", "4H", "JK"]


@pytest.mark.parametrize("checkout", [None, FAKE / "no-such-folder"])
def test_a_missing_checkout_is_one_line_saying_what_to_do(ruby: str, checkout: Path | None) -> None:
    status, replies, stderr = _exchange(ruby, [p.hello()], checkout)
    assert status == 2
    assert replies == []
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert VARIABLE in lines[0]
    assert "https://github.com/waldo/five_hundred" in lines[0]
    assert PINNED in lines[0]
    if checkout is not None:
        assert "no-such-folder" in lines[0]


def test_hello_declares_what_the_engine_can_do(ruby: str) -> None:
    status, replies, stderr = _exchange(ruby, [p.hello()])
    assert status == 0, stderr
    assert len(replies) == 1
    reply = replies[0]
    assert validator("protocol/hello-reply.schema.json").is_valid(reply)
    hello = p.parse_hello_reply(reply)
    assert hello.capabilities.profiles == ("australian-4",)
    assert hello.capabilities.legal_actions is True
    assert hello.capabilities.error_codes is False
    observations = reply["capabilities"]["observations"]
    assert "exposed" not in observations and "perft" not in observations
    assert {"phase", "to_act", "legal", "last_trick", "dealer", "winner"} <= set(observations)
    assert "variants" not in reply["capabilities"]
    implementation = reply["implementation"]
    assert implementation["name"] == "waldo/five_hundred"
    assert implementation["language"] == "ruby"
    assert implementation["homepage"] == "https://github.com/waldo/five_hundred"
    # The fake is a folder inside this repository, not a checkout with a commit of its own.
    assert implementation["version"] == "unknown (not a git checkout)"


def test_an_auction_start_gives_the_hands_kitty_and_the_first_caller(ruby: str) -> None:
    setup = {"start": "auction", "dealer": "W", "hands": HANDS, "kitty": KITTY}
    steps: list[dict[str, Any]] = [
        {"observe": ["phase", "to_act", "hands", "kitty", "dealer", "high_bid"]},
        {"seat": "E", "call": "6S"},
        {"seat": "N", "call": "6S"},
        {"seat": "E", "call": "6S"},
        {"seat": "E", "call": "BMIS"},
        {"seat": "E", "call": "7H"},
        {"observe": ["high_bid", "high_bidder", "to_act", "passed", "contract"]},
    ]
    reply = _run(ruby, setup, steps)
    results = reply["result"]["steps"]
    first = results[0]["observed"]
    assert first["phase"] == "auction"
    assert first["to_act"] == "N"
    assert first["dealer"] == "W"
    assert first["high_bid"] is None
    assert {seat: sorted(cards) for seat, cards in first["hands"].items()} == {
        seat: sorted(cards) for seat, cards in HANDS.items()
    }
    assert sorted(first["kitty"]) == sorted(KITTY)
    assert [result["outcome"] for result in results[1:6]] == [
        "rejected",  # out of turn: the engine only ever bids for its current bidder
        "accepted",
        "rejected",  # the fake's ladder refuses an equal bid
        "rejected",  # a bid the engine does not have
        "accepted",
    ]
    assert all("code" not in result for result in results[1:6])
    assert results[6]["observed"] == {
        "high_bid": "7H",
        "high_bidder": "E",
        "to_act": "S",
        "passed": [],
        "contract": None,
    }


def test_an_ordered_deck_is_dealt_in_packets_from_the_dealers_left(ruby: str) -> None:
    deck = [*HANDS["N"], *HANDS["E"], *HANDS["S"], *HANDS["W"], *KITTY]
    reply = _run(
        ruby,
        {"start": "deck", "dealer": "S", "deck": deck},
        [{"observe": ["hands", "kitty", "to_act"]}],
    )
    observed = reply["result"]["steps"][0]["observed"]
    assert observed["to_act"] == "W"
    assert observed["hands"]["W"][:3] == deck[0:3]
    assert observed["hands"]["N"][:3] == deck[3:6]
    assert observed["kitty"] == [deck[12], deck[29], deck[42]]
    assert observed["hands"]["W"][3:7] == deck[13:17]


def test_the_kitty_phase_lists_the_engines_discards_and_takes_one(ruby: str) -> None:
    setup = {"start": "auction", "dealer": "W", "hands": HANDS, "kitty": KITTY}
    steps: list[dict[str, Any]] = [
        {"seat": "N", "call": "6NT"},
        {"seat": "E", "call": "PASS"},
        {"seat": "S", "call": "PASS"},
        {"seat": "W", "call": "PASS"},
        {"observe": ["phase", "to_act", "legal_count", "declarer", "contract"]},
        {"seat": "N", "discard": ["5S", "6S", "6S"]},
        {"seat": "N", "discard": ["5S", "6S", "4D"]},
        {"observe": ["phase", "to_act", "discards", "hand_sizes", "kitty"]},
    ]
    results = _run(ruby, setup, steps)["result"]["steps"]
    assert results[4]["observed"] == {
        "phase": "kitty",
        "to_act": "N",
        "legal_count": 286,
        "declarer": "N",
        "contract": "6NT",
    }
    assert results[5] == {"outcome": "rejected"}
    assert results[6] == {"outcome": "accepted"}
    after = results[7]["observed"]
    assert after["phase"] == "play"
    assert after["to_act"] == "N"
    assert sorted(after["discards"]) == ["4D", "5S", "6S"]
    assert after["hand_sizes"] == {"N": 10, "E": 10, "S": 10, "W": 10}
    assert after["kitty"] == []


def test_a_play_start_counts_the_tricks_already_won_and_ends_the_deal(ruby: str) -> None:
    setup = {
        "start": "play",
        "dealer": "W",
        "contract": "6H",
        "declarer": "N",
        "leader": "E",
        "tricks": {"NS": 6, "EW": 3},
        "hands": {"N": ["AS"], "E": ["5S"], "S": ["4D"], "W": ["KS"]},
    }
    steps: list[dict[str, Any]] = [
        {"observe": ["phase", "to_act", "tricks", "last_trick", "high_bid", "passed"]},
        {"seat": "N", "play": "AS"},
        {"seat": "E", "play": "5S"},
        {"seat": "S", "play": "4D"},
        {"seat": "W", "play": "KS"},
        {"seat": "N", "play": "AS"},
        {"observe": ["phase", "to_act", "tricks", "last_trick", "deal_score", "made"]},
    ]
    results = _run(ruby, setup, steps)["result"]["steps"]
    before = results[0]["observed"]
    assert before["phase"] == "play"
    assert before["to_act"] == "E"
    assert before["tricks"] == {"NS": 6, "EW": 3}
    assert before["last_trick"] is None  # the tricks before the scenario are unknown
    assert before["high_bid"] == "6H"
    assert sorted(before["passed"]) == ["E", "S", "W"]
    assert [result["outcome"] for result in results[1:6]] == [
        "rejected",  # not North's turn
        "accepted",
        "accepted",
        "accepted",
        "accepted",
    ]
    after = results[6]["observed"]
    assert after["phase"] == "over"
    assert after["to_act"] is None
    assert after["tricks"] == {"NS": 7, "EW": 3}
    assert after["last_trick"] == {
        "leader": "E",
        "led": "S",
        "cards": {"E": "5S", "S": "4D", "W": "KS", "N": "AS"},
        "winner": "N",
    }
    assert after["deal_score"] == {"NS": 100, "EW": 30}
    assert after["made"] is True


@pytest.mark.parametrize(
    ("step", "reason"),
    [
        ({"seat": "N", "nominate": "H"}, "the engine has no call to nominate the joker's suit"),
        ({"seat": "N", "play": "AS", "names": "H"}, "cannot name a suit with a card other than"),
    ],
)
def test_what_the_engine_cannot_express_is_skipped_with_the_reason(
    ruby: str, step: dict[str, Any], reason: str
) -> None:
    setup = {"start": "play", "dealer": "W", "contract": "6NT", "declarer": "N", "hands": HANDS}
    reply = _run(ruby, setup, [step])
    assert reason in reply["skipped"]["reason"]


def test_a_game_start_has_no_deal_until_a_deal_step_and_cannot_record_results(ruby: str) -> None:
    reply = _run(
        ruby,
        {"start": "game", "dealer": "N", "scores": {"NS": 200, "EW": -100}},
        [{"observe": ["phase", "to_act", "hands", "scores", "tricks", "game_over"]}],
    )
    assert reply["result"]["steps"][0]["observed"] == {
        "phase": "none",
        "to_act": None,
        "hands": {"N": [], "E": [], "S": [], "W": []},
        "scores": {"NS": 200, "EW": -100},
        "tricks": None,
        "game_over": False,
    }
    recorded = _run(
        ruby,
        {"start": "game", "dealer": "N"},
        [{"deal_result": "thrown-in"}],
    )
    assert "without playing it" in recorded["skipped"]["reason"]


@pytest.mark.slow  # the runner and the corpus load in a process of their own
def test_the_runner_checks_the_adapter_against_the_fake(ruby: str, tmp_path: Path) -> None:
    report = tmp_path / "waldo-fake.json"
    command = shlex.join([ruby, str(ADAPTER)])
    ids = [option for id_ in ("3YMJ", "CYG5", "ZE27", "YA62", "E6VW") for option in ("--id", id_)]
    arguments = ["verify", "--impl", command, *ids, "--format", "json", "-o", str(report)]
    done = subprocess.run(
        [sys.executable, "-m", "fivehundred", *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_environment(FAKE),
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    document = json.loads(report.read_text())
    assert validator("report.schema.json").is_valid(document)
    assert document["implementation"]["name"] == "waldo/five_hundred"
    status = {scenario["id"]: scenario for scenario in document["scenarios"]}
    # A passed seat calling, an ordered deck dealt, a throw-in: the fake gets them right.
    assert status["3YMJ"]["status"] == "passed"
    assert status["CYG5"]["status"] == "passed"
    assert status["YA62"]["status"] == "passed"
    # The fake, unlike the engine, lets the joker be led in no trumps: a real comparison.
    assert status["ZE27"]["status"] == "failed"
    # A nomination is a call the engine lacks.
    assert status["E6VW"]["status"] == "skipped"
    assert "nominat" in status["E6VW"]["message"]
