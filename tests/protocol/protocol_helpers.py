"""Helpers for the protocol tests: running the CLI and finding stray processes.

:func:`cli` runs ``fivehundred`` as a subprocess with this interpreter, as a user or
CI would, so the tests of process faults, signals and pipes exercise the real thing.
:func:`cli_here` runs the same command in this process (click's runner) for tests
about what a run decides — expectations files, report formats — where the adapter is
still a real process but a second interpreter and corpus load for the runner (a cost
paid per command) would prove nothing more.  Stray processes are found through
``/proc`` and ``os.waitpid`` — no psutil.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from fivehundred.cli import main
from fivehundred.scenarios import Scenario
from fivehundred.scenarios.loading.corpus import load_corpus
from fivehundred.verify.runner import ReferenceImplementation, run_scenarios
from fivehundred.verify.verdict import Status

PYTHON = sys.executable
HERE = Path(__file__).resolve().parent
ADAPTERS = HERE / "adapters"
ROOT = HERE.parents[1]


def serve_command(marker: str, *extra: str) -> str:
    """``fivehundred serve`` under this interpreter; ``-X`` carries the marker harmlessly."""
    return shlex.join([PYTHON, "-X", f"marker={marker}", "-m", "fivehundred", "serve", *extra])


@dataclass
class CliRun:
    code: int
    stdout: str
    stderr: str

    def json(self) -> dict[str, Any]:
        report: dict[str, Any] = json.loads(self.stdout)
        return report


def cli(*args: str, cwd: Path | None = None, timeout: float = 600) -> CliRun:
    """``fivehundred ARGS…`` in a subprocess; a hung runner fails the test, not CI."""
    done = subprocess.run(
        [PYTHON, "-m", "fivehundred", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
        check=False,
    )
    return CliRun(done.returncode, done.stdout, done.stderr)


def cli_here(*args: str) -> CliRun:
    """``fivehundred ARGS…`` in this process; an exception escaping the command is raised
    again, so a crash fails the test with its traceback rather than as an exit code."""
    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return CliRun(result.exit_code, result.stdout, result.stderr)


def new_marker() -> str:
    return f"fivehundred-test-{uuid.uuid4().hex}"


def adapter(name: str, *args: str, marker: str) -> str:
    """The ``--impl`` command for one of the broken adapters in ``adapters/``."""
    return shlex.join([PYTHON, str(ADAPTERS / name), *args, "--marker", marker])


def processes_with(marker: str) -> list[str]:
    """Live processes whose command line carries ``marker`` (zombies have none)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in command:
            words = command.replace(b"\0", b" ").decode(errors="replace")
            found.append(f"{entry.name}: {words}")
    return found


def assert_no_process_left(marker: str) -> None:
    """No process of the run survives it (a SIGKILLed process may take a moment to go)."""
    deadline = time.monotonic() + 10
    while (left := processes_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"processes outlived the run: {left}"


def assert_no_children() -> None:
    """This process has no child left, running or zombie.

    ``waitpid(-1, WNOHANG)`` raises ChildProcessError when there is no child at all;
    it returns a pid when it just reaped a zombie, and 0 when a child still runs.
    """
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return
    raise AssertionError(
        f"a child process was left behind ({'a zombie' if pid else 'still running'})"
    )


@cache
def corpus() -> tuple[Scenario, ...]:
    return tuple(load_corpus().scenarios)


@cache
def passing() -> tuple[Scenario, ...]:
    """Default-profile scenarios the reference passes in-process (the faults' control
    group: the fault adapters declare the default profile only)."""
    default = [s for s in corpus() if s.profile_label == "australian-4"]
    summary = run_scenarios(default, ReferenceImplementation())
    return tuple(r.scenario for r in summary.reports if r.status is Status.PASSED)


def sample(count: int, *, areas: int = 1) -> list[Scenario]:
    """``count`` passing scenarios drawn from at least ``areas`` areas, deterministically."""
    by_area: dict[str, list[Scenario]] = {}
    for scenario in passing():
        by_area.setdefault(scenario.area, []).append(scenario)
    assert len(by_area) >= areas, "the corpus has too few areas for this test"
    chosen: list[Scenario] = []
    while len(chosen) < count:
        before = len(chosen)
        for group in by_area.values():
            taken = sum(1 for s in chosen if s in group)
            if taken < len(group) and len(chosen) < count:
                chosen.append(group[taken])
        assert len(chosen) > before, "the corpus has too few passing scenarios"
    return chosen


def id_options(scenarios: list[Scenario]) -> list[str]:
    options = []
    for scenario in scenarios:
        options += ["--id", scenario.id]
    return options


def by_id(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {entry["id"]: entry for entry in report["scenarios"]}
