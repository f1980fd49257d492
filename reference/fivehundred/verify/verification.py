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
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from .. import PROTOCOL_VERSION, SUITE_VERSION
from ..engine import DEFAULT_PROFILE
from ..safety import DEFAULT_TIMEOUT
from ..scenarios import Scenario
from ..scenarios.derived.narration import step_text
from .expectations import KEYWORD_OF, Expectation, Listed
from .protocol import Capabilities, ImplementationInfo
from .runner import Implementation, RunOutcome, ScenarioReport, run_scenarios
from .verdict import REPORTED_ERROR, Status, Unchecked, Verdict

__all__ = [
    "EXIT_BROKEN_ADAPTER",
    "EXIT_FAILED",
    "EXIT_OK",
    "Entry",
    "Outcome",
    "RuleCounts",
    "Verification",
    "broken_reason",
    "classify",
    "expectations_from_run",
    "first_failure",
    "not_run",
    "run_verification",
]

DEFAULT_LABEL = DEFAULT_PROFILE.name
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
    CHANGED_FAILURE = "changed-failure"
    """Failed as listed, but first at another step or check than the file records."""


def first_failure(verdict: Verdict) -> tuple[int, str] | None:
    """The step number (counted from 1) and the check of a verdict's first mismatch."""
    if not verdict.mismatches:
        return None
    first = verdict.mismatches[0]
    return first.number, first.what


def classify(
    status: Status, expectation: Expectation | None, verdict: Verdict | None = None
) -> Outcome:
    """A failure other than the one expected (errored for fail, or a failure at another
    step or check than the one recorded) is not an expected failure."""
    if expectation is None or expectation.status is Listed.SKIP:
        return Outcome(status.value)
    if status is expectation.expected_status:
        if (
            status is Status.FAILED
            and verdict is not None
            and expectation.step is not None
            and first_failure(verdict) != (expectation.step, expectation.check)
        ):
            return Outcome.CHANGED_FAILURE
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

    @property
    def ran(self) -> bool:
        """Whether the implementation ran it (anything but skipped)."""
        return self.status is not Status.SKIPPED

    @property
    def unchecked(self) -> list[Unchecked]:
        return self.verdict.unchecked

    def changed_text(self) -> str:
        """How a changed failure differs from the one the expectations file records."""
        assert self.expectation is not None
        now = first_failure(self.verdict)
        was = f"step {self.expectation.step} ({self.expectation.check})"
        shown = "no mismatch" if now is None else f"step {now[0]} ({now[1]})"
        return f"listed as failing first at {was}; now fails first at {shown}"


@dataclass
class RuleCounts:
    """One rule's line in the per-rule tables: scenarios citing it, by outcome (also one
    profile's line in the per-profile tables)."""

    rule: str
    passed: int = 0
    failed: int = 0
    """Failed, errored, changed failures and unexpected passes that fail the run."""
    expected_failures: int = 0
    skipped: int = 0
    unchecked: int = 0
    """Checks left out in the scenarios citing the rule (observations, codes)."""
    partly_checked: int = 0
    """Scenarios citing the rule that passed with some checks left out."""

    def as_json(self, key: str = "rule") -> dict[str, Any]:
        return {
            key: self.rule,
            "passed": self.passed,
            "failed": self.failed,
            "expected_failures": self.expected_failures,
            "skipped": self.skipped,
            "partly_checked": self.partly_checked,
            "unchecked": self.unchecked,
        }


class Mode(StrEnum):
    """How the implementation is run (the reports and ``rerun`` commands name it)."""

    IN_PROCESS = "in-process"
    """The reference, called in this process."""
    PERSISTENT = "persistent"
    """An adapter started once for the run."""
    ONE_SHOT = "one-shot"
    """An adapter started once per message (``--one-shot``)."""


