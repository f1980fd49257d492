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
    SIX_BID_FIRST_CALL = "six-bid-first-call"
    SANS_KITTY_NOT_ALLOWED = "sans-kitty-not-allowed"


CODE_DESCRIPTIONS: dict[Code, str] = {
    Code.GAME_OVER: "a `deal` or `deal_result` step after the game has been won or lost",
    Code.DEAL_OVER: "any action once the deal is over (ten tricks, a misère broken, a throw-in)",
    Code.WRONG_PHASE: (
        "an action of another phase (a call in play, a discard in the auction, a play before "
        "the discard, a `deal` or a `deal_result` while a deal is in progress)"
    ),
    Code.ALREADY_PASSED: (
        "a call by a seat that has passed (checked before `not-your-turn`; never under "
        "`pass-may-re-enter`)"
    ),
    Code.NOT_YOUR_TURN: "another seat is to act (the misère partner never is)",
    Code.BID_NOT_AVAILABLE: "a bid the profile does not have",
    Code.BLIND_MISERE_FIRST_CALL: (
        "blind misère (a variant) bid other than as the bidder's first call of the auction"
    ),
    Code.SIX_BID_FIRST_CALL: (
        "a six-level bid other than as the bidder's first call of the auction, under the "
        "variant `inkles`"
    ),
    Code.BID_NOT_HIGHER: "a bid not ranking above the highest so far (partner's included)",
    Code.MISERE_NEEDS_SEVEN: "misère while the highest bid is not a seven (no bid yet, or a six)",
    Code.DISCARD_NEEDS_THREE: (
        "not exactly as many different cards as the kitty holds (three), counting every entry "
        "(checked before `card-not-held`)"
    ),
    Code.CARD_NOT_HELD: "a card the seat does not hold",
    Code.SANS_KITTY_NOT_ALLOWED: (
        "`SANS KITTY` by the declarer at the kitty without the variant `sans-kitty`, or with a "
        "misère contract (checked after `wrong-phase` and `not-your-turn`)"
    ),
    Code.NOMINATION_NOT_ALLOWED: (
        "any nomination except the declarer's, holding the joker, in no trumps or a misère, "
        "once, before the first lead"
    ),
    Code.UNEXPECTED_SUIT_NAME: "`names` on anything but a suitless joker lead",
    Code.JOKER_LEAD_LAST_TRICK_ONLY: (
        "leading a suitless joker before the last trick under the variant "
        "`joker-leads-last-trick-only`"
    ),
    Code.JOKER_LEAD_ALL_SUITS_LED: (
        "leading a suitless joker when all four suits have been led, before the last trick"
    ),
    Code.JOKER_LEAD_NEEDS_SUIT: "leading a suitless joker without naming a suit",
    Code.JOKER_SUIT_ALREADY_LED: "naming a suit already led (before all four have been led)",
    Code.MUST_FOLLOW_SUIT: "not following when able",
    Code.JOKER_ONLY_WHEN_VOID: "a suitless joker played on a lead of a suit the player holds",
    Code.JOKER_MUST_BE_PLAYED: (
        "in a misère, a player void in the suit led who holds a suitless joker plays another card"
    ),
}
"""When each code applies, in the order the format page lists them: the order in which
the checks run where several could apply."""


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
