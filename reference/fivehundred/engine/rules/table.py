"""The table: how many seats, their names, the sides they form, and who rests.

Every other family of rules goes round this table, so it also holds the orders derived
from it once (the next seat after each seat, the side of each seat, the next seat taking
part in a deal by each dealer) rather than having the deal work them out per action.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from ..seats import Seat

Rests = Literal["nobody", "dealer"]


def skipping(n: int, out: Iterable[int]) -> tuple[Seat, ...]:
    """The next seat clockwise after each of ``n`` seats, passing over the seats ``out``."""
    skipped = set(out)
    row = []
    for s in range(n):
        t = (s + 1) % n
        while t in skipped and t != s:
            t = (t + 1) % n
        row.append(Seat(t))
    return tuple(row)


@dataclass(frozen=True)
class Table:
    """The seats, the sides, and the seats resting from a deal."""

    seats: int = 4
    sides: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
    """The seats of each side, which shares one score; a side of one is a single player."""
    seat_names: tuple[str, ...] = ("N", "E", "S", "W")
    rests: Rests = "nobody"
    """Who takes no part in a deal: ``nobody``; or ``dealer``, the one rule that makes the
    seats of a deal depend on who deals (seed 002's second four-handed form): the dealer
    is dealt no cards, never calls or plays, and scores nothing for the deal, and the
    packets, the auction and the play go round the other seats.  The table and its sides
    stay whole, and the deal still passes to the left over every seat."""
    left: tuple[Seat, ...] = field(init=False, repr=False, compare=False)
    """The next seat clockwise after each seat."""
    side_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The side of each seat."""
    side_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """Each side's name: the names of its seats in seat order (``NS``, ``EW``; ``N`` for a
    single player; ``NSP5`` for seats N, S and P5)."""
    seat_list: tuple[Seat, ...] = field(init=False, repr=False, compare=False)
    """The seats clockwise from seat 0."""
    all_seats_mask: int = field(init=False, repr=False, compare=False)
    players: int = field(init=False, repr=False, compare=False)
    """How many seats take part in each deal (all of them unless someone rests)."""
    left_in_deal: tuple[tuple[Seat, ...], ...] = field(init=False, repr=False, compare=False)
    """For each dealer, the next seat taking part in the deal after each seat: ``left``
    itself (the same tuple) unless someone rests."""

    def __post_init__(self) -> None:
        n = self.seats
        if len(self.seat_names) != n:
            raise ValueError("one name for each seat")
        side_of = [-1] * n
        for index, members in enumerate(self.sides):
            for seat in members:
                side_of[seat] = index
        if -1 in side_of:
            raise ValueError("every seat needs a side")
        left = tuple(Seat((s + 1) % n) for s in range(n))
        names = tuple("".join(self.seat_names[s] for s in sorted(m)) for m in self.sides)
        resting = [self.resting(Seat(dealer)) for dealer in range(n)]
        derived = {
            "left": left,
            "side_of": tuple(side_of),
            "side_names": names,
            "seat_list": tuple(Seat(s) for s in range(n)),
            "all_seats_mask": (1 << n) - 1,
            "players": n - len(resting[0]),
            "left_in_deal": tuple(skipping(n, rest) if rest else left for rest in resting),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def resting(self, dealer: Seat) -> tuple[Seat, ...]:
        """The seats that take no part in a deal by ``dealer`` (see :attr:`rests`)."""
        return (dealer,) if self.rests == "dealer" else ()

    def in_deal(self, dealer: Seat) -> tuple[Seat, ...]:
        """The seats that take part in a deal by ``dealer``, clockwise from seat 0."""
        out = self.resting(dealer)
        return tuple(s for s in self.seat_list if s not in out)

    def absent_sides(self, dealer: Seat) -> tuple[int, ...]:
        """The sides with nobody in a deal by ``dealer`` (a resting dealer who is a side
        alone): they take no trick and score nothing for the deal."""
        playing = {self.side_of[s] for s in self.in_deal(dealer)}
        return tuple(side for side in range(len(self.sides)) if side not in playing)

    def partners(self, seat: Seat) -> tuple[Seat, ...]:
        """The other seats of ``seat``'s side."""
        return tuple(Seat(m) for m in self.sides[self.side_of[seat]] if m != seat)
