"""A game: running side totals across deals, dealer rotation and the end of the game.

The end of the game is the profile's :class:`~.rules.GameEnd` component: it says whether
a game may start from given scores, which sides are barred from winning, and who wins
after a deal.  The game keeps the totals and asks it.
"""

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

    The end is checked only after a whole deal has been scored, by the profile's end of
    game.  In the default profile a side wins when it made its own contract in that deal
    and now has the profile's winning score; a side at or below the losing score loses and
    the other side wins.  Under a bar (seed 003) the sides that ever fell to it are
    remembered, since a later recovery does not lift it; when every side is barred the
    game is over with no winner.
    """

    __slots__ = ("barred", "dealer", "deals", "profile", "scores", "winner")

    def __init__(self, profile: Profile, dealer: Seat, scores: Sequence[int] | None = None) -> None:
        sides = len(profile.sides)
        start = [0] * sides if scores is None else list(scores)
        if len(start) != sides:
            raise SetupError(f"give the scores of each of the {sides} sides")
        problem = profile.end.start_problem(start)
        if problem is not None:
            raise SetupError(problem)
        self.profile = profile
        self.dealer = dealer
        self.scores = start
        self.barred = profile.end.barred(start)
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
                    f"the game is over: every side has fallen to {self.profile.end.barred_at} "
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
        result = profile.scoring.capped(self.scores, result)
        self.deals.append(result)
        for s, points in enumerate(result.points):
            self.scores[s] += points
        end = profile.end
        self.barred |= end.barred(self.scores)
        winner = end.winner(profile.table, self.scores, result, self.barred)
        if winner is not None:
            self.winner = Side(winner)

    def record_deal(self, deal: Deal) -> None:
        """Record a deal that has been played to its end."""
        if deal.result is None:
            raise ValueError("the deal is not over")
        self.record(deal.result)


__all__ = ["THROWN_IN", "Game"]
