"""The ``fivehundred`` command line.

Exit codes: 0 everything passed; 1 something failed, errored or was invalid;
2 the command itself was used wrongly (unknown id, bad option); 3 (``verify``) the
implementation's adapter is broken — it failed the handshake or errored on every
scenario — which is a different problem from not conforming.

Each command imports what it needs when it runs: ``fivehundred serve --one-shot``
is started once per scenario, and importing the whole suite (jsonschema, rich,
the linter) would multiply its start-up time by four.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .. import SUITE_VERSION
from ..engine import DEFAULT_PROFILE_NAME, PROFILE_NAMES, VARIANTS
from ..reports import REPORT_FORMATS
from ..resources import SuiteError, use_suite
from ..safety import DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT
from ..scenarios.vocabulary import STARTS
from .consoles import err_console, out_console, print_diagnostics
from .fuzz_command import fuzz_options, run_fuzz, run_merge, run_perft
from .params import OutputFile, Seconds

if TYPE_CHECKING:
    from ..scenarios import Scenario


def _paths(paths: Sequence[str]) -> list[Path] | None:
    import os

    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        raise click.UsageError(f"no such file or directory: {', '.join(missing)}")
    return [Path(p) for p in paths] or None


def _selection_options(function: click.decorators.FC) -> click.decorators.FC:
    for option in reversed(
        [
            click.option("--id", "ids", multiple=True, help="Only this scenario id (repeatable)."),
            click.option("--area", "areas", multiple=True, help="Only this area, e.g. auction."),
            click.option("--tag", "tags", multiple=True, help="Only scenarios with this tag."),
            click.option(
                "--rule", "rules", multiple=True, help="Only scenarios citing this anchor."
            ),
            click.option(
                "--profile",
                "profiles",
                multiple=True,
                type=click.Choice(PROFILE_NAMES),
                help="Only scenarios of this profile (rule set), with or without toggles.",
            ),
            click.option(
                "--variant",
                "variants",
                multiple=True,
                type=click.Choice(list(VARIANTS)),
                help="Only scenarios that switch on this variant toggle (repeatable: all).",
            ),
        ]
    ):
        function = option(function)
    return function


class _Group(click.Group):
    """Turns a suite folder without scenarios into a usage error, and a standard stream
    that is closed, cannot take the text or cannot be written into a one-line error, never
    a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except SuiteError as error:
            raise click.UsageError(str(error)) from None

    def main(self, *args: Any, **kwargs: Any) -> Any:
        if sys.stdin is None:  # closed: nothing to read, as from an empty file
            import os

            sys.stdin = open(os.devnull)  # noqa: SIM115  (for the life of the process)
        streams = {"stdout": "output", "stderr": "error"}
        closed = [f"standard {name}" for key, name in streams.items() if getattr(sys, key) is None]
        if closed:
            verb = "is" if len(closed) == 1 else "are"
            if sys.stderr is not None:
                _last_word(f"fivehundred: {' and '.join(closed)} {verb} closed\n")
            raise SystemExit(2)
        for stream in (sys.stdout, sys.stderr):
            _never_unencodable(stream)
        try:
            return super().main(*args, **kwargs)
        except OSError as error:  # EPIPE is click's; this is a full disk, /dev/full, EIO
            where = f" ({error.filename})" if error.filename else ""
            _last_word(f"fivehundred: cannot go on: {error.strerror or error}{where}\n")
            raise SystemExit(2) from None


def _never_unencodable(stream: Any) -> None:
    """A stream whose encoding cannot hold every character (``LC_ALL=C`` without UTF-8
    mode, ``PYTHONIOENCODING=ascii``) writes what it cannot hold as ``\\u2014`` escapes
    instead of failing on the first dash of a title."""
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    if encoding not in ("utf8", "utf8sig") and hasattr(stream, "reconfigure"):
        stream.reconfigure(errors="backslashreplace")


def _last_word(message: str) -> None:
    """Say why the command stopped on stderr, if even that can be written."""
    try:
        sys.stderr.write(message)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(SUITE_VERSION, prog_name="fivehundred")
