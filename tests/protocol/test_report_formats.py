"""Every report format, from one run that has every outcome.

JSON must follow ``schema/report.schema.json``; JUnit must parse and count like CI
tools count (expected failures as skipped, a failing unexpected pass as a failure);
TAP must have its plan and directives; Markdown must have the table by area.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from fivehundred import SUITE_VERSION
from fivehundred.reports import formats as reports
from fivehundred.resources import validator
from fivehundred.scenarios import Scenario
from mixed_run import MixedRun, mixed_run
from protocol_helpers import PYTHON, cli_here

pytestmark = pytest.mark.slow  # starts processes or builds the site

Mixed = tuple[MixedRun, list[Scenario]]


@pytest.fixture
def mixed(tmp_path: Path, marker: str) -> Mixed:
    return mixed_run(tmp_path, marker)


def _report(mixed: Mixed, fmt: str, tmp_path: Path) -> str:
    run_, chosen = mixed
    output = tmp_path / f"report.{fmt}"
    run = cli_here(
        *run_.options(chosen),
        "--expectations",
        str(run_.expectations),
        "--format",
        fmt,
        "--output",
        str(output),
    )
    assert run.code == 1  # one failure, one error, one unexpected pass
    assert run.stdout == ""
    assert "verify: 1 passed, 1 failed, 1 errored, 1 skipped" in run.stderr
    return output.read_text(encoding="utf-8")


def test_json_follows_its_schema_and_counts_every_outcome(mixed: Mixed, tmp_path: Path) -> None:
    report = json.loads(_report(mixed, "json", tmp_path))
    errors = [e.message for e in validator("report.schema.json").iter_errors(report)]
    assert errors == []
    assert report["suite"] == {"version": SUITE_VERSION, "protocol": 1}
    assert report["totals"] == {
        "total": 6,
        "passed": 1,
        "failed": 1,
        "errored": 1,
        "skipped": 1,
        "expected_failures": 1,
        "unexpected_passes": 1,
        "changed_failures": 0,
    }
    assert report["ok"] is False and report["exit_code"] == 1
    assert report["coverage"]["headline"].startswith("Not conformant: 3 scenarios fail the run")
    assert report["coverage"]["ran"] == 5 and report["coverage"]["skipped"] == 1
    assert report["coverage"]["checked"] == 4  # the errored one compared nothing
    assert "checked 4 of 6 scenarios" in report["coverage"]["headline"]
    assert report["rules"] and all(r["rule"] for r in report["rules"])
    assert report["run"]["mode"] == "persistent"
    failed = next(e for e in report["scenarios"] if e["outcome"] == "failed")
    first = failed["mismatches"][0]
    assert first["expected"] == "accepted" and first["actual"] == "rejected wrong-phase"
    assert first["step_number"] == first["step"] + 1
    assert re.fullmatch(r"scenarios/[a-z0-9-]+/[a-z0-9-]+\.yaml:\d+", first["at"])
    assert "--impl" in failed["rerun"]
    assert "--timeout" not in failed["rerun"]  # the default is left out


def test_the_rerun_command_keeps_the_timeout_and_leniency(mixed: Mixed) -> None:
    run_, chosen = mixed
    run = cli_here(
        *run_.options(chosen), "--timeout", "7.5", "--lenient-errors", "--format", "json"
    )
    report = json.loads(run.stdout)
    failed = next(e for e in report["scenarios"] if e["outcome"] == "failed")
    assert failed["rerun"].endswith(" --timeout 7.5 --lenient-errors"), failed["rerun"]


def test_junit_parses_with_a_suite_per_area_and_ci_counts(mixed: Mixed, tmp_path: Path) -> None:
    run_, chosen = mixed
    root = ET.fromstring(_report(mixed, "junit", tmp_path))
    assert root.tag == "testsuites"
    assert {k: root.get(k) for k in ("tests", "failures", "errors", "skipped")} == {
        "tests": "6",
        "failures": "2",  # the failure and the unexpected pass
        "errors": "1",
        "skipped": "1",  # the skip alone: an expected failure is a pass with a property
    }
    suites = root.findall("testsuite")
    assert sorted(s.get("name") for s in suites) == sorted({s.area for s in chosen})
    assert sum(int(s.get("tests") or 0) for s in suites) == 6
    cases = {c.get("name", "").split()[0]: c for c in root.iter("testcase")}
    assert cases[run_.failure].find("failure") is not None
    unexpected = cases[run_.unexpected_pass].find("failure")
    assert unexpected is not None and unexpected.get("type") == "unexpected-pass"
    assert cases[run_.error].find("error") is not None
    assert cases[run_.expected_failure].find("skipped") is None
    assert cases[run_.expected_failure].find("failure") is None
    expected = cases[run_.expected_failure].find("properties/property[@name='expected_failure']")
    assert expected is not None and "expected failure: known bug" in str(expected.get("value"))
    assert cases[run_.skip].find("skipped") is not None
    assert list(cases[run_.passing]) == []


def test_tap_has_its_plan_and_directives(mixed: Mixed, tmp_path: Path) -> None:
    run_, _ = mixed
    lines = _report(mixed, "tap", tmp_path).splitlines()
    assert lines[0] == "TAP version 13"
    assert lines[1] == "1..6"
    results = [line for line in lines if re.match(r"(not )?ok \d+ ", line)]
    assert len(results) == 6
    by_id = {line.split(" - ")[1].split()[0]: line for line in results}
    assert by_id[run_.passing].startswith("ok ")
    assert re.search(r"^ok \d+ .* # SKIP no open misère yet$", by_id[run_.skip])
    assert re.search(
        r"^not ok \d+ .* # TODO expected failure: known bug$", by_id[run_.expected_failure]
    )
    for failing in (run_.failure, run_.error, run_.unexpected_pass):
        assert by_id[failing].startswith("not ok ") and "#" not in by_id[failing]
    assert "  ---" in lines and "  ..." in lines
    assert lines[3].startswith("# Not conformant")
    assert "# by rule:" in lines


def test_markdown_has_the_table_by_area_and_the_failures(mixed: Mixed, tmp_path: Path) -> None:
    run_, chosen = mixed
    text = _report(mixed, "markdown", tmp_path)
    assert text.startswith("# Five Hundred conformance: fivehundred-reference")
    assert (
        "| Area | Passed | Failed | Errored | Skipped | Expected failures | Unexpected passes "
        "| Changed failures | Total |" in text
    )
    assert "| **all** | **1** | **1** | **1** | **1** | **1** | **1** | **0** | **6** |" in text
    assert "## By rule" in text and "| Rule | Passed | Failed or errored |" in text
    assert "expected failure: known bug" in text  # expected failures with their reasons
    for area in {s.area for s in chosen}:
        assert f"\n| {area} | " in text
    for heading in ("## Failures", "## Errors", "## Unexpected passes", "## Expected failures"):
        assert heading in text
    assert f"- **{run_.failure}**" in text
    assert "tracked in <https://example.org/1>" in text
    assert "**Not conformant**" in text


def test_text_report_to_a_file_has_no_colour_codes(mixed: Mixed, tmp_path: Path) -> None:
    text = _report(mixed, "text", tmp_path)
    assert "\x1b[" not in text
    assert "FAILED" in text and "UNEXPECTED PASS" in text
    assert "EXPECTED FAIL" in text and "known bug" in text
    assert "by rule" in text and "Not conformant" in text
    assert "step 0 " not in text
    assert "verify: 1 passed, 1 failed, 1 errored, 1 skipped, 1 expected failures" in text


def test_junit_survives_control_characters_in_stderr() -> None:
    assert reports._xml_text("a\x00b\x1b[31mc") == "a\\x00b\\x1b[31mc"
    text = reports._xml_text("bell \x07 done")
    assert ET.fromstring(f"<x>{text}</x>").text == "bell \\x07 done"


def test_a_stop_signal_while_the_report_is_on_stdout_says_it_is_cut_short() -> None:
    """SIGTERM while the JSON report is on its way to a pipe nobody reads yet: the runner
    exits 143 and says the report on standard output is cut short, not that none was
    written (the start of it is already in the pipe)."""
    process = subprocess.Popen(
        [PYTHON, "-m", "fivehundred", "verify", "--format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    first = process.stdout.read(1)  # the report has started; the pipe fills behind it
    time.sleep(0.3)
    process.send_signal(signal.SIGTERM)
    rest, stderr = process.communicate(timeout=60)
    report = first + rest
    assert process.returncode == 128 + signal.SIGTERM, stderr
    assert b"stopped by SIGTERM; the report on standard output is cut short" in stderr
    assert report.startswith(b"{") and not report.rstrip().endswith(b"}")


def test_a_stop_signal_as_the_report_file_is_written_says_it_was_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM the moment the report file has been written (here from inside the write,
    as late as a signal can come): the runner says the report had been written, and the
    file is whole.  Before the write and its record were one step, the stop said no
    report was written."""
    from fivehundred.cli import verify_command

    write = verify_command.atomic_write_text

    def write_then_stop(path: Path, text: str) -> None:
        write(path, text)
        # verify's handler, or the signal would end the test run itself
        assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN, None)
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(verify_command, "atomic_write_text", write_then_stop)
    output = tmp_path / "report.json"
    run = cli_here("verify", "--id", "7MDY", "--format", "json", "-o", str(output))
    assert run.code == 128 + signal.SIGTERM, run.stderr
    assert "stopped by SIGTERM; the report had been written" in run.stderr
    assert json.loads(output.read_text(encoding="utf-8"))["totals"]["passed"] == 1
