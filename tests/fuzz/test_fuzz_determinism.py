"""A seed and a deal index name the same deal in every version: pinned digests.

A fuzz report names each finding by its seed and deal index (``--seed S --deal I``), the
nightly job spreads one run over shards and merges them, and a finding is rerun from its
report long after: all of that holds only while the generators draw from their random
stream in exactly the same order.  A refactoring that draws one number more, or one
less, or in another order, changes every later deal without failing any other test.

Here the deals of two seeds under every rule set (each profile, plain and with each of
its toggles) are hashed in their protocol form, and so are the scenarios that finding,
shrinking and writing make of two deliberate misreadings.  When a change to a
generator, the shrinker or the engine's order of legal actions is *meant* to change
them, the failure prints the new digests to pin instead.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

import pytest
from fivehundred.engine import PROFILE_NAMES, VARIANTS
from fivehundred.fuzz.cases import CASE_ID
from fivehundred.fuzz.fuzzer import Settings, Tester, fuzz
from fivehundred.fuzz.generators import GENERATOR_NAMES, generate, generators_for
from fivehundred.scenarios import Scenario, ScenarioInput, input_json
from fivehundred.verify.runner import RunOutcome
from test_fuzz_runs import Misreader

pytestmark = pytest.mark.slow

SEEDS = (0, 7)
ROTATIONS = 2
"""Deals per seed: this many times round the rule set's rotation of generators."""
ALONE = 4
"""Deals of each generator chosen alone (``--generators``), the auction one included."""

RULE_SETS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (profile, variants)
    for profile in PROFILE_NAMES
    for variants in [
        (),
        *((name,) for name, v in VARIANTS.items() if profile in v.applies_to),
    ]
)


def _label(profile: str, variants: tuple[str, ...]) -> str:
    return "+".join((profile, *variants))


def deals_digest(profile: str, variants: tuple[str, ...]) -> str:
    """The digest of the rule set's deals, each as the protocol sends it."""
    digest = hashlib.sha256()
    rotation = len(generators_for(profile, variants))
    named = [(seed, index, ()) for seed in SEEDS for index in range(rotation * ROTATIONS)]
    alone = [
        (3, index, (name,))
        for name in GENERATOR_NAMES
        if generators_for(profile, variants, (name,))
        for index in range(ALONE)
    ]
    for seed, index, only in named + alone:
        case = generate(seed, index, profile, variants, only)
        scenario_input = ScenarioInput(CASE_ID, profile, case.setup, case.actions, variants)
        text = json.dumps(input_json(scenario_input), sort_keys=True, ensure_ascii=False)
        digest.update(f"{seed}:{index}:{','.join(only)}\n{text}\n".encode())
    return digest.hexdigest()[:16]


class JokerNeverLegal(Misreader):
    """The reference, except that the joker is never among the legal plays: found in
    play, where the shrinker starts later and takes cards out of the hands."""

    def __init__(self, bug: str = "joker-never-legal") -> None:
        super().__init__(bug)

    def run(self, scenario: Scenario) -> RunOutcome:
        outcome = super().run(scenario)
        for step in (outcome.result or {}).get("steps", []):
            observed = step.get("observed")
            if observed and "legal" in observed:
                observed["legal"] = [a for a in observed["legal"] if not a.startswith("JK")]
        return outcome


def findings_digest(bug: str) -> str:
    """The digest of what a run finds in a misreading: each family's signature, count,
    first deal, rulings and shrunk scenario file."""

    def factory() -> tuple[Tester, Callable[[], None]]:
        implementation = (JokerNeverLegal if bug == "joker-never-legal" else Misreader)(bug)
        return Tester(implementation), implementation.close

    report = fuzz(factory, Settings(seed=4, deals=24, command="misreader"), name=bug)
    families = [
        {key: value for key, value in family.as_json().items() if key != "verified"}
        for family in report.sorted_families
    ]
    text = json.dumps(families, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


DEALS = {
    "australian-4": "dcadd3a4436e1362",
    "australian-4+no-misere": "48213ba0311cb042",
    "australian-4+misere-without-seven": "e5abae10f624d360",
    "australian-4+joker-leads-last-trick-only": "ee4e5cac8726a233",
    "australian-4+raise-after-all-pass": "07a1ebe8409a70ae",
    "australian-4+defender-cap-490": "2da224fffa0a3cc4",
    "australian-4+defender-cap-480": "d1f097c2d3a04bf3",
    "australian-4+blind-misere": "50b0b60878bd7282",
    "australian-4+inkles": "9e931c6ad614f313",
    "australian-4+sans-kitty": "e3b031182b68b090",
    "australian-4+double-nullo": "fb8dbf17533bc0bc",
    "australian-4+open-misere-shown-after-lead": "5c6b1be613376f85",
    "australian-4+open-misere-shown-before-lead": "17c18a0d3a68d738",
    "australian-4+dealers-left-leads": "bf619284ea9ddad0",
    "australian-4+no-slam-bonus": "fc632aa698eab634",
    "australian-4+avondale-less-twenty": "5827af3a7752d3d1",
    "australian-4+forty-five-card-pack": "959ecb849707d0e0",
    "australian-4+pass-may-re-enter": "0f538c9d75483dd5",
    "american-2": "6dbc0adb9d63e74d",
    "american-2+all-pass-no-trumps": "133aa4c7201cdf7f",
    "american-2+deck-24": "6e47a4a207c5557a",
    "american-3": "7542fd6d643c0f19",
    "american-3+all-pass-no-trumps": "fc497482e8d2087f",
    "three-handed": "524447e89c87de9d",
    "three-handed+fallen-player-may-win": "5bc1df11f7c0eea9",
    "american-4": "6c30d1d475a70e7f",
    "american-4+all-pass-no-trumps": "f688b6a9b2489923",
    "american-4+dealer-sits-out": "14079882a9cd725f",
    "american-5": "95087e0b8391f675",
    "american-5+all-pass-no-trumps": "03fc41b65a9baea2",
    "american-5+one-sits-out": "fcaa7d3d8e01bfca",
    "american-6": "2bf411f78bf5c4d2",
    "american-6+all-pass-no-trumps": "184288e1bbe0f709",
    "american-6+three-sides-of-two": "4349c6a782868e3e",
}
"""The digest of each rule set's deals (:func:`deals_digest`)."""

FINDINGS = {
    "no-omis": "2043b892df3f1c6a",
    "no-nominate": "25c7696758905d1a",
    "joker-never-legal": "47d3afa91d4e5409",
}
"""The digest of each misreading's findings (:func:`findings_digest`)."""


def test_every_rule_set_s_deals_are_the_pinned_ones() -> None:
    found = {_label(p, v): deals_digest(p, v) for p, v in RULE_SETS}
    changed = {label: digest for label, digest in found.items() if DEALS.get(label) != digest}
    assert not changed, (
        "the deals a seed and an index name have changed; if that is meant, pin these in "
        f"DEALS: {json.dumps(changed, indent=1)}"
    )
    assert set(DEALS) == set(found), "DEALS names a rule set that no longer exists"


@pytest.mark.parametrize("bug", sorted(FINDINGS))
def test_findings_shrinks_and_files_are_the_pinned_ones(bug: str) -> None:
    digest = findings_digest(bug)
    assert digest == FINDINGS[bug], (
        f"what the fuzzer finds, shrinks and writes for {bug} has changed; if that is "
        f"meant, pin {digest!r} in FINDINGS"
    )