@click.option(
    "--suite",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The suite folder (it holds scenarios/). Default: $FIVEHUNDRED_HOME, else the "
    "nearest of the current folder and its parents that has scenarios/, else the scenarios "
    "bundled with this package.",
)
def main(suite: Path | None) -> None:
    """Five Hundred (500): reference engine and conformance suite."""
    use_suite(suite)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format."
)
def validate(paths: tuple[str, ...], fmt: str) -> None:
    """Check scenario files: safe YAML, the JSON Schema, then semantic lint.

    PATHS are files or directories (default: the suite's scenarios).  Every problem
    is reported with file:line:column; one bad file never hides the others.  Files given
    inside the suite are also checked against the ids of the rest of it.  Dispute
    records are checked too, in a folder that holds disputes/ (the suite's scenarios/
    by default), a disputes/ folder or a record file given by itself: their schema,
    the rulings and profiles they name, and that the scenarios each lists (in the
    scenarios/ folder that holds the records) exist, carry its tag and show at least two
    of its answers; records in no scenarios/ folder are named as not paired-checked.
    """
    from ..safety import clean_json, clean_text
    from ..scenarios import Corpus, load_corpus
    from ..scenarios.corpus import display_path
    from ..scenarios.disputes import check_disputes, is_record_file

    chosen = _paths(paths)
    # a record file given by itself is a dispute record, not a scenario
    scenario_paths = None if chosen is None else [p for p in chosen if not is_record_file(p)]
    corpus = load_corpus(scenario_paths, suite_ids=True) if scenario_paths != [] else Corpus([])
    check = check_disputes(chosen, corpus.scenarios)
    records, dispute_problems = check.records, check.problems
    diagnostics = [*corpus.diagnostics, *dispute_problems]
    unpaired = [str(display_path(folder)) for folder in check.unpaired_folders]
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "files": len(corpus.files),
                    "valid": len(corpus.files) - len(corpus.invalid_files),
                    "dispute_records": records,
                    "dispute_pairs_unchecked": clean_json(unpaired),
                    "diagnostics": clean_json([d.as_json() for d in diagnostics]),
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        print_diagnostics(diagnostics)
        for folder in unpaired:  # said, never passed over in silence
            err_console().print(
                f"note: the paired scenarios of the records in {clean_text(folder)} "
                "were not checked: no scenarios/ folder holds them; give the folder that "
                "holds disputes/ with its scenarios",
                markup=False,
            )
        bad = len(corpus.invalid_files)
        style = "red" if bad or dispute_problems else "green"
        checked = f", {records} dispute records" if records else ""
        out_console().print(
            f"[{style}]validate: {len(corpus.files)} files, {len(corpus.files) - bad} valid, "
            f"{bad} invalid{checked}, {len(diagnostics)} problems[/]"
        )
    if corpus.invalid_files or dispute_problems or not (corpus.files or records):
        if not (corpus.files or records):
            err_console().print("validate: no scenario files found")
        sys.exit(1)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@_selection_options
