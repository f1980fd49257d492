"""``fivehundred export``: every scenario as one JSON file, for implementers who skip YAML."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .. import SUITE_VERSION
from .consoles import err_console, print_diagnostics
from .params import OutputFile, existing_paths


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "-o",
    "--output",
    type=OutputFile(),
    help="Write to this file instead of stdout.",
)
def export(paths: tuple[str, ...], output: Path | None) -> None:
    """Write every scenario, with its input and expected results, as one JSON file.

    For implementers who would rather not parse YAML (schema/export.schema.json).
    PATHS default to the suite's scenarios.  Nothing is written if a file is invalid.
    """
    from ..scenarios import load_corpus
    from ..scenarios.derived.export import export_corpus

    corpus = load_corpus(existing_paths(paths))
    if corpus.invalid_files:
        print_diagnostics(corpus.diagnostics, err_console())
        err_console().print(f"export: {len(corpus.invalid_files)} invalid files; nothing written")
        sys.exit(1)
    text = json.dumps(export_corpus(corpus.scenarios), indent=2, ensure_ascii=False) + "\n"
    if output is None:
        sys.stdout.write(text)
    else:
        from ..safety import atomic_write_text

        try:
            atomic_write_text(output, text)  # a failure part-way keeps the previous file
        except OSError as error:
            raise click.FileError(str(output), hint=error.strerror or str(error)) from None
    where = f" to {output}" if output else ""
    err_console().print(
        f"export: {len(corpus.scenarios)} scenarios, suite {SUITE_VERSION}{where}",
        markup=False,
    )
