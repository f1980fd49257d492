"""The run's mode and an expectation's status are enums that read plain words, so a report
written from either is the same text it always was."""

from __future__ import annotations

import json

from fivehundred.scenarios import load_corpus
from fivehundred.verify.expectations import Expectation, Listed
from fivehundred.verify.protocol import Capabilities, ImplementationInfo
from fivehundred.verify.verification import Mode, Verification


def _verification(mode: str) -> Verification:
    info = ImplementationInfo("adapter", "1", "python")
    return Verification(info, Capabilities(("australian-4",), True, True), mode, command="x")


def test_a_plain_mode_word_reads_as_the_mode_it_names() -> None:
    scenario = load_corpus().scenarios[0]
    one_shot, persistent = _verification("one-shot"), _verification("persistent")
    assert one_shot.mode is Mode.ONE_SHOT and persistent.mode is Mode.PERSISTENT
    assert one_shot.rerun_command(scenario).endswith("--impl x --one-shot")
    assert persistent.rerun_command(scenario).endswith("--impl x")
    assert json.dumps({"mode": one_shot.mode}) == '{"mode": "one-shot"}'
    assert f"{Mode.IN_PROCESS} mode" == "in-process mode"


def test_an_expectation_status_reads_as_its_keyword() -> None:
    listed = Expectation("skip", "not yet")  # type: ignore[arg-type]  # as older callers wrote it
    assert listed.status is Listed.SKIP
    assert listed.as_json() == {"status": "skip", "reason": "not yet"}
    assert type(listed.as_json()["status"]) is str  # YAML writers see a plain string
