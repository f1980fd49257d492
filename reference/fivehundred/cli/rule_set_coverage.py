"""``fivehundred coverage --profile P [--variant V]`` and ``--every-rule-set``: the rule
points where a rule set differs from the default, each with the scenarios that check it
(see :mod:`fivehundred.scenarios.derived.rule_points` for how they are found and counted)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from ..engine import PROFILE_NAMES
from ..engine.profile import Profile, get_profile, variants_for
from .consoles import out_console

if TYPE_CHECKING:
    from rich.table import Table

    from ..scenarios import Scenario
    from ..scenarios.derived.rule_points import RulePoint

__all__ = ["every_rule_set", "rule_set", "rule_set_report"]


def rule_set(profile: str, variants: Sequence[str]) -> Profile:
    """The rule set named on the command line, or a usage error naming what is known."""
    if profile not in PROFILE_NAMES:
        raise click.BadParameter(
            f"unknown profile {profile!r}; known: {', '.join(PROFILE_NAMES)}",
            param_hint="--profile",
        )
    try:
        return get_profile(profile, variants)
    except (KeyError, ValueError) as error:
        why = str(error.args[0]) if error.args else str(error)
        raise click.BadParameter(why, param_hint="--variant") from None


def every_rule_set() -> list[Profile]:
    """Every profile, plain and with each toggle that applies to it, one at a time."""
    out = []
    for name in PROFILE_NAMES:
        out.append(get_profile(name))
        out += [get_profile(name, (v.name,)) for v in variants_for(name)]
    return out


def _row_document(row: RulePoint) -> dict[str, Any]:
    return {
        "field": row.name,
        "value": row.value,
        "default": row.default,
        "changed_by": row.changed_by,
        "source": row.source,
        "rulings": list(row.rulings),
        "codes": list(row.codes),
        "scenarios": row.scenarios,
        "must_reject": row.must_reject,
        "action_level": row.action_level,
        "checks_by_level": row.by_level,
    }


def rule_set_report(profiles: Sequence[Profile], scenarios: Sequence[Scenario], fmt: str) -> int:
    """Print the rule points of each rule set; the number of gaps found."""
    from ..scenarios.derived.rule_points import point_coverage, point_problems, scope_scenarios

    documents = []
    gaps = 0
    for profile in profiles:
        rows = point_coverage(profile, scenarios)
        scope = scope_scenarios(profile, scenarios)
        found = point_problems(profile, rows, scope)
        gaps += len(found)
        if fmt == "json":
            documents.append(
                {
                    "rule_set": profile.label,
                    "points": [_row_document(r) for r in rows],
                    "scope": scope,
                    "problems": found,
                }
            )
        else:
            _print_rule_set(profile, rows, scope, found)
    if fmt == "json":
        click.echo(json.dumps({"rule_sets": documents, "gaps": gaps}, indent=2))
    elif len(profiles) > 1:
        out_console().print(f"coverage: {len(profiles)} rule sets, {gaps} gaps")
    return gaps


def _print_rule_set(
    profile: Profile, rows: Sequence[RulePoint], scope: dict[str, list[str]], found: list[str]
) -> None:
    """One rule set's table of points, the scenarios of each, and its gaps."""
    from rich.markup import escape

    from ..scenarios.derived.coverage import LEVELS

    console = out_console()
    console.print(_points_table(profile, rows))
    for r in rows:
        unchecked = [level for level in LEVELS if r.by_level[level] == 0]
        console.print(
            f"  [bold]{r.name}[/]: scenarios {escape(' '.join(r.scenarios) or '—')}; "
            f"must-reject {escape(' '.join(r.must_reject) or '—')}; "
            f"unchecked at {', '.join(unchecked) or 'no level'}"
        )
    for variant, ids in scope.items():
        console.print(f"  toggle {variant}, what it leaves unchanged: {' '.join(ids) or '—'}")
    for problem in found:
        console.print(f"[red]coverage:[/] {escape(problem)}")
    verdict = "no gaps" if not found else f"{len(found)} gaps"
    console.print(f"coverage: {profile.label}, {len(rows)} rule points, {verdict}")


def _points_table(profile: Profile, rows: Sequence[RulePoint]) -> Table:
    """Each point: the default's value and this rule set's, and its checks by level."""
    from rich.markup import escape
    from rich.table import Table

    from ..scenarios.derived.coverage import LEVELS

    table = Table(title=f"Rule points of {profile.label}", title_justify="left")
    for column in ("point", "default → here", "changed by", "scenarios", "must-reject"):
        table.add_column(column)
    for level in LEVELS:
        table.add_column(f"checks: {level}", justify="right")
    for r in rows:
        table.add_row(
            r.name,
            escape(f"{r.default} → {r.value}"),
            r.changed_by or "profile",
            str(len(r.scenarios)),
            str(len(r.must_reject)) if r.prohibition else "—",
            *(str(r.by_level[level]) for level in LEVELS),
        )
    return table
