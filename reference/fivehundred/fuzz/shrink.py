"""Shrinking a disagreement: the smallest case that still disagrees in the same way.

Greedy passes over a fixed menu of edits, most aggressive first, until none helps or the
budget of runs is spent: cut everything after the failed check; start later (at a trick
boundary, as a ``play`` start, or at a later deal of a game); drop a trick's worth of
actions, then single actions; turn bids into passes; take one card out of every hand of
a ``play`` start.  An edit is kept when the reference can still run the case and the
implementation still disagrees with the *same signature*; every edit makes the case
strictly smaller (:attr:`Case.size`), so shrinking ends.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace

from ..engine import Profile, get_profile, parse_bid
from ..scenarios import CallStep, PlayStart, PlayStep, Step
from .cases import Case, replay
from .signature import Disagreement

__all__ = ["Shrinker"]

Check = Callable[[Case], Disagreement | None]
"""Run a case on the implementation: its first disagreement, or ``None`` (also when the
reference cannot run the case)."""


@dataclass
class Shrinker:
    check: Check
    budget: int = 400
    """At most this many runs of the implementation."""
    runs: int = 0
    best: Case | None = None
    """The smallest case so far (kept if the shrinking is interrupted)."""
    best_found: Disagreement | None = None

    def shrink(self, case: Case, found: Disagreement) -> tuple[Case, Disagreement]:
        signature = found.signature
        best, best_found = _cut(case, found.action), found
        self.best, self.best_found = best, best_found
        improved = True
        while improved and self.runs < self.budget:
            improved = False
            for candidate in _candidates(best):
                if candidate.size >= best.size:
                    continue
                if self.runs >= self.budget:
                    break
                self.runs += 1
                result = self.check(candidate)
                if result is not None and result.signature == signature:
                    best, best_found = _cut(candidate, result.action), result
                    self.best, self.best_found = best, best_found
                    improved = True
                    break
        return best, best_found


def _cut(case: Case, action: int) -> Case:
    """Nothing after the action the failed check follows (no action at all when it is the
    checkpoint at the start)."""
    return replace(case, actions=case.actions[: max(action, -1) + 1])


def _candidates(case: Case) -> Iterator[Case]:
    yield from _later_starts(case)
    yield from _dropped(case, 4)
    yield from _dropped(case, 1)
    yield from _passes(case)
    yield from _fewer_cards(case)


def _later_starts(case: Case) -> Iterator[Case]:
    starts = replay(case).starts
    for index in sorted(starts, reverse=True):
        setup, resume = starts[index]
        yield replace(case, setup=setup, actions=case.actions[resume:])


def _dropped(case: Case, size: int) -> Iterator[Case]:
    actions = case.actions
    for start in range(len(actions) - size, -1, -1):
        yield replace(case, actions=actions[:start] + actions[start + size :])


def _passes(case: Case) -> Iterator[Case]:
    actions = case.actions
    for index, step in enumerate(actions):
        if isinstance(step, CallStep) and step.call != "PASS":
            simpler: Step = CallStep(step.seat, "PASS")
            yield replace(case, actions=(*actions[:index], simpler, *actions[index + 1 :]))


def _fewer_cards(case: Case) -> Iterator[Case]:
    """One card out of every active hand of a play start (a trick more already played)."""
    setup = case.setup
    if not isinstance(setup, PlayStart):
        return
    profile = get_profile(case.profile, case.variants)
    hands = {seat: list(cards) for seat, cards in setup.hands.items()}
    spare = _spare_cards(case, profile, hands)
    if spare is None:
        return
    names = profile.side_names
    for pick, side in itertools.product(range(3), _trick_takers(profile, setup)):
        new_hands = {
            seat: tuple(c for c in cards if seat not in spare or c != _nth(spare[seat], pick))
            for seat, cards in hands.items()
        }
        tricks = dict(setup.tricks or dict.fromkeys(names, 0))
        tricks[side] += 1
        yield replace(case, setup=replace(setup, hands=new_hands, tricks=tricks))


def _spare_cards(
    case: Case, profile: Profile, hands: Mapping[str, list[str]]
) -> dict[str, list[str]] | None:
    """Each active hand's cards that no action plays; ``None`` when a hand could not lose
    one (it has one card left, or every card it holds is played)."""
    active = _active_seats(profile, hands)
    if active is None:
        return None
    played = _played_cards(case)
    spare = {s: [c for c in hands[s] if c not in played] for s in active}
    return None if any(not cards for cards in spare.values()) else spare


def _active_seats(profile: Profile, hands: Mapping[str, list[str]]) -> list[str] | None:
    """The seats holding cards; ``None`` when none does or one holds its last card."""
    active = [s.name for s in profile.seat_list if hands.get(s.name)]
    if not active or min(len(hands[s]) for s in active) <= 1:
        return None
    return active


def _played_cards(case: Case) -> set[str]:
    return {s.card for s in case.actions if isinstance(s, PlayStep)}


def _trick_takers(profile: Profile, setup: PlayStart) -> list[str]:
    """The sides that may be credited with the trick taken out: the declaring side first,
    then the defenders (only the defenders in a misère)."""
    names = profile.side_names
    declarer_side = names[profile.side_of[profile.parse_seat(setup.declarer)]]
    defenders = [name for name in names if name != declarer_side]
    return defenders if parse_bid(setup.contract).is_misere else [declarer_side, *defenders]


def _nth(cards: list[str], pick: int) -> str:
    return cards[pick % len(cards)]
