"""Standard streams a user's shell may hand the command: closed, full, or unable to hold
the text.  Each ends in a one-line message or a clean run, never a traceback.

Real processes started through the shell, as a user types them: the redirections are the
point (marked slow).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FIVEHUNDRED = f"{shlex.quote(sys.executable)} -m fivehundred"


def _shell(line: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        f"{FIVEHUNDRED} {line}",
        shell=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("command", ["validate", "show 7MDY", "export"])
def test_output_to_a_full_device_is_one_line_not_a_traceback(command: str) -> None:
    done = _shell(f"{command} > /dev/full")
    assert done.returncode == 2, done.stderr
    assert done.stderr == "fivehundred: cannot go on: No space left on device\n"


def test_a_closed_standard_output_is_said_plainly() -> None:
    done = _shell("export >&-")
    assert done.returncode == 2, done.stderr
    assert done.stderr == "fivehundred: standard output is closed\n"


def test_serve_with_standard_input_closed_reads_nothing_and_ends() -> None:
    done = _shell("serve <&-")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_an_output_encoding_without_the_text_escapes_it() -> None:
    done = _shell("show 7MDY", env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    assert "\\u2014" in done.stdout and "Traceback" not in done.stderr
