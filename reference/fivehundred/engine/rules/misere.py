"""The misère family: who plays it, when it ends, what the defenders score, and when an
open misère's cards are shown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..bids import Bid
from ..seats import Seat
from .table import Table

OpenMisereShown = Literal["first-trick", "opening-lead", "play"]


@dataclass(frozen=True)
class MisereRules:
    """How a misère (and Nullo) is played and scored."""

    ends_on_declarer_trick: bool = True
    """A misère ends as soon as the declarer wins a trick (else all tricks are played);
    under ``double_nullo``, as soon as the declarer's side does."""
    defender_points: int = 0
    """Points to each defending side for every trick the misère declarer takes."""
    double_nullo: bool = False
    """The declarer's partners play too (nobody sits out), the partner takes the
    declarer's discards and discards as many, and the misère ends when the declarer's side
    wins a trick."""
    open_shown: OpenMisereShown = "first-trick"
    """When the open-misère declarer's cards are laid face up: once the first trick is
    complete, once the opening lead has been played, or as play begins (before the lead)."""

    def sitting_out(self, table: Table) -> tuple[tuple[Seat, ...], ...]:
        """For each possible declarer, the side-mates who lay their hands down."""
        if self.double_nullo:
            return tuple(() for _ in range(table.seats))
        return tuple(table.partners(Seat(d)) for d in range(table.seats))

    def partner_discards(self, contract: Bid, by_declarer: bool) -> bool:
        """Whether a discard goes on to the declarer's partner, who takes it and discards
        in turn (a double nullo), instead of starting the play."""
        return self.double_nullo and contract.is_misere and by_declarer

    def exposed(self, tricks_played: int, lead_made: bool, in_play: bool) -> bool:
        """Whether the open-misère declarer's cards are face up now."""
        shown = self.open_shown
        return bool(
            tricks_played
            or (shown == "opening-lead" and lead_made)
            or (shown == "play" and in_play)
        )
