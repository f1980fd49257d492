"""The human report of a verification run (the default ``--format text``), with rich.

Failures come first with every mismatch and a command to rerun the scenario, then
a table by area and one summary line.  Columns and counts for expectations appear
only when an expectations file was given, so the plain report stays as short as
before.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..safety import clean_text
from ..scenarios.narration import step_text
from ..verify.verdict import Status
from ..verify.verification import Entry, Outcome, Verification, skips_by_reason

__all__ = ["STATUS_STYLE", "print_text_report", "say"]


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
}
STDERR_SHOWN = 2000


def entry_lines(entry: Entry, verification: Verification) -> list[str]:
    """A failed, errored or unexpectedly passing scenario, as console markup lines."""
    scenario, verdict = entry.scenario, entry.verdict
    where = f" ({scenario.path})" if scenario.path else ""
    label = entry.outcome.value.upper().replace("-", " ")
    lines = [
        f"[{OUTCOME_STYLE[entry.outcome]}]{label}[/] "
        f"[bold]{scenario.id}[/] {escape(scenario.title)}{escape(where)}"
    ]
    if entry.expectation is not None:
        listed = entry.expectation
        lines.append(f"  listed as {listed.status}: {escape(listed.reason)}")
    for mismatch in verdict.mismatches:
        step = step_text(scenario.steps[mismatch.step])
        what = "" if mismatch.what == step else f"[cyan]{escape(mismatch.what)}[/] "
        lines.append(
            f"  step {mismatch.step} ({escape(step)}): {what}{escape(mismatch.describe())}"
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
        return [*plain, Outcome.EXPECTED_FAILURE, Outcome.UNEXPECTED_PASS]
    return plain


def summary_table(verification: Verification) -> Table:
    title = clean_text(escape(f"{verification.implementation.name}: results by area"))
    table = Table(title=title, title_justify="left")
    table.add_column("area")
    columns = _columns(verification)
    for outcome in columns:
        table.add_column(outcome.value, justify="right", style=OUTCOME_STYLE[outcome])
    table.add_column("total", justify="right")
    areas: dict[str, dict[Outcome, int]] = {}
    for entry in verification.entries:
        counts = areas.setdefault(entry.scenario.area or "-", dict.fromkeys(Outcome, 0))
        counts[entry.outcome] += 1
    for area in sorted(areas):
        counts = areas[area]
        table.add_row(
            clean_text(escape(area)), *(str(counts[o]) for o in columns), str(sum(counts.values()))
        )
    table.add_row(
        "[bold]all",
        *(f"[bold]{verification.count(o)}" for o in columns),
        f"[bold]{len(verification.entries)}",
    )
    return table


def summary_line(verification: Verification) -> str:
    v = verification
    line = (
        f"verify: {v.count(Outcome.PASSED)} passed, {v.count(Outcome.FAILED)} failed, "
        f"{v.count(Outcome.ERRORED)} errored, {v.count(Outcome.SKIPPED)} skipped"
    )
    if any(e.expectation is not None for e in v.entries):
        line += (
            f", {v.count(Outcome.EXPECTED_FAILURE)} expected failures, "
            f"{v.count(Outcome.UNEXPECTED_PASS)} unexpected passes"
        )
    return line + f", {v.invalid_files} invalid files in {v.seconds:.2f}s"


def print_broken(verification: Verification, console: Console) -> None:
    """Say plainly that the adapter, not the rules, is the problem."""
    v = verification
    command = f" ({escape(v.command)})" if v.command else ""
    say(
        console,
        f"[bold red]BROKEN ADAPTER[/]{command}: {escape(v.broken or '')}\n"
        "  This is not a conformance result: the adapter does not speak the protocol yet.\n"
        "  Check that it starts, reads one JSON message per line on stdin, answers hello,\n"
        "  writes one JSON reply per line on stdout and flushes it (site/protocol.md).",
    )
    if v.broken_stderr:
        tail = v.broken_stderr[-STDERR_SHOWN:]
        say(console, "  stderr:\n    " + escape(tail.rstrip()).replace("\n", "\n    "))


BROKEN_SHOWN = 3
"""A broken adapter fails every scenario the same way: show a few, not hundreds."""


def print_text_report(verification: Verification, console: Console) -> None:
    v = verification
    shown = [e for e in v.entries if v.fails_run(e) or e.outcome is Outcome.UNEXPECTED_PASS]
    if v.broken is not None and len(shown) > BROKEN_SHOWN:
        hidden = len(shown) - BROKEN_SHOWN
        shown = shown[:BROKEN_SHOWN]
    else:
        hidden = 0
    for entry in shown:
        for line in entry_lines(entry, v):
            say(console, line)
    if hidden:
        console.print(f"[dim]… and {hidden} more failing scenarios (all are in --format json)[/]")
    for reason, skipped in skips_by_reason(v).items():
        ids = " ".join(e.scenario.id for e in skipped)
        say(console, f"[yellow]SKIPPED[/] {len(skipped)}: {escape(reason)}\n  [dim]{ids}[/]")
    console.print(summary_table(v))
    if v.broken is not None:
        print_broken(v, console)
    say(console, f"[{'green' if v.ok else 'red'}]{escape(summary_line(v))}[/]")
