"""The pure rules engine of Five Hundred: no I/O, no global state, no imports from the
rest of the package.  Randomness only through an RNG the caller passes in."""

from .actions import JOKER_LEADS, NOMINATIONS, PLAYS, Action, Discard, Nominate, Play, parse_action
from .bids import MISERE, OPEN_MISERE, PASS, SUIT_BIDS, Bid, Call, Misere, Pass, Strain
from .bids import parse_bid, parse_call
from .cards import (
    JOKER,
    SUITS,
    Card,
    NotationError,
    Suit,
    card_display,
    card_rank,
    card_suit,
    card_token,
    cards_in,
    make_card,
    mask_of,
    parse_card,
    sorted_cards,
)
from .deal import Deal, DiscardChoices, Phase, SetupError, Trick
from .dealing import deal_packets, first_dealer, shuffled_deck
from .game import Game
from .profile import DEFAULT_PROFILE, PROFILES, Profile, get_profile
from .rejections import CODE_DESCRIPTIONS, Code, IllegalAction, Rejection
from .scoring import THROWN_IN, DealResult, score_deal
from .seats import SEATS, SIDES, Seat, Side
from .trick_rules import TrickRules, bowers, trick_rules

__all__ = [
    "CODE_DESCRIPTIONS", "DEFAULT_PROFILE", "JOKER", "JOKER_LEADS", "MISERE", "NOMINATIONS",
    "OPEN_MISERE", "PASS", "PLAYS", "PROFILES", "SEATS", "SIDES", "SUITS", "SUIT_BIDS",
    "THROWN_IN", "Action", "Bid", "Call", "Card", "Code", "Deal", "DealResult", "Discard",
    "DiscardChoices", "Game", "IllegalAction", "Misere", "Nominate", "NotationError", "Pass",
    "Phase", "Play", "Profile", "Rejection", "Seat", "SetupError", "Side", "Strain", "Suit",
    "Trick", "TrickRules", "bowers", "card_display", "card_rank", "card_suit", "card_token",
    "cards_in", "deal_packets", "first_dealer", "get_profile", "make_card", "mask_of",
    "parse_action", "parse_bid", "parse_call", "parse_card", "score_deal", "shuffled_deck",
    "sorted_cards", "trick_rules",
]
