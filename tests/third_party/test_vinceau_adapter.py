"""The vinceau/fivehundred adapter maps the engine's API onto the protocol, checked through
the real runner against our fake of the engine's package (tests/third_party/fakes/vinceau/).

The fake decides its own rules; these tests check only the mapping: the hello reply, a deck
dealt by the engine, calls taken and refused as the engine says (never corrected, its printed
reasons kept off the protocol stream), a discard judged by the engine's state, a crash
reported as errored without local paths, skips with reasons, and the missing-checkout line.
The engine's package is called ``fivehundred`` like the suite's: every test that passes
shows the adapter loaded the fake's, not the suite's."""

from __future__ import annotations

import ast
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fivehundred.cli import main
from fivehundred.resources import validator

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = ROOT / "adapters" / "third-party" / "vinceau" / "adapter.py"
FAKE = Path(__file__).resolve().parent / "fakes" / "vinceau"
VARIABLE = "FIVEHUNDRED_VINCEAU_PATH"
PINNED = "69c4dec7ca33d2f3aa68168cda6c863d352b0397"
HELLO = '{"cmd":"hello","protocol":1,"suite":"1.5.0"}\n{"cmd":"bye"}\n'


def adapter(checkout: Path | None, message: str = HELLO) -> subprocess.CompletedProcess[str]:
    """The adapter run directly on one exchange, with or without a checkout."""
    env = {"PATH": "/usr/bin:/bin"}
    if checkout is not None:
        env[VARIABLE] = str(checkout)
    return subprocess.run(
        [sys.executable, str(ADAPTER)],
        input=message,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def verify(monkeypatch: pytest.MonkeyPatch, *ids: str) -> dict[str, dict[str, Any]]:
    """``fivehundred verify`` on these scenarios with the adapter on the fake; by id."""
    monkeypatch.setenv(VARIABLE, str(FAKE))
    args = ["verify", "--impl", shlex.join([sys.executable, str(ADAPTER)]), "--format", "json"]
    for scenario_id in ids:
        args += ["--id", scenario_id]
    result = CliRunner().invoke(main, args)
    report = json.loads(result.stdout)
    assert validator("report.schema.json").is_valid(report)
    return {scenario["id"]: scenario for scenario in report["scenarios"]}


def test_hello_declares_an_auction_engine_without_codes_or_legal_lists() -> None:
    done = adapter(FAKE)
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout)
    assert validator("protocol/hello-reply.schema.json").is_valid(reply)
    assert reply["implementation"] == {
        "name": "vinceau/fivehundred",
        "version": "unknown",  # the fake is no git checkout
        "language": "python",
        "homepage": "https://github.com/vinceau/fivehundred",
    }
    capabilities = reply["capabilities"]
    assert capabilities["profiles"] == ["australian-4"]
    assert capabilities["starts"] == ["deck", "auction"]
    assert capabilities["legal_actions"] is False
    assert capabilities["error_codes"] is False
    assert "contract" in capabilities["observations"]
    assert "dealer" not in capabilities["observations"]


@pytest.mark.parametrize(("head", "warned"), [(PINNED, False), ("ab" * 20, True)])
def test_the_version_is_the_checkout_s_commit(tmp_path: Path, head: str, warned: bool) -> None:
    checkout = tmp_path / "checkout"
    shutil.copytree(FAKE, checkout)
    (checkout / ".git" / "refs" / "heads").mkdir(parents=True)
    (checkout / ".git" / "HEAD").write_text("ref: refs/heads/master\n", encoding="utf-8")
    (checkout / ".git" / "packed-refs").write_text(f"{head} refs/heads/master\n", "utf-8")
    done = adapter(checkout)
    assert json.loads(done.stdout)["implementation"]["version"] == head[:7]
    assert ("not at the tested commit" in done.stderr) is warned


def test_a_deck_start_is_dealt_by_the_engine_from_the_scenario_s_deck(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    results = verify(monkeypatch, "KGDN", "8BES", "5XA5")
    assert {key: value["status"] for key, value in results.items()} == dict.fromkeys(
        ("KGDN", "8BES", "5XA5"), "passed"
    )


def test_calls_are_accepted_and_refused_as_the_engine_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    results = verify(monkeypatch, "ASBQ", "KSQG", "WTAV")
    assert results["ASBQ"]["status"] == "passed"  # False: a lower bid refused
    assert results["KSQG"]["status"] == "passed"  # False, and a line printed on stdout
    # The fake takes an opening misère, and the adapter does not correct it.
    (first, *_) = results["WTAV"]["mismatches"]
    assert (results["WTAV"]["status"], first["step"], first["actual"]) == (
        "failed",
        0,
        "accepted",
    )


def test_a_discard_is_judged_by_the_state_the_engine_leaves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    results = verify(monkeypatch, "EVHV", "DY28")
    assert results["EVHV"]["status"] == "passed"  # moved to play: accepted
    assert results["DY28"]["status"] == "passed"  # the partner's returned early: rejected


def test_an_engine_crash_is_errored_with_where_it_happened(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scenario = verify(monkeypatch, "ZHDZ")["ZHDZ"]  # the fake asserts on a card not held
    assert scenario["status"] == "errored"
    assert "the engine raised AssertionError" in scenario["message"]
    assert f"${VARIABLE}/fivehundred/game.py:" in scenario["message"]
    assert str(FAKE) not in scenario["message"]


def test_what_the_engine_cannot_express_is_skipped_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    results = verify(monkeypatch, "W8RK", "CCEP", "S7XK")
    assert results["W8RK"]["status"] == "skipped"
    # declared in capabilities.starts: the runner skips it without sending it
    assert "cannot set up a play start" in results["W8RK"]["message"]
    assert results["CCEP"]["status"] == "skipped"
    assert "no card play" in results["CCEP"]["message"]
    assert results["S7XK"]["status"] == "skipped"
    assert "no joker nomination" in results["S7XK"]["message"]


@pytest.mark.parametrize("checkout", [None, "empty"])
def test_without_a_checkout_one_line_says_what_to_do(tmp_path: Path, checkout: str | None) -> None:
    done = adapter(None if checkout is None else tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"set {VARIABLE} to a checkout of https://github.com/vinceau/")
    assert PINNED in line
    assert (str(tmp_path) in line) is (checkout is not None)


def imports(path: Path) -> set[str]:
    """The top-level modules a Python file imports (it has no ``from`` imports)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    return {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }


def test_the_adapter_needs_only_the_standard_library_and_the_engine() -> None:
    assert imports(ADAPTER) == {"os", "sys", "python_protocol", "fivehundred"}
    assert imports(ADAPTER.parent.parent / "python_protocol.py") == {
        "json",
        "os",
        "sys",
        "traceback",
    }