@click.option(
    "--impl",
    "command",
    metavar="COMMAND",
    help="Verify this implementation: a command speaking protocol v1 (site/protocol.md), "
    "split like a shell would but never run by one.  Default: the reference, in-process.",
)
@click.option(
    "--one-shot", is_flag=True, help="Start COMMAND once per message instead of once per run."
)
@click.option(
    "--timeout",
    type=Seconds(),
    default=None,
    help=f"Seconds COMMAND has to answer one scenario (default {DEFAULT_TIMEOUT:g}).",
)
@click.option(
    "--startup-timeout",
    type=Seconds(),
    default=None,
    help=f"Seconds COMMAND has to start and answer hello (default {DEFAULT_STARTUP_TIMEOUT:g}).",
)
@click.option(
    "--max-time",
    type=Seconds(),
    default=None,
    help="Seconds the whole run may take; scenarios not started by then are reported "
    "as not run (errored).  Default: no limit.",
)
@click.option(
    "--lenient-errors",
    is_flag=True,
    help="Compare only accepted versus rejected, not rejection codes.",
)
@click.option(
    "--expectations",
    "expectations_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Expected failures and skips, YAML or JSON (schema/expectations.schema.json).",
)
@click.option(
    "--allow-unexpected-pass",
    is_flag=True,
    help="Do not fail the run when a scenario listed as failing passes.",
)
@click.option(
    "--write-expectations",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write an expectations file listing this run's failures and errors.",
)
@click.option("--force", is_flag=True, help="Let --write-expectations overwrite a file.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(list(REPORT_FORMATS)),
    default="text",
    show_default=True,
    help="Report format.",
)
@click.option(
    "-o",
    "--output",
    type=OutputFile(),
    help="Write the report to this file instead of stdout.",
)
def verify(
    paths: tuple[str, ...],
    ids: tuple[str, ...],
    areas: tuple[str, ...],
    tags: tuple[str, ...],
    rules: tuple[str, ...],
    profiles: tuple[str, ...],
    variants: tuple[str, ...],
    command: str | None,
    one_shot: bool,
    timeout: float | None,
    startup_timeout: float | None,
    max_time: float | None,
    lenient_errors: bool,
    expectations_file: Path | None,
    allow_unexpected_pass: bool,
    write_expectations: Path | None,
    force: bool,
    fmt: str,
    output: Path | None,
) -> None:
    """Run scenarios against an implementation and compare every expectation.

    Without --impl the reference runs in-process.  Exit status: 0 when nothing
    failed, errored or passed unexpectedly (expected failures and skips are fine);
    1 when something did, or a scenario file is invalid; 2 for a usage error;
    3 when the adapter is broken (failed its handshake, or every scenario errored).
    """
    from ..verify.runner import Selection
    from .verify_command import VerifyOptions, run_verify

    options = VerifyOptions(
        paths=_paths(paths),
        selection=Selection(ids, areas, tags, rules, profiles, variants),
        command=command,
        one_shot=one_shot,
        timeout=timeout,
        startup_timeout=startup_timeout,
        max_time=max_time,
        lenient_errors=lenient_errors,
        expectations_file=expectations_file,
        allow_unexpected_pass=allow_unexpected_pass,
        write_expectations=write_expectations,
        force=force,
        fmt=fmt,
        output=output,
    )
    sys.exit(run_verify(options))


@main.command()
@click.option("--one-shot", is_flag=True, help="Answer a single message, then exit.")
def serve(one_shot: bool) -> None:
    """Serve the reference engine over protocol v1 on stdin and stdout.

    This is what `fivehundred verify --impl 'fivehundred serve'` talks to, and a
    working example of an adapter (site/protocol.md).
    """
    from ..verify.serve import serve as serve_protocol

    sys.exit(serve_protocol(sys.stdin.buffer, sys.stdout.buffer, one_shot=one_shot))


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "-o",
    "--output",
    type=OutputFile(),
    help="Write to this file instead of stdout.",
)
def export(paths: tuple[str, ...], output: Path | None) -> None:
    """Write every scenario, with its input and expected results, as one JSON file.

    For implementers who would rather not parse YAML (schema/export.schema.json).
    PATHS default to the suite's scenarios.  Nothing is written if a file is invalid.
    """
    from ..scenarios import load_corpus
    from ..scenarios.export import export_corpus

    corpus = load_corpus(_paths(paths))
    if corpus.invalid_files:
        print_diagnostics(corpus.diagnostics, err_console())
        err_console().print(f"export: {len(corpus.invalid_files)} invalid files; nothing written")
        sys.exit(1)
    text = json.dumps(export_corpus(corpus.scenarios), indent=2, ensure_ascii=False) + "\n"
    if output is None:
        sys.stdout.write(text)
    else:
        from ..safety import atomic_write_text

        try:
            atomic_write_text(output, text)  # a failure part-way keeps the previous file
        except OSError as error:
            raise click.FileError(str(output), hint=error.strerror or str(error)) from None
    where = f" to {output}" if output else ""
    err_console().print(
        f"export: {len(corpus.scenarios)} scenarios, suite {SUITE_VERSION}{where}",
        markup=False,
    )


def _printable(scenario: Scenario) -> Scenario:
    """The scenario with its free text made safe for a terminal (no escape sequences)."""
    from dataclasses import replace

    from ..safety import clean_text

    return replace(
        scenario,
        title=clean_text(scenario.title),
        assertion=clean_text(scenario.assertion),
        explanation=clean_text(scenario.explanation),
        tags=tuple(clean_text(tag) for tag in scenario.tags),
        area=clean_text(scenario.area),
        path=None if scenario.path is None else Path(clean_text(str(scenario.path))),
    )


