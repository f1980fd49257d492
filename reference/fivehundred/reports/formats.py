"""Machine-readable reports of a verification run: JSON, JUnit XML, TAP 13 and Markdown.

Each format is for a consumer that already exists — JSON (``schema/report.schema.json``)
for dashboards and scripts, JUnit for CI test tabs, TAP for TAP harnesses, Markdown
for an implementation's README — so each follows that consumer's conventions for
expected failures and skips rather than inventing new ones.  All read the same
:class:`~fivehundred.verify.verification.Verification`.  The human text report is
:mod:`.text`.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import yaml

from ..safety import clean_json, clean_text, one_line
from ..scenarios.derived.narration import step_text
from ..verify.expectations import Listed
from ..verify.verdict import Mismatch, Status
from ..verify.verification import (
    DEFAULT_LABEL,
    Entry,
    Outcome,
    RuleCounts,
    Verification,
    skips_by_reason,
)
from . import REPORT_FORMATS
from .text import checkpoint_place

__all__ = ["FORMATS", "md_code", "md_text", "mismatch_text", "render", "to_json"]

REPORT_SCHEMA_ID = "https://fivehundred.example/schema/report.schema.json"


# ---- JSON ----------------------------------------------------------------------------


def _entry_json(entry: Entry, verification: Verification) -> dict[str, Any]:
    scenario, verdict = entry.scenario, entry.verdict
    expectation = entry.expectation
    return {
        "id": scenario.id,
        "title": scenario.title,
        "area": scenario.area,
        "rules": list(scenario.rules),
        "profile": scenario.profile_label,
        "status": verdict.status.value,
        "expected_status": None if expectation is None else expectation.expected_status.value,
        "outcome": entry.outcome.value,
        "fails_run": verification.fails_run(entry),
        "expectation": None if expectation is None else expectation.as_json(),
        "changed_failure": entry.changed_text()
        if entry.outcome is Outcome.CHANGED_FAILURE
        else None,
        "mismatches": [
            {
                "step": m.step,
                "step_number": m.number,
                "step_text": _step_text(entry, m.step),
                "what": m.what,
                "expected": m.expected,
                "actual": m.actual,
                "at": checkpoint_place(entry, m.step) or None,
            }
            for m in verdict.mismatches
        ],
        "checks": verdict.checks,
        "unchecked": [
            {"step": u.step, "step_number": u.number, "what": u.what, "why": u.why}
            for u in verdict.unchecked
        ],
        "message": verdict.message,
        "stderr": verdict.stderr if verdict.status in (Status.FAILED, Status.ERRORED) else "",
        "duration": round(entry.seconds, 6),
        "rerun": verification.rerun_command(scenario),
    }


def _step_text(entry: Entry, index: int) -> str:
    return step_text(entry.scenario.steps[index])


def to_json(verification: Verification) -> dict[str, Any]:
    """The report as a JSON document following ``schema/report.schema.json``."""
    v = verification
    return {
        "$schema": REPORT_SCHEMA_ID,
        "suite": {"version": v.suite_version, "protocol": v.protocol_version},
        "implementation": v.implementation.as_json(),
        "run": {
            "mode": v.mode,
            "command": v.command,
            "capabilities": None if v.capabilities is None else v.capabilities.as_json(),
            "lenient_errors": v.lenient_errors,
            "timeout": v.timeout,
            "allow_unexpected_pass": v.allow_unexpected_pass,
            "started_at": v.started_at,
            "seconds": round(v.seconds, 6),
        },
        "ok": v.ok,
        "exit_code": v.exit_code,
        "broken_adapter": None
        if v.broken is None
        else {"reason": v.broken, "stderr": v.broken_stderr},
        "invalid_files": v.invalid_files,
        "warnings": list(v.warnings),
        "totals": v.totals(),
        "coverage": {
            "headline": v.headline(),
            "conformant": v.conformant,
            "ran": v.ran,
            "checked": v.compared,
            "skipped": len(v.entries) - v.ran,
            "nothing_checked": v.nothing_checked,
            "partly_checked": len(v.partly_checked()),
            "unchecked": v.unchecked_count(),
        },
        "rules": [counts.as_json() for counts in v.by_rule()],
        "profiles": [counts.as_json("profile") for counts in v.by_profile()],
        "scenarios": [_entry_json(e, v) for e in v.entries],
    }


def render_json(verification: Verification) -> str:
    return json.dumps(clean_json(to_json(verification)), indent=2, ensure_ascii=False) + "\n"


# ---- shared wording ------------------------------------------------------------------


def mismatch_text(entry: Entry, mismatch: Mismatch) -> str:
    """``step 3 (N call 6S): expected …`` — the observation is named only when it is one."""
    step = _step_text(entry, mismatch.step)
    what = "" if mismatch.what == step else f"{mismatch.what} "
    place = checkpoint_place(entry, mismatch.step)
    at = f" [{place}]" if place else ""
    return f"step {mismatch.number} ({step}): {what}{mismatch.describe()}{at}"


def _expected_label(entry: Entry) -> str:
    assert entry.expectation is not None
    kind = "failure" if entry.expectation.status is Listed.FAIL else entry.expectation.status.value
    return f"expected {kind}: {entry.expectation.reason}"


def _details(entry: Entry, verification: Verification) -> str:
    """Mismatches, message and rerun command, as plain text lines."""
    lines = [mismatch_text(entry, m) for m in entry.verdict.mismatches]
    if entry.outcome is Outcome.CHANGED_FAILURE:
        lines.insert(0, f"changed failure: {entry.changed_text()}")
    if entry.verdict.message:
        lines.append(entry.verdict.message)
    lines.append(f"rerun: {verification.rerun_command(entry.scenario)}")
    return "\n".join(lines)


def _summary_line(entry: Entry) -> str:
    verdict = entry.verdict
    if entry.outcome is Outcome.UNEXPECTED_PASS:
        assert entry.expectation is not None
        return f"passed, but listed as {entry.expectation.status}: {entry.expectation.reason}"
    if entry.outcome is Outcome.EXPECTED_FAILURE:
        return _expected_label(entry)
    if entry.outcome is Outcome.CHANGED_FAILURE:
        return f"changed failure: {entry.changed_text()}"
    if verdict.mismatches:
        count = len(verdict.mismatches)
        return f"{count} mismatch{'es' if count > 1 else ''}"
    return verdict.message.splitlines()[0] if verdict.message else verdict.status.value


def _title(verification: Verification) -> str:
    info = verification.implementation
    return f"{info.name} {info.version}"


# ---- JUnit XML -----------------------------------------------------------------------

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_text(text: str) -> str:
    """XML 1.0 cannot carry most control characters, which adapters' stderr may hold."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", clean_text(text))


