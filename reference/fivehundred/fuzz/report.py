"""The fuzz report as text, JSON or Markdown, and the shrunk scenarios written to files."""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..safety import atomic_write_text, one_line
from ..scenarios import load_file
from ..verify.runner import ReferenceImplementation, judge
from .fuzzer import FuzzReport

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


def render_text(report: FuzzReport) -> str:
    lines = [_headline(report)]
    shards = ", ".join(f"{i}/{n}" for i, n in report.shards)
    lines.append(
        f"implementation: {report.implementation}  profile: {report.label}  shards: {shards}  "
        f"jobs: {report.jobs}  time: {report.seconds:.1f} s"
    )
    lines.append(
        "deals by generator: "
        + ", ".join(f"{name} {count}" for name, count in sorted(report.by_generator.items()))
    )
    if report.generators:
        lines.append(f"generators chosen: {', '.join(report.generators)}")
    lines += skip_lines(report)
    for number, family in enumerate(report.sorted_families, 1):
        lines.append("")
        lines.append(f"{number}. {family.signature.describe()}  ×{family.count}")
        lines.append(f"   rulings: {', '.join(family.rulings) or '-'}")
        start = family.start + (
            f" ({family.start_tricks} tricks to play)" if family.start_tricks else ""
        )
        lines.append(
            f"   first: deal {family.first} ({family.generator}), shrunk from "
            f"{family.original_actions} to {family.shrunk_actions} actions, {start} start"
        )
        if family.filename:
            verified = "" if family.verified else " (not re-verified)"
            lines.append(  # the file exists only with --out
                f"   scenario: {family.scenario_id} (--out writes {family.filename}){verified}"
            )
    return "\n".join(lines) + "\n"


def render_markdown(report: FuzzReport) -> str:
    out = [f"# Fuzz report: {report.implementation}", "", _headline(report), ""]
    out.append(f"- seed: `{report.seed}`, profile: `{report.label}`, deals: {report.deals}")
    out.append(f"- command: `{report.command}`" if report.command else "- in-process reference")
    if report.generators:
        out.append(f"- generators: {', '.join(report.generators)}")
    if report.skipped:
        by_generator = ", ".join(
            f"{name} {count}" for name, count in sorted(report.skipped_by_generator.items())
        )
        out.append(f"- skipped by the implementation: {report.skipped} deals ({by_generator})")
        out += [
            f"    - {count} because {_markdown_text(reason)}"
            for reason, count in report.skip_reasons.most_common()
        ]
    out.append("")
    if report.families:
        out += [
            "| # | disagreement | deals | rulings | shrunk scenario |",
            "|---|---|---|---|---|",
        ]
        for number, family in enumerate(report.sorted_families, 1):
            what = family.signature.describe().replace("|", "\\|")
            out.append(
                f"| {number} | {what} | {family.count} | {', '.join(family.rulings)} | "
                f"`{family.filename}` ({family.shrunk_actions} actions) |"
            )
        for number, family in enumerate(report.sorted_families, 1):
            out += ["", f"## {number}. {family.signature.describe()}", "", "```yaml"]
            out += [family.scenario.rstrip("\n"), "```"]
    return "\n".join(out) + "\n"


def _markdown_text(text: str) -> str:
    """Text from an adapter as literal Markdown on one line: no HTML, no markup."""
    special = "\\`*_[]<>|#"
    return "".join("\\" + c if c in special else c for c in one_line(text)[:200])


def render(report: FuzzReport, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(report.as_json(), indent=2, ensure_ascii=False) + "\n"
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
    """Write each family's shrunk scenario into ``folder``, checked first."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for family in report.sorted_families:
        if not family.scenario or not family.filename:
            continue
        path = folder / family.filename
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
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
