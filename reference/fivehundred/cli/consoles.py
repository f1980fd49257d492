"""The consoles the command line prints to, made on first use.

Creating them lazily keeps ``import fivehundred.cli`` from importing rich, which
matters for ``fivehundred serve --one-shot``: it starts once per scenario.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from ..scenarios import Diagnostic

__all__ = ["err_console", "out_console", "print_diagnostics"]


@cache
def out_console() -> Console:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


@cache
def err_console() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def print_diagnostics(diagnostics: Sequence[Diagnostic], console: Console | None = None) -> None:
    """One line per problem, ``file:line:column: path: message [kind]``."""
    from rich.markup import escape

    from ..safety import clean_text

    for d in diagnostics:
        (console or out_console()).print(
            clean_text(
                f"[bold]{escape(d.file)}:{d.line}:{d.column}[/]: [cyan]{escape(d.path)}[/]: "
                f"{escape(d.message)} [dim]\\[{d.kind}][/]"
            )
        )
