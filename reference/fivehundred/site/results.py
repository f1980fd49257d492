"""The conformance results page: implementations against rulings, from JSON reports.

Every ``*.json`` file in ``results/`` (at the repository root) is the report of one
``fivehundred verify --format json`` run (``schema/report.schema.json``) and becomes
one column of the matrix.  Two are the project's own and are refreshed by one
command, ``python -m fivehundred.site.results``: the reference (in-process) and the
independent JavaScript implementation (``adapters/independent-js/``).  Anyone else's
report dropped into the folder is a further column.

The page reads each report against the corpus being built, never on trust:

* a scenario of the corpus that the report does not contain, or whose title or
  rulings changed since the report was made, is **not run** for that report;
* a scenario that passed with some checks left out (the implementation could not
  give an observation or a rejection code) is **partly checked**, never passed;
* skipped, errored and failed are said as such; an expected failure is a failure.

A file that is not a report (not JSON, not following the schema, or not a
``.json`` file at all) is a problem naming the file, never an exception; the build
turns it into an error.  Reading is the only file access; the page itself is made
from data by :func:`results_markdown`.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from .. import SUITE_VERSION
from ..resources import describe_error, fast_validator, validator
from ..safety import FileRefused, JsonRefused, read_regular_file, strict_json
from ..scenarios import Scenario
from .engines import (
    THIRD_PARTY_DIR,
    ThirdParty,
    family_problems,
    family_sentence,
    load_third_party,
)

RESULTS_DIR = "results"
"""Folder of the repository with the committed reports, one per implementation."""

RESULTS_MARKER = "<!-- fivehundred:results -->"
"""Replaced, on any page, by the matrix and the table of reports."""

REPORT_SCHEMA = "report.schema.json"

ALLOWED_OTHER_FILES = frozenset({"README.md"})
"""Files besides reports the folder may hold."""

MAX_REPORT_BYTES = 32 * 1024 * 1024

_FILE_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*\.json$")

PROJECT_REPORTS: tuple[tuple[str, str | None], ...] = (
    ("reference.json", None),
    ("independent-js.json", "node adapters/independent-js/adapter.js"),
)
"""The project's own reports: file name and adapter command (None: the reference)."""


class State(StrEnum):
    """What a report says about one scenario of the corpus, worst last."""

    PASSED = "passed"
    PARTLY = "partly checked"
    SKIPPED = "skipped"
    NOT_RUN = "not run"
    ERRORED = "errored"
    FAILED = "failed"


_ORDER = list(State)


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    id: str
    title: str
    rules: tuple[str, ...]
    status: str
    unchecked: int
    reason: str = ""
    """Why it was skipped (the first line of the report's message), for a skip."""


@dataclass(frozen=True, slots=True)
class Report:
    file: str
    """The report's path as messages and the page name it (``results/x.json``)."""
    name: str
    version: str
    language: str
    suite_version: str
    started_at: str
    mode: str
    headline: str
    capabilities: str
    broken: str | None
    results: Mapping[str, ScenarioResult]

    @property
    def label(self) -> str:
        return f"{self.name} {self.version}".strip()

    def state(self, scenario: Scenario) -> State:
        """This report's verdict on a scenario of the corpus being built."""
        result = self.results.get(scenario.id)
        if (
            result is None
            or result.title != scenario.title
            or result.rules != tuple(scenario.rules)
        ):
            return State.NOT_RUN
        if result.status == "passed":
            return State.PARTLY if result.unchecked else State.PASSED
        if result.status == "skipped":
            return State.SKIPPED
        if result.status == "errored":
            return State.ERRORED
        return State.FAILED


class ReportError(ValueError):
    """A file of the results folder that cannot be shown; the message names it."""


def _capabilities(document: Mapping[str, Any]) -> str:
    caps = document["run"]["capabilities"]
    if caps is None:
        return "none (the handshake failed)"
    parts = ["profiles " + ", ".join(caps["profiles"]) if caps["profiles"] else "no profile"]
    parts.append("legal actions" if caps["legal_actions"] else "no legal actions")
    parts.append("rejection codes" if caps["error_codes"] else "no rejection codes")
    if "observations" in caps:
        parts.append(f"{len(caps['observations'])} observation keys")
    return "; ".join(parts)


