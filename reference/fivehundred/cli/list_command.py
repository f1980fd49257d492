"""``fivehundred list``: the scenarios a selection picks, as a table or JSON."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from .consoles import out_console
from .params import existing_paths, selection_options

if TYPE_CHECKING:
    from ..scenarios import Scenario
    from ..verify.runner import Selection


@click.command(name="list")
@click.argument("paths", nargs=-1, type=click.Path())
@selection_options
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format."
)
def list_command(paths: tuple[str, ...], selection: Selection, fmt: str) -> None:
    """List scenarios: id, area, title and the rules they cite (filters as for verify)."""
    from ..scenarios import load_corpus
    from .finding import selected

    corpus = load_corpus(existing_paths(paths))
    chosen = selected(corpus, selection, none_with_invalid=False)
    if fmt == "json":
        _print_json(chosen)
    else:
        _print_table(chosen)


def _print_json(chosen: list[Scenario]) -> None:
    rows = [
        {
            "id": s.id,
            "title": s.title,
            "area": s.area,
            "rules": list(s.rules),
            "tags": list(s.tags),
            "profile": s.profile_name,
            "variants": list(s.variants),
            "path": None if s.path is None else str(s.path),
        }
        for s in chosen
    ]
    sys.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")


def _print_table(chosen: list[Scenario]) -> None:
    """A row a scenario; a profile column only when the scenarios are of several."""
    from rich.table import Table
    from rich.text import Text

    from ..safety import clean_text

    table = Table(title=f"{len(chosen)} scenarios", title_justify="left")
    table.add_column("id", style="bold cyan", no_wrap=True)
    table.add_column("area", no_wrap=True)
    table.add_column("title")
    table.add_column("rules", style="dim")
    several = len({s.profile_label for s in chosen}) > 1
    if several:
        table.add_column("profile", style="magenta")
    for s in chosen:
        row = [s.id, s.area, s.title, ", ".join(s.rules)]
        # a scenario's own text, shown as written (never read as rich markup)
        cells = [Text(clean_text(cell)) for cell in row]
        table.add_row(*cells, *([s.profile_label] if several else []))
    out_console().print(table)
