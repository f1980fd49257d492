"""Skipped deals, chosen generators and family labels, in-process (the fast tier): an
implementation that skips some deals is fuzzed to the end, its skips counted by
generator and reason, and its fault still found and shrunk; shards with skips merge
as one run; the labels of legal lists tell a card from a bid; the illegal actions
include a discard of one token too many that repeats a card.

``tests/fuzz/test_fuzz_skips.py`` does the same through a real adapter process.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from fivehundred.fuzz.fuzzer import FuzzReport, Settings, Tester, fuzz, merge
from fivehundred.fuzz.generators import GENERATOR_STARTS, generate, generators_taking
from fivehundred.fuzz.report import render
from fivehundred.fuzz.signature import _shapes
from fivehundred.scenarios import CallStep, DiscardStep, Scenario
from fivehundred.verify.runner import ReferenceImplementation, RunOutcome
from fuzz_cli import run_in_process


class SkipsPlayStarts:
    """The reference, skipping every scenario that starts in play, and refusing 10NT."""

    name = "skips-play-starts"

    def __init__(self) -> None:
        self.reference = ReferenceImplementation()

    def run(self, scenario: Scenario) -> RunOutcome:
        if scenario.setup.kind == "play":
            return RunOutcome(skipped="cannot start in the middle of a deal")
        outcome = self.reference.run(scenario)
        assert outcome.result is not None
        for step, result in zip(scenario.steps, outcome.result["steps"], strict=True):
            if isinstance(step, CallStep) and step.call == "10NT" and "outcome" in result:
                result.update(outcome="rejected", code="bid-not-available")
        return outcome

    def close(self) -> None:
        return None


def factory() -> tuple[Tester, Callable[[], None]]:
    implementation = SkipsPlayStarts()
    return Tester(implementation), implementation.close


def _run(**settings: object) -> FuzzReport:
    chosen = Settings(**{"seed": 1, "deals": 28, **settings})  # type: ignore[arg-type]
    return fuzz(factory, chosen, name="skips-play-starts")


def test_skipped_deals_are_counted_and_the_fault_is_still_found_and_shrunk() -> None:
    report = _run()
    assert report.deals == 28 and report.skipped > 0
    assert report.checked == 28 - report.skipped
    assert set(report.skipped_by_generator) <= {"mid-deal", "joker-endgame"}
    assert report.skip_reasons == {"cannot start in the middle of a deal": report.skipped}
    (family,) = report.families.values()
    assert family.signature.describe() == (
        "call outcome: expected accepted, got rejected bid-not-available"
    )
    assert family.verified and family.shrunk_actions < family.original_actions
    assert family.start != "play"  # never shrunk into a start the implementation skips
    text = render(report, "text")
    assert f"({report.skipped} more skipped by the implementation)" in text
    assert f"{report.skipped} because cannot start in the middle of a deal" in text
    markdown = render(report, "markdown")
    assert f"skipped by the implementation: {report.skipped} deals" in markdown
    json_report = render(report, "json")
    assert '"reasons"' in json_report


def test_shards_with_skips_merge_as_one_run() -> None:
    whole = _run()
    shards = [_run(shard=(i, 2)) for i in (1, 2)]
    merged = merge(shards)
    assert merged.skipped_by_generator == whole.skipped_by_generator
    assert merged.skip_reasons == whole.skip_reasons
    again = FuzzReport.from_json(merged.as_json())
    assert again.skip_reasons == whole.skip_reasons and again.skipped == whole.skipped


def test_a_report_whose_skips_are_not_an_object_is_refused_by_name(tmp_path: Path) -> None:
    data = _run(deals=2).as_json()
    data["skipped"] = [1]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    done = run_in_process("fuzz", "merge", str(path))
    assert done.returncode == 2 and "skipped: expected a mapping, found a list" in done.stderr
    data["skipped"] = {"deals": 1, "by_generator": {"random": 3}, "reasons": {}}
    path.write_text(json.dumps(data))
    done = run_in_process("fuzz", "merge", str(path))
    assert done.returncode == 2 and "skipped.by_generator.random: 3 is out of range" in (
        done.stderr
    )


def test_many_distinct_skip_reasons_are_kept_to_a_few() -> None:
    report = FuzzReport("x", "", 0, "australian-4", [(1, 1)])
    for n in range(50):
        report.count_skip(f"deal {n} is not supported")
    assert len(report.skip_reasons) == 21 and report.skip_reasons["(other reasons)"] == 30
    assert sum(report.skip_reasons.values()) == 50


def test_chosen_generators_rotate_and_name_the_deal() -> None:
    report = _run(generators=("auction",), deals=6)
    assert report.by_generator == {"auction": 6} and report.skipped == 0
    without_ten_no_trumps = 0
    for index in range(6):
        case = generate(1, index, only=("auction",))
        assert case.setup.kind == "auction"
        assert all(isinstance(step, CallStep) for step in case.actions)
        # an auction ends with passes: the others' after the last bid, or everyone's
        calls = [step.call for step in case.actions if isinstance(step, CallStep)]
        assert calls.count("PASS") >= 3
        without_ten_no_trumps += "10NT" not in calls
    assert without_ten_no_trumps  # auctions climb by small steps, not to the top at once


def test_the_starts_an_implementation_declares_choose_the_generators() -> None:
    assert generators_taking(("deck", "auction", "play", "game")) == ()
    bidding = generators_taking(("auction",))
    assert "auction" in bidding and "random" not in bidding and "mid-deal" not in bidding
    for name in generators_taking(("deck", "auction")):
        assert GENERATOR_STARTS[name] <= {"deck", "auction"}


def test_legal_list_labels_tell_a_card_from_a_bid() -> None:
    # in play, 10C and 6S are cards: one family, never "extra bid"
    assert _shapes("legal", ["JS", "QS"], ["JS", "QS", "10C"]) == (
        "nothing missing",
        "extra card",
    )
    assert _shapes("legal", ["JS", "QS"], ["JS", "QS", "6S"]) == _shapes(
        "legal", ["JS", "QS"], ["JS", "QS", "AH"]
    )
    # in the auction they are bids
    assert _shapes("legal", ["PASS", "6S", "7C"], ["PASS", "6S"]) == (
        "missing bid",
        "nothing extra",
    )
    assert _shapes("legal", ["PASS", "10NT"], ["PASS", "10NT", "MIS"])[1] == "extra mis"


def test_the_illegal_actions_include_a_discard_of_four_repeating_a_card() -> None:
    found = [
        step
        for index in range(120)
        for step in generate(0, index, only=("illegal",)).actions
        if isinstance(step, DiscardStep) and len(step.cards) == 4 and len(set(step.cards)) == 3
    ]
    assert found
