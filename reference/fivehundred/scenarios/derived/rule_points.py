"""Coverage of the rule sets other than the default: one row per rule point.

The default profile is measured ruling by ruling (:mod:`.coverage`).  Another rule set
(a profile, or a profile with toggles) is measured where it **differs** from the default:
its rule points are the fields of the profile's rule components
(:mod:`fivehundred.engine.rules`), named ``component.field``, whose value differs from
``australian-4``'s, found by comparing the two profiles from the engine's registry, so a
new profile, toggle or component field brings its points with it and no list of points
is kept by hand.

Which scenarios exercise a point is decided by one stated, mechanical rule:

    a scenario counts for the point ``field`` of the rule set ``Q`` when it plays
    ``Q``'s profile, its own toggles give ``field`` the same value as ``Q`` has, and it
    cites one of the rulings :data:`POINT_RULINGS` maps ``field`` to.

So a scenario of ``american-4`` with ``all-pass-no-trumps`` still counts for
``american-4``'s one-round auction (the toggle leaves it alone), and one of
``american-4`` with ``dealer-sits-out`` does not count for ``american-4``'s sides.
:data:`POINT_RULINGS` maps every rule point of the components (checked by the tests), never
a rule set: it says which rulings of the default describe the part of the game the field
changes, and the codes of those rulings (:data:`~.coverage.PROHIBITIONS`), with the
field's own codes (:data:`POINT_CODES`), are the codes a must-reject step may give.

A point passes when it has at least :data:`~.coverage.MIN_SCENARIOS` scenarios, an
action-level case (a must-reject step when the point has codes, else any action step, so
an engine that lists nothing and gives no codes still plays it), and a check at every
capability level.  A toggle also needs a scenario tagged :data:`SCOPE_TAG`, checking what
it leaves unchanged where the reading could go either way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from ...engine import DEFAULT_PROFILE
from ...engine.profile import Profile, profile_named, rule_value
from ..format.model import ActionStep, DealResultStep, DealStep, Scenario, expected_rejection
from .coverage import LEVELS, PROHIBITIONS, checks_by_level, shortfalls

__all__ = [
    "POINT_CODES",
    "POINT_RULINGS",
    "SCOPE_TAG",
    "RulePoint",
    "differing_fields",
    "point_coverage",
    "point_problems",
    "rule_fields",
    "scope_scenarios",
]

SCOPE_TAG = "scope"
"""The tag of a scenario checking what its toggle leaves unchanged."""

POINT_RULINGS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "pack.deck": ("deck", "trump-order", "plain-order"),
        "pack.hand_size": ("deal-packets",),
        "pack.kitty_size": ("deal-packets", "kitty-exchange"),
        "pack.packets": ("deal-packets",),
        "ladder.order": ("bid-order", "bid-must-outrank", "open-misere-any-time"),
        "ladder.values": ("contract-values", "deal-score", "misere-score"),
        "ladder.misere_needs": ("misere-needs-seven",),
        "scoring.slam_value": ("deal-score",),
        "scoring.defender_trick_points": ("deal-score",),
        "end.win_score": ("win-on-own-contract", "end-check"),
        "end.lose_score": ("lose-at-minus-500",),
        "table.seats": ("dealer-rotation", "first-call", "trick-winner", "deal-packets"),
        "table.sides": ("deal-score", "misere-partner-out", "win-on-own-contract", "trick-winner"),
        "pack.dead_hands": ("deal-packets",),
        "pack.undealt": ("deal-packets", "deck"),
        "auction.procedure": ("first-call", "pass-is-final", "auction-end"),
        "auction.raise_after_all_pass": ("auction-end",),
        "ladder.ties": ("bid-order", "bid-must-outrank"),
        "ladder.outranks_by": ("bid-order", "bid-must-outrank"),
        "misere.ends_on_declarer_trick": ("misere-score",),
        "misere.defender_points": ("misere-score",),
        "joker.nomination": ("joker-nomination",),
        "joker.lead_unled_suit": ("joker-lead", "joker-lead-all-suits-led"),
        "joker.must_play_in_misere": ("misere-joker", "suitless-joker-following"),
        "joker.lead_last_trick_only": ("joker-lead", "suitless-joker"),
        "end.barred_at": ("lose-at-minus-500", "win-on-own-contract", "end-check"),
        "scoring.defender_cap": ("deal-score",),
        "auction.all_pass": ("auction-end",),
        "end.rule": ("end-check", "win-on-own-contract", "no-ties"),
        "table.rests": ("dealer-rotation", "first-call", "deal-packets"),
        "auction.inkles": ("bid-order", "auction-end"),
        "play.sans_kitty": ("kitty-exchange",),
        "misere.double_nullo": ("misere-partner-out",),
        "misere.open_shown": ("open-misere-exposure",),
        "play.opening_lead": ("opening-lead",),
    }
)
"""For each rule field of a profile, the rulings of the default that describe the part of
the game it changes: a scenario citing one of them exercises the field."""

POINT_CODES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "ladder.order": ("bid-not-higher", "bid-not-available"),
        "ladder.values": (),
        "ladder.misere_needs": ("bid-not-higher", "bid-not-available", "misere-needs-seven"),
        "table.sides": (),
        "misere.ends_on_declarer_trick": (),
        "misere.defender_points": (),
        "joker.lead_last_trick_only": ("joker-lead-last-trick-only",),
        "auction.all_pass": ("wrong-phase", "not-your-turn"),
        "auction.inkles": ("six-bid-first-call",),
        "play.sans_kitty": ("sans-kitty-not-allowed",),
    }
)
"""The rejection codes of a field whose own differ from its rulings' (which are then not
used): a field that relaxes a prohibition of the default (a misère played out) is checked
by actions accepted, not refused, and one that adds a prohibition has its own code."""


def rule_fields() -> tuple[str, ...]:
    """The rule points: every field a rule component is built with, ``component.field``
    (see :func:`~fivehundred.engine.profile.rule_points`; the tests check that
    :data:`POINT_RULINGS` names each once), in :data:`POINT_RULINGS`' order.  That order
    only grows at its end, so what the fuzz draws from a seed (one of the points where a
    rule set differs) and the order of the coverage rows stay as they were when a point is
    added."""
    return tuple(POINT_RULINGS)


def differing_fields(profile: Profile) -> list[str]:
    """The rule points where ``profile`` differs from the default profile."""
    return [
        name
        for name in rule_fields()
        if rule_value(profile, name) != rule_value(DEFAULT_PROFILE, name)
    ]


def _shown(name: str, value: object) -> str:
    """A field's value, short enough for a table cell."""
    if name == "pack.deck" and isinstance(value, tuple):
        return f"{len(value)} cards"
    if name == "ladder.order" and isinstance(value, tuple):
        return f"{len(value)} bids"
    if isinstance(value, Mapping):
        return f"{len(value)} values"
    return str(value)


