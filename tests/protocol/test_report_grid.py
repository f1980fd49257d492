"""The report's tables are drawn by a fast path that must give exactly what rich's own
``Table`` gives for the same rows: with and without colour, with and without soft
wrapping, and when the table does not fit (then rich draws it)."""

from __future__ import annotations

import io

from fivehundred.reports._grid import Cell, Column, Grid
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

COLUMNS = [
    Column("area"),
    Column("passed", "right", "green"),
    Column("failed", "right", "bold red"),
    Column("total", "right"),
]
TEXTS = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12
) | st.sampled_from(["all", "日本語", "[bold]x[/]", "a\\b", "é", ""])
CELLS: st.SearchStrategy[Cell] = TEXTS | st.tuples(TEXTS, st.sampled_from(["bold", "cyan"]))


def _printed(renderable: object, *, width: int, colour: bool, soft_wrap: bool) -> str:
    console = Console(
        file=io.StringIO(),
        width=width,
        force_terminal=colour,
        color_system="truecolor" if colour else None,
        soft_wrap=soft_wrap,
        emoji=False,
        highlight=False,
    )
    console.print(renderable)
    output = console.file.getvalue()
    assert isinstance(output, str)
    return output


@settings(max_examples=60, deadline=None)
@given(
    title=TEXTS,
    rows=st.lists(st.tuples(CELLS, CELLS, CELLS, CELLS), max_size=6),
    width=st.sampled_from([200, 40, 12]),
    colour=st.booleans(),
    soft_wrap=st.booleans(),
)
def test_the_grid_prints_what_a_rich_table_prints(
    title: str, rows: list[tuple[Cell, ...]], width: int, colour: bool, soft_wrap: bool
) -> None:
    grid = Grid(title, COLUMNS)
    for row in rows:
        grid.add_row(*row)
    options = {"width": width, "colour": colour, "soft_wrap": soft_wrap}
    assert _printed(grid, **options) == _printed(grid.as_table(), **options)


def test_a_fitting_grid_is_not_handed_to_rich() -> None:
    """The fast path is taken for a report's usual tables (else the test above would
    compare rich with itself)."""
    grid = Grid("by area", COLUMNS)
    grid.add_row("deck", "12", ("0", "bold"), "12")
    console = Console(file=io.StringIO(), width=80)
    rendered = list(grid.__rich_console__(console, console.options))
    assert rendered and all(not hasattr(r, "__rich_console__") for r in rendered)
    narrow = Console(file=io.StringIO(), width=10)
    (handed,) = list(grid.__rich_console__(narrow, narrow.options))
    assert hasattr(handed, "__rich_console__")  # too wide: rich shrinks and wraps it
