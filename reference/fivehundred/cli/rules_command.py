"""``fivehundred rules``: the rule anchors scenarios may cite."""

from __future__ import annotations

import click

from .consoles import out_console


@click.command()
def rules() -> None:
    """List the rule anchors scenarios may cite."""
    from rich.table import Table

    from ..scenarios.format.rulings import EXTRA_ANCHORS, RULINGS

    table = Table(title="Rule anchors", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("anchor", style="cyan")
    table.add_column("title")
    for ruling in RULINGS:
        table.add_row(str(ruling.number), ruling.slug, ruling.title)
    for slug, title in EXTRA_ANCHORS.items():
        table.add_row("", slug, title)
    out_console().print(table)
