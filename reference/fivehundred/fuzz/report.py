"""The fuzz report as text, JSON or Markdown, and the shrunk scenarios written to files.

A report quotes an adapter's answers, and ``fuzz merge`` renders what a shard file says:
every string from either goes through the escaper of :mod:`fivehundred.safety` (one line
each, Markdown-escaped in Markdown), and the whole text once more before it is printed or
written.  The scenario files are named by the suite and placed by :func:`~fivehundred.
safety.place`, never where a shard says.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..reports.formats import md_code, md_text
from ..safety import (
    FileRefused,
    atomic_write_text,
    clean_json,
    clean_name,
    clean_text,
    one_line,
    place,
    read_regular_file,
)
from ..scenarios import load_file
from ..verify.runner import ReferenceImplementation, judge
from .fuzzer import Family, FuzzReport
from .write import scenario_filename

__all__ = ["Written", "check_scenario_text", "render", "write_scenarios"]


def _headline(report: FuzzReport) -> str:
    families = len(report.families)
    why = {"deals": "", "time": " (the time ran out)", "interrupted": " (interrupted)"}
    stop = why.get(report.stopped, "")
    if not report.deals:  # a shard with no deal of its own, or a time limit hit at once
        return f"No deal was run (seed {report.seed}){stop}: nothing was checked."
    skipped = ""
    if report.skipped:
        skipped = f" ({report.skipped} more skipped by the implementation)"
    if not report.checked:
        return (
            f"The implementation skipped all {report.deals} deals (seed {report.seed}){stop}: "
            "nothing was checked."
        )
    if not families:
        return (
            f"No disagreement in {report.checked} deals with seed {report.seed}{skipped}{stop}: "
            f"{one_line(report.implementation)} agreed with the reference at every step."
        )
    return (
        f"{report.disagreeing} of {report.checked} deals disagreed with the reference "
        f"(seed {report.seed}){skipped}{stop}: {families} families."
    )


def skip_lines(report: FuzzReport) -> list[str]:
    """How many deals the implementation skipped, by generator and by reason (its own
    words, made safe to print)."""
    if not report.skipped:
        return []
    by_generator = ", ".join(
        f"{name} {count}" for name, count in sorted(report.skipped_by_generator.items())
    )
    lines = [f"skipped by the implementation: {report.skipped} deals ({by_generator})"]
    lines += [
        f"  {count} because {one_line(reason)[:200]}"
        for reason, count in report.skip_reasons.most_common()
    ]
    return lines


def family_filename(family: Family) -> str | None:
    """The file ``--out`` writes a family's scenario to: made by the suite from the
    scenario's id and its disagreement, never the name a report carries."""
    return scenario_filename(family.scenario_id, family.signature.kind, family.signature.check)


def render_text(report: FuzzReport) -> str:
    lines = [_headline(report)]
    shards = ", ".join(f"{i}/{n}" for i, n in report.shards)
    lines.append(
        f"implementation: {one_line(report.implementation)}  profile: {one_line(report.label)}  "
        f"shards: {shards}  jobs: {report.jobs}  time: {report.seconds:.1f} s"
    )
    lines.append(
        "deals by generator: "
        + ", ".join(
            f"{one_line(name)} {count}" for name, count in sorted(report.by_generator.items())
        )
    )
    if report.generators:
        lines.append(f"generators chosen: {', '.join(report.generators)}")
    lines += skip_lines(report)
    for number, family in enumerate(report.sorted_families, 1):
        lines.append("")
        lines.append(f"{number}. {one_line(family.signature.describe())}  ×{family.count}")
        lines.append(f"   rulings: {one_line(', '.join(family.rulings)) or '-'}")
        start = one_line(family.start) + (
            f" ({family.start_tricks} tricks to play)" if family.start_tricks else ""
        )
        lines.append(
            f"   first: deal {family.first} ({one_line(family.generator)}), shrunk from "
            f"{family.original_actions} to {family.shrunk_actions} actions, {start} start"
        )
        filename = family_filename(family)
        if family.scenario and filename:
            verified = "" if family.verified else " (not re-verified)"
            lines.append(  # the file exists only with --out
                f"   scenario: {family.scenario_id} (--out writes {filename}){verified}"
            )
    return clean_text("\n".join(lines) + "\n")


def _fence(text: str) -> str:
    """A code fence longer than any run of backticks in ``text``, which cannot close it."""
    run = longest = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    return "`" * max(3, longest + 1)


