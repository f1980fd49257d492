"""The consoles the command line prints to, made on first use.

Creating them lazily keeps ``import fivehundred.cli`` from importing rich, which
matters for ``fivehundred serve --one-shot``: it starts once per scenario.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from ..scenarios import Diagnostic

__all__ = ["err_console", "out_console", "print_diagnostics", "progress_bar"]


# Neither console highlights or turns ``:name:`` into emoji: both would rewrite text that
# comes from scenarios and adapters (a title with ``:x:`` printed as a cross), and
# ``escape`` does not protect it from either.

PIPED_WIDTH = 200
"""Width used when output goes to a file or a pipe and COLUMNS is not set: tables
come out complete instead of cropped to rich's default of 80 columns."""


def _width(stderr: bool) -> int | None:
    stream = sys.stderr if stderr else sys.stdout
    if os.environ.get("COLUMNS") or (hasattr(stream, "isatty") and stream.isatty()):
        return None  # rich asks the terminal, or reads COLUMNS
    return PIPED_WIDTH


@cache
def out_console() -> Console:
    from rich.console import Console

    return Console(highlight=False, emoji=False, soft_wrap=True, width=_width(False))


@cache
def err_console() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False, emoji=False, soft_wrap=True, width=_width(True))


def print_diagnostics(diagnostics: Sequence[Diagnostic], console: Console | None = None) -> None:
    """One line per problem, ``file:line:column: path: message [kind]``."""
    from rich.markup import escape

    from ..safety import clean_name, clean_text, one_line

    for d in diagnostics:  # a file's name stays on its line, whatever it holds
        (console or out_console()).print(
            clean_text(
                f"[bold]{escape(clean_name(d.file))}:{d.line}:{d.column}[/]: "
                f"[cyan]{escape(clean_name(d.path))}[/]: "
                f"{escape(one_line(d.message))} [dim]\\[{d.kind}][/]"
            )
        )


def progress_bar(
    label: str, total: int | None
) -> tuple[Callable[[int, str], None], Callable[[], None]] | None:
    """A progress bar on standard error while a long run goes on (``fuzz``, ``verify
    --impl``), or ``None`` when that is not a terminal: how many are done of ``total``,
    a short tally, and the time.  It returns the function that moves it to ``done`` with
    the tally, and the one that takes it off the screen."""
    console = err_console()
    if not console.is_terminal:
        return None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[found]}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
    task = bar.add_task(label, total=total, found="")
    bar.start()

    def update(done: int, found: str) -> None:
        bar.update(task, completed=done, found=found)

    return update, bar.stop
