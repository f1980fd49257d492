"""``benchmarks/engine.py --against REV``: this engine beside the one at a git revision,
each imported from its own tree in a worker process (the worker refuses to run when it
imported the engine from elsewhere)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "engine.py"

pytestmark = pytest.mark.slow  # starts two engine processes and exports a revision


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCHMARK), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_it_times_both_engines_and_gives_their_ratio() -> None:
    done = _run(
        "--against", "HEAD", "--seconds", "0.4", "--rounds", "2", "--profiles", "american-3"
    )
    assert done.returncode == 0, done.stderr
    row = re.search(r"^american-3 +([\d,]+)/s +([\d,]+)/s +(\d\.\d{3}) \(", done.stdout, re.M)
    assert row is not None, done.stdout
    assert all(int(rate.replace(",", "")) > 0 for rate in row.groups()[:2])
    assert "2 alternating rounds" in done.stdout


def test_an_unknown_revision_is_a_clear_error() -> None:
    done = _run("--against", "no-such-revision", "--seconds", "0.2")
    assert done.returncode != 0
    assert "cannot export revision 'no-such-revision'" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_revision_that_looks_like_an_option_is_only_a_name() -> None:
    done = _run("--against=--output=/tmp/fivehundred-against-leak", "--seconds", "0.2")
    assert done.returncode != 0
    assert "cannot export revision '--output=/tmp/fivehundred-against-leak'" in done.stderr
    assert not Path("/tmp/fivehundred-against-leak").exists()
    assert "Traceback" not in done.stderr
