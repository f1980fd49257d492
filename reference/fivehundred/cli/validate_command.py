"""``fivehundred validate``: scenario files and dispute records checked, each problem at
its place."""

from __future__ import annotations

import json
import sys

import click

from .consoles import err_console, out_console, print_diagnostics
from .params import existing_paths


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
    from ..safety import clean_json, clean_text
    from ..scenarios import Corpus, load_corpus
    from ..scenarios.loading.corpus import display_path
    from ..scenarios.loading.disputes import check_disputes, is_record_file

    chosen = existing_paths(paths)
    # a record file given by itself is a dispute record, not a scenario
    scenario_paths = None if chosen is None else [p for p in chosen if not is_record_file(p)]
    corpus = load_corpus(scenario_paths, suite_ids=True) if scenario_paths != [] else Corpus([])
    check = check_disputes(chosen, corpus.scenarios)
    records, dispute_problems = check.records, check.problems
    diagnostics = [*corpus.diagnostics, *dispute_problems]
    unpaired = [str(display_path(folder)) for folder in check.unpaired_folders]
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "files": len(corpus.files),
                    "valid": len(corpus.files) - len(corpus.invalid_files),
                    "dispute_records": records,
                    "dispute_pairs_unchecked": clean_json(unpaired),
                    "diagnostics": clean_json([d.as_json() for d in diagnostics]),
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        print_diagnostics(diagnostics)
        for folder in unpaired:  # said, never passed over in silence
            err_console().print(
                f"note: the paired scenarios of the records in {clean_text(folder)} "
                "were not checked: no scenarios/ folder holds them; give the folder that "
                "holds disputes/ with its scenarios",
                markup=False,
            )
        bad = len(corpus.invalid_files)
        style = "red" if bad or dispute_problems else "green"
        checked = f", {records} dispute records" if records else ""
        out_console().print(
            f"[{style}]validate: {len(corpus.files)} files, {len(corpus.files) - bad} valid, "
            f"{bad} invalid{checked}, {len(diagnostics)} problems[/]"
        )
    if corpus.invalid_files or dispute_problems or not (corpus.files or records):
        if not (corpus.files or records):
            err_console().print("validate: no scenario files found")
        sys.exit(1)
