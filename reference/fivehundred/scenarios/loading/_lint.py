"""Semantic checks that a JSON Schema cannot express.

Run on the model of a document that already passed the schema.  Each problem is
reported at the path of the exact value that causes it: a card that is not in the
profile's deck or appears twice, hands of the wrong size, a score no game can reach, a
rule anchor that does not exist, steps in an order that cannot happen, and any starting position the
engine refuses (asked of the engine directly, through :mod:`.positions`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...engine import NotationError, Profile, get_profile, parse_card
from ...resources import load_schema
from ..format.diagnostics import DocPath, format_path
from ..format.model import (
    ActionStep,
    AuctionStart,
    Checkpoint,
    DealResultStep,
    DealStep,
    DeckStart,
    DiscardStep,
    PlayStart,
    PlayStep,
    RecordedResult,
    Scenario,
    Setup,
    Step,
    expected_rejection,
)
from ..format.rulings import anchor_exists, unknown_anchor_message
from ..format.vocabulary import observation
from .positions import PositionError, start_position

Problem = tuple[DocPath, str]

_STYLE = re.compile(r"^\s*(test|tests|check|checks)\b|\bshould\b", re.IGNORECASE)


def lint_scenario(scenario: Scenario) -> list[Problem]:
    """Every semantic problem of a parsed, schema-valid scenario."""
    problems: list[Problem] = []
    profile = get_profile(scenario.profile_name, scenario.variants)
    for i, anchor in enumerate(scenario.rules):
        if not anchor_exists(anchor):
            problems.append((("rules", i), unknown_anchor_message(anchor)))
    if _STYLE.search(scenario.assertion):
        problems.append(
            (("assert",), "state the behaviour as a fact (no 'test that…', no 'should')")
        )
    problems.extend(_check_setup(scenario.setup, profile))
    problems.extend(_check_step_cards(scenario.steps, profile))
    problems.extend(_check_step_order(scenario.setup.kind, scenario.steps, profile))
    problems.extend(_check_deal_results(scenario.steps, profile))
    problems.extend(_check_table(scenario.steps, profile))
    if not problems:
        try:
            start_position(profile, scenario.setup)
        except PositionError as error:
            where: DocPath = tuple(error.where.split(".")) if error.where != "setup" else ("setup",)
            problems.append((where, error.message))
    return problems


def _card_problems(
    values: Sequence[str], path: DocPath, profile: Profile, seen: dict[str, DocPath] | None
) -> Iterator[Problem]:
    for i, token in enumerate(values):
        try:
            card = parse_card(token)
        except NotationError as error:
            yield (*path, i), str(error)
            continue
        if not profile.has_card(card):
            yield (*path, i), f"{token} is not in the {profile.name} deck"
        elif seen is not None:
            if token in seen:
                yield (*path, i), f"{token} appears twice (also at {format_path(seen[token])})"
            else:
                seen[token] = (*path, i)


def _score_step(profile: Profile) -> int:
    """Every score a game of ``profile`` can reach is a multiple of this (10 in every profile
    so far): scores start at 0, and a deal adds or takes away a bid's value, a slam's, or
    points per trick."""
    return math.gcd(
        *profile.bid_values.values(),
        profile.scoring.slam_value,
        profile.scoring.defender_trick_points,
        profile.misere.defender_points,
    )


def _check_setup(setup: Setup, profile: Profile) -> Iterator[Problem]:
    seen: dict[str, DocPath] = {}
    step = _score_step(profile)
    for side, score in (setup.scores or {}).items():
        if score % step:
            yield (
                ("setup", "scores", side),
                f"no game of {profile.label} reaches {score}: every score is a multiple of {step}",
            )
    if isinstance(setup, DeckStart) and isinstance(setup.deck, tuple):
        deck = setup.deck
        yield from _card_problems(deck, ("setup", "deck"), profile, seen)
        if len(deck) != len(profile.deck):
            yield ("setup", "deck"), f"a deck has {len(profile.deck)} cards; found {len(deck)}"
    if isinstance(setup, AuctionStart | PlayStart):
        for seat, cards in setup.hands.items():
            yield from _card_problems(cards, ("setup", "hands", seat), profile, seen)
    if isinstance(setup, AuctionStart):
        yield from _card_problems(setup.kitty, ("setup", "kitty"), profile, seen)
        resting = _resting_names(profile, setup.dealer)
        for seat, cards in setup.hands.items():
            if seat in resting:
                if cards:
                    yield ("setup", "hands", seat), "the dealer sits out this deal: give []"
            elif len(cards) != profile.hand_size:
                yield (
                    ("setup", "hands", seat),
                    f"at the auction each hand has {profile.hand_size} cards; found {len(cards)}",
                )
        if len(setup.kitty) != profile.kitty_size:
            yield (
                ("setup", "kitty"),
                f"the kitty has {profile.kitty_size} cards; found {len(setup.kitty)}",
            )


def _resting_names(profile: Profile, dealer: str) -> set[str]:
    """The names of the seats resting from a deal by ``dealer`` (a dealer who sits out);
    none for a dealer not at the table, which the position check reports."""
    if dealer not in profile.seat_names:
        return set()
    return {profile.seat_names[s] for s in profile.resting(profile.parse_seat(dealer))}


def _check_step_cards(steps: Sequence[Step], profile: Profile) -> Iterator[Problem]:
    for i, step in enumerate(steps):
        if isinstance(step, PlayStep):
            yield from _card_problems([step.card], ("steps", i, "play"), profile, None)
        elif isinstance(step, DiscardStep):
            yield from _card_problems(step.cards, ("steps", i, "discard"), profile, None)
        elif isinstance(step, DealStep) and isinstance(step.deck, tuple):
            deal_path: DocPath = ("steps", i, "deal")
            yield from _card_problems(step.deck, deal_path, profile, {})
            if len(step.deck) != len(profile.deck):
                yield deal_path, f"a deck has {len(profile.deck)} cards; found {len(step.deck)}"
        elif isinstance(step, Checkpoint):
            expect = step.expect
            for key in ("kitty", "discards", "exposed"):
                if isinstance(expect.get(key), list):
                    yield from _card_problems(
                        expect[key], ("steps", i, "expect", key), profile, None
                    )
            for seat, cards in (expect.get("hands") or {}).items():
                yield from _card_problems(
                    cards, ("steps", i, "expect", "hands", seat), profile, None
                )


# Stages of a deal, as far as the order of accepted actions can tell them apart.
_AUCTION, _LEAD_DUE, _PLAYING = 0, 1, 2
_START_STAGE = {"deck": _AUCTION, "auction": _AUCTION, "play": _LEAD_DUE, "game": None}


def _check_step_order(start: str, steps: Sequence[Step], profile: Profile) -> Iterator[Problem]:
    """Steps expected to be accepted must come in an order a deal allows.

    Within a deal: calls, then one discard (or, under ``sans-kitty``, ``sans_kitty``; under
    ``double-nullo`` the partner's discard may follow the declarer's), then at most one
    nomination (before the first lead), then plays.  A ``play`` start begins after the
    discards; a ``game`` start has no deal until a ``deal`` step.  Where a deal everybody
    passed is played at no trumps (``all_pass``), plays may follow the calls with no
    discard.  Steps expected to be refused are exempt: refusing them is their point.
    """
    passed_out_play = profile.auction.all_pass_played
    discards = 2 if profile.misere.double_nullo else 1  # a double nullo's partner discards too
    order = _DealOrder(_START_STAGE[start], discards if start == "play" else 0)
    for i, step in enumerate(steps):
        if isinstance(step, Checkpoint) or expected_rejection(step) is not None:
            continue
        if isinstance(step, DealStep | DealResultStep):
            order = _DealOrder(_AUCTION if isinstance(step, DealStep) else None, 0)
            continue
        assert isinstance(step, ActionStep)
        problem = order.accept(step.action, discards, passed_out_play)
        if problem is not None:
            yield ("steps", i, step.action), problem


@dataclass
class _DealOrder:
    """How far a deal has gone, as the accepted actions so far tell it."""

    stage: int | None
    """One of the stages above; ``None`` when no deal is in progress."""
    discarded: int

    def accept(self, key: str, discards: int, passed_out_play: bool) -> str | None:
        """Take an accepted action; what is wrong with its place, if anything."""
        stage = self.stage
        if stage is None:
            return f"no deal is in progress for this {key}; add a `deal` step first"
        if key == "call":
            return (
                "a call cannot come after the discard in the same deal"
                if stage >= _LEAD_DUE
                else None
            )
        if key in ("discard", "sans_kitty"):
            return self._discard(stage, discards)
        if stage < _LEAD_DUE and not (passed_out_play and key == "play"):
            return f"a {key} needs the auction and the discard to come first"
        self.stage = _PLAYING
        if key == "nominate" and stage > _LEAD_DUE:
            return "the joker is nominated before the first lead, and only once"
        return None

    def _discard(self, stage: int, discards: int) -> str | None:
        """A discard (or ``sans_kitty``): the deal's ``discards``, all before the lead."""
        self.stage, self.discarded = _LEAD_DUE, self.discarded + 1
        if stage > _LEAD_DUE or (stage == _LEAD_DUE and self.discarded > discards):
            return "the declarer discards once, before the first lead"
        return None