def report_from_document(document: Any, file: str) -> Report:
    """A report from its parsed JSON; :class:`ReportError` unless it follows the schema."""
    if not fast_validator(REPORT_SCHEMA).is_valid(document):
        errors = sorted(
            validator(REPORT_SCHEMA).iter_errors(document),
            key=lambda e: [str(p) for p in e.absolute_path],
        )
        first = describe_error(errors[0]) if errors else "not valid"
        more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
        suite = document.get("suite") if isinstance(document, dict) else None
        made = suite.get("version") if isinstance(suite, dict) else None
        hint = ""
        if isinstance(made, str) and made != SUITE_VERSION:
            hint = (
                f"; it was made with suite {made[:40]} and this is suite {SUITE_VERSION}: "
                "run the same verify command again with this version"
            )
        raise ReportError(
            f"{file}: not a report of `fivehundred verify --format json` "
            f"(schema/{REPORT_SCHEMA}): {first}{more}{hint}"
        )
    results: dict[str, ScenarioResult] = {}
    for entry in document["scenarios"]:
        results[entry["id"]] = ScenarioResult(
            id=entry["id"],
            title=entry["title"],
            rules=tuple(entry["rules"]),
            status=entry["status"],
            unchecked=len(entry["unchecked"]),
            reason=(entry["message"].splitlines() or [""])[0][:200]
            if entry["status"] == "skipped"
            else "",
        )
    implementation = document["implementation"]
    broken = document["broken_adapter"]
    return Report(
        file=file,
        name=implementation["name"],
        version=implementation["version"],
        language=implementation["language"],
        suite_version=document["suite"]["version"],
        started_at=document["run"]["started_at"],
        mode=document["run"]["mode"],
        headline=document["coverage"]["headline"],
        capabilities=_capabilities(document),
        broken=None if broken is None else str(broken["reason"]),
        results=results,
    )


def read_report(path: Path, file: str) -> Report:
    try:
        document = strict_json(read_regular_file(path, MAX_REPORT_BYTES))
    except FileRefused as error:
        raise ReportError(f"{file}: cannot be read: {error}") from None
    except json.JSONDecodeError as error:
        raise ReportError(
            f"{file}:{error.lineno}:{error.colno}: not a JSON report: {error.msg}"
        ) from None
    except (JsonRefused, UnicodeDecodeError) as error:
        raise ReportError(f"{file}: not a JSON report: {error}") from None
    return report_from_document(document, file)


def load_reports(folder: Path, shown_as: str = RESULTS_DIR) -> tuple[list[Report], list[str]]:
    """The reports in ``folder``: the project's own first, then the others by file name;
    and one problem per file that is not a valid report (or not a report at all)."""
    reports: list[Report] = []
    problems: list[str] = []
    if not folder.is_dir():
        return reports, problems
    own = [name for name, _ in PROJECT_REPORTS]

    def order(path: Path) -> tuple[int, str]:
        return (own.index(path.name), "") if path.name in own else (len(own), path.name)

    paths = sorted(folder.iterdir(), key=order)
    for path in paths:
        file = f"{shown_as}/{path.name}"
        if path.name in ALLOWED_OTHER_FILES or path.name.startswith("."):
            continue
        if path.suffix != ".json":
            problems.append(
                f"{file}: not a report; the results folder holds only JSON reports of "
                "`fivehundred verify --format json` (*.json) and a README.md"
            )
            continue
        if not _FILE_NAME.match(path.name):
            problems.append(
                f"{file}: a report's file name is lower-case letters, digits, '.', '-' or '_', "
                "ending in .json"
            )
            continue
        try:
            reports.append(read_report(path, file))
        except ReportError as error:
            problems.append(str(error))
    return reports, problems