def _testcase(parent: ET.Element, entry: Entry, verification: Verification) -> None:
    scenario = entry.scenario
    case = ET.SubElement(
        parent,
        "testcase",
        classname=_xml_text(f"fivehundred.{scenario.area or 'scenarios'}"),
        name=_xml_text(f"{scenario.id} {scenario.title}"),
        time=f"{entry.seconds:.6f}",
    )
    _testcase_outcome(case, entry, verification)
    if entry.ran and entry.unchecked:
        ET.SubElement(case, "system-out").text = _xml_text(_unchecked_text(entry))
    if entry.verdict.stderr and entry.status in (Status.FAILED, Status.ERRORED):
        ET.SubElement(case, "system-err").text = _xml_text(entry.verdict.stderr)


def _testcase_outcome(case: ET.Element, entry: Entry, verification: Verification) -> None:
    """What became of the scenario, as JUnit says it: nothing for a pass, a property for an
    expected failure, else ``skipped``, ``failure`` or ``error``."""
    outcome = entry.outcome
    scenario = entry.scenario
    if outcome is Outcome.EXPECTED_FAILURE:  # a pass for CI, marked as what it is
        assert entry.expectation is not None
        marks = ET.SubElement(case, "properties")
        ET.SubElement(
            marks, "property", name="expected_failure", value=_xml_text(_expected_label(entry))
        )
    elif outcome is Outcome.SKIPPED:
        ET.SubElement(case, "skipped", message=_xml_text(entry.verdict.message or "skipped"))
    elif outcome is Outcome.UNEXPECTED_PASS and verification.fails_run(entry):
        failure = ET.SubElement(
            case, "failure", message=_xml_text(_summary_line(entry)), type="unexpected-pass"
        )
        failure.text = _xml_text(f"rerun: {verification.rerun_command(scenario)}")
    elif outcome in (Outcome.FAILED, Outcome.CHANGED_FAILURE):
        kind = "changed-failure" if outcome is Outcome.CHANGED_FAILURE else "mismatch"
        failure = ET.SubElement(case, "failure", message=_xml_text(_summary_line(entry)), type=kind)
        failure.text = _xml_text(_details(entry, verification))
    elif outcome is Outcome.ERRORED:
        error = ET.SubElement(
            case, "error", message=_xml_text(_summary_line(entry)), type="errored"
        )
        error.text = _xml_text(_details(entry, verification))


