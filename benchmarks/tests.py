"""CPU time of the test suite, every process included, orphaned ones too.

Each run is a fresh ``python -m pytest`` (with ``CI`` set, as ``.ci/run`` runs it); its
CPU time is user + system of pytest and of every process it started (adapters, the
runner, Node.js, Chromium), read from ``getrusage(RUSAGE_CHILDREN)``.  That count only
reaches a process's CPU when its parent waits for it, and a process whose parent has
gone is adopted by init and lost to it: Chromium's renderers are such orphans (its
zygote forks twice), and they do most of the browser test's work.  So this script makes
itself the *subreaper* of what it starts (``PR_SET_CHILD_SUBREAPER``): orphans are
adopted by it instead, and it waits for them after each run.  Both figures are printed:
every process, and the part that reached pytest through its own children (what
``time python -m pytest`` reports).  A machine shared with other jobs only ever adds
time, so the lowest of ``--runs`` is kept, and the wall time of that run is shown
beside it.

Targets (issue "One scenario model…"): the fast tier (``-m "not slow"``) in at most 20 s
of CPU, the whole suite in at most 90 s.  Figures are reported, never asserted.

The machine's own speed drifts (a fifth within an hour has been seen on the 2-core
machine these figures come from), so a fixed pure-Python loop is timed before and after
the runs and printed beside them: figures taken at different loop times are not
comparable, and a change is best judged against the code before it at the same loop time.
``--against REV`` does that: it extracts the git revision REV into a temporary folder
(``git archive``), puts that tree's package first on ``PYTHONPATH`` and runs its suite
alternately with the checkout's, then prints the ratio of the lowest figures.  The
extracted tree is warmed first, as a checkout in use is: its modules compiled, its test
modules rewritten by pytest and its scenarios checked into the cache.  Both sides then
leave out the wheel test (``tests/architecture/test_wheel.py``): older revisions let
``PYTHONPATH`` reach the wheel it installs, and failed.

    python benchmarks/tests.py                 # the fast tier, three runs
    python benchmarks/tests.py --all --runs 1  # everything
    python benchmarks/tests.py --all --runs 2 --against HEAD~3  # this code against older
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def environment(tree: Path = ROOT) -> dict[str, str]:
    """The environment of a run: as ``.ci/run`` sets it, and another tree's package first
    on the path."""
    env = {**os.environ, "CI": "true", "NO_MKDOCS_2_WARNING": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as .ci/run: compiled modules are cached
    if tree != ROOT:
        env["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(tree / "reference"), os.environ.get("PYTHONPATH")])
        )
    return env


def children_cpu() -> float:
    """User + system CPU seconds of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


PR_SET_CHILD_SUBREAPER = 36
"""From ``<linux/prctl.h>``."""


def adopt_orphans() -> bool:
    """Make this process the subreaper of its descendants: one whose parent ends is
    re-parented here rather than to init, so its CPU reaches :func:`children_cpu` once
    :func:`reap_orphans` has waited for it.  False where Linux's ``prctl`` is missing."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _children() -> list[int]:
    """Processes whose parent is this one (adopted orphans still running)."""
    mine = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():
            mine.append(int(entry))
    return mine


def reap_orphans(grace: float = 30.0) -> list[int]:
    """Wait for every adopted orphan, giving those still running ``grace`` seconds to end,
    then killing them, so that their CPU is charged to the run that left them rather than
    to a later one; returns the ones killed."""
    deadline = time.monotonic() + grace
    killed: list[int] = []
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return killed
        if pid:
            continue
        if time.monotonic() > deadline:
            for pid in _children():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
            deadline = float("inf")  # and wait for them
        time.sleep(0.05)


Run = tuple[float, float, float, str]
"""CPU seconds of every process, CPU seconds that reached pytest through its own
children, wall seconds and pytest's last line."""


def one_run(args: list[str], tree: Path = ROOT) -> Run:
    """One run of the suite of ``tree``; exits if it fails."""
    env = environment(tree)
    reap_orphans(grace=0)  # what earlier steps left (the warm-up, say) is not this run's
    before = children_cpu()
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:randomly", *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    waited = children_cpu() - before
    killed = reap_orphans()
    if killed:
        print(f"  ({len(killed)} processes still running 30 s after the run were killed)")
    cpu = children_cpu() - before
    lines = done.stdout.strip().splitlines()
    last = lines[-1] if lines else ""
    if done.returncode != 0:
        sys.exit(
            f"pytest failed in {tree} ({done.returncode}):\n"
            f"{done.stdout[-3000:]}{done.stderr[-2000:]}"
        )
    return cpu, waited, wall, re.sub(r"\s+in [\d.]+s.*$", "", last)


