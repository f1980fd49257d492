"""Fuzzing an implementation that cannot run every deal: skipped deals are counted, by
generator and by reason, and the run goes on to find and shrink what the deals it ran
show; an adapter that declares the starts it can set up (``capabilities.starts``) is
given only deals with those; ``--generators`` chooses, and an engine of the bidding
alone is fuzzed on auctions.

The adapter is ``tests/protocol/adapters/skips_some.py``: the reference's answers, a
skip for every start it was not told it can set up, and one fault (ten no trumps is
refused).  Real processes, so slow.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from fuzz_cli import run_in_process

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("adapter_memo")]

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = ROOT / "tests" / "protocol" / "adapters" / "skips_some.py"
FAMILY = {
    "kind": "call",
    "check": "outcome",
    "expected": "accepted",
    "actual": "rejected bid-not-available",
}


def adapter(*args: str, python: str = sys.executable) -> str:
    return shlex.join([python, str(ADAPTER), *args])


def fuzz_json(*args: str) -> tuple[int, dict[str, Any], str]:
    done = run_in_process("fuzz", "--no-progress", "--format", "json", *args)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout), done.stderr


def test_skipped_deals_are_counted_and_the_fault_is_still_found_and_shrunk(
    tmp_path: Path,
) -> None:
    out = tmp_path / "found"
    code, report, _ = fuzz_json(
        "--impl", adapter(), "--deals", "28", "--seed", "1", "--out", str(out)
    )
    assert code == 1  # a disagreement, not a run given up (3)
    assert report["deals"] == 28
    skipped = report["skipped"]
    # every play and game start is skipped by the adapter: mid-deal, joker-endgame, game
    assert skipped["deals"] > 0
    assert set(skipped["by_generator"]) <= {"mid-deal", "joker-endgame", "game"}
    assert sum(skipped["by_generator"].values()) == skipped["deals"]
    assert set(skipped["reasons"]) <= {"no play start", "no game start"}
    assert sum(skipped["reasons"].values()) == skipped["deals"]
    assert report["disagreeing"] + skipped["deals"] <= report["deals"]
    (family,) = report["families"]
    assert family["signature"] == FAMILY
    assert family["verified"] and family["shrunk_actions"] < family["original_actions"]
    assert family["start"] in ("deck", "auction")  # shrunk to what the adapter runs
    assert list(out.glob("*.yaml")) and run_in_process("validate", str(out)).returncode == 0
    text = run_in_process("fuzz", "merge", str(_save(tmp_path, report)))
    assert f"skipped by the implementation: {skipped['deals']} deals" in text.stdout


def _save(folder: Path, report: dict[str, Any]) -> Path:
    path = folder / "report.json"
    path.write_text(json.dumps(report))
    return path


def test_declared_starts_limit_the_generators_and_nothing_is_skipped() -> None:
    code, report, _ = fuzz_json("--impl", adapter("--declare"), "--deals", "20", "--seed", "2")
    assert code == 1
    assert report["skipped"]["deals"] == 0
    assert report["generators"] and "mid-deal" not in report["generators"]
    assert set(report["by_generator"]) <= set(report["generators"])
    assert [f["signature"] for f in report["families"]] == [FAMILY]
    family = report["families"][0]
    assert "--generators " + ",".join(report["generators"]) in family["scenario"]


def test_an_engine_of_the_bidding_alone_is_fuzzed_on_auctions() -> None:
    code, report, _ = fuzz_json(
        "--impl",
        adapter("auction", "--declare"),
        "--generators",
        "auction",
        "--deals",
        "24",
        "--seed",
        "3",
    )
    assert report["by_generator"] == {"auction": 24}
    assert report["skipped"]["deals"] == 0
    if report["families"]:  # ten no trumps was called in one of the auctions
        assert code == 1 and [f["signature"] for f in report["families"]] == [FAMILY]
        assert report["families"][0]["start"] == "auction"
    else:
        assert code == 0


def test_an_adapter_skipping_every_deal_checked_nothing() -> None:
    code, report, stderr = fuzz_json("--impl", adapter("none"), "--deals", "4", "--seed", "1")
    assert code == 1 and report["skipped"]["deals"] == 4 and report["families"] == []
    assert "skipped every deal: nothing was checked" in stderr


def test_a_found_scenario_s_id_does_not_depend_on_the_command() -> None:
    """The same finding, the adapter named two ways: the same id, the same file name."""
    ids = []
    for python in (sys.executable, str(Path(sys.executable).resolve())):
        _, report, _ = fuzz_json("--impl", adapter(python=python), "--deals", "1", "--seed", "1")
        ids.append([(f["scenario_id"], f["filename"]) for f in report["families"]])
    assert ids[0] and ids[0] == ids[1]


def test_a_mistyped_generator_or_profile_gets_did_you_mean() -> None:
    done = run_in_process("fuzz", "--generators", "auctoin")
    assert done.returncode == 2 and "did you mean auction?" in done.stderr
    hello = shlex.join(
        [sys.executable, str(ROOT / "tests/protocol/adapters/capabilities.py"), "australian4"]
    )
    done = run_in_process("fuzz", "--no-progress", "--impl", hello, "--deals", "1")
    assert done.returncode == 3
    assert "'australian4'; did you mean australian-4?" in done.stderr
