"""Deals per second of ``fivehundred fuzz``: the reference in-process against ``serve``.

Three runs of the same deals (seed, generators, checkpoints after every action):

* ``in-process``: the reference fuzzing itself, no protocol (the baseline);
* ``serve --jobs 1``: one ``fivehundred serve`` adapter process;
* ``serve --jobs 2``: two adapter processes, each run by its own worker.

Each figure is deals per second of wall time, start-up included (a fresh run of the
command's own loop); the protocol's cost is the in-process rate over the one-process
rate.  Nothing is found in any of them (``serve`` is the reference), so no shrinking.

    python benchmarks/fuzz.py [--deals 120]
"""

from __future__ import annotations

import argparse
import functools
import os
import shlex
import sys
import time

from fivehundred.engine import DEFAULT_PROFILE_NAME
from fivehundred.fuzz.fuzzer import Settings, external_tester, fuzz, reference_tester

SERVE = shlex.join([sys.executable, "-m", "fivehundred", "serve"])


def rate(deals: int, jobs: int, in_process: bool) -> tuple[float, float]:
    settings = Settings(seed=2026, deals=deals, command="" if in_process else SERVE)
    factory = (
        reference_tester
        if in_process
        else functools.partial(
            external_tester, SERVE, timeout=30, startup_timeout=60, profile=DEFAULT_PROFILE_NAME
        )
    )
    started = time.perf_counter()
    cpu = _cpu()
    report = fuzz(factory, settings, name="bench", jobs=jobs)  # type: ignore[arg-type]
    wall = time.perf_counter() - started
    assert report.deals == deals and not report.families, report.as_json()
    return deals / wall, _cpu() - cpu


def _cpu() -> float:
    """CPU seconds of this process and of every finished child (adapters, workers)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=120)
    options = parser.parse_args()
    deals = options.deals
    baseline, cpu0 = rate(deals, 1, True)
    print(
        f"in-process reference : {baseline:7.1f} deals/s wall, {deals / cpu0:6.1f} per CPU second"
    )
    one, cpu1 = rate(deals, 1, False)
    print(f"serve, --jobs 1      : {one:7.1f} deals/s wall, {deals / cpu1:6.1f} per CPU second")
    two, _ = rate(deals, 2, False)  # (its adapters are killed, not waited for: no CPU figure)
    print(f"serve, --jobs 2      : {two:7.1f} deals/s wall")
    print(f"protocol cost        : {baseline / one:.2f}x wall, {cpu1 / cpu0:.2f}x CPU (--jobs 1)")
    print(f"--jobs 2 speed-up    : {two / one:.2f}x over --jobs 1 (wall)")


if __name__ == "__main__":
    main()