def _mentions(path: Path, text: str) -> bool:
    """Whether a file that failed to load mentions ``text`` (only a readable regular file)."""
    from ..safety import FileRefused, read_regular_file

    try:
        return text in read_regular_file(path).decode("utf-8", errors="replace")
    except FileRefused:
        return False


@main.command()
@click.argument("scenario_id")
def show(scenario_id: str) -> None:
    """Show one scenario: hands, steps and the expected results.

    SCENARIO_ID is an id in any case (7qk2) or the path of a scenario file.
    """
    from ..scenarios import load_corpus
    from .finding import find_scenario, unknown_ids_message
    from .show import show as show_scenario

    path = Path(scenario_id)
    corpus = load_corpus([path] if path.suffix in (".yaml", ".yml") and path.exists() else None)
    found = find_scenario(corpus, scenario_id)
    if found is not None:
        show_scenario(_printable(found), out_console())
        return
    for result in corpus.files:
        if result.diagnostics and _mentions(result.path, scenario_id.upper()):
            print_diagnostics(result.diagnostics)
            sys.exit(1)
    raise click.UsageError(unknown_ids_message([scenario_id], corpus))


@main.command(name="list")
@click.argument("paths", nargs=-1, type=click.Path())
@_selection_options
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format."
)
def list_command(
    paths: tuple[str, ...],
    ids: tuple[str, ...],
    areas: tuple[str, ...],
    tags: tuple[str, ...],
    rules: tuple[str, ...],
    profiles: tuple[str, ...],
    variants: tuple[str, ...],
    fmt: str,
) -> None:
    """List scenarios: id, area, title and the rules they cite (filters as for verify)."""
    from ..scenarios import load_corpus
    from ..verify.runner import Selection
    from .finding import no_match_message, normalise_selection, unknown_ids_message

    corpus = load_corpus(_paths(paths))
    selection = normalise_selection(Selection(ids, areas, tags, rules, profiles, variants))
    unknown = [i for i in selection.ids if i not in {s.id for s in corpus.scenarios}]
    if unknown:
        raise click.UsageError(unknown_ids_message(unknown, corpus))
    chosen = selection.apply(corpus.scenarios)
    if not chosen:
        raise click.UsageError(no_match_message(corpus, selection))
    if fmt == "json":
        rows = [
            {
                "id": s.id,
                "title": s.title,
                "area": s.area,
                "rules": list(s.rules),
                "tags": list(s.tags),
                "profile": s.profile_name,
                "variants": list(s.variants),
                "path": None if s.path is None else str(s.path),
            }
            for s in chosen
        ]
        sys.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
        return
    from rich.table import Table
    from rich.text import Text

    from ..safety import clean_text

    table = Table(title=f"{len(chosen)} scenarios", title_justify="left")
    table.add_column("id", style="bold cyan", no_wrap=True)
    table.add_column("area", no_wrap=True)
    table.add_column("title")
    table.add_column("rules", style="dim")
    several = len({s.profile_label for s in chosen}) > 1
    if several:
        table.add_column("profile", style="magenta")
    for s in chosen:
        row = [s.id, s.area, s.title, ", ".join(s.rules)]
        # a scenario's own text, shown as written (never read as rich markup)
        cells = [Text(clean_text(cell)) for cell in row]
        table.add_row(*cells, *([s.profile_label] if several else []))
    out_console().print(table)