def _unchecked_text(entry: Entry) -> str:
    items = [f"step {u.number} {u.what}: {u.why}" for u in entry.unchecked]
    return f"{len(items)} checks unchecked:\n" + "\n".join(items)


def _rule_text(counts: RuleCounts) -> str:
    return (
        f"passed {counts.passed}, failed or errored {counts.failed}, expected failures "
        f"{counts.expected_failures}, skipped {counts.skipped}, partly checked "
        f"{counts.partly_checked}, unchecked checks {counts.unchecked}"
    )


def _counts(entries: list[Entry], verification: Verification) -> dict[str, str]:
    failures = sum(
        1
        for e in entries
        if e.outcome in (Outcome.FAILED, Outcome.CHANGED_FAILURE)
        or (e.outcome is Outcome.UNEXPECTED_PASS and verification.fails_run(e))
    )
    return {
        "tests": str(len(entries)),
        "failures": str(failures),
        "errors": str(sum(1 for e in entries if e.outcome is Outcome.ERRORED)),
        "skipped": str(sum(1 for e in entries if e.outcome is Outcome.SKIPPED)),
        "time": f"{sum(e.seconds for e in entries):.6f}",
    }


def _suite_properties(properties: ET.Element, entries: list[Entry], v: Verification) -> None:
    """The run's identity and verdict, and the counts of each rule the area's scenarios cite."""
    for name, value in (
        ("suite.version", v.suite_version),
        ("protocol", str(v.protocol_version)),
        ("implementation.name", v.implementation.name),
        ("implementation.version", v.implementation.version),
        ("implementation.language", v.implementation.language),
        ("broken_adapter", v.broken or ""),
        ("headline", v.headline()),
        ("unchecked", str(v.unchecked_count())),
    ):
        ET.SubElement(properties, "property", name=name, value=_xml_text(value))
    cited = {rule for e in entries for rule in e.scenario.rules}
    for counts in v.by_rule():
        if counts.rule in cited:
            ET.SubElement(
                properties, "property", name=f"rule.{counts.rule}", value=_rule_text(counts)
            )


def render_junit(verification: Verification) -> str:
    """``testsuites`` > one ``testsuite`` per area > one ``testcase`` per scenario.

    An expected failure is a passing ``testcase`` carrying the property
    ``expected_failure`` (what was expected), as pytest marks an xfail with a property:
    a CI dashboard then counts a healthy run's known failures as passes, not as
    hundreds of skips, and ``skipped`` is kept for what really did not run.  An
    unexpected pass that fails the run is a ``failure``.
    """
    v = verification
    root = ET.Element("testsuites", name=_xml_text(f"fivehundred {v.suite_version}: {_title(v)}"))
    root.attrib.update(_counts(v.entries, v))
    areas: dict[str, list[Entry]] = {}
    for entry in v.entries:
        areas.setdefault(entry.scenario.area or "scenarios", []).append(entry)
    for area in sorted(areas):
        suite = ET.SubElement(root, "testsuite", name=_xml_text(area), timestamp=v.started_at[:19])
        suite.attrib.update(_counts(areas[area], v))
        _suite_properties(ET.SubElement(suite, "properties"), areas[area], v)
        for entry in areas[area]:
            _testcase(suite, entry, v)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


# ---- TAP 13 --------------------------------------------------------------------------


def _tap_directive(text: str) -> str:
    return one_line(text.replace("#", ""))


def _yaml_block(data: dict[str, Any]) -> list[str]:
    body = yaml.safe_dump(clean_json(data), sort_keys=False, allow_unicode=True, width=100)
    return ["  ---", *("  " + line for line in body.rstrip("\n").splitlines()), "  ..."]


def _tap_diagnostics(entry: Entry, verification: Verification) -> dict[str, Any]:
    data: dict[str, Any] = {"status": entry.status.value, "area": entry.scenario.area}
    if entry.outcome is Outcome.CHANGED_FAILURE:
        data["changed_failure"] = entry.changed_text()
    if entry.verdict.mismatches:
        data["mismatches"] = [
            {
                "step": m.number,
                "action": _step_text(entry, m.step),
                "what": m.what,
                "expected": m.expected,
                "actual": m.actual,
            }
            for m in entry.verdict.mismatches
        ]
    if entry.verdict.message:
        data["message"] = entry.verdict.message
    if entry.verdict.stderr:
        data["stderr"] = entry.verdict.stderr
    data["rerun"] = verification.rerun_command(entry.scenario)
    return data


