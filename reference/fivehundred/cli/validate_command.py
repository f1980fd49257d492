"""``fivehundred validate``: scenario files and dispute records checked, each problem at
its place."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from .consoles import err_console, out_console, print_diagnostics
from .params import existing_paths

if TYPE_CHECKING:
    from ..scenarios import Corpus
    from ..scenarios.loading.disputes import DisputeCheck


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format."
)
def validate(paths: tuple[str, ...], fmt: str) -> None:
    """Check scenario files: safe YAML, the JSON Schema, then semantic lint.

    PATHS are files or directories (default: the suite's scenarios).  Every problem
    is reported with file:line:column; one bad file never hides the others.  Files given
    inside the suite are also checked against the ids of the rest of it.  Dispute
    records are checked too, in a folder that holds disputes/ (the suite's scenarios/
    by default), a disputes/ folder or a record file given by itself: their schema,
    the rulings and profiles they name, and that the scenarios each lists (in the
    scenarios/ folder that holds the records) exist, carry its tag and show at least two
    of its answers; records in no scenarios/ folder are named as not paired-checked.
    """
    from ..scenarios import Corpus, load_corpus
    from ..scenarios.loading.disputes import check_disputes, is_record_file

    chosen = existing_paths(paths)
    # a record file given by itself is a dispute record, not a scenario
    scenario_paths = None if chosen is None else [p for p in chosen if not is_record_file(p)]
    corpus = load_corpus(scenario_paths, suite_ids=True) if scenario_paths != [] else Corpus([])
    check = check_disputes(chosen, corpus.scenarios)
    if fmt == "json":
        _print_json(corpus, check)
    else:
        _print_text(corpus, check)
    records = check.records
    if corpus.invalid_files or check.problems or not (corpus.files or records):
        if not (corpus.files or records):
            err_console().print("validate: no scenario files found")
        sys.exit(1)


def _unpaired(check: DisputeCheck) -> list[str]:
    from ..scenarios.loading.corpus import display_path

    return [str(display_path(folder)) for folder in check.unpaired_folders]


def _print_json(corpus: Corpus, check: DisputeCheck) -> None:
    from ..safety import clean_json

    diagnostics = [*corpus.diagnostics, *check.problems]
    click.echo(
        json.dumps(
            {
                "files": len(corpus.files),
                "valid": len(corpus.files) - len(corpus.invalid_files),
                "dispute_records": check.records,
                "dispute_pairs_unchecked": clean_json(_unpaired(check)),
                "diagnostics": clean_json([d.as_json() for d in diagnostics]),
            },
            indent=2,
            ensure_ascii=False,
        )
    )


def _print_text(corpus: Corpus, check: DisputeCheck) -> None:
    from ..safety import clean_text

    diagnostics = [*corpus.diagnostics, *check.problems]
    print_diagnostics(diagnostics)
    for folder in _unpaired(check):  # said, never passed over in silence
        err_console().print(
            f"note: the paired scenarios of the records in {clean_text(folder)} "
            "were not checked: no scenarios/ folder holds them; give the folder that "
            "holds disputes/ with its scenarios",
            markup=False,
        )
    bad = len(corpus.invalid_files)
    style = "red" if bad or check.problems else "green"
    checked = f", {check.records} dispute records" if check.records else ""
    out_console().print(
        f"[{style}]validate: {len(corpus.files)} files, {len(corpus.files) - bad} valid, "
        f"{bad} invalid{checked}, {len(diagnostics)} problems[/]"
    )
