"""Every ruling is covered, and every prohibition is caught without legal lists or codes."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from fivehundred.cli import main
from fivehundred.scenarios import Scenario, load_corpus, scenario_from_document
from fivehundred.scenarios.derived.coverage import (
    LEVELS,
    MIN_SCENARIOS,
    PROHIBITIONS,
    checks_by_level,
    coverage,
    problems,
)
from fivehundred.scenarios.format.rulings import BY_SLUG

ROOT = Path(__file__).resolve().parents[2]


def test_the_bundled_corpus_covers_every_ruling_at_every_capability_level() -> None:
    rows = coverage(load_corpus().scenarios)
    assert len(rows) == 34
    assert problems(rows) == []
    assert all(len(row.scenarios) >= MIN_SCENARIOS for row in rows)
    assert all(row.must_reject for row in rows if row.prohibition)


def test_every_prohibition_names_a_real_ruling() -> None:
    assert set(PROHIBITIONS) <= set(BY_SLUG)


def _scenario(steps: list[dict[str, object]], rules: list[str]) -> Scenario:
    return scenario_from_document(
        {
            "id": "ZZ33",
            "title": "t",
            "rules": rules,
            "assert": "A fact.",
            "setup": {"start": "deck", "dealer": "W", "deck": "ordered"},
            "steps": steps,
        }
    )


def test_a_ruling_checked_only_by_legal_lists_is_unchecked_without_them() -> None:
    only_legal = _scenario([{"expect": {"legal": ["PASS"]}}], ["follow-suit"])
    counts = checks_by_level(only_legal)
    assert counts == {"all": 1, "no-legal": 0, "no-codes": 1, "neither": 0}
    rows = coverage([only_legal])
    found = problems(rows)
    assert "ruling 19 (follow-suit): unchecked at capability level no-legal" in found
    assert "ruling 19 (follow-suit): a prohibition with no action-level must-reject step" in found
    assert "ruling 19 (follow-suit): 1 scenarios; at least 3 wanted" in found


def test_a_refused_action_counts_its_code_only_where_codes_are_given() -> None:
    refused = _scenario(
        [{"seat": "E", "call": "PASS", "reject": "not-your-turn"}, {"expect": {"to_act": "N"}}],
        ["first-call"],
    )
    assert checks_by_level(refused) == {
        "all": 3,
        "no-legal": 3,
        "no-codes": 2,
        "neither": 2,
    }
    row = next(r for r in coverage([refused]) if r.slug == "first-call")
    assert row.must_reject == ["ZZ33"] and set(row.by_level) == set(LEVELS)


def test_the_coverage_command_prints_every_ruling_and_exits_by_the_gaps(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["coverage", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert [r["number"] for r in document["rulings"]] == list(range(1, 35))
    assert document["problems"] == []
    lone = tmp_path / "area" / "lone.yaml"
    lone.parent.mkdir()
    source = next((ROOT / "scenarios" / "auction").glob("*.yaml"))
    lone.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(main, ["coverage", str(lone.parent)])
    assert result.exit_code == 1
    assert "scenarios; at least 3 wanted" in result.output
