"""The human report of a verification run (the default ``--format text``), with rich.

Failures come first with every mismatch and a command to rerun the scenario, then
a table by area and one summary line.  Columns and counts for expectations appear
only when an expectations file was given, so the plain report stays as short as
before.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..safety import clean_text
from ..scenarios.derived.narration import step_text
from ..verify.verdict import Status
from ..verify.verification import (
    DEFAULT_LABEL,
    Entry,
    Outcome,
    RuleCounts,
    Verification,
    only_reported_errors,
    skips_by_reason,
)
from ._grid import Column, Grid

__all__ = ["STATUS_STYLE", "print_text_report", "rule_table", "say", "shown_path"]


def say(console: Console, markup: str) -> None:
    """Print console markup whose pieces from outside are already ``escape``d.

    Control characters (ANSI and OSC escapes, NUL, carriage returns) are made
    visible first, so an adapter's output or a title cannot restyle the terminal,
    overwrite a line or forge the summary.
    """
    console.print(clean_text(markup))


STATUS_STYLE = {
    Status.PASSED: "green",
    Status.FAILED: "bold red",
    Status.ERRORED: "bold magenta",
    Status.SKIPPED: "yellow",
}
OUTCOME_STYLE = {
    Outcome.PASSED: "green",
    Outcome.FAILED: "bold red",
    Outcome.ERRORED: "bold magenta",
    Outcome.SKIPPED: "yellow",
    Outcome.EXPECTED_FAILURE: "cyan",
    Outcome.UNEXPECTED_PASS: "bold blue",
    Outcome.CHANGED_FAILURE: "bold red",
}
STDERR_SHOWN = 2000


def checkpoint_place(entry: Entry, step: int) -> str:
    """``file:line`` of a step, relative to the suite, when the scenario came from a file."""
    scenario = entry.scenario
    mark = scenario.step_mark(step)
    if scenario.path is None or mark is None:
        return ""
    return f"{shown_path(scenario.path)}:{mark.line}"


def shown_path(path: Path) -> str:
    """A scenario's path relative to the suite folder (or the working directory)."""
    for base in _bases():
        try:
            return path.resolve().relative_to(base).as_posix()
        except ValueError:
            continue
    return path.as_posix()


def _bases() -> list[Path]:
    bases = []
    try:
        from ..resources import scenarios_dir

        bases.append(scenarios_dir().resolve().parent)
    except Exception:  # no suite folder: paths relative to the working directory
        pass
    bases.append(Path.cwd().resolve())
    return bases


def entry_lines(entry: Entry, verification: Verification) -> list[str]:
    """A failed, errored or unexpectedly passing scenario, as console markup lines."""
    scenario, verdict = entry.scenario, entry.verdict
    where = f" ({shown_path(scenario.path)})" if scenario.path else ""
    label = entry.outcome.value.upper().replace("-", " ")
    lines = [
        f"[{OUTCOME_STYLE[entry.outcome]}]{label}[/] "
        f"[bold]{scenario.id}[/] {escape(scenario.title)}{escape(where)}"
    ]
    if entry.expectation is not None:
        listed = entry.expectation
        lines.append(f"  listed as {listed.status}: {escape(listed.reason)}")
    if entry.outcome is Outcome.CHANGED_FAILURE:
        lines.append(f"  changed failure: {escape(entry.changed_text())}")
    for mismatch in verdict.mismatches:
        step = step_text(scenario.steps[mismatch.step])
        what = "" if mismatch.what == step else f"[cyan]{escape(mismatch.what)}[/] "
        place = checkpoint_place(entry, mismatch.step)
        at = f" [dim]{escape(place)}[/]" if place else ""
        lines.append(
            f"  step {mismatch.number} ({escape(step)}): {what}{escape(mismatch.describe())}{at}"
        )
    if verdict.message:
        lines.append("  " + escape(verdict.message).replace("\n", "\n  "))
    if verdict.stderr and verdict.status in (Status.FAILED, Status.ERRORED):
        tail = verdict.stderr[-STDERR_SHOWN:]
        lines.append("  stderr:\n    " + escape(tail.rstrip()).replace("\n", "\n    "))
    lines.append(f"  rerun: [bold]{escape(verification.rerun_command(scenario))}[/]")
    return lines


