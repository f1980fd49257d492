"""A game: running side totals across deals, dealer rotation and the end of the game."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .deal import Deal, SetupError
from .profile import Profile
from .rejections import Code, IllegalAction, Rejection
from .scoring import THROWN_IN, DealResult
from .seats import Seat, Side


class Game:
    """Side totals, the dealer, and whether someone has won.

    The end is checked only after a whole deal has been scored.  A side wins when it
    made its own contract in that deal and now has the profile's winning score; a
    side at or below the losing score loses and the other side wins.
    """

    __slots__ = ("dealer", "deals", "profile", "scores", "winner")

    def __init__(self, profile: Profile, dealer: Seat, scores: tuple[int, int] = (0, 0)) -> None:
        if min(scores) <= profile.lose_score:
            raise SetupError(
                f"a side with {min(scores)} has already lost (the game ends at "
                f"{profile.lose_score} or lower)"
            )
        self.profile = profile
        self.dealer = dealer
        self.scores = [scores[0], scores[1]]
        self.winner: Side | None = None
        self.deals: list[DealResult] = []

    @property
    def over(self) -> bool:
        return self.winner is not None

    def _check_not_over(self) -> None:
        if self.winner is not None:
            raise IllegalAction(
                Rejection(Code.GAME_OVER, f"the game is over: {self.winner.name} won")
            )

    def new_deal(self, deck: Sequence[Card]) -> Deal:
        """Deal an ordered deck with the current dealer."""
        self._check_not_over()
        return Deal.from_deck(self.profile, self.dealer, deck)

    def record(self, result: DealResult) -> None:
        """Add a finished deal's points, check for the end, and pass the deal to the left."""
        self._check_not_over()
        self.deals.append(result)
        self.dealer = self.dealer.left
        if result.thrown_in:
            return
        side = result.declaring_side
        assert side is not None
        for s in Side:
            self.scores[s] += result.points[s]
        if result.made and self.scores[side] >= self.profile.win_score:
            self.winner = side
        elif self.scores[side] <= self.profile.lose_score:
            self.winner = side.other

    def record_deal(self, deal: Deal) -> None:
        """Record a deal that has been played to its end."""
        if deal.result is None:
            raise ValueError("the deal is not over")
        self.record(deal.result)


__all__ = ["THROWN_IN", "Game"]
