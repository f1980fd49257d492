"""What a played contract scores, apart from its value on the ladder: the slam, the
defenders' tricks, and the cap on a defending side near the winning score."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from ..results import DealResult


@dataclass(frozen=True)
class ScoringRules:
    """The points of a suit or no-trump contract beyond its value."""

    slam_value: int = 250
    """A slam of a contract worth less than this scores this instead."""
    defender_trick_points: int = 10
    defender_cap: int | None = None
    """A defending side whose score is at least this before the deal scores nothing for
    tricks against the contract."""

    def made(self, value: int, tricks: int, hand_size: int) -> int:
        """What a made contract worth ``value`` scores with ``tricks`` (a slam: at least
        the slam value)."""
        return max(value, self.slam_value) if tricks == hand_size else value

    def for_tricks(self, tricks: int) -> int:
        """What a side of a deal everybody passed scores for its tricks."""
        return self.defender_trick_points * tricks

    def for_defence(self, tricks: int, made: bool) -> int:
        """What a defending side scores for its tricks against a suit or no-trump contract
        the declarer made or lost (the same either way here: a rule that makes them differ
        changes this method alone)."""
        return self.defender_trick_points * tricks

    def capped(self, scores: Sequence[int], result: DealResult) -> DealResult:
        """Seed 004 «ODMIANY» 5: a defending side whose score is at least the cap before
        the deal scores nothing for its tricks against the contract."""
        cap = self.defender_cap
        if cap is None or result.thrown_in:
            return result
        side = result.declaring_side
        if side is None:
            return result
        points = list(result.points)
        for other in range(len(points)):
            if other != side and scores[other] >= cap:
                points[other] = 0
        if points == list(result.points):
            return result
        return dataclasses.replace(result, points=tuple(points))  # type: ignore[arg-type]
