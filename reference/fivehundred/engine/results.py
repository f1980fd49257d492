"""What a finished deal contributes to the game (:class:`DealResult`).

Its own module because both the scoring of a deal and the rule components that read a
result (the defender cap, the end of the game) need it, and the components sit below the
profile that the scoring reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from .bids import Bid
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
