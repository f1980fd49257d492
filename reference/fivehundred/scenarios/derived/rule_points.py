"""Coverage of the rule sets other than the default: one row per rule point.

The default profile is measured ruling by ruling (:mod:`.coverage`).  Another rule set
(a profile, or a profile with toggles) is measured where it **differs** from the default:
its rule points are the fields of :class:`~fivehundred.engine.profile.Profile` whose
value differs from ``australian-4``'s, found by comparing the two profiles from the
engine's registry, so a new profile or toggle brings its points with it and no list of
points is kept by hand.

Which scenarios exercise a point is decided by one stated, mechanical rule:

    a scenario counts for the point ``field`` of the rule set ``Q`` when it plays
    ``Q``'s profile, its own toggles give ``field`` the same value as ``Q`` has, and it
    cites one of the rulings :data:`POINT_RULINGS` maps ``field`` to.

So a scenario of ``american-4`` with ``all-pass-no-trumps`` still counts for
``american-4``'s one-round auction (the toggle leaves it alone), and one of
``american-4`` with ``dealer-sits-out`` does not count for ``american-4``'s sides.
:data:`POINT_RULINGS` maps every rule field of the profile (checked by the tests), never
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
from dataclasses import dataclass, field, fields
from types import MappingProxyType

from ...engine import DEFAULT_PROFILE
from ...engine.profile import Profile, profile_named
from ..format.model import ActionStep, DealResultStep, DealStep, Scenario, expected_rejection
from .coverage import LEVELS, PROHIBITIONS, checks_by_level, shortfalls

__all__ = [
    "DESCRIPTIVE_FIELDS",
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

DESCRIPTIVE_FIELDS = frozenset(
    {"name", "title", "variants", "sources", "incomplete", "missing", "seat_names"}
)
"""Fields of a profile that describe it rather than rule the game (``seat_names`` follows
``seats``)."""

POINT_RULINGS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "deck": ("deck", "trump-order", "plain-order"),
        "hand_size": ("deal-packets",),
        "kitty_size": ("deal-packets", "kitty-exchange"),
        "packets": ("deal-packets",),
        "bid_order": ("bid-order", "bid-must-outrank", "open-misere-any-time"),
        "bid_values": ("contract-values", "deal-score", "misere-score"),
        "misere_needs": ("misere-needs-seven",),
        "slam_value": ("deal-score",),
        "defender_trick_points": ("deal-score",),
        "win_score": ("win-on-own-contract", "end-check"),
        "lose_score": ("lose-at-minus-500",),
        "seats": ("dealer-rotation", "first-call", "trick-winner", "deal-packets"),
        "sides": ("deal-score", "misere-partner-out", "win-on-own-contract", "trick-winner"),
        "dead_hands": ("deal-packets",),
        "undealt": ("deal-packets", "deck"),
        "auction": ("first-call", "pass-is-final", "auction-end"),
        "raise_after_all_pass": ("auction-end",),
        "bid_ties": ("bid-order", "bid-must-outrank"),
        "outranks_by": ("bid-order", "bid-must-outrank"),
        "misere_ends_on_declarer_trick": ("misere-score",),
        "misere_defender_points": ("misere-score",),
        "joker_nomination": ("joker-nomination",),
        "joker_lead_unled_suit": ("joker-lead", "joker-lead-all-suits-led"),
        "joker_must_play_in_misere": ("misere-joker", "suitless-joker-following"),
        "joker_lead_last_trick_only": ("joker-lead", "suitless-joker"),
        "barred_at": ("lose-at-minus-500", "win-on-own-contract", "end-check"),
        "defender_cap": ("deal-score",),
        "all_pass": ("auction-end",),
        "game_end": ("end-check", "win-on-own-contract", "no-ties"),
        "rests": ("dealer-rotation", "first-call", "deal-packets"),
        "inkles": ("bid-order", "auction-end"),
        "sans_kitty": ("kitty-exchange",),
        "double_nullo": ("misere-partner-out",),
        "open_misere_shown": ("open-misere-exposure",),
        "opening_lead": ("opening-lead",),
    }
)
"""For each rule field of a profile, the rulings of the default that describe the part of
the game it changes: a scenario citing one of them exercises the field."""

POINT_CODES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "bid_order": ("bid-not-higher", "bid-not-available"),
        "bid_values": (),
        "misere_needs": ("bid-not-higher", "bid-not-available", "misere-needs-seven"),
        "sides": (),
        "misere_ends_on_declarer_trick": (),
        "misere_defender_points": (),
        "joker_lead_last_trick_only": ("joker-lead-last-trick-only",),
        "all_pass": ("wrong-phase", "not-your-turn"),
        "inkles": ("six-bid-first-call",),
        "sans_kitty": ("sans-kitty-not-allowed",),
    }
)
"""The rejection codes of a field whose own differ from its rulings' (which are then not
used): a field that relaxes a prohibition of the default (a misère played out) is checked
by actions accepted, not refused, and one that adds a prohibition has its own code."""


def rule_fields() -> tuple[str, ...]:
    """The fields of a profile that rule the game: given when it is built, and not
    descriptive (see :data:`DESCRIPTIVE_FIELDS`)."""
    return tuple(f.name for f in fields(Profile) if f.init and f.name not in DESCRIPTIVE_FIELDS)


def differing_fields(profile: Profile) -> list[str]:
    """The rule fields where ``profile`` differs from the default profile."""
    return [
        name for name in rule_fields() if getattr(profile, name) != getattr(DEFAULT_PROFILE, name)
    ]


def _shown(name: str, value: object) -> str:
    """A field's value, short enough for a table cell."""
    if name == "deck" and isinstance(value, tuple):
        return f"{len(value)} cards"
    if name == "bid_order" and isinstance(value, tuple):
        return f"{len(value)} bids"
    if isinstance(value, Mapping):
        return f"{len(value)} values"
    return str(value)


def _source(profile: Profile, name: str, changed_by: str | None) -> str:
    """Where the profile's rule for ``name`` comes from: the field's own entry in
    ``sources``, else the entry of its topic (``joker`` for ``joker_nomination``), else
    the toggle that set it."""
    for key in (name, name.split("_")[0]):
        if key in profile.sources:
            return profile.sources[key]
    if changed_by is not None:
        return profile.sources.get(f"variant {changed_by}", "")
    return ""


@dataclass
class RulePoint:
    """One field where a rule set differs from the default, with what checks it."""

    name: str
    """The profile field."""
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
    if getattr(plain, name) == getattr(profile, name):
        return None
    for variant in profile.variants:
        if getattr(profile_named(profile.name, (variant,)), name) == getattr(profile, name):
            return variant
    return "+".join(profile.variants)


def _same_rule(scenario: Scenario, profile: Profile, name: str, changed_by: str | None) -> bool:
    """Whether the scenario plays the rule ``name`` as ``profile`` has it: with the same
    value, in the same profile when a toggle makes the difference, else in any profile
    that has that value without toggles (the American profiles share their joker, say)."""
    played = profile_named(scenario.profile_name, scenario.variants)
    if getattr(played, name) != getattr(profile, name):
        return False
    if changed_by is not None:
        return scenario.profile_name == profile.name
    return bool(getattr(profile_named(scenario.profile_name), name) == getattr(profile, name))


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
            value=_shown(name, getattr(profile, name)),
            default=_shown(name, getattr(DEFAULT_PROFILE, name)),
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
