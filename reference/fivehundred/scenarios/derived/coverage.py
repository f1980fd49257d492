"""How well the corpus checks each ruling, and how much of it survives weaker engines.

Most engines under test neither list their legal actions nor give rejection codes.
A ruling checked only by ``legal`` lists is then not checked at all, so coverage is
counted per **capability level**: with everything; without legal lists; without
codes; with neither.  Checks are counted, in the scenarios that cite the ruling:

* an action outcome (accepted, or refused) survives every level;
* a rejection code is compared only where the engine gives codes;
* an observation survives unless it needs legal lists (``legal``, ``legal_count``)
  and the level has none.

A **prohibition** is a ruling that makes an engine refuse something (the codes that
enforce it are listed in :data:`PROHIBITIONS`); it needs at least one action-level
must-reject step, so an engine that lists nothing is still caught.

The rulings are the default profile's, so only scenarios of the default profile without
toggles count for them; the scenarios of other rule sets are counted by profile
(:func:`other_profiles`), never towards a ruling.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ...engine import DEFAULT_PROFILE
from ..format.model import (
    ActionStep,
    Checkpoint,
    DealResultStep,
    DealStep,
    Scenario,
    expected_rejection,
)
from ..format.rulings import RULINGS
from ..format.vocabulary import observation

__all__ = [
    "LEVELS",
    "MIN_SCENARIOS",
    "PROHIBITIONS",
    "RulingCoverage",
    "checks_by_level",
    "coverage",
    "default_profile_only",
    "is_default_profile",
    "other_profiles",
    "problems",
]

LEVELS: tuple[str, ...] = ("all", "no-legal", "no-codes", "neither")
"""Capability levels: what an implementation can report."""

MIN_SCENARIOS = 3
"""Every ruling is illustrated by at least this many scenarios."""

PROHIBITIONS: dict[str, tuple[str, ...]] = {
    "first-call": ("not-your-turn",),
    "bid-must-outrank": ("bid-not-higher",),
    "misere-needs-seven": ("misere-needs-seven",),
    "open-misere-any-time": ("bid-not-higher",),
    "pass-is-final": ("already-passed",),
    "auction-end": ("wrong-phase", "deal-over"),
    "kitty-exchange": ("discard-needs-three", "card-not-held", "not-your-turn"),
    "misere-partner-out": ("not-your-turn",),
    "opening-lead": ("not-your-turn",),
    "follow-suit": ("must-follow-suit",),
    "joker-nomination": ("nomination-not-allowed",),
    "nominated-joker": ("must-follow-suit", "unexpected-suit-name"),
    "suitless-joker-following": ("joker-only-when-void",),
    "joker-lead": ("joker-lead-needs-suit", "joker-suit-already-led", "unexpected-suit-name"),
    "joker-lead-all-suits-led": ("joker-lead-all-suits-led",),
    "misere-joker": ("joker-must-be-played",),
    "misere-score": ("deal-over",),
}
"""Rulings that forbid something, with the rejection codes that enforce them."""


@dataclass
class RulingCoverage:
    slug: str
    number: int
    scenarios: list[str] = field(default_factory=list)
    must_reject: list[str] = field(default_factory=list)
    """Scenarios with an action step that must be refused with one of the ruling's codes."""
    action_checks: int = 0
    """Action steps (accepted or refused) in the scenarios citing the ruling."""
    by_level: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LEVELS, 0))
    """Checks that survive at each capability level, in the scenarios citing the ruling:
    action outcomes, rejection codes and observations."""

    @property
    def prohibition(self) -> bool:
        return self.slug in PROHIBITIONS


def _action_steps(scenario: Scenario) -> list[ActionStep | DealStep | DealResultStep]:
    return [s for s in scenario.steps if isinstance(s, ActionStep | DealStep | DealResultStep)]


def checks_by_level(scenario: Scenario) -> dict[str, int]:
    """How many of the scenario's checks survive at each capability level."""
    steps = _action_steps(scenario)
    codes = sum(1 for s in steps if expected_rejection(s) is not None)
    seen = [key for s in scenario.steps if isinstance(s, Checkpoint) for key in s.expect]
    legal = sum(1 for key in seen if (o := observation(key)) and o.needs_legal_actions)
    outcomes, observed = len(steps), len(seen)
    return {
        "all": outcomes + codes + observed,
        "no-legal": outcomes + codes + observed - legal,
        "no-codes": outcomes + observed,
        "neither": outcomes + observed - legal,
    }


def is_default_profile(scenario: Scenario) -> bool:
    """Whether the scenario plays the default profile with no toggles: the rule set the
    rulings (and the rules pages) describe."""
    return scenario.profile_name == DEFAULT_PROFILE.name and not scenario.variants


def default_profile_only(scenarios: Iterable[Scenario]) -> list[Scenario]:
    """The scenarios of the default profile without toggles, in the order given."""
    return [s for s in scenarios if is_default_profile(s)]


def other_profiles(scenarios: Iterable[Scenario]) -> dict[str, int]:
    """How many scenarios each other rule set has (profile+toggles), by label."""
    counts: dict[str, int] = {}
    for scenario in scenarios:
        if not is_default_profile(scenario):
            counts[scenario.profile_label] = counts.get(scenario.profile_label, 0) + 1
    return dict(sorted(counts.items()))


def coverage(scenarios: Iterable[Scenario]) -> list[RulingCoverage]:
    """Per ruling, in ruling order; only the default profile's scenarios count."""
    table = {r.slug: RulingCoverage(r.slug, r.number) for r in RULINGS}
    for scenario in default_profile_only(scenarios):
        steps = _action_steps(scenario)
        for slug in dict.fromkeys(scenario.rules):
            row = table.get(slug)
            if row is None:
                continue
            row.scenarios.append(scenario.id)
            row.action_checks += len(steps)
            codes = PROHIBITIONS.get(slug, ())
            if any(expected_rejection(s) in codes for s in steps if isinstance(s, ActionStep)):
                row.must_reject.append(scenario.id)
            for level, count in checks_by_level(scenario).items():
                row.by_level[level] += count
    return list(table.values())


def problems(rows: Sequence[RulingCoverage]) -> list[str]:
    """What the corpus lacks: too few scenarios, a prohibition without a must-reject step,
    a ruling unchecked at some capability level."""
    out = []
    for row in rows:
        name = f"ruling {row.number} ({row.slug})"
        few, unchecked = shortfalls(name, len(row.scenarios), row.by_level)
        out += few
        if row.prohibition and not row.must_reject:
            out.append(f"{name}: a prohibition with no action-level must-reject step")
        out += unchecked
    return out


def shortfalls(
    name: str, scenarios: int, by_level: Mapping[str, int]
) -> tuple[list[str], list[str]]:
    """The gaps every coverage row can have, a ruling's or another rule set's point: too
    few scenarios, and the capability levels at which nothing of it is checked."""
    few = (
        [f"{name}: {scenarios} scenarios; at least {MIN_SCENARIOS} wanted"]
        if scenarios < MIN_SCENARIOS
        else []
    )
    unchecked = [
        f"{name}: unchecked at capability level {lv}" for lv, n in by_level.items() if n == 0
    ]
    return few, unchecked