def _tap_entry(number: int, entry: Entry, v: Verification) -> list[str]:
    """One scenario's test point, with its diagnostics when it fails the run."""
    description = one_line(f"{entry.scenario.id} {entry.scenario.title}".replace("#", ""))
    outcome = entry.outcome
    if outcome is Outcome.PASSED:
        lines = [f"ok {number} - {description}"]
    elif outcome is Outcome.SKIPPED:
        reason = _tap_directive(entry.verdict.message or "skipped")
        lines = [f"ok {number} - {description} # SKIP {reason}"]
    elif outcome is Outcome.EXPECTED_FAILURE:
        assert entry.expectation is not None
        todo = _tap_directive(_expected_label(entry))
        lines = [f"not ok {number} - {description} # TODO " + todo]
    elif outcome is Outcome.UNEXPECTED_PASS and not v.fails_run(entry):
        lines = [f"ok {number} - {description} # TODO unexpected pass (allowed)"]
    else:
        lines = [f"not ok {number} - {description}"]
        diagnostics = _tap_diagnostics(entry, v)
        if outcome is Outcome.UNEXPECTED_PASS:
            diagnostics["message"] = _summary_line(entry)
        lines.extend(_yaml_block(diagnostics))
    if entry.ran and entry.unchecked:
        lines.append(f"# {entry.scenario.id}: " + " ".join(_unchecked_text(entry).split()))
    return lines


def render_tap(verification: Verification) -> str:
    """TAP version 13: skips are ``# SKIP``, expected failures ``not ok … # TODO``."""
    v = verification
    lines = [
        "TAP version 13",
        f"1..{len(v.entries)}",
        f"# fivehundred {v.suite_version} (protocol {v.protocol_version}) against "
        f"{_title(v)} ({v.implementation.language}, {v.mode})",
    ]
    lines.append(f"# {' '.join(v.headline().split())}")
    if v.broken is not None:
        lines.append(f"# broken adapter: {one_line(v.broken)}")
    for number, entry in enumerate(v.entries, start=1):
        lines.extend(_tap_entry(number, entry, v))
    lines.append("# by rule:")
    for counts in v.by_rule():
        lines.append(f"# {counts.rule}: {_rule_text(counts)}")
    return clean_text("\n".join(lines) + "\n")


# ---- Markdown ------------------------------------------------------------------------

_COLUMNS = (
    ("Passed", Outcome.PASSED),
    ("Failed", Outcome.FAILED),
    ("Errored", Outcome.ERRORED),
    ("Skipped", Outcome.SKIPPED),
    ("Expected failures", Outcome.EXPECTED_FAILURE),
    ("Unexpected passes", Outcome.UNEXPECTED_PASS),
    ("Changed failures", Outcome.CHANGED_FAILURE),
)


def md_text(text: str) -> str:
    """Text safe inside a table cell or list item."""
    return re.sub(r"([\\`*_<>|\[\]])", r"\\\1", one_line(text))


def md_code(text: str) -> str:
    text = one_line(text)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def render_markdown(verification: Verification) -> str:
    """A summary table by area and the failures, ready to paste into a README."""
    v = verification
    lines = _md_heading(v) + _md_areas(v) + _md_profiles(v) + _md_rules(v)
    for heading, outcome in (
        ("Failures", Outcome.FAILED),
        ("Changed failures", Outcome.CHANGED_FAILURE),
        ("Errors", Outcome.ERRORED),
        ("Unexpected passes", Outcome.UNEXPECTED_PASS),
        ("Expected failures", Outcome.EXPECTED_FAILURE),
    ):
        lines.extend(_md_section(heading, [e for e in v.entries if e.outcome is outcome], v))
    lines.extend(_md_unchecked(v))
    lines.extend(_md_skipped(v))
    return clean_text("\n".join(lines) + "\n")


def _md_heading(v: Verification) -> list[str]:
    """The title, what was run against what, and the verdict."""
    info = v.implementation
    homepage = f" ([homepage]({info.homepage}))" if info.homepage else ""
    word, _, rest = v.headline().partition(": ")
    verdict = f"**{md_text(word)}**: {md_text(rest)}"
    return [
        f"# Five Hundred conformance: {md_text(info.name)} {md_text(info.version)}",
        "",
        f"Suite {v.suite_version} (protocol {v.protocol_version}), {md_text(info.language)}"
        f"{homepage}, {v.mode} mode, {v.started_at}.",
        "",
        verdict.rstrip(".") + ".",
        "",
    ]


