"""An implementation with partial capabilities is checked as far as it goes.

The adapter lists no legal actions, reports no rejection codes and answers only a few
observations.  Every scenario still runs; the report says exactly which checks were
made and which were not, per scenario and per rule, in every format, and never calls
the run conformant.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from fivehundred.resources import validator
from protocol_helpers import adapter, cli_here, corpus, id_options

pytestmark = pytest.mark.slow  # starts processes

SUPPORTED = "phase,to_act,scores,contract"


def _chosen() -> list:  # type: ignore[type-arg]
    return [s for s in corpus() if s.area in ("kitty", "auction")]


def _run(marker: str, fmt: str) -> tuple[int, str]:
    command = adapter("capabilities.py", "australian-4", "no", "no", SUPPORTED, marker=marker)
    run = cli_here("verify", "--impl", command, *id_options(_chosen()), "--format", fmt)
    return run.code, run.stdout


def test_json_states_what_was_and_was_not_checked(marker: str) -> None:
    code, out = _run(marker, "json")
    report = json.loads(out)
    assert [e.message for e in validator("report.schema.json").iter_errors(report)] == []
    assert code == 0  # nothing failed in what was checked …
    coverage = report["coverage"]
    assert coverage["conformant"] is False  # … but that is not conformance
    assert coverage["headline"].startswith("No failures in what was checked, but not everything")
    assert coverage["ran"] == len(_chosen()) and coverage["skipped"] == 0
    assert report["run"]["capabilities"]["observations"] == SUPPORTED.split(",")
    total_unchecked = 0
    for entry in report["scenarios"]:
        assert entry["status"] == "passed"
        whats = {u["what"] for u in entry["unchecked"]}
        assert not whats & set(SUPPORTED.split(","))  # supported keys are always checked
        total_unchecked += len(entry["unchecked"])
        for item in entry["unchecked"]:
            assert item["step_number"] == item["step"] + 1
    assert total_unchecked == coverage["unchecked"] > 0
    reasons = {u["why"] for e in report["scenarios"] for u in e["unchecked"]}
    assert any("legal actions" in r for r in reasons) or any("observation" in r for r in reasons)
    assert any("rejection codes" in r for r in reasons)
    rules = {r["rule"]: r for r in report["rules"]}
    assert "misere-needs-seven" in rules
    assert sum(r["unchecked"] for r in rules.values()) >= coverage["unchecked"]
    assert all(r["failed"] == 0 and r["skipped"] == 0 for r in rules.values())


def test_text_markdown_junit_and_tap_say_it_too(marker: str) -> None:
    _, text = _run(marker, "text")
    assert "UNCHECKED" in text and "by rule" in text
    assert "No failures in what was checked" in text and "Conformant" not in text
    _, markdown = _run(marker, "markdown")
    assert "## By rule" in markdown and "## Unchecked" in markdown
    assert "**No failures in what was checked" in markdown
    _, junit = _run(marker, "junit")
    root = ET.fromstring(junit)
    properties = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert any(name and name.startswith("rule.") for name in properties)
    assert any("checks unchecked" in (o.text or "") for o in root.iter("system-out"))
    _, tap = _run(marker, "tap")
    assert "# by rule:" in tap
    assert re.search(r"^# [0-9A-Z]{4}: \d+ checks unchecked", tap, re.MULTILINE)


def test_a_full_adapter_is_conformant(marker: str) -> None:
    command = adapter("capabilities.py", marker=marker)
    run = cli_here("verify", "--impl", command, "--area", "kitty", "--format", "json")
    assert run.code == 0
    report = run.json()
    assert report["coverage"]["conformant"] is True and report["coverage"]["unchecked"] == 0
    assert report["coverage"]["headline"].startswith("Conformant: all ")


def test_a_mistyped_profile_checks_nothing_and_fails(marker: str) -> None:
    command = adapter("capabilities.py", "australian4", marker=marker)
    run = cli_here("verify", "--impl", command, "--area", "kitty", "--format", "json")
    assert run.code == 1
    headline = run.json()["coverage"]["headline"]
    assert headline.startswith("Nothing was checked: checked 0 of ")
    assert "profile australian-4 is not supported" in headline


def test_skips_for_several_reasons_are_counted_apart(marker: str, tmp_path: Path) -> None:
    """The headline gives the commonest reason its own count, never all the skips."""
    command = adapter("capabilities.py", marker=marker)  # australian-4 only
    others = [s for s in corpus() if s.profile_name == "american-4"][:3]
    mine = [s for s in corpus() if s.profile_name == "australian-4" and not s.variants][:2]
    listed = tmp_path / "skip.yaml"
    listed.write_text(f"{mine[0].id}: {{status: skip, reason: crashes the engine}}\n")
    run = cli_here(
        "verify", "--impl", command, *id_options([*others, *mine]),
        "--expectations", str(listed), "--format", "json",
    )  # fmt: skip
    headline = run.json()["coverage"]["headline"]
    assert "checked 1 of 5 scenarios; 4 skipped (3 because profile american-4" in headline
    assert "; 1 for 1 other reason)" in headline


def test_observation_keys_the_suite_does_not_know_are_warned_about(marker: str) -> None:
    command = adapter(
        "capabilities.py", "australian-4", "yes", "yes", "phase,Phase,to-act", marker=marker
    )
    run = cli_here("verify", "--impl", command, "--area", "kitty", "--format", "json")
    warning = "the adapter's capabilities list observations the suite does not know: Phase, to-act"
    assert warning in run.stderr
    assert any(w.startswith(warning) for w in run.json()["warnings"])