@main.command()
@click.option(
    "--area",
    default=None,
    help="Folder under scenarios/, e.g. auction (default for --profile other than the "
    "default: the profile's folder, or variants/ for toggles of the default).",
)
@click.option(
    "--new-area", is_flag=True, help="Allow --area to name an area that does not exist yet."
)
@click.option("--title", required=True, help="Short title of the new scenario (or dispute).")
@click.option(
    "--rule",
    "rules",
    multiple=True,
    required=True,
    help="Rule anchor it illustrates, primary first (repeatable).",
)
@click.option(
    "--start",
    type=click.Choice([start.name for start in STARTS]),
    default="deck",
    help="Kind of starting point for the skeleton.",
)
@click.option(
    "--profile",
    "profiles",
    multiple=True,
    metavar="NAME[+TOGGLE...]",
    help="The rule set of the scenario (default: australian-4). With --dispute: one per "
    "answer, repeated, toggles joined by + (australian-4+no-misere).",
)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    type=click.Choice(list(VARIANTS)),
    help="A variant toggle of --profile for the new scenario (repeatable).",
)
@click.option(
    "--dispute",
    "dispute_id",
    default=None,
    metavar="ID",
    help="Write the dispute record scenarios/disputes/ID.yaml and one paired scenario "
    "skeleton per --profile (at least two).",
)
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False),
    default=None,
    help="Scenarios root (default: the suite folder's scenarios/; see --suite).",
)
def new(
    area: str | None,
    new_area: bool,
    title: str,
    rules: tuple[str, ...],
    start: str,
    profiles: tuple[str, ...],
    variants: tuple[str, ...],
    dispute_id: str | None,
    directory: str | None,
) -> None:
    """Create a scenario skeleton with a freshly minted id, ready to edit.

    With --dispute ID, create a dispute record and its paired scenarios instead: one
    skeleton per --profile, each starting from that profile's ordered deck.
    """
    from rich.markup import escape

    from ..resources import scenarios_dir
    from ..safety import clean_text
    from ..scenarios import load_corpus, load_file, read_retired_ids
    from ..scenarios.rulings import anchor_exists
    from .scaffold import ScaffoldError, area_folder, mint_id, remove_quietly, write_new
    from .scaffold_dispute import parse_profile

    bad = [r for r in rules if not anchor_exists(r)]
    if bad:
        raise click.UsageError(f"unknown rule anchor {', '.join(bad)}; see `fivehundred rules`")
    if len(title.strip()) < 3 or len(title) > 200 or not title.isprintable():
        raise click.BadParameter(
            "a title is one line of 3 to 200 printable characters", param_hint="--title"
        )
    root = Path(directory) if directory else scenarios_dir()
    taken = {s.id for s in load_corpus([root], root).scenarios} | read_retired_ids()
    if dispute_id is not None:
        if variants:
            raise click.UsageError(
                "with --dispute give toggles in --profile, e.g. --profile australian-4+no-misere"
            )
        _new_dispute(root, dispute_id, title, list(rules), list(profiles), area, new_area, taken)
        return
    if len(profiles) > 1:
        raise click.UsageError("one --profile for a scenario (several only with --dispute)")
    label = "+".join((profiles[0] if profiles else DEFAULT_PROFILE_NAME, *variants))
    try:
        profile = parse_profile(label)
    except ScaffoldError as error:
        raise click.UsageError(str(error)) from None
    if area is None:
        if profile.name == DEFAULT_PROFILE_NAME and not profile.variants:
            raise click.UsageError("--area is required for a scenario of the default profile")
        area = profile.name if profile.name != DEFAULT_PROFILE_NAME else "variants"
        new_area = True
    scenario_id = mint_id(taken)
    try:
        folder = area_folder(root, area, create=new_area)
        path = write_new(folder, scenario_id, title, list(rules), start, profile)
    except (ScaffoldError, FileExistsError) as error:
        raise click.UsageError(str(error)) from None
    except OSError as error:
        raise click.UsageError(f"cannot write the scenario: {error.strerror or error}") from None
    result = load_file(path, root)
    if result.diagnostics or result.scenario is None or result.scenario.title != title:
        remove_quietly(path)
        print_diagnostics(result.diagnostics, err_console())
        raise click.UsageError("the skeleton did not validate, so it was not kept")
    console = out_console()
    shown = clean_text(escape(str(path)))
    console.print(f"created [bold]{shown}[/] with id [bold]{scenario_id}[/]")
    console.print(
        f"next: edit it, then [bold]fivehundred validate {shown}[/] and "
        f"[bold]fivehundred verify --id {scenario_id}[/]"
    )


