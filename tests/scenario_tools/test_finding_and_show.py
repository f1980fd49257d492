"""Finding scenarios as a person types them, and ``show``/``list`` output that fits.

Ids are case-insensitive with "did you mean"; ``show`` takes a path; a filter that
matches nothing names the valid values; ``show`` wraps its text at the terminal's
width instead of cropping it; tables written to a pipe are complete without COLUMNS.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner
from fivehundred.cli.consoles import err_console, out_console
from fivehundred.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class _Run:
    returncode: int
    stdout: str
    stderr: str


def _cli(*args: str, columns: int | None = None) -> _Run:
    """``fivehundred ARGS…`` in this process, run from the checkout with its output piped
    (never a terminal), ``COLUMNS`` set only when asked: as a user's shell would run it.

    The consoles are made afresh for the run (they read the width when made) and
    dropped after it, so no other test sees this one's width."""
    env = {"COLUMNS": None if columns is None else str(columns)}
    old = os.getcwd()
    os.chdir(ROOT)
    out_console.cache_clear()
    err_console.cache_clear()
    try:
        result = CliRunner().invoke(main, list(args), env=env)
    finally:
        out_console.cache_clear()
        err_console.cache_clear()
        os.chdir(old)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return _Run(result.exit_code, result.stdout, result.stderr)


def test_ids_are_case_insensitive_and_misses_suggest_ids() -> None:
    assert _cli("verify", "--id", "w8rk").returncode == 0
    missed = _cli("verify", "--id", "W8RL")
    assert missed.returncode == 2 and "did you mean" in missed.stderr and "W8RK" in missed.stderr


def test_show_takes_a_path_and_wraps_the_why_at_80_columns() -> None:
    path = "scenarios/auction/misere-ranks-between-7nt-and-8s.yaml"
    shown = _cli("show", path, columns=80)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines)
    why = shown.stdout[shown.stdout.index("Why") :]
    words = " ".join(line.strip("│ ") for line in why.splitlines()[1:])
    assert "West can no longer bid misère once an eight has been called." in words
    by_id = _cli("show", "2xmb", columns=80).stdout
    assert by_id[by_id.index("Why") :] == why
    assert f"file     {path}" in by_id  # relative to the suite, never absolute


def test_show_numbers_steps_from_one() -> None:
    shown = _cli("show", "2XMB", columns=100)
    steps = shown.stdout[shown.stdout.index("Steps") :].splitlines()
    numbers = [line.strip("│ ").split()[0] for line in steps[2:] if line.strip("│ ")[:1].isdigit()]
    assert numbers[0] == "1" and "0" not in numbers


def test_show_prints_a_check_of_the_leader_or_the_suit_led_alone() -> None:
    shown = _cli("show", "YWWC", columns=120).stdout
    assert "trick: led by N  suit led ♠  N Jkr" in shown
    assert "last_trick: suit led ♠  → won by N" in shown


def test_list_filters_and_json() -> None:
    listed = _cli("list", "--area", "auction", "--format", "json")
    rows = json.loads(listed.stdout)
    assert rows and all(r["area"] == "auction" for r in rows)
    assert {"id", "title", "area", "rules", "tags"} <= set(rows[0])
    by_rule = json.loads(_cli("list", "--rule", "misere-needs-seven", "--format", "json").stdout)
    assert by_rule and all("misere-needs-seven" in r["rules"] for r in by_rule)


def test_a_filter_matching_nothing_lists_the_valid_values() -> None:
    missed = _cli("list", "--area", "auctions")
    assert missed.returncode == 2
    assert "unknown area auctions; valid areas:" in missed.stderr and "auction" in missed.stderr
    missed = _cli("verify", "--rule", "no-such-rule")
    assert missed.returncode == 2 and "valid rules:" in missed.stderr


def test_tables_piped_to_a_file_are_complete_without_columns() -> None:
    listed = _cli("list", "--area", "auction")
    assert listed.returncode == 0
    assert "…" not in listed.stdout  # nothing cropped
    assert "misere-needs-seven" in listed.stdout


def test_the_site_step_tables_count_from_one() -> None:
    from fivehundred.scenarios.loading.corpus import load_corpus
    from fivehundred.site.generator import steps_table

    scenario = next(s for s in load_corpus().scenarios if s.id == "2XMB")
    rows = steps_table(scenario)[2:]
    assert rows[0].startswith("| 1 |")
    assert not any(row.startswith("| 0 |") for row in rows)
