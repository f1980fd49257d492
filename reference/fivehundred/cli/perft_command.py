"""``fivehundred perft``: the counts of legal action sequences from the shipped positions."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .fuzz_command import run_perft
from .params import Seconds


@click.command()
@click.option("--impl", "command", help="Check this adapter (it must list legal actions).")
@click.option(
    "--positions",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A positions file (default: the suite's scenarios/perft-positions.json).",
)
@click.option("--depth", type=int, help="Print the reference's count at this depth instead.")
@click.option("--write", is_flag=True, help="Rewrite the file's counts from the reference.")
@click.option("--timeout", type=Seconds(), default=60.0, show_default=True)
@click.option("--startup-timeout", type=Seconds(), default=30.0, show_default=True)
def perft(
    command: str | None,
    positions: Path | None,
    depth: int | None,
    write: bool,
    timeout: float,
    startup_timeout: float,
) -> None:
    """Count legal action sequences from the shipped positions (and check an adapter)."""
    sys.exit(
        run_perft(
            command=command,
            positions=positions,
            depth=depth,
            write=write,
            timeout=timeout,
            startup_timeout=startup_timeout,
        )
    )