def _md_areas(v: Verification) -> list[str]:
    """The table of outcomes by area, with the totals."""
    lines = [
        "| Area | " + " | ".join(name for name, _ in _COLUMNS) + " | Total |",
        "|---|" + "---:|" * (len(_COLUMNS) + 1),
    ]
    areas: dict[str, list[Entry]] = {}
    for entry in v.entries:
        areas.setdefault(entry.scenario.area or "-", []).append(entry)
    for area in sorted(areas):
        cells = [str(sum(1 for e in areas[area] if e.outcome is o)) for _, o in _COLUMNS]
        lines.append(f"| {md_text(area)} | " + " | ".join(cells) + f" | {len(areas[area])} |")
    cells = [f"**{v.count(o)}**" for _, o in _COLUMNS]
    lines.append("| **all** | " + " | ".join(cells) + f" | **{v.totals()['total']}** |")
    return lines


def _md_profiles(v: Verification) -> list[str]:
    """The table by profile, only when another rule set than the default was run or skipped."""
    profiles = v.by_profile()
    if not any(p.skipped or p.rule != DEFAULT_LABEL for p in profiles):
        return []
    return [
        "",
        "## By profile",
        "",
        "| Profile | Passed | Failed or errored | Expected failures | Skipped | Partly checked |",
        "|---|---:|---:|---:|---:|---:|",
        *(
            f"| {md_text(p.rule)} | {p.passed} | {p.failed} | {p.expected_failures} "
            f"| {p.skipped} | {p.partly_checked} |"
            for p in profiles
        ),
    ]


def _md_rules(v: Verification) -> list[str]:
    """The table by rule."""
    return [
        "",
        "## By rule",
        "",
        "A scenario counts under every rule it cites.",
        "",
        "| Rule | Passed | Failed or errored | Expected failures | Skipped | Partly checked "
        "| Unchecked checks |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *(
            f"| {md_text(counts.rule)} | {counts.passed} | {counts.failed} | "
            f"{counts.expected_failures} | {counts.skipped} | {counts.partly_checked} | "
            f"{counts.unchecked} |"
            for counts in v.by_rule()
        ),
    ]


def _md_unchecked(v: Verification) -> list[str]:
    """The scenarios with checks left out, and why."""
    partly = v.partly_checked()
    if not partly:
        return []
    lines = ["", "## Unchecked", ""]
    for entry in partly:
        items = ", ".join(f"step {u.number} {md_code(u.what)}" for u in entry.unchecked)
        reasons = "; ".join(sorted({u.why for u in entry.unchecked}))
        lines.append(
            f"- **{entry.scenario.id}** {md_text(entry.scenario.title)}: {items} "
            f"({md_text(reasons)})"
        )
    return lines


def _md_skipped(v: Verification) -> list[str]:
    """The skipped scenarios, grouped by reason."""
    skips = skips_by_reason(v)
    if not skips:
        return []
    lines = ["", "## Skipped", ""]
    for reason, skipped in skips.items():
        ids = ", ".join(e.scenario.id for e in skipped)
        lines.append(f"- {len(skipped)}: {md_text(reason)} ({ids})")
    return lines


def _md_section(heading: str, entries: list[Entry], verification: Verification) -> list[str]:
    if not entries:
        return []
    lines = ["", f"## {heading}", ""]
    for entry in entries:
        scenario = entry.scenario
        lines.append(
            f"- **{scenario.id}** {md_text(scenario.title)} ({md_text(scenario.area or '-')}): "
            f"{md_text(_summary_line(entry))}"
        )
        for m in entry.verdict.mismatches:
            step = _step_text(entry, m.step)
            what = "" if m.what == step else f"{md_code(m.what)} "
            place = checkpoint_place(entry, m.step)
            at = f" ({md_code(place)})" if place else ""
            lines.append(f"  - step {m.number} {md_code(step)}: {what}{md_text(m.describe())}{at}")
        if entry.expectation is not None and entry.expectation.link:
            lines.append(f"  - tracked in <{entry.expectation.link}>")
        lines.append(f"  - rerun: {md_code(verification.rerun_command(scenario))}")
    return lines


FORMATS: dict[str, Callable[[Verification], str]] = {
    "json": render_json,
    "junit": render_junit,
    "tap": render_tap,
    "markdown": render_markdown,
}
if set(FORMATS) | {"text"} != set(REPORT_FORMATS):  # pragma: no cover - a programming error
    raise ImportError("reports.REPORT_FORMATS and reports.formats.FORMATS disagree")


def render(verification: Verification, fmt: str) -> str:
    """The report in one of :data:`FORMATS`."""
    return FORMATS[fmt](verification)
