"""The joker's rules where rule sets differ: nominating its suit, the suits a suitless
joker lead may name, and whether it must be played in a misère."""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import ALL_SUITS_MASK, SUITS, Suit
from ..rejections import Code, Rejection


@dataclass(frozen=True)
class JokerRules:
    """What the suitless joker (no trumps and misères) may and must do."""

    nomination: bool = True
    """The declarer holding the joker may nominate its suit in no trumps and misères."""
    lead_unled_suit: bool = True
    """A suitless joker lead names a suit not yet led, and once all four suits have been
    led it may be led only to the last trick; otherwise any suit may be named."""
    must_play_in_misere: bool = True
    """In a misère a player void in the suit led holding a suitless joker must play it."""
    lead_last_trick_only: bool = False
    """A suitless joker may be led only to the last trick."""

    def forced(self, misere: bool, suitless: bool) -> bool:
        """Whether a player void in the suit led must play a suitless joker held."""
        return misere and suitless and self.must_play_in_misere

    def lead_suits(self, suits_led: int, last_trick: bool) -> list[Suit]:
        """The suits a suitless joker lead may name, given the bitset of suits led."""
        if self.lead_last_trick_only and not last_trick:
            return []
        if not self.lead_unled_suit:
            return list(SUITS)
        if suits_led == ALL_SUITS_MASK:
            return list(SUITS) if last_trick else []
        return [s for s in SUITS if not suits_led >> s & 1]

    def lead_rejection(
        self, suits_led: int, last_trick: bool, names: Suit | None
    ) -> Rejection | None:
        """Why a suitless joker lead naming ``names`` is refused (rulings 25 and 26, and
        the toggles), or ``None``."""
        if self.lead_last_trick_only and not last_trick:
            return Rejection(
                Code.JOKER_LEAD_LAST_TRICK_ONLY, "the joker may be led only to the last trick"
            )
        unled = self.lead_unled_suit
        if unled and suits_led == ALL_SUITS_MASK and not last_trick:
            return Rejection(
                Code.JOKER_LEAD_ALL_SUITS_LED,
                "all four suits have been led: the joker may be led only to the last trick",
            )
        if names is None:
            return Rejection(Code.JOKER_LEAD_NEEDS_SUIT, "name a suit when leading the joker")
        if unled and suits_led >> names & 1 and suits_led != ALL_SUITS_MASK:
            return Rejection(
                Code.JOKER_SUIT_ALREADY_LED,
                f"{names.name.lower()} has already been led in this deal",
            )
        return None