def _new_dispute(
    root: Path,
    dispute_id: str,
    title: str,
    rules: list[str],
    labels: list[str],
    area: str | None,
    new_area: bool,
    taken: set[str],
) -> None:
    """``new --dispute``: the record and its paired skeletons, each validated."""
    from rich.markup import escape

    from ..safety import clean_text
    from ..scenarios import load_file
    from ..scenarios.disputes import load_dispute_file, pair_problems
    from .scaffold import ScaffoldError, remove_quietly
    from .scaffold_dispute import write_dispute

    try:
        record_path, members = write_dispute(
            root, dispute_id, title, rules, labels, area, new_area, taken
        )
    except (ScaffoldError, FileExistsError) as error:
        raise click.UsageError(str(error)) from None
    except OSError as error:
        raise click.UsageError(f"cannot write the dispute: {error.strerror or error}") from None
    written = [record_path, *(m.path for m in members)]
    results = [load_file(m.path, root) for m in members]
    record, record_problems = load_dispute_file(record_path)
    diagnostics = [d for r in results for d in r.diagnostics] + record_problems
    scenarios = [r.scenario for r in results if r.scenario is not None]
    problems = [] if record is None else pair_problems(record, scenarios)
    if diagnostics or problems or record is None or len(scenarios) != len(members):
        for path in written:
            remove_quietly(path)
        print_diagnostics(diagnostics, err_console())
        for problem in problems:
            err_console().print(f"dispute: {escape(problem)}")
        raise click.UsageError("the skeletons did not validate, so none was kept")
    console = out_console()
    console.print(f"created [bold]{clean_text(escape(str(record_path)))}[/] (dispute {dispute_id})")
    for member in members:
        shown = clean_text(escape(str(member.path)))
        console.print(
            f"created [bold]{shown}[/] with id [bold]{member.scenario_id}[/] ({member.label})"
        )
    ids = " ".join(f"--id {m.scenario_id}" for m in members)
    console.print(
        "next: write the question, the answers and their sources in the record, then the "
        f"position and the expected results in each scenario; [bold]fivehundred verify {ids}[/] "
        f"and [bold]fivehundred disputes {dispute_id}[/]"
    )


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format."
)
@click.option(
    "--profile",
    default=None,
    help="Instead of the rulings: the rule points where this profile differs from the default.",
)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    type=click.Choice(list(VARIANTS)),
    help="A toggle of --profile (repeatable).",
)
@click.option(
    "--every-rule-set",
    is_flag=True,
    help="The rule points of every profile, plain and with each of its toggles.",
)
def coverage(
    paths: tuple[str, ...],
    fmt: str,
    profile: str | None,
    variants: tuple[str, ...],
    every_rule_set: bool,
) -> None:
    """How well the scenarios check each ruling, at each capability level.

    Per ruling: the scenarios citing it, those with an action-level must-reject step
    (for rulings that forbid something), the action steps, and the checks that still
    count for an engine without legal lists, without codes, or with neither.  Exit 1
    when a ruling has fewer than 3 scenarios, a prohibition has no must-reject step,
    or a ruling is unchecked at some level.

    With --profile (and --variant), or --every-rule-set: each rule point where the rule
    set differs from the default profile, with its scenarios, its must-reject steps and
    the capability levels it is unchecked at; exit 1 on the same gaps, or a toggle with
    no scenario tagged `scope` (what it leaves unchanged).
    """
    from rich.markup import escape
    from rich.table import Table

    from ..scenarios import load_corpus

    if profile is not None or variants or every_rule_set:
        from .rule_set_coverage import every_rule_set as all_sets
        from .rule_set_coverage import rule_set, rule_set_report

        if every_rule_set and (profile is not None or variants):
            raise click.UsageError("--every-rule-set goes without --profile and --variant")
        chosen = (
            all_sets() if every_rule_set else [rule_set(profile or DEFAULT_PROFILE_NAME, variants)]
        )
        corpus = load_corpus(_paths(paths))
        print_diagnostics(corpus.diagnostics, err_console())
        if rule_set_report(chosen, corpus.scenarios, fmt) or corpus.invalid_files:
            sys.exit(1)
        return
    from ..scenarios.coverage import (
        LEVELS,
        coverage,
        default_profile_only,
        other_profiles,
        problems,
    )

    corpus = load_corpus(_paths(paths))
    print_diagnostics(corpus.diagnostics, err_console())
    rows = coverage(corpus.scenarios)
    found = problems(rows)
    others = other_profiles(corpus.scenarios)
    default_count = len(default_profile_only(corpus.scenarios))
    if fmt == "json":
        document = {
            "rulings": [
                {
                    "number": r.number,
                    "slug": r.slug,
                    "prohibition": r.prohibition,
                    "scenarios": len(r.scenarios),
                    "must_reject": len(r.must_reject),
                    "action_checks": r.action_checks,
                    "checks_by_level": r.by_level,
                }
                for r in rows
            ],
            "problems": found,
            "default_profile_scenarios": default_count,
            "other_profiles": others,
        }
        click.echo(json.dumps(document, indent=2))
    else:
        table = Table(title="Coverage by ruling", title_justify="left")
        table.add_column("#", justify="right")
        table.add_column("ruling")
        table.add_column("scenarios", justify="right")
        table.add_column("must-reject", justify="right")
        table.add_column("actions", justify="right")
        for level in LEVELS:
            table.add_column(f"checks: {level}", justify="right")
        for r in rows:
            reject = str(len(r.must_reject)) if r.prohibition else "—"
            table.add_row(
                str(r.number),
                r.slug,
                str(len(r.scenarios)),
                reject,
                str(r.action_checks),
                *(str(r.by_level[level]) for level in LEVELS),
            )
        console = out_console()
        console.print(table)
        for problem in found:
            console.print(f"[red]coverage:[/] {escape(problem)}")
        if others:
            listed = ", ".join(f"{label} {count}" for label, count in others.items())
            console.print(
                f"other rule sets (their scenarios do not count for the rulings): {listed}"
            )
        verdict = "no gaps" if not found else f"{len(found)} gaps"
        console.print(
            f"coverage: {default_count} scenarios of the default profile, 34 rulings, {verdict}"
        )
    if found or corpus.invalid_files:
        sys.exit(1)


