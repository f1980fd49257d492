"""The bid ladder: which bids exist, in which order, what each is worth, and when a
misère may be bid.

The ladder answers the auction's questions from tables made once: the rank of each bid
(bids tied in rank share one), and for each highest rank so far the calls that may follow
it, so the deal's legal calls are one look-up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from ..bids import PASS, Bid, Call, Misere

OutranksBy = Literal["rank", "value"]


def by_value(values: Mapping[Bid, int]) -> tuple[Bid, ...]:
    """The ladder of a table that ranks bids by value, then by tricks (seed 002, note to
    «Торговля»); a misère counts as ten tricks, after every bid of its value."""
    return tuple(sorted(values, key=lambda b: (values[b], b.level or 10)))


@dataclass(frozen=True)
class Ladder:
    """The bids of a rule set, lowest first, with their values."""

    order: tuple[Bid, ...]
    """Every bid, lowest first (bids tied in ``ties`` are adjacent)."""
    values: Mapping[Bid, int] = field(hash=False)
    misere_needs: Bid | None
    """Misère may be bid only when the highest bid so far ranks at least this high."""
    ties: tuple[tuple[Bid, Bid], ...] = ()
    """Pairs of bids of equal rank: neither may be bid over the other."""
    outranks_by: OutranksBy = "rank"
    """``rank``: a bid outranks another by its place in ``order``, whatever the values
    (the default profile: misère 250 ranks below 8♠ 240); ``value``: by point value, then
    by tricks (seed 002's note for its other tables), and ``order`` must then be in that
    order (checked).  The engine compares places in ``order`` either way."""
    rank: Mapping[Bid, int] = field(init=False, repr=False, compare=False)
    """The rank of each bid (tied bids share one)."""
    _rank_by_id: dict[int, int] = field(init=False, repr=False, compare=False)
    _calls_above: tuple[tuple[Call, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", MappingProxyType(dict(self.values)))
        ranks: dict[Bid, int] = {}
        tied = {b: a for a, b in self.ties}
        rank = -1
        for bid in self.order:
            if bid in tied and tied[bid] in ranks:
                ranks[bid] = ranks[tied[bid]]
            else:
                rank += 1
                ranks[bid] = rank
        object.__setattr__(self, "rank", MappingProxyType(ranks))
        # Keyed by the interned bids' ids: hashing a frozen dataclass costs more than the
        # rest of checking a bid (equal bids that are not interned fall back to ``rank``).
        object.__setattr__(self, "_rank_by_id", {id(b): r for b, r in ranks.items()})
        above = tuple(self._calls_over(high) for high in range(-1, rank + 1))
        object.__setattr__(self, "_calls_above", above)
        if self.outranks_by == "value" and list(self.order) != list(
            by_value({b: self.values[b] for b in self.order})
        ):
            raise ValueError("bids out of value order")

    def misere_closed(self, high_rank: int) -> bool:
        """Whether a closed misère may not yet be bid over the bid of rank ``high_rank``
        (-1: no bid yet): the ladder sets a bid it must follow, not yet reached."""
        needs = self.misere_needs
        return needs is not None and high_rank < self.rank[needs]

    def _calls_over(self, high_rank: int) -> tuple[Call, ...]:
        closed = self.misere_closed(high_rank)
        calls: list[Call] = [PASS]
        for bid in self.order:
            if self.rank[bid] <= high_rank or (closed and bid.misere is Misere.CLOSED):
                continue
            calls.append(bid)
        return tuple(calls)

    def calls_above(self, high_rank: int) -> tuple[Call, ...]:
        """PASS and every bid that may follow the bid of rank ``high_rank`` (-1: none)."""
        return self._calls_above[high_rank + 1]

    def rank_of(self, bid: Bid) -> int | None:
        """The bid's rank, ``None`` for a bid that is not on the ladder."""
        rank = self._rank_by_id.get(id(bid))
        return rank if rank is not None else self.rank.get(bid)
