"""A game: running side totals across deals, dealer rotation and the end of the game.

The end of the game is the one rule of a profile that is a hook rather than data:
``Profile.game_end`` names one of the functions of :data:`GAME_ENDS`, each given the
profile, the side totals after the deal, the deal's result and the sides barred from
winning (``Profile.barred_at``), and answering the winning side or ``None``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from types import MappingProxyType

from .cards import Card
from .deal import Deal, SetupError
from .profile import Profile
from .rejections import Code, IllegalAction, Rejection
from .scoring import THROWN_IN, DealResult
from .seats import Seat, Side


def _own_contract(
    profile: Profile, scores: Sequence[int], result: DealResult, barred: AbstractSet[int]
) -> int | None:
    """Seed 000 §08 (rulings 31–33): a side wins when it made its own contract and now has
    the winning score; a side at or below the losing score loses and the other side wins.
    Defenders' points alone never win."""
    side = result.declaring_side
    if side is None:
        return None
    if result.made and scores[side] >= profile.win_score and side not in barred:
        return int(side)
    if profile.lose_score is not None and scores[side] <= profile.lose_score:
        return 1 - side if len(scores) == 2 else None
    return None


def _first_to_score(
    profile: Profile, scores: Sequence[int], result: DealResult, barred: AbstractSet[int]
) -> int | None:
    """Seed 003 «Победа в игре»: whoever has the winning score after the deal, and is not
    barred from winning, wins; if the
    declaring side is one of them it wins; if only defenders reached it, the one of them
    who took the earliest trick of the deal wins.  Where the tricks cannot tell (none of
    them took a trick, or the result was recorded without its tricks) the seed is silent:
    the higher score wins, then the first of them clockwise from the contractor's left (from
    seat 0 when nobody contracted).  A side at or below the losing score (if the profile has
    one) loses: then the best of the others wins."""
    reached = [
        s for s, score in enumerate(scores) if score >= profile.win_score and s not in barred
    ]
    if reached:
        side = result.declaring_side
        if side is not None and int(side) in reached:
            return int(side)
        if len(reached) == 1:
            return reached[0]
        order = list(result.trick_sides)
        start = 0 if result.declarer is None else result.declarer + 1
        seats = profile.seats
        clockwise = [profile.side_of[(start + k) % seats] for k in range(seats)]
        return min(
            reached,
            key=lambda s: (
                order.index(s) if s in order else len(order),
                -scores[s],
                clockwise.index(s),
            ),
        )
    if profile.lose_score is not None:
        lost = [s for s, score in enumerate(scores) if score <= profile.lose_score]
        if lost:
            others = [s for s in range(len(scores)) if s not in lost]
            return max(others, key=lambda s: scores[s]) if others else None
    return None


GameEndHook = Callable[[Profile, Sequence[int], DealResult, AbstractSet[int]], int | None]

GAME_ENDS: Mapping[str, GameEndHook] = MappingProxyType(
    {"own-contract": _own_contract, "first-to-score": _first_to_score}
)


def barred_sides(profile: Profile, scores: Sequence[int]) -> set[int]:
    """The sides whose score is at or below the profile's bar (none without one)."""
    bar = profile.barred_at
    return set() if bar is None else {s for s, score in enumerate(scores) if score <= bar}


def apply_defender_cap(profile: Profile, scores: Sequence[int], result: DealResult) -> DealResult:
    """Seed 004 «ODMIANY» 5: a defending side whose score is at least the profile's cap
    before the deal scores nothing for its tricks against the contract."""
    cap, side = profile.defender_cap, result.declaring_side
    if cap is None or side is None or result.thrown_in:
        return result
    points = list(result.points)
    for other in range(len(points)):
        if other != side and scores[other] >= cap:
            points[other] = 0
    if points == list(result.points):
        return result
    return dataclasses.replace(result, points=tuple(points))  # type: ignore[arg-type]


class Game:
    """Side totals, the dealer, and whether someone has won.

    The end is checked only after a whole deal has been scored, by the profile's
    ``game_end`` hook.  In the default profile a side wins when it made its own contract
    in that deal and now has the profile's winning score; a side at or below the losing
    score loses and the other side wins.  Under a bar (seed 003) the sides that ever fell
    to it are remembered, since a later recovery does not lift it; when every side is
    barred the game is over with no winner.
    """

    __slots__ = ("barred", "dealer", "deals", "profile", "scores", "winner")

    def __init__(self, profile: Profile, dealer: Seat, scores: Sequence[int] | None = None) -> None:
        sides = len(profile.sides)
        start = [0] * sides if scores is None else list(scores)
        if len(start) != sides:
            raise SetupError(f"give the scores of each of the {sides} sides")
        if profile.lose_score is not None and min(start) <= profile.lose_score:
            raise SetupError(
                f"a side with {min(start)} has already lost (the game ends at "
                f"{profile.lose_score} or lower)"
            )
        if profile.game_end == "first-to-score" and max(start) >= profile.win_score:
            # Reaching the winning score by any means ends the game, so no deal starts
            # with a side already there.
            raise SetupError(
                f"a side with {max(start)} has already won (the game ends when a side "
                f"reaches {profile.win_score})"
            )
        barred = barred_sides(profile, start)
        if barred and len(barred) == sides:
            raise SetupError(
                f"every side is at {profile.barred_at} or lower, so nobody could win any more"
            )
        self.profile = profile
        self.dealer = dealer
        self.scores = start
        self.barred = barred
        self.winner: Side | None = None
        self.deals: list[DealResult] = []

    @property
    def over(self) -> bool:
        """Someone has won, or every side is barred from winning."""
        return self.winner is not None or self.nobody_can_win

    @property
    def nobody_can_win(self) -> bool:
        return len(self.barred) == len(self.scores)

    def _check_not_over(self) -> None:
        if self.winner is not None:
            raise IllegalAction(
                Rejection(Code.GAME_OVER, f"the game is over: {self.winner.name} won")
            )
        if self.nobody_can_win:
            raise IllegalAction(
                Rejection(
                    Code.GAME_OVER,
                    f"the game is over: every side has fallen to {self.profile.barred_at} "
                    "or lower, so nobody can win",
                )
            )

    def new_deal(self, deck: Sequence[Card]) -> Deal:
        """Deal an ordered deck with the current dealer."""
        self._check_not_over()
        return Deal.from_deck(self.profile, self.dealer, deck)

    def record(self, result: DealResult) -> None:
        """Add a finished deal's points, check for the end, and pass the deal to the left.

        Under a defender cap the points recorded (in ``deals``) are the capped ones.
        """
        self._check_not_over()
        profile = self.profile
        self.dealer = profile.left[self.dealer]
        if result.thrown_in:
            self.deals.append(result)
            return
        if profile.defender_cap is not None:
            result = apply_defender_cap(profile, self.scores, result)
        self.deals.append(result)
        for s, points in enumerate(result.points):
            self.scores[s] += points
        self.barred |= barred_sides(profile, self.scores)
        winner = GAME_ENDS[profile.game_end](profile, self.scores, result, self.barred)
        if winner is not None:
            self.winner = Side(winner)

    def record_deal(self, deal: Deal) -> None:
        """Record a deal that has been played to its end."""
        if deal.result is None:
            raise ValueError("the deal is not over")
        self.record(deal.result)


__all__ = ["GAME_ENDS", "THROWN_IN", "Game", "apply_defender_cap", "barred_sides"]
