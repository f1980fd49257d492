"""The boundary generators reach what they aim at: a defender at the cap, several sides
crossing 500 in one deal, a side on -500, and the rules where each rule set differs."""

from __future__ import annotations

import random

import pytest
from fivehundred.cli.rule_set_coverage import every_rule_set
from fivehundred.engine import Profile, get_profile
from fivehundred.fuzz.cases import Case
from fivehundred.fuzz.generators import GENERATOR_STARTS, GENERATORS
from fivehundred.scenarios import AuctionStart, DeckStart, GameStart, PlayStart, ScenarioInput
from fivehundred.verify.reference import ReferenceSession

BOUNDARY_NAMES = ("defender-cap", "cross-500", "minus-500", "rule-trigger")
BY_NAME = {name: generator for name, generator in GENERATORS if name in BOUNDARY_NAMES}


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
    assert tuple(names[-len(BOUNDARY_NAMES) :]) == BOUNDARY_NAMES


START_KINDS = {AuctionStart: "auction", DeckStart: "deck", PlayStart: "play", GameStart: "game"}


@pytest.mark.parametrize("name", BOUNDARY_NAMES)
def test_every_rule_set_gets_cases_the_reference_plays(name: str) -> None:
    """Each case is played by the reference, and starts as the generator declares (the
    fuzzer picks generators by the starts an implementation can set up)."""
    generator = BY_NAME[name]
    for profile in every_rule_set():
        case = generator(random.Random(f"{name}:{profile.label}"), profile)
        assert case.profile == profile.name and case.variants == profile.variants
        assert START_KINDS[type(case.setup)] in GENERATOR_STARTS[name]
        _replay(profile, case)  # raises on a position or step the reference refuses


def test_the_defending_sides_start_at_the_cap_or_just_under_it() -> None:
    profile = get_profile("australian-4", ["defender-cap-490"])
    at_cap = 0
    for seed in range(20):
        case = BY_NAME["defender-cap"](random.Random(seed), profile)
        result = _replay(profile, case).deal
        if result is None or result.result is None or result.result.declaring_side is None:
            continue
        scores = getattr(case.setup, "scores", None) or {}
        declaring = profile.side_names[int(result.result.declaring_side)]
        defending = [v for side, v in scores.items() if side != declaring]
        assert defending and all(470 <= v <= 490 for v in defending), scores
        at_cap += 490 in defending
    assert at_cap >= 5, at_cap


@pytest.mark.parametrize("rules", ["american-3", "american-6+three-sides-of-two", "three-handed"])
def test_two_or_three_sides_reach_500_in_the_same_deal(rules: str) -> None:
    name, *toggles = rules.split("+")
    profile = get_profile(name, toggles)
    together = 0
    for seed in range(30):
        case = BY_NAME["cross-500"](random.Random(seed), profile)
        session = _replay(profile, case)
        scores = session.game.scores
        together += sum(1 for s in scores if s >= 500) >= 2
    assert together >= 5, together


def test_a_failed_contract_lands_its_side_on_minus_500() -> None:
    profile = get_profile("three-handed")
    landed = 0
    for seed in range(20):
        case = BY_NAME["minus-500"](random.Random(seed), profile)
        landed += min(_replay(profile, case).game.scores) in (-510, -500, -490)
    assert landed >= 12, landed
