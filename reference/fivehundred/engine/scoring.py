"""Scoring one deal: the contract's value, the slam rule and the defenders' tricks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .bids import Bid
from .profile import Profile
from .seats import Seat, Side


@dataclass(frozen=True, slots=True)
class DealResult:
    """What a finished deal contributes to the game.

    ``declarer_tricks`` counts the declaring side's tricks in a suit or no-trump
    contract, and the declarer's own tricks in a misère (the partners do not play).
    ``points`` is indexed by side (:class:`Side` in the default profile: NS, EW; one
    entry per side of the profile otherwise).  A thrown-in deal has no contract; a deal
    everybody passed and played at no trumps has the contract
    :data:`~.bids.ALL_PASS_NT` and no declarer.
    """

    contract: Bid | None
    declarer: Seat | None
    declarer_tricks: int
    made: bool
    points: tuple[int, int]
    side_tricks: tuple[int, ...] = ()
    """Tricks taken by each side (empty when not recorded)."""
    trick_sides: tuple[int, ...] = ()
    """The side that won each trick, in order (empty when not recorded)."""
    declarer_side: int | None = None
    """The declaring side's index; ``None`` means the default table's ``declarer.side``."""

    @property
    def thrown_in(self) -> bool:
        return self.contract is None

    @property
    def declaring_side(self) -> Side | None:
        if self.declarer_side is not None:
            return Side(self.declarer_side)
        return None if self.declarer is None else self.declarer.side

    @property
    def side_points(self) -> tuple[int, ...]:
        """``points`` typed as what it is: one entry per side, whatever the number of sides.

        (``points`` keeps the pair type of the default profile's two sides, which the layers
        above rely on.)"""
        return self.points


THROWN_IN = DealResult(None, None, 0, False, (0, 0))


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
    profile's ``misere_defender_points`` for each trick the declarer took (none in the
    default profile).  ``side_tricks`` (tricks by side) is needed only when there are
    more than two sides.  ``dealer`` matters only where the profile rests the dealer
    (:attr:`~.profile.Profile.rests`): a side that is only the resting dealer took no
    part and scores nothing.
    """
    value = profile.bid_values[contract]
    side = profile.side_of[declarer]
    count = len(profile.sides)
    points = [0] * count
    if contract.is_misere:
        made = declarer_tricks == 0
        points[side] = value if made else -value
        per_trick = profile.misere_defender_points * declarer_tricks
        if per_trick:
            absent = () if dealer is None else profile.absent_sides(dealer)
            for other in range(count):
                if other != side and other not in absent:
                    points[other] = per_trick
    else:
        assert contract.level is not None
        made = declarer_tricks >= contract.level
        if not made:
            points[side] = -value
        elif declarer_tricks == profile.hand_size:
            points[side] = max(value, profile.slam_value)
        else:
            points[side] = value
        if side_tricks is None:
            if count != 2:
                raise ValueError("say the tricks of every side when there are more than two")
            points[1 - side] = profile.defender_trick_points * (profile.hand_size - declarer_tricks)
        else:
            for other in range(count):
                if other != side:
                    points[other] = profile.defender_trick_points * side_tricks[other]
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
    the profile's ``defender_trick_points`` for each trick it took, and nobody loses."""
    points = [profile.defender_trick_points * t for t in side_tricks]
    return DealResult(
        contract, None, 0, False, _points(points), tuple(side_tricks), tuple(trick_sides)
    )