def _source(profile: Profile, name: str, changed_by: str | None) -> str:
    """Where the profile's rule for ``name`` comes from: the point's own entry in
    ``sources``, else its component's (``joker`` for ``joker.nomination``), else the
    toggle that set it."""
    for key in (name, name.split(".")[0]):
        if key in profile.sources:
            return profile.sources[key]
    if changed_by is not None:
        return profile.sources.get(f"variant {changed_by}", "")
    return ""


@dataclass
class RulePoint:
    """One rule point where a rule set differs from the default, with what checks it."""

    name: str
    """The rule point, ``component.field``."""
    value: str
    default: str
    source: str
    changed_by: str | None
    """The toggle that makes the difference, ``None`` when the profile itself does."""
    rulings: tuple[str, ...]
    codes: tuple[str, ...]
    scenarios: list[str] = field(default_factory=list)
    must_reject: list[str] = field(default_factory=list)
    """Scenarios with an action step that must be refused with one of ``codes``."""
    action_level: list[str] = field(default_factory=list)
    """Scenarios with at least one action step (outcomes every engine reports)."""
    by_level: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LEVELS, 0))

    @property
    def prohibition(self) -> bool:
        return bool(self.codes)


def _codes(name: str) -> tuple[str, ...]:
    """The codes a must-reject step for the field may give (see :data:`POINT_CODES`)."""
    if name in POINT_CODES:
        return POINT_CODES[name]
    found = [code for slug in POINT_RULINGS[name] for code in PROHIBITIONS.get(slug, ())]
    return tuple(dict.fromkeys(found))


