"""The fuzzer's proof against the independent JavaScript engine's named misreadings.

For each misreading (all of them, or those named on the command line): fuzz the engine with
it switched on, then check every shrunk scenario: it validates and passes on the reference
(``check_scenario_text``), fails on the engine with the misreading on, and passes on the
engine with no misreading.  Prints one line per misreading and a summary; exit 1 when a
misreading is not found or a scenario does not behave.

    python tests/fuzz/prove_misreadings.py [--deals 48] [--seed 1] [NAME ...]

Run from the repository root (``node`` on the PATH).  Slow: minutes for all 63.
"""

from __future__ import annotations

import argparse
import functools
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fivehundred.fuzz.fuzzer import Settings, external_tester, fuzz
from fivehundred.fuzz.report import check_scenario_text

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = ROOT / "adapters" / "independent-js" / "adapter.js"


def misreadings() -> list[str]:
    done = subprocess.run(
        ["node", str(ADAPTER.parent / "misreadings.js")],
        capture_output=True,
        text=True,
        check=True,
    )
    return [line.strip() for line in done.stdout.splitlines() if line.strip()]


def command(name: str | None) -> str:
    return f"node {ADAPTER}" + (f" --misreading {name}" if name else "")


def verify_passes(folder: Path, name: str | None) -> bool:
    done = subprocess.run(
        [sys.executable, "-m", "fivehundred", "verify", str(folder), "--impl", command(name)],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode == 0


def prove(name: str, deals: int, seed: int) -> tuple[bool, str]:
    cmd = command(name)
    factory = functools.partial(
        external_tester, cmd, timeout=10, startup_timeout=30, profile="australian-4"
    )
    report = fuzz(factory, Settings(seed=seed, deals=deals, command=cmd), name=name)
    if not report.families:
        return False, f"not found in {report.deals} deals"
    problems = []
    with tempfile.TemporaryDirectory() as folder:
        for family in report.families.values():
            if check_scenario_text(family.scenario):
                problems.append(f"{family.filename} is not a valid passing scenario")
            one = Path(folder) / family.filename
            one.write_text(family.scenario, encoding="utf-8")
        if verify_passes(Path(folder), name):
            problems.append("the scenarios pass with the misreading on")
        if not verify_passes(Path(folder), None):
            problems.append("a scenario fails without the misreading")
    sizes = sorted(f.shrunk_actions for f in report.families.values())
    summary = (
        f"{report.disagreeing}/{report.deals} deals, {len(report.families)} families, "
        f"shrunk to {sizes[0]}-{sizes[-1]} actions"
    )
    return not problems, summary + ("; " + "; ".join(problems) if problems else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--deals", type=int, default=48)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    names = options.names or misreadings()
    failed = []
    started = time.monotonic()
    for name in names:
        ok, summary = prove(name, options.deals, options.seed)
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {summary}", flush=True)
        if not ok:
            failed.append(name)
    print(
        f"{len(names) - len(failed)} of {len(names)} misreadings found, shrunk and filed "
        f"in {time.monotonic() - started:.0f} s"
    )
    if failed:
        print("not proven: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
