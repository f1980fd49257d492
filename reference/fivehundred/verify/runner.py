"""Running scenarios against an implementation and collecting verdicts.

An :class:`Implementation` turns a scenario's input into a result (or says it
skipped or errored).  The reference runs in-process; other engines run behind the
protocol (:mod:`fivehundred.verify.external`).  The runner compares each result with the
scenario's expectations; an implementation's failure to answer is *errored*, never
*failed*, and never stops the run.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..scenarios import Scenario
from .protocol import Capabilities
from .reference import InputError, run_input
from .verdict import Status, Verdict, compare


@dataclass
class RunOutcome:
    """What an implementation said about one scenario."""

    result: dict[str, Any] | None = None
    skipped: str | None = None
    errored: str | None = None
    stderr: str = ""
    unsupported: dict[str, str] = field(default_factory=dict)
    """Observation keys the implementation was not asked for, with the reason."""


class Implementation(Protocol):
    """What the runner, whole verifications and fuzz ask of an implementation, and all
    they ask: nothing reaches past this."""

    name: str
    deadline: float | None
    """``time.monotonic()`` by which every reply is due (the run's ``--max-time``), if any;
    set before the run.  An implementation that waits for nothing may ignore it."""

    @property
    def capabilities(self) -> Capabilities:
        """What it declared it supports (the reference: everything)."""
        ...

    def plan(self, scenarios: Sequence[Scenario]) -> None:
        """The scenarios :meth:`run` will be called with, in order, so that an adapter can
        be sent the next one while the last is judged.  Others ignore it."""
        ...

    def has_in_flight(self, scenario: Scenario) -> bool:
        """Whether ``scenario`` was already sent ahead (see :meth:`plan`): its reply is then
        awaited even after the deadline, never reported as not sent."""
        ...

    def run(self, scenario: Scenario) -> RunOutcome: ...

    @property
    def gave_up(self) -> str | None:
        """Why it stopped being sent scenarios part-way (an adapter killed again and again
        for one cause), or ``None``; the run's verdict names this cause."""
        ...

    def lingering_warning(self) -> str | None:
        """A word for the report on processes that outlived their replies, if any did."""
        ...

    def close(self) -> None: ...


class InProcess:
    """How an implementation that runs each scenario when asked (never ahead, waiting
    for nothing, never giving up) answers the rest of :class:`Implementation`."""

    deadline: float | None = None
    gave_up: str | None = None

    def plan(self, scenarios: Sequence[Scenario]) -> None:
        return None

    def has_in_flight(self, scenario: Scenario) -> bool:
        return False

    def lingering_warning(self) -> str | None:
        return None

    def close(self) -> None:
        return None


class ReferenceImplementation(InProcess):
    """The Python reference, called in-process."""

    name = "fivehundred-reference"

    @property
    def capabilities(self) -> Capabilities:
        from .serve import REFERENCE_CAPABILITIES

        return REFERENCE_CAPABILITIES

    def run(self, scenario: Scenario) -> RunOutcome:
        try:
            return RunOutcome(result=run_input(scenario.input()))
        except InputError as error:
            return RunOutcome(errored=f"the reference cannot run this input: {error}")
        except Exception:  # a bug in the reference: report it, keep going
            return RunOutcome(errored="the reference crashed:\n" + traceback.format_exc())


@dataclass
class ScenarioReport:
    scenario: Scenario
    verdict: Verdict
    seconds: float

    @property
    def status(self) -> Status:
        return self.verdict.status


@dataclass
class Selection:
    """Filters shared by every command that picks scenarios."""

    ids: Sequence[str] = ()
    areas: Sequence[str] = ()
    tags: Sequence[str] = ()
    rules: Sequence[str] = ()
    profiles: Sequence[str] = ()
    """Only scenarios of these profiles (with or without toggles)."""
    variants: Sequence[str] = ()
    """Only scenarios that switch on every one of these toggles."""

    def matches(self, scenario: Scenario) -> bool:
        return (
            (not self.ids or scenario.id in self.ids)
            and (not self.areas or scenario.area in self.areas)
            and (not self.tags or any(t in scenario.tags for t in self.tags))
            and (not self.rules or any(r in scenario.rules for r in self.rules))
            and (not self.profiles or scenario.profile_name in self.profiles)
            and all(v in scenario.variants for v in self.variants)
        )

    def apply(self, scenarios: Iterable[Scenario]) -> list[Scenario]:
        return [s for s in scenarios if self.matches(s)]


@dataclass
class RunSummary:
    implementation: str
    reports: list[ScenarioReport] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, status: Status) -> int:
        return sum(1 for r in self.reports if r.status is status)

    @property
    def ok(self) -> bool:
        return all(r.status in (Status.PASSED, Status.SKIPPED) for r in self.reports)


def judge(scenario: Scenario, outcome: RunOutcome, lenient_errors: bool = False) -> Verdict:
    if outcome.skipped is not None:
        return Verdict(Status.SKIPPED, message=outcome.skipped, stderr=outcome.stderr)
    if outcome.errored is not None or outcome.result is None:
        return Verdict(
            Status.ERRORED, message=outcome.errored or "no result", stderr=outcome.stderr
        )
    verdict = compare(scenario, outcome.result, lenient_errors, outcome.unsupported)
    verdict.stderr = outcome.stderr
    return verdict


def run_scenarios(
    scenarios: Sequence[Scenario],
    implementation: Implementation,
    *,
    lenient_errors: bool = False,
    on_report: Callable[[ScenarioReport], None] | None = None,
    deadline: float | None = None,
    out_of_time: str = "not run: the run's time budget ran out",
) -> RunSummary:
    """Run and judge each scenario in turn.

    With ``deadline`` (a ``time.monotonic()`` value), scenarios not started by then
    are not sent at all: each is errored with the message ``out_of_time``.
    """
    summary = RunSummary(implementation.name)
    started = time.perf_counter()
    for scenario in scenarios:
        begin = time.perf_counter()
        if (
            deadline is not None
            and time.monotonic() >= deadline
            and not implementation.has_in_flight(scenario)
        ):
            outcome = RunOutcome(errored=out_of_time)
        else:
            outcome = implementation.run(scenario)
        report = ScenarioReport(
            scenario, judge(scenario, outcome, lenient_errors), time.perf_counter() - begin
        )
        summary.reports.append(report)
        if on_report is not None:
            on_report(report)
    summary.seconds = time.perf_counter() - started
    return summary
