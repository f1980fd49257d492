"""Seats and sides.

Seats are numbered clockwise from 0, so "the player on X's left" is the next seat
clockwise.  The default four-seat table names them N, E, S, W, and N–S play against
E–W; :attr:`Seat.left`, :attr:`Seat.partner`, :attr:`Seat.side` and :data:`SEATS`
describe that table.  Tables of other sizes (two, three, five or six seats) are
described by their profile (``Profile.left``, ``Profile.side_of``, ``Profile.sides``):
their seats 0–3 are the same members, and seats 4 and 5 are the pseudo-members
``Seat(4)`` (named ``P5``) and ``Seat(5)`` (``P6``), which iterating ``Seat`` does not
list, so every loop over the four-seat table stays as it was.  Sides work the same way:
``Side(0)`` and ``Side(1)`` are NS and EW, and a profile with three single players
uses ``Side(2)`` too (four single players, ``Side(3)``).  Names in the notation are the
profile's: ``Profile.parse_seat`` and ``Profile.parse_side`` read them, and
``Profile.side_names`` names each side by its seats (``NS``; ``N`` for a single player;
``NSP5``).
"""

from __future__ import annotations

from enum import IntEnum

MAX_SEATS = 6
"""The largest table of any profile."""
MAX_SIDES = 4
"""The most sides of any table (four single players when the dealer sits out)."""


class Seat(IntEnum):
    N = 0
    E = 1
    S = 2
    W = 3

    @classmethod
    def _missing_(cls, value: object) -> Seat | None:
        """Seats 4 and 5 of the five- and six-seat tables, made on first use."""
        if isinstance(value, int) and 4 <= value < MAX_SEATS:
            member = int.__new__(cls, value)
            member._name_ = f"P{value + 1}"
            member._value_ = value
            return cls._value2member_map_.setdefault(value, member)  # type: ignore[return-value]
        return None

    @property
    def left(self) -> Seat:
        """The next seat clockwise at the four-seat table (see ``Profile.left`` otherwise)."""
        return Seat((self + 1) % 4)

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def side(self) -> Side:
        return Side(self % 2)


class Side(IntEnum):
    NS = 0
    EW = 1

    @classmethod
    def _missing_(cls, value: object) -> Side | None:
        """The third and fourth sides of tables with more than two, made on first use."""
        if isinstance(value, int) and 2 <= value < MAX_SIDES:
            member = int.__new__(cls, value)
            member._name_ = f"SIDE{value + 1}"
            member._value_ = value
            return cls._value2member_map_.setdefault(value, member)  # type: ignore[return-value]
        return None

    @property
    def other(self) -> Side:
        return Side(1 - self)

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat(self), Seat(self + 2))


SEATS: tuple[Seat, ...] = tuple(Seat)
SIDES: tuple[Side, ...] = tuple(Side)
ALL_SEATS: tuple[Seat, ...] = tuple(Seat(i) for i in range(MAX_SEATS))
"""Every seat of the largest table, in clockwise order."""
