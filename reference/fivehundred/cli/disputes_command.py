"""``fivehundred disputes``: the dispute records, their answers and their paired scenarios.

Without an id: one row per record (id, status, title, each answer with the profiles that
take it, how many paired scenarios), flagging records whose listed scenarios show fewer
than two answers, have a problem (an unknown id, a profile no answer lists, a missing
tag) or still carry the placeholders of ``fivehundred new --dispute``.  With an id: the
whole record, with each paired scenario under the answer it shows.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from ..safety import clean_json, clean_text, one_line
from ..scenarios.format.diagnostics import did_you_mean
from .consoles import err_console, out_console, print_diagnostics

if TYPE_CHECKING:
    from ..scenarios import Scenario
    from ..scenarios.loading.disputes import Dispute


def _line(text: str) -> str:
    """A record's text on one line, escaped for the terminal and for rich's markup: a
    record arrives in a pull request, and its title is anyone's text."""
    from rich.markup import escape

    return escape(one_line(text))


def _lines(text: str) -> str:
    """:func:`_line` keeping the text's own lines (the notes)."""
    from rich.markup import escape

    return escape(clean_text(text))


def _flags(record: Dispute, scenarios: list[Scenario]) -> list[str]:
    from ..scenarios.loading.disputes import (
        PAIRED_MINIMUM,
        carried_answers,
        is_paired,
        pair_problems,
    )
    from .scaffold_dispute import PLACEHOLDER

    flags: list[str] = []
    if not is_paired(record, scenarios):
        carried = len(carried_answers(record))
        why = "" if carried >= PAIRED_MINIMUM else f" (profiles carry {carried} of its answers)"
        flags.append(f"fewer than {PAIRED_MINIMUM} paired scenarios{why}")
    flags += pair_problems(record, scenarios)
    texts = [record.question, record.notes, *(a.summary for a in record.answers)]
    texts += [str(s.get("title", "")) for a in record.answers for s in a.sources]
    if any(PLACEHOLDER in text for text in texts):
        flags.append("placeholders of `fivehundred new --dispute` left to fill")
    return flags


def _as_json(record: Dispute, scenarios: list[Scenario], full: bool) -> dict[str, Any]:
    from ..scenarios.loading.disputes import paired_by_answer

    by_id = {s.id: s for s in scenarios}
    shown = paired_by_answer(record, by_id)
    answers: list[dict[str, Any]] = []
    for answer in record.answers:
        entry: dict[str, Any] = {
            "id": answer.id,
            "profiles": list(answer.profiles),
            "scenarios": [s.id for s in shown[answer.id]],
        }
        if full:
            entry["summary"] = answer.summary
            entry["sources"] = [dict(s) for s in answer.sources]
        answers.append(entry)
    out: dict[str, Any] = {
        "id": record.id,
        "status": record.status,
        "title": record.title,
        "answers": answers,
        "scenarios": list(record.scenarios),
        "paired": len(record.scenarios),
        "flags": _flags(record, scenarios),
    }
    if full:
        out["question"] = record.question
        out["rulings"] = list(record.rulings)
        out["notes"] = record.notes
        out["path"] = None if record.path is None else str(record.path)
    return out


@click.command()
@click.argument("dispute_id", required=False)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format."
)
def disputes(dispute_id: str | None, fmt: str) -> None:
    """List the dispute records: status, answers and their profiles, paired scenarios.

    Records whose paired scenarios show fewer than two answers, or have a problem, are
    flagged.  DISPUTE_ID shows one record in full, with the scenarios of each answer.
    """
    from ..scenarios import load_corpus
    from ..scenarios.loading.disputes import load_disputes

    corpus = load_corpus()
    found = load_disputes()
    print_diagnostics(found.diagnostics, err_console())
    scenarios = corpus.scenarios
    if dispute_id is not None:
        record = found.by_id().get(dispute_id.strip().lower())
        if record is None:
            hint = did_you_mean(dispute_id.lower(), found.by_id())
            raise click.UsageError(
                f"no dispute {dispute_id!r}{hint} (`fivehundred disputes` lists them)"
            )
        document = _as_json(record, scenarios, full=True)
        if fmt == "json":
            _write_json(document)
        else:
            _show(record, document, scenarios)
        return
    rows = [_as_json(r, scenarios, full=False) for r in found.records]
    if fmt == "json":
        _write_json(rows)
    else:
        _print_list(rows)


def _write_json(document: Any) -> None:
    sys.stdout.write(json.dumps(clean_json(document), indent=2, ensure_ascii=False) + "\n")


def _print_list(rows: list[dict[str, Any]]) -> None:
    """A row a record, then the flagged records with why, then the counts."""
    from rich.table import Table

    table = Table(title=f"{len(rows)} disputes", title_justify="left")
    table.add_column("id", style="bold cyan", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("title")
    table.add_column("answers: profiles")
    table.add_column("paired", justify="right")
    for row in rows:
        answers = "\n".join(
            f"{a['id']}: {', '.join(a['profiles']) or '(no profile)'}" for a in row["answers"]
        )
        paired = str(row["paired"])
        if row["flags"]:
            paired = f"[red]{paired} ![/]"
        table.add_row(
            _line(row["id"]), _line(row["status"]), _line(row["title"]), _lines(answers), paired
        )
    console = out_console()
    console.print(table)
    flagged = [row for row in rows if row["flags"]]
    for row in flagged:
        console.print(f"[red]{_line(row['id'])}[/]: {_line('; '.join(row['flags']))}")
    paired_count = sum(1 for row in rows if not row["flags"])
    console.print(
        f"disputes: {len(rows)} records, {paired_count} paired, {len(flagged)} flagged "
        "(`fivehundred disputes ID` shows one)"
    )


def _show(record: Dispute, document: dict[str, Any], scenarios: list[Scenario]) -> None:
    by_id = {s.id: s for s in scenarios}
    console = out_console()
    console.print(f"[bold]{_line(record.title)}[/] ({_line(record.id)}, {_line(record.status)})")
    console.print(_line(record.question))
    if record.rulings:
        console.print(f"rulings: {_line(', '.join(record.rulings))}")
    for answer in document["answers"]:
        _show_answer(answer, by_id)
    unknown = [i for i in record.scenarios if i not in by_id]
    if unknown:
        console.print(f"\n[red]listed but missing:[/] {_line(', '.join(unknown))}")
    if record.notes.strip():
        console.print("\n[bold]notes[/]")
        console.print(_lines(record.notes.strip()))
    for flag in document["flags"]:
        console.print(f"[red]flag:[/] {_line(flag)}")


def _show_answer(answer: dict[str, Any], by_id: dict[str, Scenario]) -> None:
    """One answer: its profiles, summary, sources and the scenarios that show it."""
    console = out_console()
    profiles = ", ".join(answer["profiles"]) or "no profile"
    console.print(f"\n[bold cyan]{_line(answer['id'])}[/] — {_line(profiles)}")
    console.print(f"  {_line(answer['summary'])}")
    for source in answer["sources"]:
        where = source.get("seed") or source.get("title", "")
        detail = source.get("section") or source.get("url", "")
        console.print(f"  [dim]source:[/] {_line(where)}, {_line(detail)}")
    for scenario_id in answer["scenarios"]:
        scenario = by_id[scenario_id]
        console.print(
            f"  [green]scenario[/] {_line(scenario_id)} ({_line(scenario.profile_label)}): "
            f"{_line(scenario.title)}"
        )
