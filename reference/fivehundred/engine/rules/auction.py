"""The auction procedure: who calls when, whether a pass is final, what ends the auction,
and what a deal everybody passed becomes.

The deal keeps the calls; after each one it asks :meth:`Auction.after_call` what comes
next and carries the answer out, so a new procedure is a new answer here, not a new
branch in the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from ..bids import Bid, Call, Misere, Pass

Procedure = Literal["until-passes", "one-round", "passes-not-final"]
AllPass = Literal["throw-in", "no-trumps"]


class Next(Enum):
    """What follows a call."""

    LEFT = "left"
    """The next seat to the left calls."""
    LEFT_UNPASSED = "left-unpassed"
    """The next seat to the left that has not passed calls."""
    RAISE = "raise"
    """The highest bidder may raise once more (or stand)."""
    WON = "won"
    """The highest bid is the contract."""
    ALL_PASSED = "all-passed"
    """Nobody bid."""


_LEFT, _LEFT_UNPASSED, _RAISE, _WON, _ALL_PASSED = (
    Next.LEFT,
    Next.LEFT_UNPASSED,
    Next.RAISE,
    Next.WON,
    Next.ALL_PASSED,
)


@dataclass(frozen=True)
class Auction:
    """How the auction runs and ends."""

    procedure: Procedure = "until-passes"
    """``until-passes``: round and round until all but one have passed, a pass being final;
    ``one-round``: each player calls once, starting left of the dealer;
    ``passes-not-final``: round and round with nobody skipped, a player who passed may bid
    again, until the others have passed in succession after a bid (four passes first:
    everybody passed)."""
    raise_after_all_pass: bool = False
    """The highest bidder may raise once more after all the others have passed."""
    inkles: bool = False
    """Six-level bids only signal: each may be made only as the bidder's first call, and
    an auction won by one is thrown in as if all had passed."""
    all_pass: AllPass = "throw-in"
    """``throw-in``: nobody scores; ``no-trumps``: the deal is played at no trumps, each
    for himself, the player left of the dealer leading, each trick scoring the defenders'
    trick points to its winner's side."""

    pass_is_final: bool = field(init=False, repr=False, compare=False)
    """A seat that has passed may not call again (read at every call)."""
    all_pass_played: bool = field(init=False, repr=False, compare=False)
    """A deal everybody passed is played (at no trumps) rather than thrown in."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "pass_is_final", self.procedure != "passes-not-final")
        object.__setattr__(self, "all_pass_played", self.all_pass == "no-trumps")

    def signals_only(self, bid: Bid) -> bool:
        """The bid only signals and cannot become the contract (a six under inkles)."""
        return self.inkles and bid.level == 6

    def first_call_only(self, bids: Sequence[Bid]) -> frozenset[Bid]:
        """The bids of ``bids`` a player may make only as a first call of the auction
        (blind misère; the sixes under inkles)."""
        return frozenset(b for b in bids if b.misere is Misere.BLIND or self.signals_only(b))

    def after_call(
        self,
        calls: Sequence[tuple[object, Call]],
        passed: bool,
        passes: int,
        players: int,
        bid_made: bool,
    ) -> Next:
        """What follows the last of ``calls``: ``passed`` says whether it is a pass,
        ``passes`` counts the seats whose pass stands, ``players`` the seats in the deal,
        ``bid_made`` whether anyone has bid."""
        procedure = self.procedure
        if procedure == "until-passes":
            if passes == players:
                return _ALL_PASSED
            if passes == players - 1 and bid_made:
                return _RAISE if self.raise_after_all_pass and passed else _WON
            return _LEFT_UNPASSED
        if procedure == "one-round":
            if len(calls) < players:
                return _LEFT
            return _WON if bid_made else _ALL_PASSED
        return self._after_call_again(calls, players, bid_made, passed)

    def _after_call_again(
        self, calls: Sequence[tuple[object, Call]], players: int, bid_made: bool, passed: bool
    ) -> Next:
        """A pass is not final: the auction ends when the calls since the last bid are the
        other players' passes (a first round of passes only: everybody passed)."""
        if not passed:
            return Next.LEFT
        run = 0
        for _, earlier in reversed(calls):
            if not isinstance(earlier, Pass):
                break
            run += 1
        if not bid_made:
            return Next.ALL_PASSED if run == players else Next.LEFT
        if run == players - 1:
            return Next.RAISE if self.raise_after_all_pass else Next.WON
        return Next.LEFT
