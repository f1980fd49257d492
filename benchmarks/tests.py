"""CPU time of the test suite, as the issue's targets count it: every process included.

Each run is a fresh ``python -m pytest`` (with ``CI`` set, as ``.ci/run`` runs it); its
CPU time is user + system of pytest and of every process it started (adapters, the
runner, Node.js, Chromium), read from ``getrusage(RUSAGE_CHILDREN)``.  A machine shared
with other jobs only ever adds time, so the lowest of ``--runs`` is kept, and the wall
time of that run is shown beside it.

Targets (issue "One scenario model…"): the fast tier (``-m "not slow"``) in at most 20 s
of CPU, the whole suite in at most 90 s.  Figures are reported, never asserted.

The machine's own speed drifts (a fifth within an hour has been seen on the 2-core
machine these figures come from), so a fixed pure-Python loop is timed before and after
the runs and printed beside them: figures taken at different loop times are not
comparable, and a change is best judged against the code before it at the same loop time.

    python benchmarks/tests.py                 # the fast tier, three runs
    python benchmarks/tests.py --all --runs 1  # everything (about ten minutes)
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def one_run(args: list[str]) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, pytest's last line) of one run; exits if it fails."""
    env = {**os.environ, "CI": "true", "NO_MKDOCS_2_WARNING": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as .ci/run: compiled modules are cached
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:randomly", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = done.stdout.strip().splitlines()
    last = lines[-1] if lines else ""
    if done.returncode != 0:
        sys.exit(f"pytest failed ({done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, re.sub(r"\s+in [\d.]+s.*$", "", last)


CALIBRATION = "total = 0\nfor number in range(20_000_000):\n    total += number\n"
"""A fixed workload whose CPU time says how fast the machine is at the moment."""


def calibration() -> float:
    """CPU seconds of :data:`CALIBRATION` in a fresh interpreter."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", CALIBRATION], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="the whole suite, not the fast tier")
    parser.add_argument("--runs", type=int, default=3, help="runs (the lowest CPU is kept)")
    options = parser.parse_args()
    if options.runs < 1:
        parser.error("--runs must be at least 1")
    args = [] if options.all else ["-m", "not slow"]
    tier = "whole suite" if options.all else "fast tier"
    target = 90 if options.all else 20
    loop_before = calibration()
    runs = [one_run(args) for _ in range(options.runs)]
    loop_after = calibration()
    for cpu, wall, last in runs:
        print(f"  {cpu:7.1f} s CPU  {wall:7.1f} s wall  ({last})")
    cpu, wall, last = min(runs)
    verdict = "met" if cpu <= target else "not met"
    print(f"{tier}: {cpu:.1f} s of CPU, lowest of {len(runs)} (target ≤ {target} s: {verdict})")
    print(
        f"(python {sys.version.split()[0]}, {os.cpu_count()} cores; machine speed: the "
        f"calibration loop took {loop_before:.2f} s of CPU before the runs, "
        f"{loop_after:.2f} s after)"
    )


if __name__ == "__main__":
    main()