def _check_deal_results(steps: Sequence[Step], profile: Profile) -> Iterator[Problem]:
    """A recorded result must be one that play can produce: where a misère ends as soon
    as the declarer wins a trick, its declarer takes no trick or exactly one."""
    if not profile.misere.ends_on_declarer_trick:
        return
    for i, step in enumerate(steps):
        if not isinstance(step, DealResultStep) or not isinstance(step.result, RecordedResult):
            continue
        tricks = step.result.tricks
        if not isinstance(tricks, int):
            side = profile.side_of[profile.seat_names.index(step.result.declarer)]
            tricks = tricks.get(profile.side_names[side], 0)
        if step.result.contract in ("MIS", "OMIS", "BMIS") and tricks > 1:
            yield (
                ("steps", i, "deal_result", "tricks"),
                "a misère ends when the declarer wins a trick: tricks must be 0 or 1",
            )


# ---- seats and sides of the profile's table ---------------------------------------------

_SCHEMA_DEFS: dict[str, Any] = {}


def _defs() -> dict[str, Any]:
    if not _SCHEMA_DEFS:
        _SCHEMA_DEFS.update(load_schema("scenario.schema.json")["$defs"])
    return _SCHEMA_DEFS


def _check_table(steps: Sequence[Step], profile: Profile) -> Iterator[Problem]:
    """Every seat and side a step names, or an expectation gives, exists at the profile's
    table (the schema accepts the seats and sides of every profile), and a mapping by
    side gives every side of the profile."""
    for i, step in enumerate(steps):
        if isinstance(step, ActionStep) and step.seat not in profile.seat_names:
            yield ("steps", i, "seat"), _not_at_table(profile, "seat", step.seat)
        elif isinstance(step, DealResultStep) and isinstance(step.result, RecordedResult):
            result: DocPath = ("steps", i, "deal_result")
            if step.result.declarer not in profile.seat_names:
                yield (*result, "declarer"), _not_at_table(profile, "seat", step.result.declarer)
            if step.result.contract not in {b.token for b in profile.bid_order}:
                yield (*result, "contract"), f"{profile.label} has no bid {step.result.contract}"
            yield from _recorded_tricks(step.result, (*result, "tricks"), profile)
        elif isinstance(step, Checkpoint):
            for key, value in step.expect.items():
                entry = observation(key)
                if entry is not None:
                    yield from _table_problems(
                        value, entry.schema, ("steps", i, "expect", key), profile
                    )


