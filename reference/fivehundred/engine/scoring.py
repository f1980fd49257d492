"""Scoring one deal: the contract's value, the slam rule and the defenders' tricks."""

from __future__ import annotations

from dataclasses import dataclass

from .bids import Bid
from .profile import Profile
from .seats import Seat, Side


@dataclass(frozen=True, slots=True)
class DealResult:
    """What a finished deal contributes to the game.

    ``declarer_tricks`` counts the declaring side's tricks in a suit or no-trump
    contract, and the declarer's own tricks in a misère (the partner does not play).
    ``points`` is indexed by :class:`Side`.  A thrown-in deal has no contract.
    """

    contract: Bid | None
    declarer: Seat | None
    declarer_tricks: int
    made: bool
    points: tuple[int, int]

    @property
    def thrown_in(self) -> bool:
        return self.contract is None

    @property
    def declaring_side(self) -> Side | None:
        return None if self.declarer is None else self.declarer.side


THROWN_IN = DealResult(None, None, 0, False, (0, 0))


def score_deal(profile: Profile, contract: Bid, declarer: Seat, declarer_tricks: int) -> DealResult:
    """Score a played contract.

    Suit and no-trump contracts: made when the declaring side takes at least the
    number bid, for the contract's value (a slam of a contract worth less than the
    profile's slam value scores that value instead), lost otherwise for minus the
    value; the defenders score per trick either way.  Misères: made only with no
    trick, plus or minus the value, and the defenders score nothing.
    """
    value = profile.bid_values[contract]
    side = declarer.side
    points = [0, 0]
    if contract.is_misere:
        made = declarer_tricks == 0
        points[side] = value if made else -value
    else:
        assert contract.level is not None
        made = declarer_tricks >= contract.level
        if not made:
            points[side] = -value
        elif declarer_tricks == profile.hand_size:
            points[side] = max(value, profile.slam_value)
        else:
            points[side] = value
        points[side.other] = profile.defender_trick_points * (profile.hand_size - declarer_tricks)
    return DealResult(contract, declarer, declarer_tricks, made, (points[0], points[1]))