@main.group(invoke_without_command=True)
@fuzz_options
@click.pass_context
def fuzz(ctx: click.Context, /, **options: Any) -> None:
    """Differential fuzzing: random deals on an implementation and on the reference;
    disagreements grouped, shrunk and written as scenarios (`fuzz merge` combines shards)."""
    if ctx.invoked_subcommand is None:
        sys.exit(run_fuzz(**options))


@fuzz.command(name="merge")
@click.argument("reports", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text")
@click.option("-o", "--output", type=OutputFile())
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path))
def fuzz_merge(
    reports: tuple[str, ...], fmt: str, output: Path | None, out_dir: Path | None
) -> None:
    """Combine the JSON reports of shards as one run would have reported them."""
    sys.exit(run_merge(reports, fmt, output, out_dir))


@main.command()
@click.option("--impl", "command", help="Check this adapter (it must list legal actions).")
@click.option(
    "--positions",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A positions file (default: the suite's scenarios/perft-positions.json).",
)
@click.option("--depth", type=int, help="Print the reference's count at this depth instead.")
@click.option("--write", is_flag=True, help="Rewrite the file's counts from the reference.")
@click.option("--timeout", type=Seconds(), default=60.0, show_default=True)
@click.option("--startup-timeout", type=Seconds(), default=30.0, show_default=True)
def perft(
    command: str | None,
    positions: Path | None,
    depth: int | None,
    write: bool,
    timeout: float,
    startup_timeout: float,
) -> None:
    """Count legal action sequences from the shipped positions (and check an adapter)."""
    sys.exit(
        run_perft(
            command=command,
            positions=positions,
            depth=depth,
            write=write,
            timeout=timeout,
            startup_timeout=startup_timeout,
        )
    )


@main.command()
def rules() -> None:
    """List the rule anchors scenarios may cite."""
    from rich.table import Table

    from ..scenarios.rulings import EXTRA_ANCHORS, RULINGS

    table = Table(title="Rule anchors", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("anchor", style="cyan")
    table.add_column("title")
    for ruling in RULINGS:
        table.add_row(str(ruling.number), ruling.slug, ruling.title)
    for slug, title in EXTRA_ANCHORS.items():
        table.add_row("", slug, title)
    out_console().print(table)


from .disputes_command import disputes  # noqa: E402  (registered after the group exists)

main.add_command(disputes)

from .profiles_command import profiles  # noqa: E402  (registered after the group exists)

main.add_command(profiles)


if __name__ == "__main__":  # pragma: no cover
    main()
