"""``fivehundred coverage``: how well the scenarios check each ruling, or each rule point
where a rule set differs from the default profile."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from ..engine import DEFAULT_PROFILE_NAME, VARIANTS
from .consoles import err_console, out_console, print_diagnostics
from .params import existing_paths

if TYPE_CHECKING:
    from ..engine import Profile
    from ..scenarios.derived.coverage import RulingCoverage


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format."
)
@click.option(
    "--profile",
    default=None,
    help="Instead of the rulings: the rule points where this profile differs from the default.",
)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    type=click.Choice(list(VARIANTS)),
    help="A toggle of --profile (repeatable).",
)
@click.option(
    "--every-rule-set",
    is_flag=True,
    help="The rule points of every profile, plain and with each of its toggles.",
)
def coverage(
    paths: tuple[str, ...],
    fmt: str,
    profile: str | None,
    variants: tuple[str, ...],
    every_rule_set: bool,
) -> None:
    """How well the scenarios check each ruling, at each capability level.

    Per ruling: the scenarios citing it, those with an action-level must-reject step
    (for rulings that forbid something), the action steps, and the checks that still
    count for an engine without legal lists, without codes, or with neither.  Exit 1
    when a ruling has fewer than 3 scenarios, a prohibition has no must-reject step,
    or a ruling is unchecked at some level.

    With --profile (and --variant), or --every-rule-set: each rule point where the rule
    set differs from the default profile, with its scenarios, its must-reject steps and
    the capability levels it is unchecked at; exit 1 on the same gaps, or a toggle with
    no scenario tagged `scope` (what it leaves unchanged).
    """
    if every_rule_set and (profile is not None or variants):
        raise click.UsageError("--every-rule-set goes without --profile and --variant")
    if every_rule_set:
        from .rule_set_coverage import every_rule_set as all_sets

        _rule_set_coverage(paths, fmt, all_sets())
    elif profile is not None or variants:
        from .rule_set_coverage import rule_set

        _rule_set_coverage(paths, fmt, [rule_set(profile or DEFAULT_PROFILE_NAME, variants)])
    else:
        _ruling_coverage(paths, fmt)


def _rule_set_coverage(paths: tuple[str, ...], fmt: str, chosen: list[Profile]) -> None:
    """``--profile``, ``--variant``, ``--every-rule-set``: the rule points of rule sets."""
    from ..scenarios import load_corpus
    from .rule_set_coverage import rule_set_report

    corpus = load_corpus(existing_paths(paths))
    print_diagnostics(corpus.diagnostics, err_console())
    if rule_set_report(chosen, corpus.scenarios, fmt) or corpus.invalid_files:
        sys.exit(1)


def _ruling_coverage(paths: tuple[str, ...], fmt: str) -> None:
    """The default: each ruling of the default profile and the scenarios that check it."""
    from ..scenarios import load_corpus
    from ..scenarios.derived.coverage import (
        coverage,
        default_profile_only,
        other_profiles,
        problems,
    )

    corpus = load_corpus(existing_paths(paths))
    print_diagnostics(corpus.diagnostics, err_console())
    rows = coverage(corpus.scenarios)
    found = problems(rows)
    others = other_profiles(corpus.scenarios)
    default_count = len(default_profile_only(corpus.scenarios))
    if fmt == "json":
        document = {
            "rulings": [
                {
                    "number": r.number,
                    "slug": r.slug,
                    "prohibition": r.prohibition,
                    "scenarios": len(r.scenarios),
                    "must_reject": len(r.must_reject),
                    "action_checks": r.action_checks,
                    "checks_by_level": r.by_level,
                }
                for r in rows
            ],
            "problems": found,
            "default_profile_scenarios": default_count,
            "other_profiles": others,
        }
        click.echo(json.dumps(document, indent=2))
    else:
        _print_ruling_coverage(rows, found, others, default_count)
    if found or corpus.invalid_files:
        sys.exit(1)


def _print_ruling_coverage(
    rows: Sequence[RulingCoverage], found: list[str], others: dict[str, int], default_count: int
) -> None:
    """The table by ruling, its gaps, and the scenarios of other rule sets left out."""
    from rich.markup import escape
    from rich.table import Table

    from ..scenarios.derived.coverage import LEVELS

    table = Table(title="Coverage by ruling", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("ruling")
    table.add_column("scenarios", justify="right")
    table.add_column("must-reject", justify="right")
    table.add_column("actions", justify="right")
    for level in LEVELS:
        table.add_column(f"checks: {level}", justify="right")
    for r in rows:
        reject = str(len(r.must_reject)) if r.prohibition else "—"
        table.add_row(
            str(r.number),
            r.slug,
            str(len(r.scenarios)),
            reject,
            str(r.action_checks),
            *(str(r.by_level[level]) for level in LEVELS),
        )
    console = out_console()
    console.print(table)
    for problem in found:
        console.print(f"[red]coverage:[/] {escape(problem)}")
    if others:
        listed = ", ".join(f"{label} {count}" for label, count in others.items())
        console.print(f"other rule sets (their scenarios do not count for the rulings): {listed}")
    verdict = "no gaps" if not found else f"{len(found)} gaps"
    console.print(
        f"coverage: {default_count} scenarios of the default profile, 34 rulings, {verdict}"
    )
