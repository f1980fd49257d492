"""``benchmarks/tests.py`` counts the CPU of every process a run starts, orphans included.

``getrusage(RUSAGE_CHILDREN)`` only reaches a process's CPU through parents that wait for
it; Chromium's renderers are orphans (its zygote forks twice) and did most of the browser
test's work unseen until the benchmark made itself their subreaper.  The check runs in a
process of its own: a subreaper pytest would collect every orphan of the later tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "tests.py"

PROBE = """
import importlib.util, json, subprocess, sys
spec = importlib.util.spec_from_file_location("suite_benchmark", sys.argv[1])
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
adopted = bench.adopt_orphans() if sys.argv[2] != "plain" else False
burn = "import time\\nt = time.process_time()\\nwhile time.process_time() - t < 0.15: pass"
if sys.argv[2] == "linger":
    burn += "\\ntime.sleep(120)"
before = bench.children_cpu()
# a child that starts a grandchild burning 0.15 s of CPU and ends at once, orphaning it
subprocess.run([sys.executable, "-c",
    f"import subprocess, sys; subprocess.Popen([sys.executable, '-c', {burn!r}])"], check=True)
waited = bench.children_cpu() - before
killed = bench.reap_orphans(grace=3.0 if sys.argv[2] == "linger" else 20.0)
print(json.dumps({"adopted": adopted, "waited": waited,
                  "counted": bench.children_cpu() - before, "killed": killed}))
"""


def _probe(mode: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(BENCHMARK), mode],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_an_orphaned_grandchild_is_counted() -> None:
    found = _probe("adopt")
    assert found["adopted"] is True and found["killed"] == []
    waited, counted = float(found["waited"]), float(found["counted"])  # type: ignore[arg-type]
    assert counted - waited >= 0.12, found


def test_without_adopting_the_orphan_is_lost() -> None:
    """The reason for the subreaper: the same orphan is not counted otherwise."""
    found = _probe("plain")
    counted = float(found["counted"])  # type: ignore[arg-type]
    assert counted < 0.12, found


def test_an_orphan_still_running_after_the_grace_is_killed_and_counted() -> None:
    """Left running, its CPU would land in whichever later run waits for it."""
    found = _probe("linger")
    assert found["adopted"] is True and len(found["killed"]) == 1  # type: ignore[arg-type]
    waited, counted = float(found["waited"]), float(found["counted"])  # type: ignore[arg-type]
    assert counted - waited >= 0.12, found
