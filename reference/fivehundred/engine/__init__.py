"""The pure rules engine of Five Hundred: no I/O, no global state, no imports from the
rest of the package.  Randomness only through an RNG the caller passes in.

Every rule that differs between forms of the game is read from a :class:`Profile`
(:mod:`.profile`: :func:`profile_named` builds one from a name and variant toggles), a
composition of rule components (:mod:`.rules`: the table, the pack, the ladder, the
auction, the misère, the joker, the start of play, the scoring, the end of the game) that
the deal and the game ask; the default profile is the Australian four-handed partnership
game.

How the engine is kept fast (this is the one place that explains it)
---------------------------------------------------------------------
Random play spends nearly all its time listing legal actions and applying card plays,
so those paths do as little as possible:

* **Cards are small ints and hands are int bitsets** (:mod:`.cards`): "does the seat hold
  this card", "can it follow suit" and "is it void" are one ``&`` each.
* **Per-contract tables** (:mod:`.trick_rules`): a card's effective suit, its power and
  each suit's bitset depend only on the trump suit and the joker's nominated suit, at
  most 25 combinations, each computed once (``functools.cache``); deciding a trick is
  then a look-up of each card's precomputed claim to it.
* **Interned actions and per-suit play tables** (:mod:`.actions`): plays, joker leads and
  nominations are created once; the plays of each set of one suit's 13 bits are cached
  on first use, so listing legal plays is four table look-ups and no allocation per card.
* **Tables made once per component** (:mod:`.rules`): the calls legal above each bid
  rank are a tuple per ladder; bid ranks are looked up by the interned bid's identity; a
  profile copies the table's and the pack's values the deal reads on every action; the
  deck positions each seat receives are computed once per profile and dealer
  (:mod:`.deal`), so dealing is building a few bitsets; a uniform random discard indexes
  the sets of kitty-size positions lazily (:class:`DiscardChoices`) instead of listing
  them.
* **Derived state in slots**: the deal keeps the next seat after each seat, the side of
  each seat, whether the joker is forced, and the trick size in ``__slots__`` set once
  when play starts, rather than recomputing them from the contract and the profile at
  every card; the last trick is kept raw and made into a :class:`Trick` only when asked.
* **Rule components off the hot path**: the components are asked only on the paths they
  govern (a joker lead, a call, the end of a deal), so following suit asks none of them.
"""

from .actions import (
    JOKER_LEADS,
    NOMINATIONS,
    PLAYS,
    SANS_KITTY,
    SANS_KITTY_STRING,
    Action,
    Discard,
    Nominate,
    Play,
    SansKitty,
    parse_action,
)
from .bids import (
    ALL_PASS_NT,
    BLIND_MISERE,
    MISERE,
    OPEN_MISERE,
    PASS,
    SUIT_BIDS,
    Bid,
    Call,
    Misere,
    Pass,
    Strain,
    parse_bid,
    parse_call,
)
from .cards import (
    JOKER,
    SUITS,
    Card,
    NotationError,
    Suit,
    card_display,
    card_rank,
    card_strength,
    card_suit,
    card_token,
    cards_in,
    is_numeral,
    make_card,
    make_numeral,
    mask_of,
    parse_card,
    sorted_cards,
)
from .deal import Deal, DiscardChoices, Phase, SetupError, Trick
from .dealing import deal_all, deal_packets, first_dealer, shuffled_deck
from .game import Game
from .profile import (
    ALL_PROFILES,
    DEFAULT_PROFILE,
    DEFAULT_PROFILE_NAME,
    PROFILE_DESCRIPTIONS,
    PROFILE_NAMES,
    PROFILES,
    VARIANTS,
    Profile,
    Variant,
    get_profile,
    profile_named,
    rule_points,
    rule_value,
    variants_for,
)
from .rejections import CODE_DESCRIPTIONS, Code, IllegalAction, Rejection
from .scoring import THROWN_IN, DealResult, score_all_pass, score_deal
from .seats import ALL_SEATS, SEATS, SIDES, Seat, Side
from .trick_rules import TrickRules, bowers, trick_rules

__all__ = [
    "ALL_PASS_NT",
    "ALL_PROFILES",
    "ALL_SEATS",
    "BLIND_MISERE",
    "CODE_DESCRIPTIONS",
    "DEFAULT_PROFILE",
    "DEFAULT_PROFILE_NAME",
    "JOKER",
    "JOKER_LEADS",
    "MISERE",
    "NOMINATIONS",
    "OPEN_MISERE",
    "PASS",
    "PLAYS",
    "PROFILES",
    "PROFILE_DESCRIPTIONS",
    "PROFILE_NAMES",
    "SANS_KITTY",
    "SANS_KITTY_STRING",
    "SEATS",
    "SIDES",
    "SUITS",
    "SUIT_BIDS",
    "THROWN_IN",
    "VARIANTS",
    "Action",
    "Bid",
    "Call",
    "Card",
    "Code",
    "Deal",
    "DealResult",
    "Discard",
    "DiscardChoices",
    "Game",
    "IllegalAction",
    "Misere",
    "Nominate",
    "NotationError",
    "Pass",
    "Phase",
    "Play",
    "Profile",
    "Rejection",
    "SansKitty",
    "Seat",
    "SetupError",
    "Side",
    "Strain",
    "Suit",
    "Trick",
    "TrickRules",
    "Variant",
    "bowers",
    "card_display",
    "card_rank",
    "card_strength",
    "card_suit",
    "card_token",
    "cards_in",
    "deal_all",
    "deal_packets",
    "first_dealer",
    "get_profile",
    "is_numeral",
    "make_card",
    "make_numeral",
    "mask_of",
    "parse_action",
    "parse_bid",
    "parse_call",
    "parse_card",
    "profile_named",
    "rule_points",
    "rule_value",
    "score_all_pass",
    "score_deal",
    "shuffled_deck",
    "sorted_cards",
    "trick_rules",
    "variants_for",
]
