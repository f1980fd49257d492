"""One verification run, judged as a whole: verdicts, expectations and the adapter's health.

:mod:`.runner` judges each scenario.  This module adds what only makes
sense for the run: the implementer's expectations (expected failures, scenarios not
to send, unexpected passes), the difference between an implementation that is not
conformant and an adapter that is broken, and the exit status.  Every report format
(:mod:`fivehundred.reports`) reads a
:class:`Verification`, so they always agree.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum

from .. import PROTOCOL_VERSION, SUITE_VERSION
from ..scenarios import Scenario
from ..scenarios.narration import step_text
from .expectations import KEYWORD_OF, Expectation
from .protocol import Capabilities, ImplementationInfo
from .runner import Implementation, RunOutcome, ScenarioReport, run_scenarios
from .verdict import Status, Verdict

__all__ = [
    "EXIT_BROKEN_ADAPTER",
    "EXIT_FAILED",
    "EXIT_OK",
    "Entry",
    "Outcome",
    "Verification",
    "broken_reason",
    "classify",
    "expectations_from_run",
    "not_run",
    "run_verification",
]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BROKEN_ADAPTER = 3
"""Distinct from 1 so CI can tell "not conformant" from "the adapter does not work"."""


class Outcome(StrEnum):
    """A scenario's status read against the expectations file."""

    PASSED = "passed"
    FAILED = "failed"
    ERRORED = "errored"
    SKIPPED = "skipped"
    EXPECTED_FAILURE = "expected-failure"
    """Failed or errored exactly as the expectations file says."""
    UNEXPECTED_PASS = "unexpected-pass"
    """Passed although the expectations file says it fails or errors."""


def classify(status: Status, expectation: Expectation | None) -> Outcome:
    """A failure other than the one expected (errored for fail) is a plain failure."""
    if expectation is None or expectation.status == "skip":
        return Outcome(status.value)
    if status is expectation.expected_status:
        return Outcome.EXPECTED_FAILURE
    if status is Status.PASSED:
        return Outcome.UNEXPECTED_PASS
    return Outcome(status.value)


@dataclass
class Entry:
    """One scenario's line in every report."""

    scenario: Scenario
    verdict: Verdict
    seconds: float
    expectation: Expectation | None
    outcome: Outcome

    @property
    def status(self) -> Status:
        return self.verdict.status


@dataclass
class Verification:
    implementation: ImplementationInfo
    capabilities: Capabilities | None
    mode: str
    """``in-process``, ``persistent`` or ``one-shot``."""
    command: str | None = None
    lenient_errors: bool = False
    timeout: float | None = None
    allow_unexpected_pass: bool = False
    entries: list[Entry] = field(default_factory=list)
    seconds: float = 0.0
    started_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    broken: str | None = None
    """Why the adapter is judged broken, or ``None``."""
    broken_stderr: str = ""
    warnings: list[str] = field(default_factory=list)
    invalid_files: int = 0
    suite_version: str = SUITE_VERSION
    protocol_version: int = PROTOCOL_VERSION

    def rerun_command(self, scenario: Scenario) -> str:
        """A command that runs ``scenario`` alone the same way."""
        command = scenario.rerun_command()
        if self.command is not None:
            command += f" --impl {shlex.quote(self.command)}"
            if self.mode == "one-shot":
                command += " --one-shot"
        return command

    def count(self, outcome: Outcome) -> int:
        return sum(1 for e in self.entries if e.outcome is outcome)

    def totals(self) -> dict[str, int]:
        """Counts by outcome; they add up to ``total``."""
        counts = {o.value.replace("-", "_"): self.count(o) for o in Outcome}
        return {
            "total": len(self.entries),
            "passed": counts["passed"],
            "failed": counts["failed"],
            "errored": counts["errored"],
            "skipped": counts["skipped"],
            "expected_failures": counts["expected_failure"],
            "unexpected_passes": counts["unexpected_pass"],
        }

    def fails_run(self, entry: Entry) -> bool:
        if entry.outcome is Outcome.UNEXPECTED_PASS:
            return not self.allow_unexpected_pass
        return entry.outcome in (Outcome.FAILED, Outcome.ERRORED)

    @property
    def ok(self) -> bool:
        return (
            self.broken is None
            and not self.invalid_files
            and not any(self.fails_run(e) for e in self.entries)
        )

    @property
    def exit_code(self) -> int:
        if self.broken is not None:
            return EXIT_BROKEN_ADAPTER
        return EXIT_OK if self.ok else EXIT_FAILED


class _SkippingListed:
    """Wraps an implementation so scenarios listed as ``skip`` are never sent to it."""

    def __init__(self, inner: Implementation, skips: Mapping[str, Expectation]) -> None:
        self.inner = inner
        self.name = inner.name
        self.skips = skips

    def run(self, scenario: Scenario) -> RunOutcome:
        listed = self.skips.get(scenario.id)
        if listed is not None:
            return RunOutcome(skipped=f"listed as skip in the expectations file: {listed.reason}")
        return self.inner.run(scenario)

    def close(self) -> None:
        self.inner.close()


