"""The nightly fuzz matrix merges exactly as one run: the workflow's own two steps, run as it
runs them (each shard a shell of its own in a folder of its own, as on separate machines,
then the merge over the shards' reports), report what one unsharded run of the same deals
reports, and write the same shrunk scenarios.

The implementation is the independent engine with a named misreading switched on, so there
is something to find and merge; the reference behind ``serve`` finds nothing
(``tests/fuzz/test_fuzz_adapters.py``), which would make the comparison empty.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ci_scripts import ROOT, step_named, workflows

pytestmark = pytest.mark.slow  # node and fivehundred processes, shrinking

FUZZ = workflows()["fuzz.yml"]
SHARD_STEP = step_named(FUZZ, "Fuzz one shard")["run"]
MERGE_STEP = step_named(FUZZ, "Merge the shards")["run"]
SHARDS = int(FUZZ["env"]["SHARDS"])
IMPL = f"node {ROOT / 'adapters' / 'independent-js' / 'adapter.js'} --misreading misere-by-value"
DEALS, SEED = "12", "5"  # seed 5 finds two families of this misreading in 12 deals


def _bash(script: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """A step's script as the runner runs it: bash -e, the job's environment, the
    installed ``fivehundred`` on the path."""
    environment = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "SHARDS": str(SHARDS),
        "DEALS": DEALS,
        "SEED": SEED,
        **env,
    }
    return subprocess.run(
        ["bash", "-e", "-c", script],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _comparable(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in ("seconds", "jobs", "shards")}


def test_shards_run_apart_then_merged_report_what_one_run_reports(tmp_path: Path) -> None:
    assert "--shard" in SHARD_STEP and "fuzz merge" in MERGE_STEP
    merge_dir = tmp_path / "merge"
    (merge_dir / "shards").mkdir(parents=True)
    for shard in range(1, SHARDS + 1):
        machine = tmp_path / f"shard-{shard}"
        machine.mkdir()
        done = _bash(SHARD_STEP, machine, IMPL=IMPL, PROFILE="australian-4", SHARD=str(shard))
        assert done.returncode == 0, done.stdout + done.stderr
        report = machine / f"shard-{shard}.json"
        assert json.loads(report.read_text())["shards"]  # a shard's report, not a whole run
        shutil.copy(report, merge_dir / "shards")  # what download-artifact gathers

    summary, output = tmp_path / "summary.md", tmp_path / "output"
    merged = _bash(
        MERGE_STEP, merge_dir, GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output)
    )
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert output.read_text().strip() == "status=1"  # a finding: the job's last step fails
    assert "families" in summary.read_text() or "disagreed" in summary.read_text()

    alone = tmp_path / "alone"
    alone.mkdir()
    one = _bash(
        'fivehundred fuzz --impl "$IMPL" --profile australian-4 --seed "$SEED" '
        '--deals "$DEALS" --no-progress --format json -o one.json --out found',
        alone,
        IMPL=IMPL,
    )
    assert one.returncode == 1, one.stdout + one.stderr
    whole = json.loads((alone / "one.json").read_text())
    combined = json.loads((merge_dir / "fuzz-report.json").read_text())
    assert whole["families"], "the unsharded run found nothing to compare"
    assert _comparable(combined) == _comparable(whole)

    def scenarios(folder: Path) -> dict[str, str]:
        return {p.name: p.read_text() for p in sorted(folder.glob("*.yaml"))}

    assert scenarios(merge_dir / "found") == scenarios(alone / "found") != {}
