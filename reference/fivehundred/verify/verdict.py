"""Comparing what an implementation produced with what a scenario expects.

Only what a scenario states is compared.  Lists that are sets by nature (hands,
legal actions, seats that passed, …) are compared as sets; ``hands`` and
``hand_sizes`` only for the seats given; a trick only for the fields given.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..scenarios import Checkpoint, Scenario, expected_rejection
from ..scenarios.narration import step_text
from ..scenarios.vocabulary import Comparison, observation


class Status(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    ERRORED = "errored"
    SKIPPED = "skipped"


@dataclass(frozen=True, slots=True)
class Mismatch:
    step: int
    """Index of the step in the scenario."""
    what: str
    """The step's action or the observation key."""
    expected: Any
    actual: Any

    def describe(self) -> str:
        return f"expected {_show(self.expected)}, got {_show(self.actual)}"


@dataclass
class Verdict:
    status: Status
    mismatches: list[Mismatch] = field(default_factory=list)
    message: str = ""
    """Why a scenario errored or was skipped."""
    stderr: str = ""

    @property
    def ok(self) -> bool:
        return self.status is Status.PASSED


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def _as_set(value: Any) -> Any:
    if isinstance(value, list):
        return sorted(json.dumps(v, sort_keys=True) for v in value)
    return value


def _same(key: str, expected: Any, actual: Any) -> bool:
    registered = observation(key)
    how = Comparison.EXACT if registered is None else registered.comparison
    if how is Comparison.SET:
        return bool(_as_set(expected) == _as_set(actual))
    if how is Comparison.PER_SEAT:
        if not isinstance(actual, Mapping) or not isinstance(expected, Mapping):
            return bool(expected == actual)
        return all(_as_set(value) == _as_set(actual.get(seat)) for seat, value in expected.items())
    if how is Comparison.PARTIAL and isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return False
        return all(bool(actual.get(k) == v) for k, v in expected.items())
    return bool(expected == actual)


def compare(scenario: Scenario, result: Mapping[str, Any], lenient_errors: bool = False) -> Verdict:
    """Compare one run's result with the scenario's expectations.

    ``lenient_errors`` compares only accepted versus rejected, for implementations
    that do not report rejection codes.
    """
    outcomes = result.get("steps")
    if not isinstance(outcomes, list) or len(outcomes) != len(scenario.steps):
        count = len(outcomes) if isinstance(outcomes, list) else "no"
        return Verdict(
            Status.ERRORED,
            message=f"expected {len(scenario.steps)} step results, got {count}",
        )
    mismatches: list[Mismatch] = []
    for index, (step, outcome) in enumerate(zip(scenario.steps, outcomes, strict=True)):
        if not isinstance(outcome, Mapping):
            return Verdict(Status.ERRORED, message=f"step {index}: result is not an object")
        if isinstance(step, Checkpoint):
            observed = outcome.get("observed")
            if not isinstance(observed, Mapping):
                return Verdict(Status.ERRORED, message=f"step {index}: no observations returned")
            for key, expected in step.expect.items():
                if key not in observed:
                    mismatches.append(Mismatch(index, key, expected, "(not reported)"))
                elif not _same(key, expected, observed[key]):
                    mismatches.append(Mismatch(index, key, expected, observed[key]))
            continue
        got = outcome.get("outcome")
        if got not in ("accepted", "rejected"):
            return Verdict(Status.ERRORED, message=f"step {index}: outcome {got!r} is not valid")
        want_code = expected_rejection(step)
        if want_code is None:
            if got != "accepted":
                mismatches.append(
                    Mismatch(index, step_text(step), "accepted", f"rejected {outcome.get('code')}")
                )
        elif got == "accepted":
            mismatches.append(Mismatch(index, step_text(step), f"rejected {want_code}", "accepted"))
        elif not lenient_errors and outcome.get("code") != want_code:
            mismatches.append(
                Mismatch(
                    index,
                    step_text(step),
                    f"rejected {want_code}",
                    f"rejected {outcome.get('code')}",
                )
            )
    return Verdict(Status.FAILED if mismatches else Status.PASSED, mismatches)