def load_engines(root: Path, reports: Sequence[Report]) -> tuple[list[ThirdParty], list[str]]:
    """The third-party engines of the repository at ``root``, and the problems with them:
    a file that cannot be used, and families that disagree with the engine's report
    (:func:`~.engines.family_problems`)."""
    engines, problems = load_third_party(root)
    by_file = {report.file: report for report in reports}
    for third_party in engines:
        report = by_file.get(third_party.engine.report)
        if report is None:
            if third_party.families:
                problems.append(
                    f"{third_party.deviations_file}: families of {third_party.engine.name}, "
                    f"but no report {third_party.engine.report}"
                )
            continue
        statuses = {i: r.status for i, r in report.results.items()}
        problems += family_problems(third_party, statuses, report.file)
    return engines, problems


# ---- the page ---------------------------------------------------------------------------


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]{}()#+!~^-])")


def _escape(text: str) -> str:
    """Text from a report (anyone's) as literal text in a table cell: no HTML, no
    Markdown, no line break, no cell border."""
    text = " ".join(text.split())
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))
    return text.replace("|", "&#124;")


_NBSP = "\u00a0"


def cell(states: Sequence[State]) -> str:
    """One ruling's cell for one report: counts by state, a tick only when every
    scenario citing the ruling ran, was checked in full and passed."""
    if not states:
        return "—"
    counts = {state: states.count(state) for state in _ORDER if state in states}
    if list(counts) == [State.PASSED]:
        return f"✔{_NBSP}{len(states)}{_NBSP}passed"
    # worst first; a count holds to its word, and a narrow column wraps between them
    parts = [f"{n}{_NBSP}{state.value}" for state, n in counts.items()]
    text = f"{_NBSP}· ".join(reversed(parts))  # a line may break after a dot, not before
    if State.FAILED in counts or State.ERRORED in counts:
        return f"✘{_NBSP}{text}"
    return text


def _skip_reasons(report: Report, scenarios: Sequence[Scenario]) -> str:
    """The skips of a report by reason, commonest first (three named, the rest counted)."""
    reasons: dict[str, int] = {}
    for scenario in scenarios:
        if report.state(scenario) is State.SKIPPED:
            result = report.results[scenario.id]
            reason = result.reason or "no reason given"
            reasons[reason] = reasons.get(reason, 0) + 1
    ranked = sorted(reasons.items(), key=lambda item: (-item[1], item[0]))
    parts = [f"{count} because {_escape(reason)}" for reason, count in ranked[:3]]
    rest = sum(count for _, count in ranked[3:])
    if rest:
        parts.append(f"{rest} for {len(ranked) - 3} other reasons")
    return "; ".join(parts)


def engine_headline(report: Report, scenarios: Sequence[Scenario]) -> str:
    """``Checked N of M scenarios: …`` — what was compared, what failed, what was skipped
    and why, read against the corpus of this build."""
    states = [report.state(s) for s in scenarios]
    count = {state: states.count(state) for state in State}
    checked = count[State.PASSED] + count[State.PARTLY] + count[State.FAILED]
    parts = [
        f"{count[state]} {state.value}"
        for state in (State.PASSED, State.PARTLY, State.FAILED, State.ERRORED, State.NOT_RUN)
        if count[state]
    ]
    text = f"**Checked {checked} of {len(scenarios)} scenarios**: {', '.join(parts) or 'none'}"
    if count[State.SKIPPED]:
        text += f"; {count[State.SKIPPED]} skipped ({_skip_reasons(report, scenarios)})"
    return text + "."


def _engine_section(
    third_party: ThirdParty,
    report: Report | None,
    scenarios: Sequence[Scenario],
    file_links: Mapping[str, str],
    scenario_link: Callable[[str], str],
) -> list[str]:
    engine = third_party.engine
    lines = [f"### {_escape(engine.title)} {{#engine-{engine.name}}}", ""]
    where = file_links.get(engine.report)
    shown = f"[`{engine.report}`]({where})" if where else f"`{engine.report}`"
    lines += [
        f"{_escape(engine.language)}; [{_escape(engine.repository)}]({engine.repository}) at "
        f"commit [`{engine.short_commit}`]({engine.commit_url}); adapter "
        f"`{THIRD_PARTY_DIR}/{engine.name}/`; report {shown}.",
        "",
    ]
    if report is None:
        return [*lines, "*No report yet.*", ""]
    lines += [
        f"{engine_headline(report, scenarios)} Suite {_escape(report.suite_version)}, run "
        f"{_escape(report.started_at[:10])}.",
        "",
    ]
    if report.broken:
        lines += [f"The adapter was judged broken: {_escape(report.broken)}.", ""]
    if third_party.families:
        lines += ["Where it departs from the rules:", ""]
        for family in third_party.families:
            links = [f"[{i}]({scenario_link(i)})" for i in family.examples]
            lines.append(
                f"- {family_sentence(replace(family, sentence=_escape(family.sentence)), links)}"
            )
        lines.append("")
    return lines


