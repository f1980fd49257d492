"""The boundary generators reach what they aim at: a defender at the cap, several sides
crossing 500 in one deal, a side on -500, and the rules where each rule set differs."""

from __future__ import annotations

import random

import pytest
from fivehundred.cli.rule_set_coverage import every_rule_set
from fivehundred.engine import Profile, get_profile
from fivehundred.fuzz.boundaries import (
    BOUNDARY_GENERATORS,
    cross_500,
    defender_cap,
    minus_500,
)
from fivehundred.fuzz.cases import Case
from fivehundred.fuzz.generators import GENERATORS
from fivehundred.scenarios import DealResultStep, GameStart, ScenarioInput
from fivehundred.verify.reference import ReferenceSession


def _replay(profile: Profile, case: Case, steps: int | None = None) -> ReferenceSession:
    """The reference after the first ``steps`` actions of the case (all by default);
    refused actions are part of a case, so each step is taken as the fuzzer takes it."""
    session = ReferenceSession(
        ScenarioInput("FUZZ", profile.name, case.setup, (), profile.variants)
    )
    for index, action in enumerate(case.actions[:steps]):
        session.step(action, index)
    return session


def test_they_are_registered_after_the_base_generators() -> None:
    names = [name for name, _ in GENERATORS]
    assert names[-len(BOUNDARY_GENERATORS) :] == [n for n, _ in BOUNDARY_GENERATORS]


@pytest.mark.parametrize("name", [n for n, _ in BOUNDARY_GENERATORS])
def test_every_rule_set_gets_cases_the_reference_plays(name: str) -> None:
    generator = dict(BOUNDARY_GENERATORS)[name]
    for profile in every_rule_set():
        case = generator(random.Random(f"{name}:{profile.label}"), profile)
        assert case.profile == profile.name and case.variants == profile.variants
        _replay(profile, case)  # raises on a position or step the reference refuses


def test_a_defending_side_starts_at_the_cap_or_ten_either_side() -> None:
    profile = get_profile("australian-4", ["defender-cap-490"])
    starts = set()
    for seed in range(20):
        case = defender_cap(random.Random(seed), profile)
        assert isinstance(case.setup, GameStart) and case.setup.scores is not None
        first = case.actions[0]
        assert isinstance(first, DealResultStep)
        own = profile.side_names[profile.side_of[profile.parse_seat(first.result.declarer)]]
        starts |= {v for side, v in case.setup.scores.items() if side != own}
    assert 490 in starts and {480, 500} & starts


@pytest.mark.parametrize("rules", ["american-3", "american-6+three-sides-of-two", "three-handed"])
def test_two_or_three_sides_reach_500_in_the_same_deal(rules: str) -> None:
    name, *toggles = rules.split("+")
    profile = get_profile(name, toggles)
    together = 0
    for seed in range(30):
        case = cross_500(random.Random(seed), profile)
        session = _replay(profile, case)
        scores = session.game.scores
        together += sum(1 for s in scores if s >= 500) >= 2
    assert together >= 5, together


def test_a_failed_contract_lands_its_side_on_minus_500() -> None:
    profile = get_profile("three-handed")
    landed = 0
    for seed in range(20):
        case = minus_500(random.Random(seed), profile)
        session = _replay(profile, case, 1)
        landed += min(session.game.scores) in (-510, -500, -490)
    assert landed >= 15, landed