def render_markdown(report: FuzzReport) -> str:
    out = [f"# Fuzz report: {md_text(report.implementation)}", "", md_text(_headline(report)), ""]
    out += _markdown_run(report)
    out.append("")
    if report.families:
        out += _markdown_families(report)
    return clean_text("\n".join(out) + "\n")


def _markdown_run(report: FuzzReport) -> list[str]:
    """The run's settings as a list, with the deals the implementation skipped."""
    out = [f"- seed: `{report.seed}`, profile: {md_code(report.label)}, deals: {report.deals}"]
    out.append(
        f"- command: {md_code(report.command)}" if report.command else "- in-process reference"
    )
    if report.generators:
        out.append(f"- generators: {', '.join(report.generators)}")
    if report.skipped:
        by_generator = ", ".join(
            f"{name} {count}" for name, count in sorted(report.skipped_by_generator.items())
        )
        out.append(f"- skipped by the implementation: {report.skipped} deals ({by_generator})")
        out += [
            f"    - {count} because {md_text(one_line(reason)[:200])}"
            for reason, count in report.skip_reasons.most_common()
        ]
    return out


def _markdown_families(report: FuzzReport) -> list[str]:
    """A table of the families, then each one's shrunk scenario."""
    out = [
        "| # | disagreement | deals | rulings | shrunk scenario |",
        "|---|---|---|---|---|",
    ]
    for number, family in enumerate(report.sorted_families, 1):
        filename = family_filename(family)
        shown = md_code(filename) if family.scenario and filename else "-"
        out.append(
            f"| {number} | {md_text(family.signature.describe())} | {family.count} | "
            f"{md_text(', '.join(family.rulings))} | {shown} ({family.shrunk_actions} "
            "actions) |"
        )
    for number, family in enumerate(report.sorted_families, 1):
        scenario = clean_text(family.scenario.rstrip("\n"))
        fence = _fence(scenario)
        out += ["", f"## {number}. {md_text(family.signature.describe())}", ""]
        out += [f"{fence}yaml", scenario, fence]
    return out


def render(report: FuzzReport, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(clean_json(report.as_json()), indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return render_markdown(report)
    return render_text(report)


@dataclass
class Written:
    path: Path
    problems: list[str]
    """Why the file does not validate or does not pass on the reference (empty if fine)."""
    kept: bool = False
    """A different file of that name was there already and was left as it was: a run
    never replaces a shrunk scenario its user may have edited since an earlier run."""
    refused: bool = False
    """Not written at all: the id is not the suite's, or the place is a link."""


def check_scenario_text(text: str) -> list[str]:
    """Validate a scenario file's text and run it on the reference: the problems found."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.yaml"
        path.write_text(text, encoding="utf-8")
        loaded = load_file(path, Path(folder))
    problems = [f"{d.path}: {d.message}" for d in loaded.diagnostics]
    if loaded.scenario is not None and not problems:
        implementation = ReferenceImplementation()
        verdict = judge(loaded.scenario, implementation.run(loaded.scenario))
        if not verdict.ok:
            problems.append(f"the reference does not pass it: {verdict.status.value}")
    return problems


def write_scenarios(report: FuzzReport, folder: Path) -> list[Written]:
    """Write each family's shrunk scenario into ``folder``, checked first.

    The name is the suite's (:func:`family_filename`) and the place is checked by
    :func:`~fivehundred.safety.place`: a family whose id is not one the suite mints, or
    whose file would be a link, is reported and not written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for family in report.sorted_families:
        if not family.scenario:
            continue
        filename = family_filename(family)
        if filename is None:
            shown = Path(f"({clean_name(family.scenario_id)[:40]!r})")
            why = "not written: the scenario id is not one the suite mints"
            written.append(Written(shown, [why], refused=True))
            continue
        try:
            path = place(folder, filename)
        except FileRefused as error:
            written.append(Written(folder / filename, [f"not written: {error}"], refused=True))
            continue
        try:
            atomic_write_text(path, family.scenario, exclusive=True)
        except FileExistsError:
            if _text_of(path) != family.scenario:
                written.append(Written(path, [], kept=True))
                continue
        written.append(Written(path, check_scenario_text(family.scenario)))
    return written


def _text_of(path: Path) -> str | None:
    try:
        return read_regular_file(path).decode("utf-8")
    except (FileRefused, UnicodeDecodeError):
        return None