def _column_label(report: Report, engines: Mapping[str, ThirdParty]) -> str:
    """A column's header: an engine's short name, linking to its section; a report of
    the project's or anyone else's by its implementation's name and version.  A long
    name may break after its hyphens, so that many columns fit a page."""
    for third_party in engines.values():
        if third_party.engine.report == report.file:
            name = third_party.engine.name
            return f"[{_escape(name)}](#engine-{name})".replace("\\-", "\\-<wbr>")
    return _escape(report.label).replace("\\-", "\\-<wbr>")


def results_markdown(
    reports: Sequence[Report],
    scenarios: Iterable[Scenario],
    rows: Sequence[tuple[str, str]],
    file_links: Mapping[str, str],
    engines: Sequence[ThirdParty] = (),
    scenario_link: Callable[[str], str] = lambda scenario_id: f"scenarios/{scenario_id}.md",
) -> str:
    """The table of reports, the third-party engines, and the matrix (rulings down,
    reports across).

    ``rows`` are the rulings in order, each as (anchor, Markdown link);
    ``file_links`` maps a report's file to a link to its published copy; ``engines``
    are the third-party engines (``adapters/third-party/``), each shown with its
    headline and deviation families; ``scenario_link`` makes a scenario page's link."""
    scenarios = list(scenarios)
    if not reports:
        return (
            "*No report in `results/` yet: run `python -m fivehundred.site.results` to make "
            "the project's own.*\n"
        )
    by_file = {third_party.engine.report: third_party for third_party in engines}
    lines = ["## Reports {#reports}", ""]
    for report in reports:
        if report.file not in by_file:  # (one with its engine is shown with it below)
            lines += _report_lines(report, scenarios, file_links.get(report.file))
    if engines:
        lines += ["", "## Public engines {#engines}", ""]
        reports_by_file = {report.file: report for report in reports}
        for third_party in engines:
            lines += _engine_section(
                third_party,
                reports_by_file.get(third_party.engine.report),
                scenarios,
                file_links,
                scenario_link,
            )
    lines += _matrix_lines(reports, scenarios, rows, engines)
    return "\n".join(lines)


def _report_lines(report: Report, scenarios: Sequence[Scenario], link: str | None) -> list[str]:
    """One report of the list: who, where, which suite and run, and its tally here."""
    states = [report.state(s) for s in scenarios]
    summary = ", ".join(
        f"{states.count(state)} {state.value}" for state in _ORDER if state in states
    )
    where = f"[`{report.file}`]({link})" if link else f"`{report.file}`"
    broken = f" The adapter was judged broken: {_escape(report.broken)}." if report.broken else ""
    return [
        f"- **{_escape(report.label)}** ({_escape(report.language)}), {where}: suite "
        f"{_escape(report.suite_version)}, run {_escape(report.started_at[:10])} "
        f"({_escape(report.mode)}); capabilities: {_escape(report.capabilities)}.  ",
        f"  Its own headline: *{_escape(report.headline)}*.{broken}  ",
        f"  Read against the {len(scenarios)} scenarios of this site: {summary or 'none'}.",
    ]