CALIBRATION = "total = 0\nfor number in range(20_000_000):\n    total += number\n"
"""A fixed workload whose CPU time says how fast the machine is at the moment."""


def calibration() -> float:
    """CPU seconds of :data:`CALIBRATION` in a fresh interpreter."""
    before = children_cpu()
    subprocess.run([sys.executable, "-c", CALIBRATION], check=True)
    return children_cpu() - before


WHEEL_TEST = "tests/architecture/test_wheel.py"
"""Left out of both sides of ``--against`` (see the module's docstring)."""


def extract(revision: str, into: Path) -> Path:
    """The tree of a git revision of this repository, extracted under ``into``."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision], cwd=ROOT, capture_output=True, check=False
    )
    if archive.returncode != 0:
        sys.exit(f"--against {revision}: {archive.stderr.decode(errors='replace').strip()}")
    tree = into / "tree"
    tree.mkdir()
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    warming = (
        ["compileall", "-q", "."],
        ["pytest", "--collect-only", "-q"],
        ["fivehundred", "validate"],
    )
    for warm in warming:  # pytest's rewritten test modules are cached apart from compileall's
        subprocess.run(
            [sys.executable, "-m", *warm],
            cwd=tree,
            env=environment(tree),
            capture_output=True,
            check=False,
        )
    return tree


def print_runs(runs: list[Run], adopted: bool) -> None:
    for cpu, waited, wall, last in runs:
        orphans = f"{cpu - waited:.1f} s in orphans" if adopted else "orphans not counted"
        print(
            f"  {cpu:7.1f} s CPU ({waited:.1f} s through pytest's own children, {orphans})"
            f"  {wall:7.1f} s wall  ({last})"
        )


def verdict(cpu: float, target: float) -> str:
    return "met" if cpu <= target else "not met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="the whole suite, not the fast tier")
    parser.add_argument("--runs", type=int, default=3, help="runs (the lowest CPU is kept)")
    parser.add_argument(
        "--against",
        metavar="REV",
        help="also run the suite of this git revision, alternately, and print the ratio",
    )
    options = parser.parse_args()
    if options.runs < 1:
        parser.error("--runs must be at least 1")
    args = [] if options.all else ["-m", "not slow"]
    tier = "whole suite" if options.all else "fast tier"
    if options.against and options.all:  # (the fast tier leaves it out anyway: slow)
        args.append(f"--ignore={WHEEL_TEST}")
        tier += f" without {WHEEL_TEST}"
    target = 90 if options.all else 20
    adopted = adopt_orphans()
    if not adopted:
        print("(no PR_SET_CHILD_SUBREAPER here: processes orphaned by the tests are not counted)")
    with tempfile.TemporaryDirectory(prefix="fivehundred-against-") as scratch:
        other = extract(options.against, Path(scratch)) if options.against else None
        loop_before = calibration()
        runs, other_runs = [], []
        for _ in range(options.runs):
            runs.append(one_run(args))
            if other is not None:
                other_runs.append(one_run(args, other))
        loop_after = calibration()
        if other is not None:
            shutil.rmtree(other, ignore_errors=True)  # read-only files a test made, and so on
    print_runs(runs, adopted)
    cpu, waited = min(runs)[:2]
    # The issue's own figure (180 s) was counted as `time` counts, without orphans; the
    # target is judged on both counts, every process first.
    judged = f"{verdict(cpu, target)}; without orphans {waited:.1f} s: {verdict(waited, target)}"
    if options.against and options.all:  # the target is for the whole suite, wheel test included
        judged = "not judged without the wheel test"
    counted = "every process" if adopted else "the processes pytest waited for"
    print(
        f"{tier}: {cpu:.1f} s of CPU in {counted}, lowest of {len(runs)} "
        f"(target ≤ {target} s: {judged})"
    )
    if other_runs:
        print_runs(other_runs, adopted)
        lowest = min(other_runs)[0]
        print(
            f"{options.against}: {lowest:.1f} s of CPU, lowest of {len(other_runs)}, run "
            f"alternately; this checkout takes {cpu / lowest:.2f} of it"
        )
    print(
        f"(python {sys.version.split()[0]}, {os.cpu_count()} cores; machine speed: the "
        f"calibration loop took {loop_before:.2f} s of CPU before the runs, "
        f"{loop_after:.2f} s after)"
    )


if __name__ == "__main__":
    main()