def broken_reason(entries: Sequence[Entry]) -> str | None:
    """An adapter whose every scenario errored is broken, not non-conformant.

    When every one of those errors is listed as expected, the implementer knows and
    the expectations file judges the run instead.
    """
    ran = [e for e in entries if e.status is not Status.SKIPPED]
    if not ran or any(e.status is not Status.ERRORED for e in ran):
        return None
    if all(e.outcome is Outcome.EXPECTED_FAILURE for e in ran):
        return None
    first = ran[0].verdict.message.splitlines()[0] if ran[0].verdict.message else "no message"
    count = "the only scenario" if len(ran) == 1 else f"all {len(ran)} scenarios"
    return f"{count} it was given errored (the first: {first})"


def run_verification(
    verification: Verification,
    scenarios: Sequence[Scenario],
    implementation: Implementation,
    expectations: Mapping[str, Expectation],
    on_entry: Callable[[Entry], None] | None = None,
    max_time: float | None = None,
) -> Verification:
    """Run ``scenarios`` and fill in ``verification``'s entries, timing and health.

    With ``max_time`` the whole run has that many seconds: an adapter's reply is
    due by then at the latest, and scenarios not started when it runs out are
    errored as not run.
    """
    skips = {k: v for k, v in expectations.items() if v.status == "skip"}

    def record(report: ScenarioReport) -> None:
        expectation = expectations.get(report.scenario.id)
        entry = Entry(
            report.scenario,
            report.verdict,
            report.seconds,
            expectation,
            classify(report.status, expectation),
        )
        verification.entries.append(entry)
        if on_entry is not None:
            on_entry(entry)

    plan = getattr(implementation, "plan", None)  # see ExternalImplementation.plan
    if callable(plan):
        plan([s for s in scenarios if s.id not in skips])
    started = time.perf_counter()
    deadline = None if max_time is None else time.monotonic() + max_time
    if deadline is not None and hasattr(implementation, "deadline"):
        implementation.deadline = deadline  # see ExternalImplementation.deadline
    run_scenarios(
        scenarios,
        _SkippingListed(implementation, skips),
        lenient_errors=verification.lenient_errors,
        on_report=record,
        deadline=deadline,
        out_of_time=f"not run: the run's --max-time of {max_time:g} s ran out"
        if max_time is not None
        else "",
    )
    verification.seconds = time.perf_counter() - started
    if verification.broken is None and verification.mode != "in-process":
        verification.broken = broken_reason(verification.entries)  # adapters only
    return verification


def not_run(
    verification: Verification,
    scenarios: Sequence[Scenario],
    why: str,
    expectations: Mapping[str, Expectation],
) -> Verification:
    """Every scenario errored without being sent, for an adapter that never started."""
    for scenario in scenarios:
        expectation = expectations.get(scenario.id)
        if expectation is not None and expectation.status == "skip":
            verdict = Verdict(
                Status.SKIPPED,
                message=f"listed as skip in the expectations file: {expectation.reason}",
            )
            outcome = Outcome.SKIPPED
        else:
            verdict = Verdict(Status.ERRORED, message=f"not run: {why}")
            outcome = Outcome.ERRORED  # never "expected": the adapter did not even start
        verification.entries.append(Entry(scenario, verdict, 0.0, expectation, outcome))
    return verification


REASON_CHARS = 200


def _reason(entry: Entry) -> str:
    verdict = entry.verdict
    if verdict.mismatches:
        first = verdict.mismatches[0]
        step = step_text(entry.scenario.steps[first.step])
        text = f"step {first.step} ({step}): {first.what} {first.describe()}"
        more = len(verdict.mismatches) - 1
        if more:
            text += f" (and {more} more)"
    else:
        text = verdict.message.splitlines()[0] if verdict.message else entry.status.value
    return text if len(text) <= REASON_CHARS else text[: REASON_CHARS - 1] + "…"


def expectations_from_run(
    verification: Verification, previous: Mapping[str, Expectation]
) -> dict[str, Expectation]:
    """An expectations file describing this run.

    Scenarios that failed or errored are listed with that status (keeping the old
    reason and link when the status is unchanged); ``skip`` entries and entries for
    scenarios this run did not select are carried over, since the run says nothing
    new about them.
    """
    run_ids = {e.scenario.id for e in verification.entries}
    written = {k: v for k, v in previous.items() if k not in run_ids or v.status == "skip"}
    for entry in verification.entries:
        if entry.status not in (Status.FAILED, Status.ERRORED):
            continue
        keyword = KEYWORD_OF[entry.status]
        old = previous.get(entry.scenario.id)
        if old is not None and old.status == keyword:
            written[entry.scenario.id] = old
        else:
            written[entry.scenario.id] = Expectation(keyword, _reason(entry))
    return written


def skips_by_reason(verification: Verification) -> dict[str, list[Entry]]:
    """Skipped scenarios grouped by the reason given, so a report can list them briefly."""
    groups: dict[str, list[Entry]] = {}
    for entry in verification.entries:
        if entry.outcome is Outcome.SKIPPED:
            reason = entry.verdict.message or "no reason given"
            groups.setdefault(reason, []).append(entry)
    return groups
