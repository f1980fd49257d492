"""The ``fivehundred`` command line.

Exit codes: 0 everything passed; 1 something failed, errored or was invalid;
2 the command itself was used wrongly (unknown id, bad option).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import SUITE_VERSION
from .corpus import Corpus, load_corpus, read_retired_ids
from .diagnostics import Diagnostic
from .paths import scenarios_dir
from .rulings import EXTRA_ANCHORS, RULINGS
from .runner import ReferenceImplementation, RunSummary, ScenarioReport, Selection, run_scenarios
from .scaffold import STARTS, mint_id, write_new
from .show import show as show_scenario
from .verdict import Status, step_text

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

STATUS_STYLE = {
    Status.PASSED: "green",
    Status.FAILED: "bold red",
    Status.ERRORED: "bold magenta",
    Status.SKIPPED: "yellow",
}


def _paths(paths: Sequence[str]) -> list[Path] | None:
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise click.UsageError(f"no such file or directory: {', '.join(missing)}")
    return [Path(p) for p in paths] or None


def _print_diagnostics(diagnostics: Sequence[Diagnostic]) -> None:
    for d in diagnostics:
        console.print(
            f"[bold]{escape(d.file)}:{d.line}:{d.column}[/]: [cyan]{escape(d.path)}[/]: "
            f"{escape(d.message)} [dim]\\[{d.kind}][/]"
        )


def _selection_options(function: click.decorators.FC) -> click.decorators.FC:
    for option in reversed(
        [
            click.option("--id", "ids", multiple=True, help="Only this scenario id (repeatable)."),
            click.option("--area", "areas", multiple=True, help="Only this area, e.g. auction."),
            click.option("--tag", "tags", multiple=True, help="Only scenarios with this tag."),
            click.option(
                "--rule", "rules", multiple=True, help="Only scenarios citing this anchor."
            ),
        ]
    ):
        function = option(function)
    return function


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(SUITE_VERSION, prog_name="fivehundred")
def main() -> None:
    """Five Hundred (500): reference engine and conformance suite."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format."
)
def validate(paths: tuple[str, ...], fmt: str) -> None:
    """Check scenario files: safe YAML, the JSON Schema, then semantic lint.

    PATHS are files or directories (default: the bundled scenarios).  Every problem
    is reported with file:line:column; one bad file never hides the others.
    """
    corpus = load_corpus(_paths(paths))
    diagnostics = corpus.diagnostics
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "files": len(corpus.files),
                    "valid": len(corpus.files) - len(corpus.invalid_files),
                    "diagnostics": [d.as_json() for d in diagnostics],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        _print_diagnostics(diagnostics)
        bad = len(corpus.invalid_files)
        style = "red" if bad else "green"
        console.print(
            f"[{style}]validate: {len(corpus.files)} files, {len(corpus.files) - bad} valid, "
            f"{bad} invalid, {len(diagnostics)} problems[/]"
        )
    if corpus.invalid_files or not corpus.files:
        if not corpus.files:
            err_console.print("validate: no scenario files found")
        sys.exit(1)


def _failure_lines(report: ScenarioReport) -> list[str]:
    scenario, verdict = report.scenario, report.verdict
    where = f" ({scenario.path})" if scenario.path else ""
    lines = [
        f"[{STATUS_STYLE[verdict.status]}]{verdict.status.value.upper()}[/] "
        f"[bold]{scenario.id}[/] {escape(scenario.title)}{escape(where)}"
    ]
    for mismatch in verdict.mismatches:
        step = scenario.steps[mismatch.step]
        lines.append(
            f"  step {mismatch.step} ({escape(step_text(step))}): "
            f"[cyan]{escape(mismatch.what)}[/] {escape(mismatch.describe())}"
        )
    if verdict.message:
        lines.append(f"  {escape(verdict.message)}")
    if verdict.stderr:
        tail = verdict.stderr[-2000:]
        lines.append("  stderr:\n    " + escape(tail.rstrip()).replace("\n", "\n    "))
    lines.append(f"  rerun: [bold]{scenario.rerun_command()}[/]")
    return lines


def _summary_table(summary: RunSummary) -> Table:
    table = Table(title=f"{summary.implementation}: results by area", title_justify="left")
    table.add_column("area")
    for status in Status:
        table.add_column(status.value, justify="right", style=STATUS_STYLE[status])
    table.add_column("total", justify="right")
    areas: dict[str, dict[Status, int]] = {}
    for report in summary.reports:
        counts = areas.setdefault(report.scenario.area or "-", dict.fromkeys(Status, 0))
        counts[report.status] += 1
    for area in sorted(areas):
        counts = areas[area]
        table.add_row(area, *(str(counts[s]) for s in Status), str(sum(counts.values())))
    table.add_row(
        "[bold]all", *(f"[bold]{summary.count(s)}" for s in Status), f"[bold]{len(summary.reports)}"
    )
    return table


