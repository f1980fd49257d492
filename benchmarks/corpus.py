"""CPU time to load, check and verify a corpus, as a user's command pays it.

Each figure is the CPU time (user + system) of a fresh ``fivehundred`` process, so
interpreter start-up and imports are included, and each command is run ``--runs``
times with the lowest figure kept (a busy machine only ever adds time):

* ``validate`` and ``verify`` on the bundled corpus;
* ``validate`` and ``verify`` on a generated corpus of ``--generated`` scenarios (the
  bundled ones copied under fresh ids until there are enough), which is how a large
  suite of a user's own would load: cold (``FIVEHUNDRED_CACHE=off``: every file through
  PyYAML and the schema) and warm (a cache of its own, filled by a first run).

Targets (issue "One scenario model…"): the bundled corpus validated and verified in
under 0.5 s of CPU each; 10,000 generated scenarios in under 15 s.  Figures are
reported, never asserted.

    python benchmarks/corpus.py
    python benchmarks/corpus.py --generated 10000 --runs 3
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from fivehundred.resources import scenarios_dir
from fivehundred.scenarios import ID_ALPHABET
from fivehundred.scenarios.loading.corpus import find_files


def cpu_of(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """CPU seconds of one run of ``command`` (its children included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best(command: list[str], cwd: Path, runs: int, env: dict[str, str] | None = None) -> float:
    return min(cpu_of(command, cwd, env) for _ in range(runs))


def generated_suite(folder: Path, count: int) -> Path:
    """A suite folder with ``count`` scenarios: the bundled ones under fresh ids."""
    sources = find_files([scenarios_dir()])
    ids = (
        "".join(p)
        for p in itertools.product(ID_ALPHABET, repeat=4)
        if not "".join(p).isdigit()  # an all-digit id would read as a number
    )
    root = folder / "scenarios"
    for number, (source, new_id) in enumerate(zip(itertools.cycle(sources), ids, strict=False)):
        if number == count:
            break
        text = source.read_text(encoding="utf-8")
        old_id = next(line for line in text.splitlines() if line.startswith("id: "))
        target = root / f"area{number % 20}" / f"{number}-{source.name}"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text.replace(old_id, f"id: {new_id}", 1), encoding="utf-8")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each command (lowest kept)")
    parser.add_argument(
        "--generated", type=int, default=10_000, help="size of the generated suite (0: none)"
    )
    args = parser.parse_args()
    if args.runs < 1 or args.generated < 0:
        parser.error("--runs must be at least 1 and --generated at least 0")
    cli = [sys.executable, "-m", "fivehundred"]
    here = scenarios_dir().parent
    bundled = len(find_files([scenarios_dir()]))
    print(f"bundled corpus: {bundled} scenarios")
    for command in ("validate", "verify"):
        seconds = best([*cli, command], here, args.runs)
        print(f"  {command:<9} {seconds:6.2f} s CPU  ({seconds / bundled * 1000:.2f} ms/scenario)")
    if args.generated == 0:
        print(f"(python {sys.version.split()[0]}, {os.cpu_count()} cores; lowest of the runs)")
        return
    with tempfile.TemporaryDirectory() as temporary:
        suite = generated_suite(Path(temporary), args.generated)
        print(f"generated corpus: {args.generated} scenarios")
        runs = max(1, min(args.runs, 2))
        cold = {**os.environ, "FIVEHUNDRED_CACHE": "off"}
        warm = {**os.environ, "FIVEHUNDRED_CACHE": str(Path(temporary) / "cache")}
        cpu_of([*cli, "--suite", str(suite), "validate"], suite, warm)  # fills the cache
        for state, env in (("cold", cold), ("warm", warm)):
            for command in ("validate", "verify"):
                seconds = best([*cli, "--suite", str(suite), command], suite, runs, env)
                per = seconds / args.generated * 1000
                print(f"  {command:<9} {state} {seconds:6.2f} s CPU  ({per:.2f} ms/scenario)")
        shutil.rmtree(suite / "scenarios", ignore_errors=True)
        shutil.rmtree(Path(temporary) / "cache", ignore_errors=True)
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} cores; lowest of the runs)")


if __name__ == "__main__":
    main()