def _columns(verification: Verification) -> list[Outcome]:
    with_expectations = any(e.expectation is not None for e in verification.entries)
    plain = [Outcome.PASSED, Outcome.FAILED, Outcome.ERRORED, Outcome.SKIPPED]
    if with_expectations:
        return [
            *plain,
            Outcome.EXPECTED_FAILURE,
            Outcome.UNEXPECTED_PASS,
            Outcome.CHANGED_FAILURE,
        ]
    return plain


def summary_table(verification: Verification) -> Grid:
    title = clean_text(f"{verification.implementation.name}: results by area")
    columns = _columns(verification)
    table = Grid(
        title,
        [
            Column("area"),
            *(Column(o.value, "right", OUTCOME_STYLE[o]) for o in columns),
            Column("total", "right"),
        ],
    )
    areas: dict[str, dict[Outcome, int]] = {}
    for entry in verification.entries:
        counts = areas.setdefault(entry.scenario.area or "-", dict.fromkeys(Outcome, 0))
        counts[entry.outcome] += 1
    for area in sorted(areas):
        counts = areas[area]
        table.add_row(
            clean_text(area), *(str(counts[o]) for o in columns), str(sum(counts.values()))
        )
    table.add_row(
        ("all", "bold"),
        *((str(verification.count(o)), "bold") for o in columns),
        (str(len(verification.entries)), "bold"),
    )
    return table


def rule_table(verification: Verification) -> Grid:
    """Passed, failed and unchecked by rule: which rules does it break, which were not checked?"""
    return _counts_table(
        "by rule (a scenario counts under every rule it cites)", "rule", verification.by_rule()
    )


def profile_table(verification: Verification) -> Grid:
    """Passed, failed and skipped by profile: which rule sets were run at all?"""
    return _counts_table("by profile (with variant toggles)", "profile", verification.by_profile())


_COUNT_COLUMNS = [
    Column("passed", "right", "green"),
    Column("failed or errored", "right", "bold red"),
    Column("expected", "right", "cyan"),
    Column("skipped", "right", "yellow"),
    Column("partly checked", "right", "yellow"),
    Column("unchecked checks", "right", "yellow"),
]


def _counts_table(title: str, first: str, rows: list[RuleCounts]) -> Grid:
    table = Grid(title, [Column(first), *_COUNT_COLUMNS])
    for counts in rows:
        table.add_row(
            clean_text(counts.rule),
            str(counts.passed),
            str(counts.failed),
            str(counts.expected_failures),
            str(counts.skipped),
            str(counts.partly_checked),
            str(counts.unchecked),
        )
    return table


def unchecked_lines(verification: Verification) -> list[str]:
    """What was not checked, per scenario: every left-out check, grouped by reason."""
    lines = []
    for entry in verification.partly_checked():
        reasons: dict[str, list[str]] = {}
        for item in entry.unchecked:
            reasons.setdefault(item.why, []).append(f"step {item.number} {item.what}")
        text = "; ".join(f"{', '.join(where)} ({why})" for why, where in reasons.items())
        lines.append(
            f"[yellow]UNCHECKED[/] [bold]{entry.scenario.id}[/] {len(entry.unchecked)} of "
            f"{len(entry.unchecked) + entry.verdict.checks} checks: {escape(text)}"
        )
    return lines


def summary_line(verification: Verification) -> str:
    v = verification
    line = (
        f"verify: {v.count(Outcome.PASSED)} passed, {v.count(Outcome.FAILED)} failed, "
        f"{v.count(Outcome.ERRORED)} errored, {v.count(Outcome.SKIPPED)} skipped"
    )
    if any(e.expectation is not None for e in v.entries):
        line += (
            f", {v.count(Outcome.EXPECTED_FAILURE)} expected failures, "
            f"{v.count(Outcome.UNEXPECTED_PASS)} unexpected passes, "
            f"{v.count(Outcome.CHANGED_FAILURE)} changed failures"
        )
    if v.unchecked_count():
        line += f", {v.unchecked_count()} checks unchecked"
    return line + f", {v.invalid_files} invalid files in {v.seconds:.2f}s"