def _matrix_lines(
    reports: Sequence[Report],
    scenarios: Sequence[Scenario],
    rows: Sequence[tuple[str, str]],
    engines: Sequence[ThirdParty],
) -> list[str]:
    """The matrix: one row per ruling, one column per report, each cell the states of
    the scenarios citing the ruling."""
    by_rule: dict[str, list[Scenario]] = {}
    for scenario in scenarios:
        for anchor in scenario.rules:
            by_rule.setdefault(anchor, []).append(scenario)
    named = {third_party.engine.name: third_party for third_party in engines}
    header = "| ruling | scenarios | " + " | ".join(_column_label(r, named) for r in reports) + " |"
    lines = ["", "## By ruling {#by-ruling}", ""]
    lines += ['<div class="fh-results" markdown>', "", header, "|---|--:|" + "---|" * len(reports)]
    for anchor, link in rows:
        cited = by_rule.get(anchor, [])
        cells = [cell([report.state(s) for s in cited]) for report in reports]
        lines.append(f"| {link} | {len(cited)} | " + " | ".join(cells) + " |")
    return [*lines, "", "</div>", ""]


# ---- refreshing the project's own reports --------------------------------------------------


def refresh(root: Path, only: Sequence[str] = ()) -> int:
    """Run ``fivehundred verify --format json`` for the project's own reports and write
    them into ``root/results/``; the exit status of the worst run (0 all conformant)."""
    folder = root / RESULTS_DIR
    folder.mkdir(exist_ok=True)
    worst = 0
    for name, command in PROJECT_REPORTS:
        if only and name not in only:
            continue
        args = ["verify", "--format", "json", "-o", f"{RESULTS_DIR}/{name}"]
        if command is not None:
            args += ["--impl", command]
        print("fivehundred " + " ".join(shlex.quote(a) for a in args), flush=True)
        code = subprocess.run(
            [sys.executable, "-m", "fivehundred", *args], cwd=root, check=False
        ).returncode
        if code not in (0, 1):
            print(f"{RESULTS_DIR}/{name}: the run ended with status {code}", file=sys.stderr)
        worst = max(worst, code)
    return worst


def _all_problems(root: Path) -> tuple[list[Report], list[ThirdParty], list[str]]:
    reports, problems = load_reports(root / RESULTS_DIR)
    engines, more = load_engines(root, reports)
    return reports, engines, problems + more


def check_engines(root: Path) -> int:
    """``--check``: every report valid, every engine's files usable and its families
    fitting its report; the problems on stderr, exit 1 if any."""
    reports, engines, problems = _all_problems(root)
    for problem in problems:
        print(problem, file=sys.stderr)
    families = sum(len(e.families) for e in engines)
    print(
        f"{len(reports)} reports, {len(engines)} third-party engines, {families} deviation "
        f"families: {len(problems) or 'no'} problems"
    )
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fivehundred.site.results",
        description="Refresh the reports in results/ for the site's conformance page: the "
        "project's own (the reference and the independent JavaScript implementation), or "
        "with --engine a third-party engine's from a checkout of it; --check checks them.",
    )
    parser.add_argument(
        "--root", type=Path, default=Path.cwd(), help="the repository (default: here)"
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        choices=[name for name, _ in PROJECT_REPORTS],
        help="refresh only this report of the project's (repeatable)",
    )
    parser.add_argument(
        "--engine",
        help="regenerate this third-party engine's report (adapters/third-party/ENGINE/"
        "engine.json says how); needs --checkout",
    )
    parser.add_argument(
        "--checkout", type=Path, help="a checkout of the engine at the commit engine.json pins"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="check the reports, the engines' files and their deviation families; run nothing",
    )
    args = parser.parse_args(argv)
    if not (args.root / "scenarios").is_dir():
        parser.error(f"{args.root} has no scenarios/ folder; run it from the repository root")
    if args.check:
        return check_engines(args.root)
    if (args.engine is None) != (args.checkout is None):
        parser.error("--engine and --checkout go together")
    if args.engine is not None:
        if args.only:
            parser.error("--only refreshes the project's own reports; not with --engine")
        from .engine_reports import regenerate_engine

        root = args.root
        return regenerate_engine(root, args.engine, args.checkout, lambda: _all_problems(root)[2])
    return refresh(args.root, args.only)


if __name__ == "__main__":
    sys.exit(main())
