"""The end of the game: the winning and losing scores, the bar on a side that has fallen
too low (seed 003), and who wins when a deal takes sides past the line.

Two tests of the end exist, named by :attr:`GameEnd.rule`: a side wins on its own
contract (seed 000), or the first to the winning score wins (seed 003).  Each is a method
here, given the table, the totals after the deal, the deal's result and the barred sides.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Literal

from ..results import DealResult
from .table import Table

GameEndRule = Literal["own-contract", "first-to-score"]


@dataclass(frozen=True)
class GameEnd:
    """When the game ends and who wins."""

    win_score: int = 500
    lose_score: int | None = -500
    """A side at or below this after a deal loses; ``None``: negative scores go on."""
    rule: GameEndRule = "own-contract"
    """``own-contract``: a side wins when it made its own contract and now has the winning
    score; ``first-to-score``: whoever reaches it by any means wins."""
    barred_at: int | None = None
    """A side at or below this after a deal plays on but can never win the game (seed
    003); once every side is barred nobody can win and the game ends without a winner.
    ``None``: no such bar."""

    @property
    def reads_tricks(self) -> bool:
        """The test of the end needs each side's tricks and their order in the deal."""
        return self.rule == "first-to-score"

    def barred(self, scores: Sequence[int]) -> set[int]:
        """The sides whose score is at or below the bar (none without one)."""
        bar = self.barred_at
        return set() if bar is None else {s for s, score in enumerate(scores) if score <= bar}

    def start_problem(self, scores: Sequence[int]) -> str | None:
        """Why a game cannot start from ``scores`` (a side has already won or lost, or
        nobody could win any more), or ``None``."""
        if self.lose_score is not None and min(scores) <= self.lose_score:
            return (
                f"a side with {min(scores)} has already lost (the game ends at "
                f"{self.lose_score} or lower)"
            )
        if self.rule == "first-to-score" and max(scores) >= self.win_score:
            # Reaching the winning score by any means ends the game, so no deal starts
            # with a side already there.
            return (
                f"a side with {max(scores)} has already won (the game ends when a side "
                f"reaches {self.win_score})"
            )
        if len(self.barred(scores)) == len(scores):
            return f"every side is at {self.barred_at} or lower, so nobody could win any more"
        return None

    def winner(
        self, table: Table, scores: Sequence[int], result: DealResult, barred: AbstractSet[int]
    ) -> int | None:
        """The winning side after a scored deal, or ``None`` while the game goes on."""
        if self.rule == "own-contract":
            return self._own_contract(scores, result, barred)
        return self._first_to_score(table, scores, result, barred)

    def _own_contract(
        self, scores: Sequence[int], result: DealResult, barred: AbstractSet[int]
    ) -> int | None:
        """Seed 000 §08 (rulings 31–33): a side wins when it made its own contract and now
        has the winning score; a side at or below the losing score loses and the other side
        wins.  Defenders' points alone never win."""
        side = result.declaring_side
        if side is None:
            return None
        if result.made and scores[side] >= self.win_score and side not in barred:
            return int(side)
        if self.lose_score is not None and scores[side] <= self.lose_score:
            return 1 - side if len(scores) == 2 else None
        return None

    def _first_to_score(
        self, table: Table, scores: Sequence[int], result: DealResult, barred: AbstractSet[int]
    ) -> int | None:
        """Seed 003 «Победа в игре»: whoever has the winning score after the deal, and is
        not barred from winning, wins; if the declaring side is one of them it wins; if only
        defenders reached it, the one of them who took the earliest trick of the deal wins.
        Where the tricks cannot tell (none of them took a trick, or the result was recorded
        without its tricks) the seed is silent: the higher score wins, then the first of
        them clockwise from the contractor's left (from seat 0 when nobody contracted).  A
        side at or below the losing score (if there is one) loses: then the best of the
        others wins."""
        reached = [
            s for s, score in enumerate(scores) if score >= self.win_score and s not in barred
        ]
        if reached:
            side = result.declaring_side
            if side is not None and int(side) in reached:
                return int(side)
            if len(reached) == 1:
                return reached[0]
            return _first_of(table, scores, result, reached)
        if self.lose_score is not None:
            lost = [s for s, score in enumerate(scores) if score <= self.lose_score]
            if lost:
                others = [s for s in range(len(scores)) if s not in lost]
                return max(others, key=lambda s: scores[s]) if others else None
        return None


def _first_of(
    table: Table, scores: Sequence[int], result: DealResult, reached: Sequence[int]
) -> int:
    """Of several defenders at the winning score, the one who took the earliest trick,
    then the higher score, then the first clockwise from the contractor's left."""
    order = list(result.trick_sides)
    start = 0 if result.declarer is None else result.declarer + 1
    seats = table.seats
    clockwise = [table.side_of[(start + k) % seats] for k in range(seats)]
    return min(
        reached,
        key=lambda s: (
            order.index(s) if s in order else len(order),
            -scores[s],
            clockwise.index(s),
        ),
    )
