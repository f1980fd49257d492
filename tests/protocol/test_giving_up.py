"""An adapter that fails every scenario the same way is given up on: after ten kills in
a row for one cause the runner sends nothing more, and reports a broken adapter (exit 3)
naming the cause, instead of restarting it for every scenario of the suite; on a
terminal it shows its progress meanwhile.  And a mistyped profile in a hello reply gets
"did you mean".

Real adapter processes, so slow; the runner runs in this process, except to show its
progress bar on a (pseudo-)terminal.
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from fivehundred.verify.external import SAME_FAILURE_LIMIT
from protocol_helpers import adapter, cli_here

pytestmark = pytest.mark.slow


def test_a_line_before_every_reply_stops_the_run_early_naming_it(
    marker: str, tmp_path: Path
) -> None:
    log = tmp_path / "starts.log"
    run = cli_here(
        "verify",
        "--impl",
        adapter("logs_to_stdout.py", str(log), marker=marker),
        "--format",
        "json",
    )
    assert run.code == 3, run.stderr
    report = run.json()
    reason = report["broken_adapter"]["reason"]
    assert f"failed {SAME_FAILURE_LIMIT} times in a row in the same way" in reason
    assert "the line is not JSON" in reason and "engine: starting a new game" in reason
    assert "log to standard error" in reason
    assert "BROKEN ADAPTER" in run.stderr and "engine: starting a new game" in run.stderr
    # the handshake's start, then one restart after each of the first kills: no more
    starts = log.read_text().split()
    assert len(starts) == SAME_FAILURE_LIMIT
    statuses = [e["status"] for e in report["scenarios"]]
    assert statuses.count("errored") == len(statuses) > 100
    not_sent = [e for e in report["scenarios"] if e["message"].startswith("not run: ")]
    assert len(not_sent) == len(statuses) - SAME_FAILURE_LIMIT


def test_failures_that_differ_or_are_interrupted_by_a_reply_never_give_up(
    marker: str,
) -> None:
    # crash_mid_run.py crashes on one run only: restarted, and the run goes on to the end
    run = cli_here(
        "verify", "--impl", adapter("crash_mid_run.py", "2", marker=marker), "--format", "json"
    )
    assert run.code == 1 and run.json()["broken_adapter"] is None


def test_a_mistyped_profile_in_the_hello_gets_did_you_mean(marker: str) -> None:
    command = adapter("capabilities.py", "australian4,american-3", marker=marker)
    run = cli_here("verify", "--impl", command, "--id", "7MDY")
    assert "profiles the suite does not know: 'australian4'; did you mean australian-4?" in (
        run.stderr
    )
    assert "american-3" not in run.stderr.split("does not know")[1].split("\n")[0]


def test_declared_starts_are_kept_to_and_a_mistyped_one_gets_did_you_mean(marker: str) -> None:
    command = adapter("skips_some.py", "Deck,auction", "--declare", marker=marker)
    run = cli_here("verify", "--impl", command, "--area", "auction", "--format", "json")
    assert "starts the suite does not know: 'Deck'; did you mean deck?" in run.stderr
    scenarios = run.json()["scenarios"]
    skipped = [e for e in scenarios if e["status"] == "skipped"]
    assert skipped and all("cannot set up a deck start" in e["message"] for e in skipped)
    # the runner sent none of them: the adapter skips an undeclared start with its own words
    assert not any("no deck start" in e["message"] for e in scenarios)


def _stderr_on_a_terminal(*args: str) -> tuple[int, str]:
    """``fivehundred ARGS`` as a process whose standard error is a pseudo-terminal."""
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "fivehundred", *args],
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env={**os.environ, "COLUMNS": "100"},
    )
    os.close(slave)
    out = b""
    try:
        while select.select([master], [], [], 120)[0]:
            chunk = os.read(master, 65536)
            if not chunk:
                break
            out += chunk
    except OSError:  # the other end closed: Linux reports EIO
        pass
    finally:
        os.close(master)
    return process.wait(timeout=120), out.decode(errors="replace")


def test_verify_shows_its_progress_on_a_terminal_only(marker: str, tmp_path: Path) -> None:
    serve = adapter("partial.py", marker=marker)
    report = str(tmp_path / "report.json")
    args = ("verify", "--impl", serve, "--area", "auction", "--format", "json", "-o", report)
    code, shown = _stderr_on_a_terminal(*args)
    assert code == 0
    total = len(json.loads(Path(report).read_text())["scenarios"])
    assert "verify" in shown and f"{total}/{total}" in shown and "━" in shown
    piped = cli_here(*args)
    assert piped.code == 0 and "━" not in piped.stderr
