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

from ..scenarios import Checkpoint, Scenario, Step, expected_rejection
from ..scenarios.derived.narration import step_text
from ..scenarios.format.vocabulary import Comparison, StepOutcome, observation


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

    @property
    def number(self) -> int:
        """The step's number as people count it: the first step is step 1."""
        return self.step + 1

    def describe(self) -> str:
        return f"expected {_show(self.expected)}, got {_show(self.actual)}"


@dataclass(frozen=True, slots=True)
class Unchecked:
    """A check the scenario states that this run could not make."""

    step: int
    """Index of the step in the scenario (0-based, like :attr:`Mismatch.step`)."""
    what: str
    """The observation key, or ``rejection code``."""
    why: str

    @property
    def number(self) -> int:
        return self.step + 1


NO_CODE = "rejected (no code given)"
UNSUPPORTED_OBSERVATION = "the implementation does not report this observation"
NO_LEGAL_ACTIONS = "the implementation does not list legal actions"
NO_CODES = "rejection codes are not compared (error_codes false or --lenient-errors)"
REPORTED_ERROR = "the implementation reported: "
"""How an errored scenario's message starts when the adapter's own reply said `errored`."""


@dataclass
class Verdict:
    status: Status
    mismatches: list[Mismatch] = field(default_factory=list)
    message: str = ""
    """Why a scenario errored or was skipped."""
    stderr: str = ""
    unchecked: list[Unchecked] = field(default_factory=list)
    """Checks left out: observations the implementation cannot report, codes not compared."""
    checks: int = 0
    """Checks made: one per action or deal step outcome, one per observation compared."""

    @property
    def ok(self) -> bool:
        return self.status is Status.PASSED


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def _as_set(value: Any) -> Any:
    """A list as a multiset: its items sorted by their JSON text.  Lists of strings (cards,
    seats, actions: nearly every set compared) are sorted as they are, tagged so that
    ``["1"]`` never equals ``[1]``; encoding each item is most of the cost of a run."""
    if isinstance(value, list):
        if all(type(v) is str for v in value):
            return (True, sorted(value))
        return (False, sorted(json.dumps(v, sort_keys=True) for v in value))
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


def _rejected(outcome: Mapping[str, Any]) -> str:
    code = outcome.get("code")
    return NO_CODE if code is None else f"rejected {code}"


def _differing(key: str, expected: Any, actual: Any) -> tuple[Any, Any]:
    """Only the parts that differ: the trick fields, the seats of ``hands``."""
    registered = observation(key)
    how = Comparison.EXACT if registered is None else registered.comparison
    if (
        how in (Comparison.PARTIAL, Comparison.PER_SEAT)
        and isinstance(expected, Mapping)
        and isinstance(actual, Mapping)
    ):
        keys = [k for k in expected if not _same_part(how, expected[k], actual.get(k))]
        if keys:
            return (
                {k: expected[k] for k in keys},
                {k: actual.get(k, "(not reported)") for k in keys},
            )
    return expected, actual


def _same_part(how: Comparison, expected: Any, actual: Any) -> bool:
    if how is Comparison.PER_SEAT:
        return bool(_as_set(expected) == _as_set(actual))
    return bool(expected == actual)


class _Unreadable(Exception):
    """A step result the comparison cannot read; the scenario errors with this message."""


@dataclass
class _Tally:
    """What the comparison of one run found so far."""

    mismatches: list[Mismatch] = field(default_factory=list)
    unchecked: list[Unchecked] = field(default_factory=list)
    checks: int = 0


def compare(
    scenario: Scenario,
    result: Mapping[str, Any],
    lenient_errors: bool = False,
    unsupported: Mapping[str, str] | None = None,
) -> Verdict:
    """Compare one run's result with the scenario's expectations.

    ``lenient_errors`` compares only accepted versus rejected, for implementations
    that do not report rejection codes.  ``unsupported`` maps the observation keys
    the implementation was not asked for to the reason; those are unchecked.
    """
    outcomes = result.get("steps")
    if not isinstance(outcomes, list) or len(outcomes) != len(scenario.steps):
        count = len(outcomes) if isinstance(outcomes, list) else "no"
        return Verdict(
            Status.ERRORED,
            message=f"expected {len(scenario.steps)} step results, got {count}",
        )
    tally = _Tally()
    try:
        for index, (step, outcome) in enumerate(zip(scenario.steps, outcomes, strict=True)):
            if not isinstance(outcome, Mapping):
                raise _Unreadable(f"step {index + 1}: result is not an object")
            if isinstance(step, Checkpoint):
                _compare_observed(tally, index, step, outcome, unsupported or {})
            else:
                _compare_outcome(tally, index, step, outcome, lenient_errors)
    except _Unreadable as unreadable:
        return Verdict(Status.ERRORED, message=str(unreadable))
    status = Status.FAILED if tally.mismatches else Status.PASSED
    return Verdict(status, tally.mismatches, unchecked=tally.unchecked, checks=tally.checks)


def _compare_observed(
    tally: _Tally,
    index: int,
    step: Checkpoint,
    outcome: Mapping[str, Any],
    unsupported: Mapping[str, str],
) -> None:
    """A checkpoint: each stated observation against the one reported."""
    observed = outcome.get("observed")
    if not isinstance(observed, Mapping):
        wrong = " (the reply gave an `outcome`)" if "outcome" in outcome else ""
        raise _Unreadable(f"step {index + 1} is a checkpoint: no `observed` returned{wrong}")
    for key, expected in step.expect.items():
        if key in unsupported:
            tally.unchecked.append(Unchecked(index, key, unsupported[key]))
            continue
        tally.checks += 1
        if key not in observed:
            tally.mismatches.append(Mismatch(index, key, expected, "(not reported)"))
        elif not _same(key, expected, observed[key]):
            shown = _differing(key, expected, observed[key])
            tally.mismatches.append(Mismatch(index, key, *shown))


def _compare_outcome(
    tally: _Tally,
    index: int,
    step: Step,
    outcome: Mapping[str, Any],
    lenient_errors: bool,
) -> None:
    """An action or a deal step: accepted or rejected, and with which code."""
    got = outcome.get("outcome")
    if got not in tuple(StepOutcome):
        if got is None:
            wrong = " (the reply gave `observed`)" if "observed" in outcome else ""
            raise _Unreadable(f"step {index + 1} is an action: no `outcome` returned{wrong}")
        raise _Unreadable(f"step {index + 1}: outcome {got!r} is not accepted or rejected")
    tally.checks += 1
    want_code = expected_rejection(step)
    if want_code is None:
        if got != StepOutcome.ACCEPTED:
            tally.mismatches.append(
                Mismatch(index, step_text(step), "accepted", _rejected(outcome))
            )
    elif got == StepOutcome.ACCEPTED:
        tally.mismatches.append(
            Mismatch(index, step_text(step), f"rejected {want_code}", "accepted")
        )
    elif lenient_errors:
        tally.unchecked.append(Unchecked(index, "rejection code", NO_CODES))
    elif outcome.get("code") != want_code:
        tally.mismatches.append(
            Mismatch(index, step_text(step), f"rejected {want_code}", _rejected(outcome))
        )
