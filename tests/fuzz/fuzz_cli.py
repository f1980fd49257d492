"""Running a ``fivehundred`` subcommand in this process, for tests where a new process is
not the point (the fuzz and perft option checks, small runs): click's runner spares each
test an interpreter start-up and a corpus load.

A crash is not hidden: click's runner catches exceptions, so anything but a normal exit
is raised again here and fails the test with its own traceback.
"""

from __future__ import annotations

import subprocess

from click.testing import CliRunner
from fivehundred.cli import main


def run_in_process(*args: str) -> subprocess.CompletedProcess[str]:
    """``fivehundred ARGS`` with its exit code, stdout and stderr kept apart."""
    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(list(args), result.exit_code, result.stdout, result.stderr)
