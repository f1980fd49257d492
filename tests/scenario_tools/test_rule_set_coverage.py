"""Coverage of the other rule sets: every point where a profile or toggle differs from the
default has its scenarios, an action-level case and checks at every capability level, and
every toggle a scenario for what it leaves unchanged."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import pytest
from click.testing import CliRunner
from fivehundred.cli import main
from fivehundred.cli.rule_set_coverage import every_rule_set
from fivehundred.engine import DEFAULT_PROFILE, PROFILE_NAMES, VARIANTS, get_profile
from fivehundred.engine.rules import COMPONENTS
from fivehundred.scenarios import load_corpus
from fivehundred.scenarios.derived.coverage import PROHIBITIONS
from fivehundred.scenarios.derived.rule_points import (
    POINT_CODES,
    POINT_RULINGS,
    differing_fields,
    point_coverage,
    point_problems,
    rule_fields,
    scope_scenarios,
)
from fivehundred.scenarios.format.rulings import BY_SLUG

Write = Callable[[str, str], Path]


def test_every_rule_set_of_the_bundled_corpus_passes_coverage() -> None:
    """The check CI runs (`fivehundred coverage --every-rule-set`), in process."""
    scenarios = load_corpus().scenarios
    sets = every_rule_set()
    pairs = {f"{name}+{v.name}" for v in VARIANTS.values() for name in v.applies_to}
    assert sorted(p.label for p in sets) == sorted({*PROFILE_NAMES, *pairs})
    found = []
    for profile in sets:
        rows = point_coverage(profile, scenarios)
        found += point_problems(profile, rows, scope_scenarios(profile, scenarios))
        assert all(row.scenarios for row in rows), profile.label
    assert found == []


def test_every_rule_field_of_a_profile_maps_to_real_rulings() -> None:
    """A new field of a rule component must say which rulings describe it, or coverage fails here
    rather than silently leaving its differences unchecked."""
    ruled = {
        f"{name}.{f.name}"
        for name in COMPONENTS
        for f in fields(getattr(DEFAULT_PROFILE, name))
        if f.init
    } - {"table.seat_names"}
    assert set(POINT_RULINGS) == ruled == set(rule_fields())
    assert {slug for slugs in POINT_RULINGS.values() for slug in slugs} <= set(BY_SLUG)
    assert set(POINT_CODES) <= ruled


def test_the_points_are_the_fields_that_differ_from_the_default() -> None:
    assert differing_fields(DEFAULT_PROFILE) == []
    assert differing_fields(get_profile("australian-4", ["no-slam-bonus"])) == [
        "scoring.slam_value"
    ]
    american_2 = differing_fields(get_profile("american-2"))
    assert {
        "table.seats",
        "table.sides",
        "pack.dead_hands",
        "auction.procedure",
        "joker.nomination",
    } <= set(american_2)
    assert "end.win_score" not in american_2  # 500 in both


def test_a_toggle_point_counts_only_its_own_profiles_scenarios() -> None:
    scenarios = load_corpus().scenarios
    rows = point_coverage(get_profile("american-4", ["all-pass-no-trumps"]), scenarios)
    all_pass = next(r for r in rows if r.name == "auction.all_pass")
    assert all_pass.changed_by == "all-pass-no-trumps"
    by_id = {s.id: s for s in scenarios}
    assert all_pass.scenarios
    assert all(by_id[i].profile_name == "american-4" for i in all_pass.scenarios)
    joker = next(r for r in rows if r.name == "joker.nomination")
    assert joker.changed_by is None
    assert {by_id[i].profile_name for i in joker.scenarios} > {"american-4"}


def test_a_point_without_scenarios_is_a_gap_at_every_measure(write: Write) -> None:
    path = write(
        "one.yaml",
        """\
        id: ZZ22
        title: Two players are dealt ten each
        rules: [deal-packets]
        assert: Two hands of ten.
        profile: american-2
        setup: {start: deck, dealer: E, deck: ordered}
        steps:
          - expect: {hand_sizes: {N: 10, E: 10}}
        """,
    )
    corpus = load_corpus([path.parent]).scenarios
    profile = get_profile("american-2")
    rows = point_coverage(profile, corpus)
    found = point_problems(profile, rows, scope_scenarios(profile, corpus))
    assert "american-2: pack.dead_hands: 1 scenarios; at least 3 wanted" in found
    assert "american-2: pack.dead_hands: no scenario with an action step" in found
    nomination = "american-2: joker.nomination: no action-level must-reject step"
    assert any(p.startswith(nomination) for p in found)
    assert "american-2: joker.nomination: unchecked at capability level neither" in found
    toggled = get_profile("american-2", ["deck-24"])
    scope = scope_scenarios(toggled, corpus)
    assert scope == {"deck-24": []}
    assert any(
        "toggle deck-24 has no scenario tagged scope" in p
        for p in point_problems(toggled, point_coverage(toggled, corpus), scope)
    )


def test_a_relaxing_point_needs_actions_not_refusals() -> None:
    """A field that lifts a prohibition of the default is checked by an accepted action."""
    rows = point_coverage(get_profile("american-3"), [])
    played_out = next(r for r in rows if r.name == "misere.ends_on_declarer_trick")
    assert not played_out.prohibition
    nomination = next(r for r in rows if r.name == "joker.nomination")
    assert nomination.codes == PROHIBITIONS["joker-nomination"]


def test_the_command_lists_a_rule_sets_points_and_exits_by_its_gaps(write: Write) -> None:
    result = CliRunner().invoke(main, ["coverage", "--profile", "american-6", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    (only,) = document["rule_sets"]
    assert only["rule_set"] == "american-6" and only["problems"] == []
    assert {p["field"] for p in only["points"]} >= {"pack.deck", "table.seats", "table.sides"}
    path = write(
        "lone.yaml",
        """\
        id: ZZ23
        title: The five-handed dealer's left calls first
        rules: [first-call]
        assert: P5 deals, North calls.
        profile: american-5
        setup: {start: deck, dealer: P5, deck: ordered}
        steps:
          - {seat: N, call: PASS}
        """,
    )
    gap = CliRunner().invoke(main, ["coverage", str(path.parent), "--profile", "american-5"])
    assert gap.exit_code == 1
    assert "american-5: table.sides: 0 scenarios; at least 3 wanted" in gap.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--profile", "american-9"], "unknown profile 'american-9'"),
        (["--profile", "american-2", "--variant", "no-misere"], "does not apply"),
        (["--every-rule-set", "--profile", "american-2"], "goes without --profile"),
    ],
)
def test_a_bad_rule_set_is_a_usage_error(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["coverage", *args])
    assert result.exit_code == 2
    assert message in result.output
