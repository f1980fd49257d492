"""Bids and calls, and their canonical tokens.

A call is a bid or a pass.  Tokens: ``6S 6C 6D 6H 6NT`` … ``10NT``, ``MIS`` (misère;
the American profiles call it Nullo), ``OMIS`` (open misère), ``BMIS`` (blind misère,
a variant) and ``PASS``.  Which bids exist, in what order they rank and
what they are worth belong to a profile, not to this module: the objects here are
just the vocabulary every profile draws from.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum

from .cards import NotationError, Suit


class Strain(IntEnum):
    """What a suit-or-no-trump bid names; numbered in bidding order."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3
    NO_TRUMPS = 4

    @property
    def token(self) -> str:
        return ("S", "C", "D", "H", "NT")[self]

    @property
    def symbol(self) -> str:
        return ("♠", "♣", "♦", "♥", "NT")[self]

    @property
    def trump(self) -> Suit | None:
        return None if self is Strain.NO_TRUMPS else Suit(self)


class Misere(Enum):
    NONE = "none"
    CLOSED = "misère"
    OPEN = "open misère"
    BLIND = "blind misère"


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid: either ``level`` tricks in ``strain``, or one of the misères.

    Bids are interned (use :func:`parse_bid` or :data:`SUIT_BIDS`), so identity and
    equality agree and they can key dicts cheaply.
    """

    token: str
    level: int | None
    strain: Strain | None
    misere: Misere

    @property
    def is_misere(self) -> bool:
        return self.misere is not Misere.NONE

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or ``None`` for no trumps and both misères."""
        return None if self.strain is None else self.strain.trump

    @property
    def display(self) -> str:
        if self.misere is Misere.CLOSED:
            return "Misère"
        if self.misere is Misere.OPEN:
            return "Open misère"
        if self.misere is Misere.BLIND:
            return "Blind misère"
        assert self.strain is not None
        if self.level is None:
            return "No trumps (all passed)"
        return f"{self.level}{self.strain.symbol}"

    def __str__(self) -> str:
        return self.token


@dataclass(frozen=True, slots=True)
class Pass:
    """The call that is not a bid."""

    token: str = "PASS"

    @property
    def display(self) -> str:
        return "Pass"

    def __str__(self) -> str:
        return self.token


PASS = Pass()
Call = Bid | Pass

SUIT_BIDS: dict[tuple[int, Strain], Bid] = {
    (level, strain): Bid(f"{level}{strain.token}", level, strain, Misere.NONE)
    for level in range(6, 11)
    for strain in Strain
}
MISERE = Bid("MIS", None, None, Misere.CLOSED)
OPEN_MISERE = Bid("OMIS", None, None, Misere.OPEN)
BLIND_MISERE = Bid("BMIS", None, None, Misere.BLIND)
ALL_PASS_NT = Bid("ALLPASS", None, Strain.NO_TRUMPS, Misere.NONE)
"""Not a bid anyone can call: the contract of a deal that everybody passed, in profiles
whose all-pass rule is to play it at no trumps, each for himself."""

_TOKEN_TO_BID: dict[str, Bid] = {bid.token: bid for bid in SUIT_BIDS.values()}
_TOKEN_TO_BID[MISERE.token] = MISERE
_TOKEN_TO_BID[OPEN_MISERE.token] = OPEN_MISERE
_TOKEN_TO_BID[BLIND_MISERE.token] = BLIND_MISERE


def parse_bid(text: object) -> Bid:
    """Parse a bid token (not ``PASS``)."""
    bid = _TOKEN_TO_BID.get(text) if isinstance(text, str) else None
    if bid is None:
        raise NotationError(
            f"expected a bid: 6S … 10NT (level 6–10, then S C D H or NT), MIS, OMIS or BMIS; "
            f"found {text!r}"
        )
    return bid


def parse_call(text: object) -> Call:
    """Parse a call token: a bid or ``PASS``."""
    if text == "PASS":
        return PASS
    try:
        return parse_bid(text)
    except NotationError:
        raise NotationError(
            f"expected a call: PASS, a bid 6S … 10NT, MIS, OMIS or BMIS; found {text!r}"
        ) from None
