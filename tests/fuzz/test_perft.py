"""``fivehundred perft``: the shipped positions, the reference's counts and adapters."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fivehundred.engine import SEATS, Deal, get_profile, parse_bid, parse_card
from fivehundred.engine.perft import perft
from fivehundred.fuzz.perft import check_reference, load_positions, positions_file
from fuzz_cli import run_in_process

PYTHON = sys.executable


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_in_process("perft", *args)


def test_perft_counts_sequences_by_hand() -> None:
    profile = get_profile("australian-4")
    hands = [
        [parse_card(c) for c in cards]
        for cards in (["AS", "KH"], ["QS", "10H"], ["JS", "9H"], ["10S", "8H"])
    ]
    deal = Deal.in_play(
        profile, SEATS[3], parse_bid("6H"), SEATS[0], hands, leader=SEATS[0], tricks=(4, 4)
    )
    assert perft(deal, 0) == 1
    assert perft(deal, 1) == 2  # North leads either card
    assert perft(deal, 4) == 2  # everyone must follow: one way per lead
    assert perft(deal, 9) == 0  # the deal ends after eight cards


def test_the_shipped_positions_cover_the_places_legal_actions_go_wrong() -> None:
    positions = load_positions()
    names = " ".join(p.name for p in positions)
    for topic in ("auction", "kitty", "nomination", "joker leads", "misère", "last tricks"):
        assert topic in names
    assert all(len(p.counts) == 3 for p in positions)


def test_the_reference_reproduces_every_count_in_the_file() -> None:
    for position, counts in check_reference(load_positions()):
        assert counts == position.counts, position.name


def test_the_command_fails_on_a_wrong_count(tmp_path: Path) -> None:
    data = json.loads(positions_file().read_text(encoding="utf-8"))
    data["positions"] = data["positions"][-2:]
    data["positions"][0]["perft"][1] += 1
    wrong = tmp_path / "positions.json"
    wrong.write_text(json.dumps(data), encoding="utf-8")
    done = _cli("--positions", str(wrong))
    assert done.returncode == 1 and "FAIL" in done.stdout
    assert _cli("--positions", str(tmp_path / "missing.json")).returncode == 2


@pytest.mark.parametrize(
    ("spoil", "says"),
    [
        (lambda d: d["positions"][0]["setup"].update(deck=["AS"]), "the deck must be"),
        (lambda d: d["positions"][0]["steps"].append({"seat": "Q", "call": "PASS"}), "'Q'"),
        (lambda d: d.update(positions=None), "positions: expected a list"),
        (lambda d: d["positions"].append("text"), "positions[12]"),
    ],
    ids=["short-deck", "unknown-seat", "positions-null", "position-not-a-mapping"],
)
@pytest.mark.parametrize("depth", [[], ["--depth", "1"]])
def test_a_position_the_reference_cannot_set_up_is_named_not_a_traceback(
    tmp_path: Path, spoil: Any, says: str, depth: list[str]
) -> None:
    data = json.loads(positions_file().read_text(encoding="utf-8"))
    data["positions"][0]["setup"] = {"start": "deck", "dealer": "N", "deck": "ordered"}
    data["positions"][0].setdefault("steps", [])
    spoil(data)
    bad = tmp_path / "positions.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    done = _cli("--positions", str(bad), *depth)
    assert done.returncode == 2, done.stdout + done.stderr
    assert says in done.stderr and "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    "option", [["--timeout", "nan"], ["--timeout", "-1"], ["--startup-timeout", "inf"]]
)
def test_a_number_of_seconds_that_cannot_be_waited_is_a_usage_error(option: list[str]) -> None:
    done = _cli("--impl", "fivehundred serve", *option)
    assert done.returncode == 2, done.stdout + done.stderr
    assert option[0] in done.stderr and "number of seconds" in done.stderr


@pytest.mark.slow
def test_serve_agrees_on_every_position() -> None:
    serve = shlex.join([PYTHON, "-m", "fivehundred", "serve"])
    done = _cli("--impl", serve)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "12 of 12 positions agree" in done.stdout


@pytest.mark.slow
def test_the_independent_implementation_agrees_on_every_position() -> None:
    """Counted by an engine that shares no code with the reference (it copies its state
    and tries every legal action), the shipped counts come out the same."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is required for the independent implementation: install nodejs")
    adapter = Path(__file__).resolve().parents[2] / "adapters" / "independent-js" / "adapter.js"
    done = _cli("--impl", shlex.join([node, str(adapter)]))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "12 of 12 positions agree" in done.stdout
