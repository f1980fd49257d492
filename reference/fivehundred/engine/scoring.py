"""Scoring one deal: the contract's value, the slam rule and the defenders' tricks."""

from __future__ import annotations

from collections.abc import Sequence

from .bids import Bid
from .profile import Profile
from .results import THROWN_IN, DealResult
from .seats import Seat

__all__ = ["THROWN_IN", "DealResult", "score_all_pass", "score_deal"]


def _points(values: Sequence[int]) -> tuple[int, int]:
    # One entry per side; typed as the default profile's pair, which it is there.
    return tuple(values)  # type: ignore[return-value]


def score_deal(
    profile: Profile,
    contract: Bid,
    declarer: Seat,
    declarer_tricks: int,
    side_tricks: Sequence[int] | None = None,
    trick_sides: Sequence[int] = (),
    *,
    dealer: Seat | None = None,
) -> DealResult:
    """Score a played contract.

    Suit and no-trump contracts: made when the declaring side takes at least the
    number bid, for the contract's value (a slam of a contract worth less than the
    profile's slam value scores that value instead), lost otherwise for minus the
    value; each defending side scores per trick of its own either way.  Misères: made
    only with no trick, plus or minus the value; each defending side scores the
    misère rules' ``defender_points`` for each trick the declarer took (none in the
    default profile).  ``side_tricks`` (tricks by side) is needed only when there are
    more than two sides.  ``dealer`` matters only where the profile rests the dealer
    (the table's ``rests``): a side that is only the resting dealer took no
    part and scores nothing.
    """
    value = profile.bid_values[contract]
    side = profile.side_of[declarer]
    count = len(profile.sides)
    points = [0] * count
    if contract.is_misere:
        made = declarer_tricks == 0
        points[side] = value if made else -value
        per_trick = profile.misere.defender_points * declarer_tricks
        if per_trick:
            absent = () if dealer is None else profile.absent_sides(dealer)
            for other in range(count):
                if other != side and other not in absent:
                    points[other] = per_trick
    else:
        assert contract.level is not None
        made = declarer_tricks >= contract.level
        rules = profile.scoring
        points[side] = rules.made(value, declarer_tricks, profile.hand_size) if made else -value
        if side_tricks is None:
            if count != 2:
                raise ValueError("say the tricks of every side when there are more than two")
            points[1 - side] = rules.for_defence(profile.hand_size - declarer_tricks, made)
        else:
            for other in range(count):
                if other != side:
                    points[other] = rules.for_defence(side_tricks[other], made)
    return DealResult(
        contract,
        declarer,
        declarer_tricks,
        made,
        _points(points),
        tuple(side_tricks or ()),
        tuple(trick_sides),
        side if profile.seats != 4 or count != 2 else None,
    )


def score_all_pass(
    profile: Profile, contract: Bid, side_tricks: Sequence[int], trick_sides: Sequence[int]
) -> DealResult:
    """A deal everybody passed, played at no trumps each for himself: every side scores
    the scoring rules' defender trick points for each trick it took, and nobody loses."""
    points = [profile.scoring.for_tricks(t) for t in side_tricks]
    return DealResult(
        contract, None, 0, False, _points(points), tuple(side_tricks), tuple(trick_sides)
    )
