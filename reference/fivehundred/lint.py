"""Semantic checks that a JSON Schema cannot express.

Run on documents that already passed the schema.  Each problem is reported at the
exact value that causes it: a card that is not in the profile's deck or appears
twice, hands of the wrong size, a rule anchor that does not exist, steps in an order
that cannot happen, and any starting position the engine refuses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from .diagnostics import DocPath, format_path
from .engine import PROFILES, NotationError, Profile, get_profile, parse_card
from .execute import InputError, ReferenceSession
from .rulings import anchor_exists
from .scenario import Scenario, action_key, step_kind

Problem = tuple[DocPath, str]

_STYLE = re.compile(r"^\s*(test|tests|check|checks)\b|\bshould\b", re.IGNORECASE)


def lint_document(doc: Mapping[str, Any]) -> list[Problem]:
    """Every semantic problem of a schema-valid scenario document."""
    problems: list[Problem] = []
    name = doc.get("profile")
    if name is not None and name not in PROFILES:
        known = ", ".join(sorted(PROFILES))
        return [(("profile",), f"unknown profile {name!r}; expected one of: {known}")]
    profile = get_profile(name)
    for i, anchor in enumerate(doc["rules"]):
        if not anchor_exists(anchor):
            problems.append((("rules", i), f"no rule anchor {anchor!r}; see `fivehundred rules`"))
    if _STYLE.search(doc["assert"]):
        problems.append(
            (("assert",), "state the behaviour as a fact (no 'test that…', no 'should')")
        )
    problems.extend(_check_setup(doc["setup"], profile))
    problems.extend(_check_step_cards(doc["steps"], profile))
    problems.extend(_check_step_order(doc["setup"]["start"], doc["steps"]))
    problems.extend(_check_deal_results(doc["steps"]))
    if not problems:
        try:
            ReferenceSession(Scenario.from_document(doc).input())
        except InputError as error:
            problems.append((("setup",), str(error).removeprefix("setup: ")))
    return problems


def _card_problems(
    values: Any, path: DocPath, profile: Profile, seen: dict[str, DocPath] | None
) -> Iterator[Problem]:
    if not isinstance(values, list):
        return
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


def _check_setup(setup: Mapping[str, Any], profile: Profile) -> Iterator[Problem]:
    start = setup["start"]
    seen: dict[str, DocPath] = {}
    if start == "deck" and isinstance(setup["deck"], list):
        deck = setup["deck"]
        yield from _card_problems(deck, ("setup", "deck"), profile, seen)
        if len(deck) != len(profile.deck):
            yield ("setup", "deck"), f"a deck has {len(profile.deck)} cards; found {len(deck)}"
    if "hands" in setup:
        for seat, cards in setup["hands"].items():
            yield from _card_problems(cards, ("setup", "hands", seat), profile, seen)
    if "kitty" in setup:
        yield from _card_problems(setup["kitty"], ("setup", "kitty"), profile, seen)
    if start == "auction":
        for seat, cards in setup["hands"].items():
            if len(cards) != profile.hand_size:
                yield (
                    ("setup", "hands", seat),
                    f"at the auction each hand has {profile.hand_size} cards; found {len(cards)}",
                )
        if len(setup["kitty"]) != profile.kitty_size:
            yield (
                ("setup", "kitty"),
                f"the kitty has {profile.kitty_size} cards; found {len(setup['kitty'])}",
            )


def _check_step_cards(steps: list[Mapping[str, Any]], profile: Profile) -> Iterator[Problem]:
    for i, step in enumerate(steps):
        kind = step_kind(step)
        if kind == "action":
            if "play" in step:
                yield from _card_problems([step["play"]], ("steps", i, "play"), profile, None)
            if "discard" in step:
                yield from _card_problems(step["discard"], ("steps", i, "discard"), profile, None)
        elif kind == "deal" and isinstance(step["deal"], list):
            deal_path: DocPath = ("steps", i, "deal")
            yield from _card_problems(step["deal"], deal_path, profile, {})
            if len(step["deal"]) != len(profile.deck):
                yield deal_path, f"a deck has {len(profile.deck)} cards; found {len(step['deal'])}"
        elif kind == "expect":
            expect = step["expect"]
            for key in ("kitty", "discards", "exposed"):
                if isinstance(expect.get(key), list):
                    yield from _card_problems(
                        expect[key], ("steps", i, "expect", key), profile, None
                    )
            for key in ("hands",):
                for seat, cards in (expect.get(key) or {}).items():
                    yield from _card_problems(
                        cards, ("steps", i, "expect", key, seat), profile, None
                    )


# Stages of a deal, as far as the order of accepted actions can tell them apart.
_AUCTION, _LEAD_DUE, _PLAYING = 0, 1, 2
_START_STAGE = {"deck": _AUCTION, "auction": _AUCTION, "play": _LEAD_DUE, "game": None}


def _check_step_order(start: str, steps: list[Mapping[str, Any]]) -> Iterator[Problem]:
    """Steps expected to be accepted must come in an order a deal allows.

    Within a deal: calls, then one discard, then at most one nomination (before the
    first lead), then plays.  A ``play`` start begins after the discard; a ``game``
    start has no deal until a ``deal`` step.  Steps expected to be refused are exempt:
    refusing them is their point.
    """
    stage: int | None = _START_STAGE[start]
    for i, step in enumerate(steps):
        kind = step_kind(step)
        if "reject" in step or kind == "expect":
            continue
        if kind in ("deal", "deal_result"):
            stage = _AUCTION if kind == "deal" else None
            continue
        key = action_key(step)
        where: DocPath = ("steps", i, key)
        if stage is None:
            yield where, f"no deal is in progress for this {key}; add a `deal` step first"
        elif key == "call":
            if stage >= _LEAD_DUE:
                yield where, "a call cannot come after the discard in the same deal"
        elif key == "discard":
            if stage >= _LEAD_DUE:
                yield where, "the declarer discards once, before the first lead"
            stage = _LEAD_DUE
        elif stage < _LEAD_DUE:
            yield where, f"a {key} needs the auction and the discard to come first"
        elif key == "nominate":
            if stage > _LEAD_DUE:
                yield where, "the joker is nominated before the first lead, and only once"
            stage = _PLAYING
        else:
            stage = _PLAYING


def _check_deal_results(steps: list[Mapping[str, Any]]) -> Iterator[Problem]:
    """A recorded result must be one that play can produce: a misère ends as soon as
    the declarer wins a trick, so its declarer takes no trick or exactly one."""
    for i, step in enumerate(steps):
        result = step.get("deal_result")
        if not isinstance(result, Mapping):
            continue
        if result["contract"] in ("MIS", "OMIS") and result["tricks"] > 1:
            yield (
                ("steps", i, "deal_result", "tricks"),
                "a misère ends when the declarer wins a trick: tricks must be 0 or 1",
            )
