"""The adapter for jaymehuskinson-code/500-Card-Game, checked against a fake of its rules file.

The engine itself is not part of the project; ``tests/third_party/fakes/jaymehuskinson``
holds our own small TypeScript with the eight functions the adapter calls, behaving
simply and, where it matters here, differently from the real engine (misère outranks ten
spades, the game ends at 100), so that each answer below can only have come from asking
the engine.  The checks go through the protocol (what the runner sends and reads) and once
through ``fivehundred verify`` itself.

The committed report and its deviation families are checked too (no Node.js needed).

The adapter tests need Node.js and the adapter's one npm dependency (``npm ci`` in the
adapter's folder); without them they skip, saying which is missing.
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
ADAPTER_DIR = ROOT / "adapters" / "third-party" / "jaymehuskinson"
FAKE = Path(__file__).resolve().parent / "fakes" / "jaymehuskinson"
VARIABLE = "FIVEHUNDRED_JAYMEHUSKINSON_PATH"
HELLO = {"cmd": "hello", "protocol": 1, "suite": "1.5.0"}
ORDERED_DECK = [
    *(f"{r}S" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5")),
    *(f"{r}C" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5")),
    *(f"{r}D" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")),
    *(f"{r}H" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")),
    "JK",
]
AUCTION_HANDS = {
    "N": ORDERED_DECK[0:10],
    "E": ORDERED_DECK[10:20],
    "S": ORDERED_DECK[20:30],
    "W": ORDERED_DECK[30:40],
}


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.skip("Node.js is not installed (apt-get install nodejs)")
    if not (ADAPTER_DIR / "node_modules" / "typescript").is_dir():
        pytest.skip(f"the adapter's npm dependency is not installed: run npm ci in {ADAPTER_DIR}")
    return found


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != VARIABLE}
    env.update(extra)
    return env


def exchange(command: list[str], messages: list[dict[str, Any]], env: dict[str, str]) -> list[Any]:
    """Send the messages, one line each, and return the replies read back."""
    text = "".join(json.dumps(m) + "\n" for m in [*messages, {"cmd": "bye"}])
    done = subprocess.run(
        command, input=text, capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def run_on_fake(node: str, *scenarios: dict[str, Any]) -> list[dict[str, Any]]:
    runs = [{"cmd": "run", "seq": n, "scenario": s} for n, s in enumerate(scenarios, 1)]
    replies = exchange(
        [node, str(ADAPTER_DIR / "adapter.js")],
        [HELLO, *runs],
        environment(**{VARIABLE: str(FAKE)}),
    )
    assert [r["seq"] for r in replies[1:]] == list(range(1, len(scenarios) + 1))
    return replies[1:]


def scenario(setup: dict[str, Any], steps: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": "TEST", "profile": "australian-4", "setup": setup, "steps": steps}


def outcomes(reply: dict[str, Any]) -> list[Any]:
    return [s.get("outcome", s.get("observed")) for s in reply["result"]["steps"]]


def test_hello_names_the_engine_and_declares_only_what_it_can_give(node: str) -> None:
    [hello] = exchange(
        [node, str(ADAPTER_DIR / "adapter.js")], [HELLO], environment(**{VARIABLE: str(FAKE)})
    )
    engine = json.loads((ADAPTER_DIR / "engine.json").read_text())
    assert hello["protocol"] == 1
    assert hello["implementation"]["version"] == "unknown (not a git checkout)"
    assert hello["implementation"]["homepage"] == engine["repository"]
    capabilities = hello["capabilities"]
    assert capabilities["profiles"] == ["australian-4"]
    assert "variants" not in capabilities
    assert (capabilities["legal_actions"], capabilities["error_codes"]) == (True, False)
    assert {"scores", "game_over", "last_trick", "to_act"} <= set(capabilities["observations"])
    assert not {"nominated", "sitting_out", "exposed", "suits_led", "dealer"} & set(
        capabilities["observations"]
    )


def test_an_ordered_deck_is_dealt_as_the_reference_deals_it(node: str) -> None:
    deal = scenario(
        {"start": "deck", "dealer": "W", "deck": ORDERED_DECK},
        [{"observe": ["hands", "kitty", "phase", "to_act"]}],
    )
    [adapter] = run_on_fake(node, deal)
    serve = [sys.executable, "-m", "fivehundred", "serve"]
    [_, reference] = exchange(
        serve, [HELLO, {"cmd": "run", "seq": 1, "scenario": deal}], environment()
    )
    [seen] = outcomes(adapter)
    [expected] = outcomes(reference)
    assert {seat: sorted(cards) for seat, cards in seen["hands"].items()} == {
        seat: sorted(cards) for seat, cards in expected["hands"].items()
    }
    assert sorted(seen["kitty"]) == sorted(expected["kitty"])
    assert (seen["phase"], seen["to_act"]) == ("auction", "N")


def test_calls_are_judged_by_the_engine_and_the_auction_moves_as_the_app_moves_it(
    node: str,
) -> None:
    # The fake values ten spades at 101, below misère's 250 (the real engine: 440).
    auction = scenario(
        {"start": "auction", "dealer": "W", "hands": AUCTION_HANDS, "kitty": ORDERED_DECK[40:]},
        [
            {"seat": "N", "call": "10S"},
            {"observe": ["legal", "to_act", "high_bid"]},
            {"seat": "S", "call": "MIS"},
            {"seat": "E", "call": "10S"},
            {"seat": "E", "call": "MIS"},
            {"seat": "S", "call": "PASS"},
            {"seat": "W", "call": "PASS"},
            {"seat": "N", "call": "PASS"},
            {"observe": ["phase", "to_act", "contract", "declarer", "kitty", "hand_sizes"]},
        ],
    )
    [reply] = run_on_fake(node, auction)
    steps = outcomes(reply)
    assert steps[0] == "accepted"
    assert set(steps[1]["legal"]) == {"PASS", "10C", "10D", "10H", "10NT", "MIS", "OMIS"}
    assert (steps[1]["to_act"], steps[1]["high_bid"]) == ("E", "10S")
    assert steps[2:8] == ["rejected", "rejected", "accepted", "accepted", "accepted", "accepted"]
    assert steps[8] == {
        "phase": "kitty",
        "to_act": "E",
        "contract": "MIS",
        "declarer": "E",
        "kitty": [],
        "hand_sizes": {"N": 10, "E": 13, "S": 10, "W": 10},
    }
    assert all("code" not in s for s in reply["result"]["steps"])


def test_plays_tricks_and_the_score_come_from_the_engine(node: str) -> None:
    play = scenario(
        {
            "start": "play",
            "dealer": "W",
            "contract": "7NT",
            "declarer": "N",
            "scores": {"NS": 30, "EW": 0},
            "tricks": {"NS": 6, "EW": 2},
            "leader": "N",
            "hands": {"N": ["AS", "4H"], "E": ["5H", "9S"], "S": ["KS", "5D"], "W": ["QH", "6D"]},
        },
        [
            {"seat": "N", "play": "AS"},
            {"seat": "E", "play": "5H"},
            {"seat": "E", "play": "9S"},
            {"observe": ["legal", "to_act", "trick"]},
            {"seat": "S", "play": "KS"},
            {"seat": "W", "play": "QH"},
            {"observe": ["last_trick", "tricks", "to_act", "deal_score"]},
            {"seat": "N", "play": "4H"},
            {"seat": "E", "play": "5H"},
            {"seat": "S", "play": "5D"},
            {"seat": "W", "play": "6D"},
            {
                "observe": [
                    "phase",
                    "to_act",
                    "tricks",
                    "deal_score",
                    "scores",
                    "game_over",
                    "winner",
                ]
            },
            {"seat": "N", "play": "AS"},
        ],
    )
    [reply] = run_on_fake(node, play)
    steps = outcomes(reply)
    assert steps[:3] == ["accepted", "rejected", "accepted"]
    assert steps[3] == {
        "legal": ["KS"],
        "to_act": "S",
        "trick": {"leader": "N", "led": "S", "cards": {"N": "AS", "E": "9S"}},
    }
    assert steps[6] == {
        "last_trick": {
            "leader": "N",
            "led": "S",
            "cards": {"N": "AS", "E": "9S", "S": "KS", "W": "QH"},
            "winner": "N",
        },
        "tricks": {"NS": 7, "EW": 2},
        "to_act": "N",
        "deal_score": None,
    }
    # The fake's 7NT is worth 75, scored by the contractor alone; its game ends at 100.
    assert steps[11] == {
        "phase": "over",
        "to_act": None,
        "tricks": {"NS": 7, "EW": 3},
        "deal_score": {"NS": 75, "EW": 0},
        "scores": {"NS": 105, "EW": 0},
        "game_over": True,
        "winner": "NS",
    }
    assert steps[12] == "rejected"


def test_a_step_the_engine_has_no_call_for_is_skipped_with_the_reason(node: str) -> None:
    auction = {
        "start": "auction",
        "dealer": "W",
        "hands": AUCTION_HANDS,
        "kitty": ORDERED_DECK[40:],
    }
    to_kitty = [{"seat": "N", "call": "7NT"}, *({"seat": s, "call": "PASS"} for s in "ESW")]
    discard = scenario(auction, [*to_kitty, {"seat": "N", "discard": ORDERED_DECK[:3]}])
    nominate = scenario(auction, [*to_kitty, {"seat": "N", "nominate": "H"}])
    named = scenario(
        {"start": "play", "dealer": "W", "contract": "7H", "declarer": "N", "hands": AUCTION_HANDS},
        [{"seat": "N", "play": "AS", "names": "H"}],
    )
    replies = run_on_fake(node, discard, nominate, named)
    reasons = [r["skipped"]["reason"] for r in replies]
    assert "kitty discard" in reasons[0]
    assert "nomination" in reasons[1]
    assert "naming a suit" in reasons[2]


def test_a_game_start_records_deal_results_through_the_engine(node: str) -> None:
    game = scenario(
        {"start": "game", "dealer": "N", "scores": {"NS": 0, "EW": 40}},
        [
            {"observe": ["phase", "tricks"]},
            {"deal_result": {"contract": "8H", "declarer": "E", "tricks": 8}},
            {"observe": ["phase", "deal_score", "scores", "game_over", "winner", "contract"]},
            {"deal_result": "thrown-in"},
        ],
    )
    [reply] = run_on_fake(node, game)
    steps = outcomes(reply)
    assert steps[0] == {"phase": "none", "tricks": None}
    assert steps[1] == "accepted"
    assert steps[2] == {
        "phase": "over",
        "deal_score": {"NS": 0, "EW": 84},
        "scores": {"NS": 0, "EW": 124},
        "game_over": True,
        "winner": "EW",
        "contract": "8H",
    }
    assert steps[3] == "rejected"


def test_the_version_is_the_commit_the_checkout_is_at(node: str, tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    shutil.copytree(FAKE, tmp_path / "checkout")
    checkout = str(tmp_path / "checkout")
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.org"]
    for args in (["init", "-q"], ["add", "."], [*identity, "commit", "-q", "-m", "fake"]):
        subprocess.run(["git", "-C", checkout, *args], check=True, capture_output=True)
    head = subprocess.run(
        ["git", "-C", checkout, "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    )
    done = subprocess.run(
        [node, str(ADAPTER_DIR / "adapter.js")],
        input=json.dumps(HELLO) + "\n",
        capture_output=True,
        text=True,
        env=environment(**{VARIABLE: checkout}),
        timeout=60,
        check=False,
    )
    assert json.loads(done.stdout)["implementation"]["version"] == head.stdout.strip()[:7]
    assert "not the tested 9bebc9b" in done.stderr


@pytest.mark.parametrize(
    ("checkout", "said"),
    [
        (None, f"set {VARIABLE} to a checkout of"),
        ("/nonexistent/500", "has no supabase/functions/shared/gameLogic.ts"),
    ],
)
def test_without_a_checkout_the_adapter_says_in_one_line_what_to_do(
    node: str, checkout: str | None, said: str
) -> None:
    env = environment() if checkout is None else environment(**{VARIABLE: checkout})
    done = subprocess.run(
        [node, str(ADAPTER_DIR / "adapter.js")],
        input="",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert said in line
    assert "9bebc9b" in line


def test_without_its_npm_dependency_the_adapter_says_to_install_it(
    node: str, tmp_path: Path
) -> None:
    for name in ("adapter.js", "engine.js", "notation.js", "table.js"):
        shutil.copy(ADAPTER_DIR / name, tmp_path / name)
    done = subprocess.run(
        [node, str(tmp_path / "adapter.js")],
        input="",
        capture_output=True,
        text=True,
        env=environment(**{VARIABLE: str(FAKE)}),
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert "npm package typescript" in line
    assert "npm ci" in line


def test_the_runner_drives_the_adapter_without_errors(node: str, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    command = f"{node} {ADAPTER_DIR / 'adapter.js'}"
    verify = [sys.executable, "-m", "fivehundred", "verify", "--impl", command, "--area", "scoring"]
    done = subprocess.run(
        [*verify, "--format", "json", "-o", str(report)],
        capture_output=True,
        text=True,
        env=environment(**{VARIABLE: str(FAKE)}),
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # the fake is not the game
    result = json.loads(report.read_text())
    totals = result["totals"]
    assert totals["errored"] == 0
    assert totals["passed"] > 0
    assert totals["failed"] > 0
    assert result["implementation"]["name"] == "jaymehuskinson-code/500-Card-Game"