def _changed_by(profile: Profile, name: str) -> str | None:
    """The first of the profile's toggles without which ``name`` would differ in value."""
    if not profile.variants:
        return None
    plain = profile_named(profile.name)
    value = rule_value(profile, name)
    if rule_value(plain, name) == value:
        return None
    for variant in profile.variants:
        if rule_value(profile_named(profile.name, (variant,)), name) == value:
            return variant
    return "+".join(profile.variants)


def _same_rule(scenario: Scenario, profile: Profile, name: str, changed_by: str | None) -> bool:
    """Whether the scenario plays the rule ``name`` as ``profile`` has it: with the same
    value, in the same profile when a toggle makes the difference, else in any profile
    that has that value without toggles (the American profiles share their joker, say)."""
    played = profile_named(scenario.profile_name, scenario.variants)
    value = rule_value(profile, name)
    if rule_value(played, name) != value:
        return False
    if changed_by is not None:
        return scenario.profile_name == profile.name
    return bool(rule_value(profile_named(scenario.profile_name), name) == value)


def _action_steps(scenario: Scenario) -> list[ActionStep | DealStep | DealResultStep]:
    return [s for s in scenario.steps if isinstance(s, ActionStep | DealStep | DealResultStep)]


def point_coverage(profile: Profile, scenarios: Iterable[Scenario]) -> list[RulePoint]:
    """Every point where ``profile`` differs from the default, in field order, with the
    scenarios that exercise it (the rule in the module's docstring)."""
    corpus = list(scenarios)
    rows = []
    for name in differing_fields(profile):
        changed_by = _changed_by(profile, name)
        row = RulePoint(
            name=name,
            value=_shown(name, rule_value(profile, name)),
            default=_shown(name, rule_value(DEFAULT_PROFILE, name)),
            source=_source(profile, name, changed_by),
            changed_by=changed_by,
            rulings=POINT_RULINGS[name],
            codes=_codes(name),
        )
        for scenario in corpus:
            if not _same_rule(scenario, profile, name, changed_by) or not set(scenario.rules) & set(
                row.rulings
            ):
                continue
            row.scenarios.append(scenario.id)
            steps = _action_steps(scenario)
            if steps:
                row.action_level.append(scenario.id)
            refused = (expected_rejection(s) for s in steps if isinstance(s, ActionStep))
            if any(code in row.codes for code in refused):
                row.must_reject.append(scenario.id)
            for level, count in checks_by_level(scenario).items():
                row.by_level[level] += count
        rows.append(row)
    return rows


def scope_scenarios(profile: Profile, scenarios: Iterable[Scenario]) -> dict[str, list[str]]:
    """For each of the profile's toggles, its scenarios tagged :data:`SCOPE_TAG`."""
    found: dict[str, list[str]] = {v: [] for v in profile.variants}
    for scenario in scenarios:
        if scenario.profile_name != profile.name or SCOPE_TAG not in scenario.tags:
            continue
        for variant in set(scenario.variants) & set(found):
            found[variant].append(scenario.id)
    return found


def point_problems(
    profile: Profile, rows: Sequence[RulePoint], scope: Mapping[str, Sequence[str]]
) -> list[str]:
    """What the corpus lacks for the rule set: a point with too few scenarios, without an
    action-level case, or unchecked at some capability level; a toggle without a scenario
    for what it leaves unchanged."""
    out = []
    for row in rows:
        name = f"{profile.label}: {row.name}"
        few, unchecked = shortfalls(name, len(row.scenarios), row.by_level)
        out += few
        if row.prohibition and not row.must_reject:
            codes = ", ".join(row.codes)
            out.append(f"{name}: no action-level must-reject step (codes: {codes})")
        elif not row.action_level:
            out.append(f"{name}: no scenario with an action step")
        out += unchecked
    for variant, found in scope.items():
        if not found:
            out.append(
                f"{profile.label}: toggle {variant} has no scenario tagged {SCOPE_TAG} "
                "(what it leaves unchanged)"
            )
    return out