def _recorded_tricks(result: RecordedResult, path: DocPath, profile: Profile) -> Iterator[Problem]:
    """A recorded deal's tricks: at most a hand's worth; by side where more than two sides
    score tricks (then every side, adding up to a whole hand unless a misère ended early)."""
    tricks, size = result.tricks, profile.hand_size
    misere = result.contract in ("MIS", "OMIS", "BMIS")
    if isinstance(tricks, int):
        if tricks > size:
            yield path, f"a hand of {profile.label} has {size} cards; found {tricks} tricks"
        elif len(profile.sides) > 2 and not misere:
            sides = ", ".join(profile.side_names)
            yield path, f"give the tricks of every side of {profile.label} ({sides})"
        return
    problems = list(_table_problems(tricks, {"$ref": "#/$defs/side_points"}, path, profile))
    yield from problems
    total = sum(tricks.values())
    if not problems and (total > size or (total != size and not misere)):
        yield path, f"the tricks of a played deal add up to {size}; found {total}"


def _not_at_table(profile: Profile, kind: str, name: object) -> str:
    names = profile.seat_names if kind == "seat" else profile.side_names
    return f"{profile.label} has no {kind} {name!r}; its {kind}s are {', '.join(names)}"


def _table_problems(
    value: Any, schema: Mapping[str, Any], path: DocPath, profile: Profile
) -> Iterator[Problem]:
    """Walk an expected value with its schema, checking each seat and side it names."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref.removeprefix("#/$defs/")
        check = _TABLE_DEFS.get(name)
        if check is not None:
            yield from check(value, path, profile)
        else:
            yield from _table_problems(value, _defs()[name], path, profile)
    elif "anyOf" in schema:
        if value is not None:
            for branch in schema["anyOf"]:
                if branch.get("type") != "null":
                    yield from _table_problems(value, branch, path, profile)
    elif isinstance(value, list) and "items" in schema:
        for j, item in enumerate(value):
            yield from _table_problems(item, schema["items"], (*path, j), profile)
    elif isinstance(value, dict):
        yield from _mapping_problems(value, schema, path, profile)


def _mapping_problems(
    value: Mapping[str, Any], schema: Mapping[str, Any], path: DocPath, profile: Profile
) -> Iterator[Problem]:
    """An object: its property names, and the value of each property the schema describes."""
    names = schema.get("propertyNames")
    properties = schema.get("properties", {})
    for name, item in value.items():
        if names is not None:
            yield from _table_problems(name, names, (*path, name), profile)
        if name in properties:
            yield from _table_problems(item, properties[name], (*path, name), profile)


def _seat_problems(value: Any, path: DocPath, profile: Profile) -> Iterator[Problem]:
    if value not in profile.seat_names:
        yield path, _not_at_table(profile, "seat", value)


def _side_problems(value: Any, path: DocPath, profile: Profile) -> Iterator[Problem]:
    if value not in profile.side_names:
        yield path, _not_at_table(profile, "side", value)


def _side_points_problems(value: Any, path: DocPath, profile: Profile) -> Iterator[Problem]:
    """A mapping by side: only the profile's sides, and every one of them."""
    for name in value:
        if name not in profile.side_names:
            yield (*path, name), _not_at_table(profile, "side", name)
    missing = [name for name in profile.side_names if name not in value]
    if missing:
        yield path, f"give every side of {profile.label}: missing {', '.join(missing)}"


_TABLE_DEFS: dict[str, Callable[[Any, DocPath, Profile], Iterator[Problem]]] = {
    "seat": _seat_problems,
    "side": _side_problems,
    "side_points": _side_points_problems,
}
"""The schema's definitions that name seats and sides, and how each is checked."""