def headline(verification: Verification) -> str:
    return verification.headline()


def print_broken(verification: Verification, console: Console) -> None:
    """Say plainly that the adapter, not the rules, is the problem."""
    v = verification
    command = f" ({escape(v.command)})" if v.command else ""
    if only_reported_errors(v.entries):
        advice = (  # every reply was a well-formed `errored`: the protocol works
            "  This is not a conformance result: the protocol works, but the implementation\n"
            "  itself answered `errored` to every scenario it was sent. Start from the first\n"
            "  message above; list errors you know of in an expectations file (status: error)."
        )
    else:
        advice = (
            "  This is not a conformance result: the adapter does not speak the protocol yet.\n"
            "  Check that it starts, reads one JSON message per line on stdin, answers hello,\n"
            "  writes one JSON reply per line on stdout and flushes it (site/protocol.md)."
        )
    say(console, f"[bold red]BROKEN ADAPTER[/]{command}: {escape(v.broken or '')}\n{advice}")
    if v.broken_stderr:
        tail = v.broken_stderr[-STDERR_SHOWN:]
        say(console, "  stderr:\n    " + escape(tail.rstrip()).replace("\n", "\n    "))


BROKEN_SHOWN = 3
"""A broken adapter fails every scenario the same way: show a few, not hundreds."""


def print_text_report(verification: Verification, console: Console) -> None:
    """The whole report: the scenarios to look at, the tables, the verdict."""
    v = verification
    _print_failures(v, console)
    _print_expected_failures(v, console)
    for line in unchecked_lines(v):
        console.print(line)
    for reason, skipped in skips_by_reason(v).items():
        ids = " ".join(e.scenario.id for e in skipped)
        say(console, f"[yellow]SKIPPED[/] {len(skipped)}: {escape(reason)}\n  [dim]{ids}[/]")
    console.print(summary_table(v))
    profiles = v.by_profile()
    if any(p.skipped or p.rule != DEFAULT_LABEL for p in profiles):
        console.print(profile_table(v))
    console.print(rule_table(v))
    _print_verdict(v, console)


def _print_verdict(v: Verification, console: Console) -> None:
    """The end of the report: a broken adapter said plainly, the headline, the counts."""
    if v.broken is not None:
        print_broken(v, console)
    colour = "green" if v.conformant else ("red" if not v.ok else "yellow")
    say(console, f"[{colour}]{escape(v.headline())}[/]")
    say(console, f"[{'green' if v.ok else 'red'}]{escape(summary_line(v))}[/]")


def _print_failures(v: Verification, console: Console) -> None:
    """Each scenario that fails the run or passes unexpectedly; a few when the adapter broke."""
    shown = [e for e in v.entries if v.fails_run(e) or e.outcome is Outcome.UNEXPECTED_PASS]
    hidden = 0
    if v.broken is not None and len(shown) > BROKEN_SHOWN:
        hidden = len(shown) - BROKEN_SHOWN
        shown = shown[:BROKEN_SHOWN]
    for entry in shown:
        for line in entry_lines(entry, v):
            say(console, line)
    if hidden:
        console.print(f"[dim]… and {hidden} more failing scenarios (all are in --format json)[/]")


def _print_expected_failures(v: Verification, console: Console) -> None:
    """The failures an expectations file lists, with the reason it gives."""
    for entry in v.entries:
        if entry.outcome is Outcome.EXPECTED_FAILURE and entry.expectation is not None:
            label = f"EXPECTED {entry.expectation.status.upper()}"
            console.print(
                f"[cyan]{label}[/] [bold]{entry.scenario.id}[/] "
                f"{escape(entry.scenario.title)}: {escape(entry.expectation.reason)}"
            )
