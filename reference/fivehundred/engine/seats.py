"""Seats and partnerships.

Seats are written N, E, S, W and go clockwise, so "the player on X's left" is the
next seat clockwise.  N–S play against E–W.
"""

from __future__ import annotations

from enum import IntEnum

from .cards import NotationError


class Seat(IntEnum):
    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def left(self) -> Seat:
        """The next seat clockwise: the one who deals, bids and plays after this one."""
        return Seat((self + 1) % 4)

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def side(self) -> Side:
        return Side(self % 2)

    @classmethod
    def parse(cls, text: object) -> Seat:
        if isinstance(text, str) and text in ("N", "E", "S", "W"):
            return cls("NESW".index(text))
        raise NotationError(f"expected a seat N, E, S or W; found {text!r}")


class Side(IntEnum):
    NS = 0
    EW = 1

    @property
    def other(self) -> Side:
        return Side(1 - self)

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat(self), Seat(self + 2))

    @classmethod
    def parse(cls, text: object) -> Side:
        if text == "NS":
            return cls.NS
        if text == "EW":
            return cls.EW
        raise NotationError(f"expected a side NS or EW; found {text!r}")


SEATS: tuple[Seat, ...] = tuple(Seat)
SIDES: tuple[Side, ...] = tuple(Side)