@dataclass
class Verification:
    implementation: ImplementationInfo
    capabilities: Capabilities | None
    mode: Mode
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

    def __post_init__(self) -> None:
        self.mode = Mode(self.mode)  # a caller's plain "one-shot" reads as the mode it names

    def rerun_command(self, scenario: Scenario) -> str:
        """A command that runs ``scenario`` alone the same way: the same implementation,
        mode, reply timeout and error leniency (an expectations file is left out: the
        rerun shows what the scenario does now)."""
        command = scenario.rerun_command()
        if self.command is not None:
            command += f" --impl {shlex.quote(self.command)}"
            if self.mode is Mode.ONE_SHOT:
                command += " --one-shot"
            if self.timeout is not None and self.timeout != DEFAULT_TIMEOUT:
                command += f" --timeout {self.timeout:g}"
        if self.lenient_errors:
            command += " --lenient-errors"
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
            "changed_failures": counts["changed_failure"],
        }

    def fails_run(self, entry: Entry) -> bool:
        if entry.outcome is Outcome.UNEXPECTED_PASS:
            return not self.allow_unexpected_pass
        return entry.outcome in (Outcome.FAILED, Outcome.ERRORED, Outcome.CHANGED_FAILURE)

    @property
    def ran(self) -> int:
        """Scenarios the implementation ran (not skipped)."""
        return sum(1 for e in self.entries if e.ran)

    @property
    def compared(self) -> int:
        """Scenarios whose results were compared with the expected ones: those that ran
        and did not error (an errored scenario, even an expected error, checked nothing)."""
        return sum(1 for e in self.entries if e.ran and e.status is not Status.ERRORED)

    @property
    def nothing_checked(self) -> bool:
        """No scenario's results were compared (each was skipped or errored): a run that
        proves nothing must not pass."""
        return bool(self.entries) and self.compared == 0

    def unchecked_count(self) -> int:
        return sum(len(e.unchecked) for e in self.entries if e.ran)

    def partly_checked(self) -> list[Entry]:
        """Scenarios that ran with some checks left out."""
        return [e for e in self.entries if e.ran and e.unchecked]

    @property
    def conformant(self) -> bool:
        """Every scenario ran, every check was made, and nothing failed the run."""
        return (
            self.ok
            and bool(self.entries)
            and self.ran == len(self.entries)
            and self.unchecked_count() == 0
            and not any(e.outcome is Outcome.EXPECTED_FAILURE for e in self.entries)
        )

    def headline(self) -> str:
        """One sentence every report starts with: the verdict and what it covers."""
        total = len(self.entries)
        coverage = self._coverage()
        if self.broken is not None:
            return f"Broken adapter: {self.broken}"
        if self.nothing_checked:
            return f"Nothing was checked: {coverage}"
        if not self.ok:
            bad = sum(1 for e in self.entries if self.fails_run(e))
            files = f", {self.invalid_files} invalid scenario files" if self.invalid_files else ""
            return f"Not conformant: {bad} scenarios fail the run{files} ({coverage})"
        if self.conformant:
            return f"Conformant: all {total} scenarios ran and passed"
        return f"No failures in what was checked, but not everything was: {coverage}"

    def _coverage(self) -> str:
        """What the run checked: compared, errored, skipped (and why), left unchecked."""
        total = len(self.entries)
        skipped = total - self.ran
        coverage = f"checked {self.compared} of {total} scenarios"
        errored = self.ran - self.compared
        if errored:
            coverage += f"; {errored} errored, so nothing in them was compared"
        if skipped:
            coverage += self._skipped_text(skipped)
        partly = self.partly_checked()
        if partly:
            coverage += f"; {self.unchecked_count()} checks unchecked in {len(partly)} scenarios"
        expected = self.count(Outcome.EXPECTED_FAILURE)
        if expected:
            coverage += f"; {expected} expected failures"
        return coverage

    def _skipped_text(self, skipped: int) -> str:
        """The skips with the commonest reason and its own count: never "all N because X"."""
        reasons = skips_by_reason(self)
        first = max(reasons, key=lambda r: len(reasons[r]))
        if len(reasons) == 1:
            return f"; {skipped} skipped because {first}"
        most, others = len(reasons[first]), len(reasons) - 1
        return (
            f"; {skipped} skipped ({most} because {first}; {skipped - most} for "
            f"{others} other reason{'' if others == 1 else 's'})"
        )

    def _tally(self, counts: RuleCounts, entry: Entry) -> None:
        if not entry.ran:
            counts.skipped += 1
            return
        counts.unchecked += len(entry.unchecked)
        if self.fails_run(entry):
            counts.failed += 1
        elif entry.outcome is Outcome.EXPECTED_FAILURE:
            counts.expected_failures += 1
        else:
            counts.passed += 1
            if entry.unchecked:
                counts.partly_checked += 1

    def by_rule(self) -> list[RuleCounts]:
        """Scenarios by the rules they cite (a scenario counts under each of its rules)."""
        rules: dict[str, RuleCounts] = {}
        for entry in self.entries:
            for rule in entry.scenario.rules:
                self._tally(rules.setdefault(rule, RuleCounts(rule)), entry)
        return [rules[r] for r in sorted(rules)]

    def by_profile(self) -> list[RuleCounts]:
        """Scenarios by profile with its toggles (``australian-4+no-misere``), so a report
        says what did not run for each rule set; the default profile first."""
        profiles: dict[str, RuleCounts] = {}
        for entry in self.entries:
            label = entry.scenario.profile_label
            self._tally(profiles.setdefault(label, RuleCounts(label)), entry)
        return [profiles[p] for p in sorted(profiles, key=lambda p: (p != DEFAULT_LABEL, p))]

    @property
    def ok(self) -> bool:
        return (
            self.broken is None
            and not self.invalid_files
            and not self.nothing_checked
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

    @property
    def capabilities(self) -> Capabilities:
        return self.inner.capabilities

    @property
    def deadline(self) -> float | None:
        return self.inner.deadline

    @deadline.setter
    def deadline(self, deadline: float | None) -> None:
        self.inner.deadline = deadline

    @property
    def gave_up(self) -> str | None:
        return self.inner.gave_up

    def lingering_warning(self) -> str | None:
        return self.inner.lingering_warning()

    def plan(self, scenarios: Sequence[Scenario]) -> None:
        self.inner.plan([s for s in scenarios if s.id not in self.skips])

    def has_in_flight(self, scenario: Scenario) -> bool:
        return self.inner.has_in_flight(scenario)

    def close(self) -> None:
        self.inner.close()


def only_reported_errors(entries: Sequence[Entry]) -> bool:
    """Whether every scenario the adapter answered came back as its own ``errored``
    reply (the protocol works; the implementation fails), leaving out those the run's
    --max-time cut short or kept from being sent (both messages name --max-time)."""
    answered = [
        e for e in entries if e.ran and "--max-time" not in e.verdict.message.split("\n")[0]
    ]
    return bool(answered) and all(e.verdict.message.startswith(REPORTED_ERROR) for e in answered)


def broken_reason(entries: Sequence[Entry], unsent: str = "") -> str | None:
    """An adapter whose every scenario errored is broken, not non-conformant.

    When every one of those errors is listed as expected, the implementer knows and
    the expectations file judges the run instead.  Scenarios errored with the message
    ``unsent`` (the run's time ran out before they were sent) are counted apart: the
    reason says how many the adapter was really given.
    """
    ran = [e for e in entries if e.status is not Status.SKIPPED]
    if not ran or any(e.status is not Status.ERRORED for e in ran):
        return None
    if all(e.outcome is Outcome.EXPECTED_FAILURE for e in ran):
        return None
    sent = [e for e in ran if not unsent or e.verdict.message != unsent]
    if not sent:
        return f"no scenario was sent ({unsent})"
    first = sent[0].verdict.message.splitlines()[0] if sent[0].verdict.message else "no message"
    count = "the only scenario" if len(sent) == 1 else f"all {len(sent)} scenarios"
    reason = f"{count} it was given errored (the first: {first})"
    if len(sent) < len(ran):
        reason += f"; {len(ran) - len(sent)} more were never sent ({unsent})"
    return reason


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
    skips = {k: v for k, v in expectations.items() if v.status is Listed.SKIP}

    def record(report: ScenarioReport) -> None:
        expectation = expectations.get(report.scenario.id)
        entry = Entry(
            report.scenario,
            report.verdict,
            report.seconds,
            expectation,
            classify(report.status, expectation, report.verdict),
        )
        verification.entries.append(entry)
        if on_entry is not None:
            on_entry(entry)

    implementation.plan([s for s in scenarios if s.id not in skips])
    started = time.perf_counter()
    deadline = None if max_time is None else time.monotonic() + max_time
    if deadline is not None:
        implementation.deadline = deadline
    out_of_time = (
        "" if max_time is None else f"not run: the run's --max-time of {max_time:g} s ran out"
    )
    run_scenarios(
        scenarios,
        _SkippingListed(implementation, skips),
        lenient_errors=verification.lenient_errors,
        on_report=record,
        deadline=deadline,
        out_of_time=out_of_time,
    )
    verification.seconds = time.perf_counter() - started
    _record_health(verification, implementation, out_of_time)
    return verification


def _record_health(
    verification: Verification, implementation: Implementation, out_of_time: str
) -> None:
    """What the run says of the adapter itself: broken (it gave up, or every scenario
    errored), and processes that outlived their replies."""
    if verification.broken is None and verification.mode is not Mode.IN_PROCESS:  # adapters only
        gave_up = implementation.gave_up  # the cause, not "all N errored"
        verification.broken = gave_up or broken_reason(verification.entries, out_of_time)
    lingering = implementation.lingering_warning()
    if lingering is not None:
        verification.warnings.append(lingering)


def not_run(
    verification: Verification,
    scenarios: Sequence[Scenario],
    why: str,
    expectations: Mapping[str, Expectation],
) -> Verification:
    """Every scenario errored without being sent, for an adapter that never started."""
    for scenario in scenarios:
        expectation = expectations.get(scenario.id)
        if expectation is not None and expectation.status is Listed.SKIP:
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
        what = "" if first.what == step else f"{first.what} "
        text = f"step {first.number} ({step}): {what}{first.describe()}"
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

    Scenarios that failed or errored are listed with that status and, for a
    failure, the first failing step and check (keeping the old reason and link when
    the status is unchanged); ``skip`` entries and entries for scenarios this run did
    not select are carried over, since the run says nothing new about them.
    """
    run_ids = {e.scenario.id for e in verification.entries}
    written = {k: v for k, v in previous.items() if k not in run_ids or v.status is Listed.SKIP}
    for entry in verification.entries:
        if entry.status not in (Status.FAILED, Status.ERRORED):
            continue
        keyword = KEYWORD_OF[entry.status]
        old = previous.get(entry.scenario.id)
        first = first_failure(entry.verdict)
        step, check = (None, None) if first is None else first
        if old is not None and old.status == keyword:
            written[entry.scenario.id] = replace(old, step=step, check=check)
        else:
            written[entry.scenario.id] = Expectation(keyword, _reason(entry), None, step, check)
    return written


def skips_by_reason(verification: Verification) -> dict[str, list[Entry]]:
    """Skipped scenarios grouped by the reason given, so a report can list them briefly."""
    groups: dict[str, list[Entry]] = {}
    for entry in verification.entries:
        if entry.outcome is Outcome.SKIPPED:
            reason = entry.verdict.message or "no reason given"
            groups.setdefault(reason, []).append(entry)
    return groups