def _select(corpus: Corpus, selection: Selection) -> list:  # type: ignore[type-arg]
    chosen = selection.apply(corpus.scenarios)
    unknown = [i for i in selection.ids if i not in {s.id for s in corpus.scenarios}]
    if unknown:
        raise click.UsageError(f"no scenario with id {', '.join(unknown)}")
    return chosen


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@_selection_options
@click.option(
    "--lenient-errors",
    is_flag=True,
    help="Compare only accepted versus rejected, not rejection codes.",
)
def verify(
    paths: tuple[str, ...],
    ids: tuple[str, ...],
    areas: tuple[str, ...],
    tags: tuple[str, ...],
    rules: tuple[str, ...],
    lenient_errors: bool,
) -> None:
    """Run scenarios against the reference and compare every expectation.

    Exits 0 only when every selected scenario passes and every file is valid.
    """
    corpus = load_corpus(_paths(paths))
    _print_diagnostics(corpus.diagnostics)
    scenarios = _select(corpus, Selection(ids, areas, tags, rules))
    if not scenarios and not corpus.invalid_files:
        raise click.UsageError("no scenario matches the filters")
    implementation = ReferenceImplementation()
    summary = run_scenarios(scenarios, implementation, lenient_errors=lenient_errors)
    for report in summary.reports:
        if report.status in (Status.FAILED, Status.ERRORED):
            for line in _failure_lines(report):
                console.print(line)
    console.print(_summary_table(summary))
    invalid = len(corpus.invalid_files)
    line = (
        f"verify: {summary.count(Status.PASSED)} passed, {summary.count(Status.FAILED)} failed, "
        f"{summary.count(Status.ERRORED)} errored, {summary.count(Status.SKIPPED)} skipped, "
        f"{invalid} invalid files in {summary.seconds:.2f}s"
    )
    ok = summary.ok and not invalid
    console.print(f"[{'green' if ok else 'red'}]{line}[/]")
    sys.exit(0 if ok else 1)


@main.command()
@click.argument("scenario_id")
def show(scenario_id: str) -> None:
    """Show one scenario: hands, steps and the expected results."""
    corpus = load_corpus()
    for scenario in corpus.scenarios:
        if scenario.id == scenario_id:
            show_scenario(scenario, console)
            return
    for result in corpus.files:
        if result.diagnostics and scenario_id in result.path.read_text(encoding="utf-8"):
            _print_diagnostics(result.diagnostics)
            sys.exit(1)
    raise click.UsageError(f"no scenario with id {scenario_id}")


@main.command()
@click.option("--area", required=True, help="Folder under scenarios/, e.g. auction.")
@click.option("--title", required=True, help="Short title of the new scenario.")
@click.option(
    "--rule",
    "rules",
    multiple=True,
    required=True,
    help="Rule anchor it illustrates, primary first (repeatable).",
)
@click.option(
    "--start",
    type=click.Choice(STARTS),
    default="deck",
    help="Kind of starting point for the skeleton.",
)
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False),
    default=None,
    help="Scenarios root (default: the bundled scenarios).",
)
def new(area: str, title: str, rules: tuple[str, ...], start: str, directory: str | None) -> None:
    """Create a scenario skeleton with a freshly minted id, ready to edit."""
    from .rulings import anchor_exists

    bad = [r for r in rules if not anchor_exists(r)]
    if bad:
        raise click.UsageError(f"unknown rule anchor {', '.join(bad)}; see `fivehundred rules`")
    root = Path(directory) if directory else scenarios_dir()
    taken = {s.id for s in load_corpus([root], root).scenarios} | read_retired_ids()
    scenario_id = mint_id(taken)
    try:
        path = write_new(root / area, scenario_id, title, list(rules), start)
    except FileExistsError as error:
        raise click.UsageError(str(error)) from None
    console.print(f"created [bold]{path}[/] with id [bold]{scenario_id}[/]")
    console.print(
        f"next: edit it, then [bold]fivehundred validate {path}[/] and "
        f"[bold]fivehundred verify --id {scenario_id}[/]"
    )


@main.command()
def rules() -> None:
    """List the rule anchors scenarios may cite."""
    table = Table(title="Rule anchors", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("anchor", style="cyan")
    table.add_column("title")
    for ruling in RULINGS:
        table.add_row(str(ruling.number), ruling.slug, ruling.title)
    for slug, title in EXTRA_ANCHORS.items():
        table.add_row("", slug, title)
    console.print(table)


if __name__ == "__main__":  # pragma: no cover
    main()
