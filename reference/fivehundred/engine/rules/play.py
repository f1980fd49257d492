"""The start of play: whether the declarer may play without the kitty, and who leads to
the first trick."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..bids import Bid
from ..seats import Seat

OpeningLead = Literal["declarer", "dealers-left"]


@dataclass(frozen=True)
class PlayRules:
    """The kitty's use and the opening lead."""

    opening_lead: OpeningLead = "declarer"
    """Who leads to the first trick: the declarer, or the first player left of the dealer
    who takes part in the play (a misère declarer's partners sit out)."""
    sans_kitty: bool = False
    """The declarer of a suit or no-trump contract may play without the kitty (the action
    ``SANS KITTY`` at the kitty, instead of a discard)."""

    def sans_kitty_allowed(self, contract: Bid | None) -> bool:
        """Whether ``SANS KITTY`` may be announced in ``contract`` (never in a misère)."""
        return self.sans_kitty and contract is not None and not contract.is_misere

    def opening_leader(
        self, dealer: Seat, declarer: Seat, left: Sequence[Seat], out: Sequence[Seat]
    ) -> Seat:
        """Who leads to the first trick: the declarer, or the first seat after the dealer
        (``left`` skipping any seat resting from the deal) not among the seats ``out``."""
        if self.opening_lead == "declarer":
            return declarer
        seat = left[dealer]
        while seat in out:
            seat = left[seat]
        return seat
