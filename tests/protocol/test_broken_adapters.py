"""Deliberately broken adapters: the runner survives each, says what happened, and cleans up.

Every test runs ``fivehundred verify`` against one adapter from ``adapters/``, a real
process that injects one fault into otherwise correct answers (the runner itself runs
in this process: the faults are the adapter's, and the signal tests in
``tests/hostile/test_adapters.py`` cover the runner as a process).  The run must
finish, classify each scenario (errored for the faulty ones, passed for the rest)
or report a broken adapter (exit status 3), and leave no process behind: the
``marker`` fixture fails the test if any adapter or grandchild is still running.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from fivehundred.verify._process import STDERR_TAIL_BYTES
from protocol_helpers import adapter, by_id, cli_here, id_options, sample

pytestmark = pytest.mark.slow  # starts processes or builds the site


def _verify(command: str, *options: str, count: int = 3) -> tuple[int, dict[str, Any], list[str]]:
    chosen = sample(count)
    run = cli_here("verify", "--impl", command, *id_options(chosen), "--format", "json", *options)
    assert "Traceback" not in run.stderr, run.stderr
    return run.code, run.json(), [s.id for s in chosen]


def _statuses(report: dict[str, Any], ids: list[str]) -> list[str]:
    entries = by_id(report)
    return [entries[i]["status"] for i in ids]


def test_crash_at_start_is_a_broken_adapter(marker: str) -> None:
    code, report, ids = _verify(adapter("crash_at_start.py", marker=marker))
    assert code == 3
    assert _statuses(report, ids) == ["errored"] * 3
    broken = report["broken_adapter"]
    assert "handshake failed" in broken["reason"]
    assert "exited with status 3" in broken["reason"]
    assert "cannot find my engine" in broken["stderr"]
    assert all("not run" in e["message"] for e in report["scenarios"])


def test_crash_mid_run_errors_that_scenario_and_restarts(marker: str) -> None:
    code, report, ids = _verify(adapter("crash_mid_run.py", "1", marker=marker))
    assert code == 1
    assert report["broken_adapter"] is None
    assert _statuses(report, ids) == ["passed", "errored", "passed"]
    crashed = by_id(report)[ids[1]]
    assert "exited with status 70 without replying" in crashed["message"]
    assert "will be restarted" in crashed["message"]
    assert "crashing on run 2" in crashed["stderr"]


def test_a_hang_times_out_and_the_whole_group_is_killed(marker: str) -> None:
    # The hanging adapter starts a sleeping grandchild carrying the marker: the
    # fixture proves it was killed with its parent's process group.
    code, report, ids = _verify(adapter("hang.py", "2", marker=marker), "--timeout", "1")
    assert code == 1
    assert _statuses(report, ids) == ["passed", "errored", "passed"]
    hung = by_id(report)[ids[1]]
    assert "no reply within 1 s" in hung["message"]
    assert "sleeping instead of answering" in hung["stderr"]


def test_a_hang_before_hello_is_a_broken_adapter(marker: str) -> None:
    code, report, _ = _verify(adapter("hang.py", "hello", marker=marker), "--startup-timeout", "1")
    assert code == 3
    assert "no answer to hello within 1 s" in report["broken_adapter"]["reason"]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("not_json.py", "the line is not JSON"),
        ("wrong_seq.py", "the reply has seq "),
        ("off_protocol.py", "not a valid run-reply message: at result.steps"),
        # Whether the exit is noticed while writing the run message or while waiting for
        # the reply depends on timing; either way the message says the adapter exited.
        ("exit_after_hello.py", "exited with status 0"),
        ("huge_line.py", "longer than 16,777,216 bytes"),
    ],
)
def test_every_scenario_errored_is_a_broken_adapter(name: str, says: str, marker: str) -> None:
    code, report, ids = _verify(adapter(name, marker=marker))
    assert code == 3
    assert _statuses(report, ids) == ["errored"] * 3
    assert all(says in e["message"] for e in report["scenarios"]), report["scenarios"]
    assert "all 3 scenarios it was given errored" in report["broken_adapter"]["reason"]


def test_a_stderr_flood_neither_blocks_nor_fails_the_run(marker: str) -> None:
    code, report, ids = _verify(adapter("flood_stderr.py", "4", marker=marker))
    assert code == 0, report
    assert _statuses(report, ids) == ["passed"] * 3


def test_a_bad_hello_names_both_protocol_versions(marker: str) -> None:
    code, report, _ = _verify(adapter("bad_hello.py", marker=marker))
    assert code == 3
    assert "speaks protocol 2; this runner speaks protocol 1" in report["broken_adapter"]["reason"]


def test_a_command_that_does_not_exist_is_a_broken_adapter() -> None:
    code, report, _ = _verify("/nonexistent/adapter --flag")
    assert code == 3
    assert "cannot start '/nonexistent/adapter'" in report["broken_adapter"]["reason"]


def test_one_shot_mode_survives_hangs_too(marker: str) -> None:
    code, report, ids = _verify(
        adapter("hang.py", "1", marker=marker), "--one-shot", "--timeout", "1", count=2
    )
    assert code == 3
    assert _statuses(report, ids) == ["errored"] * 2
    assert report["run"]["mode"] == "one-shot"


def test_the_text_report_says_broken_adapter_in_words(marker: str) -> None:
    chosen = sample(1)
    run = cli_here(
        "verify", "--impl", adapter("crash_at_start.py", marker=marker), *id_options(chosen)
    )
    assert run.code == 3
    assert "BROKEN ADAPTER" in run.stdout
    assert "not a conformance result" in run.stdout
    assert "Traceback" not in run.stdout + run.stderr


def test_stderr_kept_per_scenario_is_bounded(marker: str) -> None:
    _, report, _ = _verify(
        adapter("partial.py", "", "", "", marker=marker), count=1
    )  # control: a clean adapter has no stderr in the report
    assert all(e["stderr"] == "" for e in report["scenarios"])
    code, report, ids = _verify(adapter("crash_mid_run.py", "0", marker=marker), count=1)
    assert code == 3
    assert len(by_id(report)[ids[0]]["stderr"]) <= STDERR_TAIL_BYTES + 100


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (["--impl", "'unbalanced"], "No closing quotation"),
        (["--impl", ""], "command is empty"),
        (["--timeout", "1"], "need --impl"),
        (["--one-shot"], "need --impl"),
        (["--impl", "x", "--timeout", "0"], "--timeout"),
    ],
)
def test_usage_errors_are_clear_and_exit_2(options: list[str], says: str) -> None:
    run = cli_here("verify", *options)
    assert run.code == 2, run
    assert says in run.stderr
    assert "Traceback" not in run.stderr


def test_after_a_timeout_the_numbers_sent_go_on_without_a_gap(tmp_path: Path) -> None:
    """The message planned next is not sent to an adapter that timed out: its number
    goes to the fresh adapter, so the numbers an adapter sees run 1, 2, 3, …"""
    marker = uuid.uuid4().hex
    log = tmp_path / "seqs.log"
    chosen = sample(3)
    run = cli_here(
        "verify", "--impl", adapter("seq_log.py", str(log), marker=marker), "--timeout", "1",
        *id_options(chosen), "--format", "json",
    )  # fmt: skip
    statuses = [s["status"] for s in run.json()["scenarios"]]
    assert statuses == ["errored", "passed", "passed"], run.stdout
    assert log.read_text().split() == ["start", "1", "start", "2", "3"]


def test_an_adapter_that_reports_every_run_errored_is_told_the_protocol_works() -> None:
    chosen = sample(2)
    ids = ",".join(s.id for s in chosen)
    command = adapter("partial.py", "", ids, "", marker=uuid.uuid4().hex)
    run = cli_here("verify", "--impl", command, *id_options(chosen))
    assert run.code == 3
    assert "the protocol works, but the implementation" in run.stdout
    assert "does not speak the protocol" not in run.stdout


def test_a_one_shot_adapter_that_stays_running_is_killed_and_named(marker: str) -> None:
    """Correct answers, but the process outlives its reply: each is killed after the grace
    period, the run still passes, and a warning says what the waiting cost."""
    code, report, ids = _verify(adapter("lingers.py", marker=marker), "--one-shot", count=1)
    assert code == 0
    assert _statuses(report, ids) == ["passed"]
    (warning,) = report["warnings"]  # the handshake's process and the scenario's
    assert warning.startswith("2 of 2 one-shot adapter processes were still running 2 s")
    assert "cost this run 4 s" in warning
