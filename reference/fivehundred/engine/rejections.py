"""The closed list of reasons an action can be refused.

Codes are part of the suite's contract: scenarios expect them, implementations under
test report them, and a code is never renamed or reused for another meaning.  The
message is for people and is never compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Code(StrEnum):
    """Stable, machine-readable rejection codes (documented in docs and schema)."""

    GAME_OVER = "game-over"
    DEAL_OVER = "deal-over"
    WRONG_PHASE = "wrong-phase"
    NOT_YOUR_TURN = "not-your-turn"
    ALREADY_PASSED = "already-passed"
    BID_NOT_AVAILABLE = "bid-not-available"
    BID_NOT_HIGHER = "bid-not-higher"
    MISERE_NEEDS_SEVEN = "misere-needs-seven"
    DISCARD_NEEDS_THREE = "discard-needs-three"
    CARD_NOT_HELD = "card-not-held"
    NOMINATION_NOT_ALLOWED = "nomination-not-allowed"
    MUST_FOLLOW_SUIT = "must-follow-suit"
    JOKER_ONLY_WHEN_VOID = "joker-only-when-void"
    JOKER_MUST_BE_PLAYED = "joker-must-be-played"
    JOKER_LEAD_NEEDS_SUIT = "joker-lead-needs-suit"
    JOKER_SUIT_ALREADY_LED = "joker-suit-already-led"
    JOKER_LEAD_ALL_SUITS_LED = "joker-lead-all-suits-led"
    UNEXPECTED_SUIT_NAME = "unexpected-suit-name"
    BLIND_MISERE_FIRST_CALL = "blind-misere-first-call"
    JOKER_LEAD_LAST_TRICK_ONLY = "joker-lead-last-trick-only"


CODE_DESCRIPTIONS: dict[Code, str] = {
    Code.GAME_OVER: "The game has been won or lost; no further deal can be played.",
    Code.DEAL_OVER: "The deal is over (ten tricks played, misère broken, or thrown in).",
    Code.WRONG_PHASE: "This kind of action does not belong to the current phase of the deal.",
    Code.NOT_YOUR_TURN: "Another seat is to act (or this seat sits out the deal).",
    Code.ALREADY_PASSED: "The seat has passed and may not call again in this auction.",
    Code.BID_NOT_AVAILABLE: "The bid does not exist in this profile.",
    Code.BID_NOT_HIGHER: "A bid must rank above the highest bid so far.",
    Code.MISERE_NEEDS_SEVEN: "Misère may be bid only over a seven-level bid.",
    Code.DISCARD_NEEDS_THREE: (
        "The declarer must discard exactly three different cards (as many as the kitty has)."
    ),
    Code.CARD_NOT_HELD: "The seat does not hold that card.",
    Code.NOMINATION_NOT_ALLOWED: (
        "Only the declarer holding the joker in no trumps or a misère may nominate its suit, "
        "once, after the discard and before the first lead."
    ),
    Code.MUST_FOLLOW_SUIT: "The seat holds a card of the suit led and must play one.",
    Code.JOKER_ONLY_WHEN_VOID: "A suitless joker may follow only when void in the suit led.",
    Code.JOKER_MUST_BE_PLAYED: "In a misère a player void in the suit led must play the joker.",
    Code.JOKER_LEAD_NEEDS_SUIT: "Leading a suitless joker requires naming a suit.",
    Code.JOKER_SUIT_ALREADY_LED: "A joker lead must name a suit not yet led in this deal.",
    Code.JOKER_LEAD_ALL_SUITS_LED: (
        "Once all four suits have been led, a suitless joker may be led only to the last trick."
    ),
    Code.UNEXPECTED_SUIT_NAME: "A suit may be named only when leading a suitless joker.",
    Code.BLIND_MISERE_FIRST_CALL: (
        "Blind misère (a variant) may be bid only as the bidder's first call of the auction."
    ),
    Code.JOKER_LEAD_LAST_TRICK_ONLY: (
        "Under the variant joker-leads-last-trick-only, a suitless joker may be led only to "
        "the last trick."
    ),
}


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why an action was refused: a stable code and a message for people."""

    code: Code
    message: str


class IllegalAction(Exception):
    """Raised by ``apply`` when an action is refused; the state is left untouched."""

    def __init__(self, rejection: Rejection) -> None:
        super().__init__(f"{rejection.code.value}: {rejection.message}")
        self.rejection = rejection

    @property
    def code(self) -> Code:
        return self.rejection.code
