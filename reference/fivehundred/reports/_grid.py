"""The report's tables: drawn exactly as rich's default ``Table`` draws them, for less.

``verify`` prints three tables of about 120 rows in all, and rich measures and lays out
every cell of a ``Table`` as a general renderable, which was most of the time the report
took.  A :class:`Grid` holds only single-line text cells, so its layout is a
column width each; it yields the very segments rich's ``Table`` would (a test compares
the two, with and without colour) and hands the table to rich whenever it does not fit
the console, where rich's shrinking and wrapping are wanted.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

__all__ = ["Cell", "Column", "Grid"]


@dataclass(frozen=True)
class Column:
    name: str
    justify: Literal["left", "right"] = "left"
    style: str | None = None


Cell = str | tuple[str, str]
"""Plain text (never markup), or text with a style of its own."""


def _simple(text: str) -> bool:
    """Text that rich lays out as it is: printable, no space at either end or doubled
    (rich's wrapping treats those specially; such a table is left to rich)."""
    return text.isprintable() and text == text.strip() and "  " not in text


class Grid:
    """A titled table of one-line text cells."""

    def __init__(self, title: str, columns: list[Column]) -> None:
        self.title = title
        self.columns = columns
        self.rows: list[tuple[Cell, ...]] = []

    def add_row(self, *cells: Cell) -> None:
        if len(cells) != len(self.columns):
            raise ValueError(f"{len(self.columns)} cells expected, found {len(cells)}")
        self.rows.append(cells)

    def as_table(self) -> Table:
        """The same table as a rich ``Table``."""
        table = Table(title=Text(self.title, style="table.title"), title_justify="left")
        for column in self.columns:
            table.add_column(column.name, justify=column.justify, style=column.style)
        for row in self.rows:
            table.add_row(*(Text(c) if isinstance(c, str) else Text(c[0], style=c[1]) for c in row))
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        texts = [[c if isinstance(c, str) else c[0] for c in row] for row in self.rows]
        widths = [
            max([cell_len(column.name), *(cell_len(row[i]) for row in texts)])
            for i, column in enumerate(self.columns)
        ]
        total = sum(widths) + 3 * len(widths) + 1
        simple = all(map(_simple, (self.title, *(t for row in texts for t in row))))
        if total > options.max_width or cell_len(self.title) > total or not simple:
            yield self.as_table()
            return
        yield from self._lines(console, widths, texts, bool(options.no_wrap))

    def _lines(
        self, console: Console, widths: list[int], texts: list[list[str]], no_wrap: bool
    ) -> Iterator[Segment]:
        new_line = Segment.line()
        header = console.get_style("table.header")
        styles = [console.get_style(c.style) if c.style else None for c in self.columns]
        title = self.title
        if title:
            if not no_wrap:  # as rich justifies a title: padded to the table's width
                title += " " * (sum(widths) + 3 * len(widths) + 1 - cell_len(title))
            yield Segment(title, console.get_style("table.title"))
            yield new_line
        yield Segment("┏" + "┳".join("━" * (w + 2) for w in widths) + "┓")
        yield new_line
        names = [c.name for c in self.columns]
        yield from self._row("┃", names, widths, [header] * len(widths), [None] * len(widths))
        yield Segment("┡" + "╇".join("━" * (w + 2) for w in widths) + "┩")
        yield new_line
        for row, text in zip(self.rows, texts, strict=True):
            own = [None if isinstance(c, str) else console.get_style(c[1]) for c in row]
            yield from self._row("│", text, widths, styles, own)
        yield Segment("└" + "┴".join("─" * (w + 2) for w in widths) + "┘")
        yield new_line

    def _row(
        self,
        edge: str,
        texts: list[str],
        widths: list[int],
        styles: list[Style | None],
        own: list[Style | None],
    ) -> Iterator[Segment]:
        for text, width, column, style, cell in zip(
            texts, widths, self.columns, styles, own, strict=True
        ):
            yield Segment(edge)
            gap = " " * (width - cell_len(text))
            shown = gap + text if column.justify == "right" else text + gap
            yield Segment(" ", style)
            yield Segment(shown, style if cell is None else (style or Style()) + cell)
            yield Segment(" ", style)
        yield Segment(edge)
        yield Segment.line()
