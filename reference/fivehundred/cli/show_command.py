"""``fivehundred show``: one scenario found by its id or path, drawn in the terminal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .consoles import out_console, print_diagnostics

if TYPE_CHECKING:
    from ..scenarios import Scenario


def _printable(scenario: Scenario) -> Scenario:
    """The scenario with its free text made safe for a terminal (no escape sequences)."""
    from dataclasses import replace

    from ..safety import clean_text

    return replace(
        scenario,
        title=clean_text(scenario.title),
        assertion=clean_text(scenario.assertion),
        explanation=clean_text(scenario.explanation),
        tags=tuple(clean_text(tag) for tag in scenario.tags),
        area=clean_text(scenario.area),
        path=None if scenario.path is None else Path(clean_text(str(scenario.path))),
    )


def _mentions(path: Path, text: str) -> bool:
    """Whether a file that failed to load mentions ``text`` (only a readable regular file)."""
    from ..safety import FileRefused, read_regular_file

    try:
        return text in read_regular_file(path).decode("utf-8", errors="replace")
    except FileRefused:
        return False


@click.command()
@click.argument("scenario_id")
def show(scenario_id: str) -> None:
    """Show one scenario: hands, steps and the expected results.

    SCENARIO_ID is an id in any case (7qk2) or the path of a scenario file.
    """
    from ..scenarios import load_corpus
    from .finding import find_scenario, unknown_ids_message
    from .show import show as show_scenario

    path = Path(scenario_id)
    corpus = load_corpus([path] if path.suffix in (".yaml", ".yml") and path.exists() else None)
    found = find_scenario(corpus, scenario_id)
    if found is not None:
        show_scenario(_printable(found), out_console())
        return
    for result in corpus.files:
        if result.diagnostics and _mentions(result.path, scenario_id.upper()):
            print_diagnostics(result.diagnostics)
            sys.exit(1)
    raise click.UsageError(unknown_ids_message([scenario_id], corpus))
