"""One deal: auction, kitty exchange, joker nomination, play and its score.

:class:`Deal` is mutable, like a chess board: ``apply`` checks an action and, only if
it is legal, changes the state; a refused action raises :class:`IllegalAction` and
leaves every field as it was.  ``legal_actions`` lists exactly what ``apply`` accepts
from the seat to act.  Hands are int bitsets (see :mod:`.cards`).
  How it stays fast is explained once, in the package docstring.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from itertools import combinations
from typing import overload

from .actions import (
    JOKER_LEADS,
    NOMINATIONS,
    PLAYS,
    SANS_KITTY,
    Action,
    Discard,
    Nominate,
    Play,
    SansKitty,
    plays_in,
)
from .bids import ALL_PASS_NT, OPEN_MISERE, PASS, Bid, Call, Misere, Pass, Strain
from .cards import (
    JOKER,
    SUITS,
    Card,
    Suit,
    card_token,
    cards_in,
    mask_of,
    sorted_cards,
)
from .dealing import deal_all
from .profile import Profile
from .rejections import Code, IllegalAction, Rejection
from .rules import Next
from .scoring import THROWN_IN, DealResult, score_all_pass, score_deal
from .seats import Seat, Side
from .trick_rules import NO_SUIT, TrickRules, trick_rules

_JOKER_BIT = 1 << JOKER


class Phase(str, Enum):  # noqa: UP042 - StrEnum would change str(Phase.PLAY)
    AUCTION = "auction"
    KITTY = "kitty"
    PLAY = "play"
    OVER = "over"


# Module-level aliases: reading an enum member through its class costs a lookup each time.
_AUCTION, _KITTY, _PLAY, _OVER = Phase.AUCTION, Phase.KITTY, Phase.PLAY, Phase.OVER
_CLOSED_MISERE, _BLIND_MISERE = Misere.CLOSED, Misere.BLIND
_NEXT_LEFT, _NEXT_LEFT_UNPASSED = Next.LEFT, Next.LEFT_UNPASSED

_TRUMP_OF: tuple[Suit | None, ...] = tuple(strain.trump for strain in Strain)
"""The trump suit of each strain (``None`` for no trumps)."""


class SetupError(ValueError):
    """A starting position that cannot occur (duplicate cards, uneven hands, …)."""


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, the cards in play order, the suit led and the winner."""

    leader: Seat
    cards: tuple[tuple[Seat, Card], ...]
    led: Suit
    winner: Seat


class DiscardChoices(Sequence[Discard | SansKitty]):
    """Every legal discard (each set of kitty-size cards of the declarer's), without listing
    them, and ``SANS KITTY`` last when ``sans_kitty`` (the toggle, in a suit or no-trump
    contract).

    A declarer with 13 cards has 286 possible discards; this sequence indexes them in
    lexicographic order on demand, so a uniform random choice costs one look-up.
    """

    def __init__(self, cards: Sequence[Card], size: int = 3, *, sans_kitty: bool = False) -> None:
        self._cards = tuple(sorted_cards(cards))
        self._size = size
        self._triples = _index_triples(len(self._cards), size)
        self._discards = len(self._triples)
        self.sans_kitty = sans_kitty
        self._len = self._discards + sans_kitty

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Discard | SansKitty: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Discard | SansKitty]: ...
    def __getitem__(
        self, index: int | slice
    ) -> Discard | SansKitty | Sequence[Discard | SansKitty]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError(index)
        if index == self._discards:
            return SANS_KITTY
        cards = self._cards
        return Discard(tuple(cards[i] for i in self._triples[index]))

    def __contains__(self, item: object) -> bool:
        if isinstance(item, SansKitty):
            return self.sans_kitty
        return (
            isinstance(item, Discard)
            and len(item.cards) == self._size
            and len(set(item.cards)) == self._size
            and all(c in self._cards for c in item.cards)
        )

    def __iter__(self) -> Iterator[Discard | SansKitty]:
        return (self[i] for i in range(self._len))


@cache
def _index_triples(n: int, size: int = 3) -> tuple[tuple[int, ...], ...]:
    """Every set of ``size`` positions out of ``n``, in lexicographic order."""
    return tuple(combinations(range(n), size))


@cache
def _calls_without(calls: tuple[Call, ...], first_only: frozenset[Bid]) -> tuple[Call, ...]:
    """``calls`` less the bids that may be made only as a first call."""
    return tuple(c for c in calls if c not in first_only)


@cache
def _sorted_deck(profile: Profile) -> list[Card]:
    return sorted(profile.deck)


@cache
def _packet_positions(profile: Profile, dealer: Seat) -> tuple[tuple[int, ...], ...]:
    """Positions in an ordered deck of each seat's cards, then of the kitty's, then of the
    cards out of play, as :func:`~.dealing.deal_all` deals them (it is asked once, with a
    deck of positions)."""
    positions = [Card(i) for i in range(len(profile.deck))]
    hands, kitty, dead = deal_all(profile, dealer, positions)
    return (*(tuple(hand) for hand in hands), tuple(kitty), tuple(dead))


def _mask_at(deck: Sequence[Card], positions: tuple[int, ...]) -> int:
    mask = 0
    for i in positions:
        mask |= 1 << deck[i]
    return mask


def _reject(code: Code, message: str) -> Rejection:
    return Rejection(code, message)


class Deal:
    """The state of one deal.  See the module docstring."""

    __slots__ = (
        "_called",
        "_calls",
        "_high_rank",
        "_joker_forced",
        "_kitty_taken",
        "_left",
        "_misere",
        "_next_seat",
        "_passed",
        "_previous_trick",
        "_raise_turn",
        "_side_of",
        "_trick_sides",
        "contract",
        "dead",
        "dealer",
        "declarer",
        "discards",
        "hands",
        "high_bid",
        "high_bidder",
        "kitty",
        "led",
        "nominated",
        "phase",
        "profile",
        "result",
        "rules",
        "suits_led",
        "to_act",
        "trick_cards",
        "trick_seats",
        "trick_size",
        "tricks_played",
        "tricks_won",
    )

    profile: Profile
    dealer: Seat
    hands: list[int]
    kitty: int
    dead: int
    """Cards out of play from the deal on: dead hands and undealt cards (none by default)."""
    discards: int
    phase: Phase
    to_act: Seat | None
    _calls: list[tuple[Seat, Call]]
    _passed: int
    _called: int
    """Bitset of the seats that have made a call (a blind misère must be the first)."""
    _kitty_taken: int
    """The kitty as dealt, once the declarer has taken it (put back by ``SANS KITTY``)."""
    _raise_turn: bool
    """The others have all passed and the highest bidder may raise once more (a variant)."""
    high_bid: Bid | None
    high_bidder: Seat | None
    _high_rank: int
    """Rank of ``high_bid`` in the profile's bid order; -1 before the first bid."""
    contract: Bid | None
    declarer: Seat | None
    _misere: bool
    """The contract is a misère (the partners sit out; in the default profile the deal ends
    on the declarer's first trick)."""
    nominated: Suit | None
    rules: TrickRules
    _joker_forced: bool
    """A misère with a suitless joker: a player void in the suit led must play it."""
    _left: tuple[Seat, ...]
    """The next seat taking part in this deal after each seat (``profile.left`` unless the
    profile rests the dealer): the order of the packets, the auction and the play."""
    _next_seat: tuple[Seat, ...]
    """The seat that plays after each seat (skipping the misère declarer's partners)."""
    _side_of: tuple[int, ...]
    """The side of each seat (the profile's table)."""
    _trick_sides: list[int]
    """The side that won each trick so far, in order."""
    trick_seats: list[Seat]
    trick_cards: list[Card]
    trick_size: int
    led: int
    suits_led: int
    tricks_won: list[int]
    tricks_played: int
    _previous_trick: tuple[list[Seat], list[Card], int, Seat] | None
    """The last completed trick as (seats, cards, effective suit led, winner); made into a
    :class:`Trick` only when asked for, as most random play never looks at it."""
    result: DealResult | None

    # ---- construction --------------------------------------------------------------

    def __init__(
        self,
        profile: Profile,
        dealer: Seat,
        hands: Sequence[Iterable[Card]],
        kitty: Iterable[Card],
    ) -> None:
        """A deal at the start of the auction, with the hands and kitty as dealt."""
        hand_lists = [list(h) for h in hands]
        kitty_list = list(kitty)
        _check_cards(profile, hand_lists, kitty_list)
        out = profile.resting(dealer)
        if any(hand_lists[s] for s in out):
            raise SetupError("the dealer sits out this deal and holds no cards")
        if any(len(h) != profile.hand_size for s, h in enumerate(hand_lists) if s not in out):
            raise SetupError(f"each hand must have {profile.hand_size} cards at the auction")
        if len(kitty_list) != profile.kitty_size:
            raise SetupError(f"the kitty must have {profile.kitty_size} cards")
        self._init_common(profile, dealer)
        self.hands = [mask_of(h) for h in hand_lists]
        self.kitty = mask_of(kitty_list)
        self.to_act = self._left[dealer]

    @classmethod
    def from_deck(cls, profile: Profile, dealer: Seat, deck: Sequence[Card]) -> Deal:
        """Deal an ordered deck in packets starting left of the dealer."""
        if sorted(deck) != _sorted_deck(profile):
            raise SetupError(f"the deck must be the {len(profile.deck)} cards of the profile")
        # The deck is the profile's, so the hands need no checking: go straight to bitsets
        # through the positions that deal_packets gives each seat and the kitty.
        *hand_positions, kitty_positions, dead_positions = _packet_positions(profile, dealer)
        deal = cls.__new__(cls)
        deal._init_common(profile, dealer)
        deal.hands = [_mask_at(deck, positions) for positions in hand_positions]
        deal.kitty = _mask_at(deck, kitty_positions)
        if dead_positions:
            deal.dead = _mask_at(deck, dead_positions)
        deal.to_act = deal._left[dealer]
        return deal

    @classmethod
    def in_play(
        cls,
        profile: Profile,
        dealer: Seat,
        contract: Bid,
        declarer: Seat,
        hands: Sequence[Iterable[Card]],
        *,
        leader: Seat | None = None,
        nominated: Suit | None = None,
        suits_led: Iterable[Suit] = (),
        tricks: Sequence[int] | None = None,
    ) -> Deal:
        """A deal in play at a trick boundary, for starting at the interesting moment.

        All active hands have the same size; the tricks already won (one count per side,
        none won by default) add up to the tricks already played.  In a misère the
        declarer's partners take no part, so those hands may be given empty; a dealer
        who rests (the table's ``rests``) holds no cards and has won no tricks.
        """
        if contract not in profile.bid_rank:
            raise SetupError(f"contract {contract.token} does not exist in this profile")
        if profile.auction.signals_only(contract):
            raise SetupError("under inkles a six-level bid cannot become the contract")
        resting = profile.resting(dealer)
        out = (*resting, *profile.sitting_out[declarer]) if contract.is_misere else resting
        hand_lists, size = _hands_in_play(profile, hands, resting, out, declarer)
        played = profile.hand_size - size
        tricks = _tricks_won(profile, dealer, declarer, contract, tricks, size, played)
        led_suits = list(suits_led)
        led_mask = 0
        for suit in led_suits:
            led_mask |= 1 << suit
        if bin(led_mask).count("1") > played:
            raise SetupError(f"{played} tricks played cannot have led {len(led_suits)} suits")
        if nominated is not None:
            if contract.trump is not None:
                raise SetupError("the joker can be nominated only in no trumps and misères")
            if JOKER not in hand_lists[declarer]:
                raise SetupError("a nominated joker must be in the declarer's hand")
        opening = _opening_leader(profile, dealer, declarer, contract)
        leader = _leader_in_play(profile, leader, opening, declarer, tricks, played, resting, out)
        hand_masks = [mask_of(h) for h in hand_lists]
        if led_suits and played:
            playing = [seat for seat in profile.seat_list if seat not in out]
            leads = _lead_caps(profile, tricks, leader, opening)
            _check_suits_led(
                profile, contract, nominated, hand_masks, playing, led_suits, played, leads
            )
        deal = cls.__new__(cls)
        deal._init_common(profile, dealer)
        deal.hands = hand_masks
        deal.kitty = 0
        deal.contract = contract
        deal.declarer = declarer
        # Whatever the calls were, the auction ended with the declarer's bid standing
        # and the others in the deal passed (auction-end).
        deal.high_bid, deal.high_bidder = contract, declarer
        deal._high_rank = profile.bid_rank[contract]
        called = profile.all_seats_mask
        for seat in resting:
            called &= ~(1 << seat)
        deal._passed = called & ~(1 << declarer)
        deal._called = called
        deal._start_play(nominated)
        deal.to_act = leader
        deal.suits_led = led_mask
        deal.tricks_won = list(tricks)
        deal.tricks_played = played
        return deal

    def _init_common(self, profile: Profile, dealer: Seat) -> None:
        self.profile = profile
        self.dealer = dealer
        self.discards = 0
        self._kitty_taken = 0
        self.dead = 0
        self.phase = _AUCTION
        self._calls = []
        self._passed = 0
        self._called = 0
        self._raise_turn = False
        self.high_bid = None
        self.high_bidder = None
        self._high_rank = -1
        self.contract = None
        self.declarer = None
        self._misere = False
        self.nominated = None
        self.rules = trick_rules(None, None)
        self._joker_forced = False
        self._left = self._next_seat = profile.left_in_deal[dealer]
        self._side_of = profile.side_of
        self._trick_sides = []
        self.trick_seats = []
        self.trick_cards = []
        self.trick_size = profile.players
        self.led = NO_SUIT
        self.suits_led = 0
        self.tricks_won = [0] * len(profile.sides)
        self.tricks_played = 0
        self._previous_trick = None
        self.result = None

    def _start_play(self, nominated: Suit | None) -> None:
        contract, declarer, profile = self.contract, self.declarer, self.profile
        assert contract is not None
        self.phase = _PLAY
        self.nominated = nominated
        trump = None if contract.strain is None else _TRUMP_OF[contract.strain]
        self.rules = trick_rules(trump, nominated)
        misere = contract.misere is not Misere.NONE
        self._misere = misere
        self._joker_forced = profile.joker.forced(misere, self.rules.joker_is_suitless)
        if misere:
            assert declarer is not None
            self._next_seat = profile.next_in_misere[self.dealer][declarer]
            self.trick_size = profile.players - len(profile.sitting_out[declarer])
        else:
            self._next_seat = self._left
            self.trick_size = profile.players

    # ---- reading the state ---------------------------------------------------------

    def hand(self, seat: Seat) -> list[Card]:
        return cards_in(self.hands[seat])

    @property
    def calls(self) -> list[tuple[Seat, Call]]:
        return list(self._calls)

    def has_passed(self, seat: Seat) -> bool:
        return bool(self._passed >> seat & 1)

    @property
    def sitting_out(self) -> Seat | None:
        """The misère declarer's partner, who lays the hand down and does not play (the
        first of them at a table with sides of three; see :attr:`sitting_out_seats`)."""
        seats = self.sitting_out_seats
        return seats[0] if seats else None

    @property
    def sitting_out_seats(self) -> tuple[Seat, ...]:
        """Every seat that lays its hand down for the misère declarer."""
        if self.contract is not None and self.contract.is_misere and self.declarer is not None:
            return self.profile.sitting_out[self.declarer]
        return ()

    @property
    def current_trick(self) -> list[tuple[Seat, Card]]:
        return list(zip(self.trick_seats, self.trick_cards, strict=True))

    @property
    def last_trick(self) -> Trick | None:
        """The last completed trick, or ``None`` before the first one is complete."""
        if self._previous_trick is None:
            return None
        seats, cards, led, winner = self._previous_trick
        return Trick(seats[0], tuple(zip(seats, cards, strict=True)), SUITS[led], winner)

    @property
    def led_suit(self) -> Suit | None:
        """Effective suit led to the current trick (the named suit for a joker lead)."""
        return SUITS[self.led] if self.trick_cards else None

    @property
    def suits_led_list(self) -> list[Suit]:
        return [s for s in SUITS if self.suits_led >> s & 1]

    def tricks(self, side: Side) -> int:
        return self.tricks_won[side]

    @property
    def exposed(self) -> list[Card] | None:
        """The open-misère declarer's cards, face up from the end of the first trick (or,
        as the profile says, from the opening lead or from the start of play)."""
        if self.contract is not OPEN_MISERE or self.declarer is None:
            return None
        if self.profile.misere.exposed(
            self.tricks_played, bool(self.trick_cards), self.phase is _PLAY
        ):
            return cards_in(self.hands[self.declarer])
        return None

    @property
    def joker_is_suitless(self) -> bool:
        return self.rules.joker_is_suitless

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def thrown_in(self) -> bool:
        return self.result is THROWN_IN

    def _nomination_open(self) -> bool:
        return (
            self.profile.joker.nomination
            and self.phase is _PLAY
            and self.tricks_played == 0
            and not self.trick_cards
            and self.rules.joker_is_suitless
            and self.declarer is not None
            and self.to_act == self.declarer
            and bool(self.hands[self.declarer] & _JOKER_BIT)
        )

    # ---- legal actions -------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        """Exactly the actions :meth:`apply` accepts from the seat to act."""
        phase = self.phase
        if phase is _PLAY:
            if self.trick_cards:  # following: the commonest case, answered here
                assert self.to_act is not None
                hand = self.hands[self.to_act]
                follow = hand & self.rules.suit_masks[self.led]
                if follow:
                    return plays_in(follow)
                if hand & _JOKER_BIT and self._joker_forced:
                    return [PLAYS[JOKER]]
                return plays_in(hand)
            return self._legal_leads()
        if phase is _AUCTION:
            profile = self.profile
            calls = profile.ladder.calls_above(self._high_rank)
            if profile.first_call_only:  # a seat that has called may not bid these any more
                to_act = self.to_act
                if to_act is not None and self._called >> to_act & 1:
                    return _calls_without(calls, profile.first_call_only)
            return calls
        if phase is _KITTY:
            assert self.declarer is not None
            profile = self.profile
            sans = profile.play.sans_kitty_allowed(self.contract)
            assert self.to_act is not None  # the declarer, or a double nullo's partner
            return DiscardChoices(
                cards_in(self.hands[self.to_act]), profile.kitty_size, sans_kitty=sans
            )
        return ()

    def _legal_leads(self) -> list[Action]:
        assert self.to_act is not None
        hand = self.hands[self.to_act]
        if hand & _JOKER_BIT and self.rules.joker_is_suitless:
            plays = plays_in(hand ^ _JOKER_BIT)
            plays.extend(JOKER_LEADS[s] for s in self._joker_lead_suits())
            if self._nomination_open():
                plays.extend(NOMINATIONS)
            return plays
        return plays_in(hand)

    def _joker_lead_suits(self) -> list[Suit]:
        return self.profile.joker.lead_suits(self.suits_led, self._last_trick())

    def _last_trick(self) -> bool:
        return self.tricks_played == self.profile.hand_size - 1

    # ---- checking ------------------------------------------------------------------

    def rejection(self, seat: Seat, action: Action) -> Rejection | None:
        """Why ``seat`` may not take ``action`` now, or ``None`` if it may."""
        if self.phase is _OVER:
            return _reject(Code.DEAL_OVER, "the deal is over")
        if isinstance(action, Play):
            return self._check_play(seat, action)
        if isinstance(action, (Bid, Pass)):  # a tuple: faster than a union
            return self._check_call(seat, action)
        if isinstance(action, Discard):
            return self._check_discard(seat, action)
        if isinstance(action, SansKitty):
            return self._check_sans_kitty(seat)
        return self._check_nomination(seat, action)

    def _check_call(self, seat: Seat, call: Call) -> Rejection | None:
        if self.phase is not _AUCTION:
            return _reject(Code.WRONG_PHASE, "the auction is over")
        if self._passed >> seat & 1 and self.profile.auction.pass_is_final:
            return _reject(Code.ALREADY_PASSED, f"{seat.name} has passed and may not call again")
        if seat != self.to_act:
            return _not_your_turn(seat, self.to_act)
        if call is PASS or isinstance(call, Pass):
            return None
        profile = self.profile
        rank = profile.ladder.rank_of(call)
        if rank is None:
            return _reject(Code.BID_NOT_AVAILABLE, f"{call.token} is not a bid of this profile")
        first_only = profile.first_call_only  # empty unless a toggle adds such bids
        if first_only and self._called >> seat & 1 and call in first_only:
            return _first_call_rejection(seat, call)
        high = self.high_bid
        if high is not None and rank <= self._high_rank:
            return _reject(Code.BID_NOT_HIGHER, f"{call.token} does not rank above {high.token}")
        needs = profile.ladder.misere_needs
        if (
            call.misere is _CLOSED_MISERE
            and needs is not None
            and profile.ladder.misere_closed(self._high_rank)
        ):
            return _reject(
                Code.MISERE_NEEDS_SEVEN,
                f"misère may be bid only over a bid of {needs.token} or higher",
            )
        return None

    def _check_discard(self, seat: Seat, discard: Discard) -> Rejection | None:
        if self.phase is not _KITTY:
            return _reject(Code.WRONG_PHASE, "discarding happens only after the auction")
        if seat != self.to_act:
            return _not_your_turn(seat, self.to_act)
        cards = discard.cards
        if len(cards) != self.profile.kitty_size or len(set(cards)) != len(cards):
            return _reject(
                Code.DISCARD_NEEDS_THREE,
                f"discard exactly {self.profile.kitty_size} different cards, not "
                + (" ".join(card_token(c) for c in cards) or "none"),
            )
        for card in cards:
            if not self.hands[seat] >> card & 1:
                return _reject(Code.CARD_NOT_HELD, f"{seat.name} does not hold {card_token(card)}")
        return None

    def _check_sans_kitty(self, seat: Seat) -> Rejection | None:
        if self.phase is not _KITTY:
            return _reject(Code.WRONG_PHASE, "sans kitty is announced only at the kitty")
        if seat != self.to_act:
            return _not_your_turn(seat, self.to_act)
        if not self.profile.play.sans_kitty:
            return _reject(Code.SANS_KITTY_NOT_ALLOWED, "this profile has no sans kitty")
        if self.contract is not None and self.contract.is_misere:
            return _reject(Code.SANS_KITTY_NOT_ALLOWED, "in a misère the kitty is always taken")
        return None

    def _check_nomination(self, seat: Seat, action: Nominate) -> Rejection | None:
        if self.phase is not _PLAY or self.contract is None:
            return _reject(Code.NOMINATION_NOT_ALLOWED, "the joker is nominated only in play")
        if not self.profile.joker.nomination:
            return _reject(Code.NOMINATION_NOT_ALLOWED, "this profile has no joker nomination")
        if self.contract.trump is not None:
            return _reject(
                Code.NOMINATION_NOT_ALLOWED, "the joker is the top trump in a suit contract"
            )
        if self.nominated is not None:
            return _reject(Code.NOMINATION_NOT_ALLOWED, "the joker has already been nominated")
        if self.tricks_played or self.trick_cards:
            return _reject(Code.NOMINATION_NOT_ALLOWED, "the first lead has been made")
        if seat != self.declarer:
            return _reject(Code.NOMINATION_NOT_ALLOWED, "only the declarer may nominate")
        if not self.hands[seat] & _JOKER_BIT:
            return _reject(Code.NOMINATION_NOT_ALLOWED, "the declarer does not hold the joker")
        return None

    def _check_play(self, seat: Seat, play: Play) -> Rejection | None:
        if self.phase is not _PLAY:
            return _reject(
                Code.WRONG_PHASE, f"cards are played only in play, not in {self.phase.value}"
            )
        if seat != self.to_act:
            return _not_your_turn(seat, self.to_act)
        card = play.card
        hand = self.hands[seat]
        if not hand >> card & 1:
            return _reject(Code.CARD_NOT_HELD, f"{seat.name} does not hold {card_token(card)}")
        suitless = card == JOKER and self.rules.joker_is_suitless
        if not self.trick_cards:
            if not suitless:
                if play.names is not None:
                    return _reject(
                        Code.UNEXPECTED_SUIT_NAME, "a suit is named only with a suitless joker lead"
                    )
                return None
            return self._check_joker_lead(play)
        if play.names is not None:
            return _reject(Code.UNEXPECTED_SUIT_NAME, "a suit is named only when leading")
        follow = hand & self.rules.suit_masks[self.led]
        if follow:
            if follow >> card & 1:
                return None
            led_name = SUITS[self.led].name.lower()
            if suitless:
                return _reject(
                    Code.JOKER_ONLY_WHEN_VOID,
                    f"the joker may be played on {led_name} only when void in {led_name}",
                )
            return _reject(Code.MUST_FOLLOW_SUIT, f"{seat.name} must follow {led_name}")
        if not suitless and hand & _JOKER_BIT and self._joker_forced:
            led_name = SUITS[self.led].name.lower()
            return _reject(
                Code.JOKER_MUST_BE_PLAYED,
                f"void in {led_name} in a misère, {seat.name} must play the joker",
            )
        return None

    def _check_joker_lead(self, play: Play) -> Rejection | None:
        """A lead of the suitless joker (rulings 25 and 26, and the profile's variants)."""
        return self.profile.joker.lead_rejection(self.suits_led, self._last_trick(), play.names)

    # ---- applying ------------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> None:
        """Take ``action`` for ``seat``; raise :class:`IllegalAction` if it is refused."""
        if self.phase is _PLAY and isinstance(action, Play):
            # The commonest action, checked without going through rejection()'s dispatch.
            rejection = self._check_play(seat, action)
            if rejection is not None:
                raise IllegalAction(rejection)
            self._play(seat, action)
            return
        rejection = self.rejection(seat, action)
        if rejection is not None:
            raise IllegalAction(rejection)
        if isinstance(action, Play):
            self._play(seat, action)
        elif isinstance(action, (Bid, Pass)):  # a tuple: faster than a union
            self._call(seat, action)
        elif isinstance(action, Discard):
            self._discard(seat, action)
        elif isinstance(action, Nominate):
            self._start_play(action.suit)
        else:
            self._sans_kitty(seat)

    def _call(self, seat: Seat, call: Call) -> None:
        self._calls.append((seat, call))
        self._called |= 1 << seat
        if self._raise_turn:  # the highest bidder's last word: stand (pass) or raise
            if not isinstance(call, Pass):
                self._take_bid(seat, call)
            self._end_auction(self.high_bid, seat)
            return
        auction = self.profile.auction
        if isinstance(call, Pass):
            passed = True
            self._passed |= 1 << seat
        else:
            passed = False
            self._take_bid(seat, call)
            if not auction.pass_is_final:  # a bid takes back the seat's earlier pass
                self._passed &= ~(1 << seat)
        step = auction.after_call(
            self._calls,
            passed,
            self._passed.bit_count(),
            self.profile.players,
            self.high_bidder is not None,
        )
        if step is _NEXT_LEFT_UNPASSED:
            left = self._left
            nxt = left[seat]
            while self._passed >> nxt & 1:
                nxt = left[nxt]
            self.to_act = nxt
        elif step is _NEXT_LEFT:
            self.to_act = self._left[seat]
        elif step is Next.RAISE:
            self._raise_turn = True
            self.to_act = self.high_bidder
        elif step is Next.WON:
            self._end_auction(self.high_bid, self.high_bidder)  # type: ignore[arg-type]
        else:
            self._all_passed()

    def _take_bid(self, seat: Seat, bid: Bid) -> None:
        self.high_bid, self.high_bidder = bid, seat
        rank = self.profile.ladder.rank_of(bid)
        assert rank is not None
        self._high_rank = rank

    def _all_passed(self) -> None:
        if self.profile.auction.all_pass_played:
            # Played at no trumps, each for himself, the player left of the dealer leading;
            # the kitty stays face down, out of play (nobody takes it).
            self.contract = ALL_PASS_NT
            self._start_play(None)
            self.to_act = self._left[self.dealer]
        else:
            self.phase, self.to_act, self.result = _OVER, None, THROWN_IN

    def _end_auction(self, contract: Bid | None, declarer: Seat) -> None:
        assert contract is not None
        self._raise_turn = False
        if self.profile.auction.signals_only(contract):  # a six only signals
            self._all_passed()
            return
        self.contract, self.declarer = contract, declarer
        self.hands[declarer] |= self.kitty
        self._kitty_taken = self.kitty
        self.kitty = 0
        self.phase = _KITTY
        self.to_act = declarer

    def _discard(self, seat: Seat, discard: Discard) -> None:
        mask = mask_of(discard.cards)
        self.hands[seat] &= ~mask
        self.discards = mask
        declarer, contract, profile = self.declarer, self.contract, self.profile
        assert declarer is not None and contract is not None
        if profile.misere.partner_discards(contract, seat == declarer):
            # The partner picks up the declarer's discards and discards in turn; until then
            # nothing is out of play.
            partner = profile.table.partners(seat)[0]
            self.hands[partner] |= mask
            self.discards = 0
            self.to_act = Seat(partner)
            return
        self._start_play(None)
        self.to_act = _opening_leader(profile, self.dealer, declarer, contract)

    def _sans_kitty(self, seat: Seat) -> None:
        """The kitty goes back face down, unused, and play begins with nothing discarded."""
        self.hands[seat] &= ~self._kitty_taken
        self.kitty = self._kitty_taken
        self._start_play(None)
        contract = self.contract
        assert contract is not None
        self.to_act = _opening_leader(self.profile, self.dealer, seat, contract)

    def _play(self, seat: Seat, play: Play) -> None:
        card = play.card
        self.hands[seat] ^= 1 << card  # the card is held: apply checked it
        cards = self.trick_cards
        if not cards:
            led = self.rules.suit_of[card]
            if led == NO_SUIT:
                assert play.names is not None
                led = int(play.names)
            self.led = led
            self.suits_led |= 1 << led
        self.trick_seats.append(seat)
        cards.append(card)
        if len(cards) < self.trick_size:
            self.to_act = self._next_seat[seat]
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        seats, cards = self.trick_seats, self.trick_cards
        winner = seats[self.rules.winner(cards, self.led)]
        self._previous_trick = (seats, cards, self.led, winner)  # never changed again
        side = self._side_of[winner]
        self.tricks_won[side] += 1
        self._trick_sides.append(side)
        self.tricks_played += 1
        self.trick_seats = []
        self.trick_cards = []
        self.led = NO_SUIT
        profile = self.profile
        if self.tricks_played == profile.hand_size or (
            self._misere
            and side == self._side_of[self.declarer]  # type: ignore[index]
            and profile.misere.ends_on_declarer_trick
        ):
            self.phase, self.to_act = _OVER, None
            self.result = self._score()
        else:
            self.to_act = winner

    def _score(self) -> DealResult:
        contract, declarer, profile = self.contract, self.declarer, self.profile
        assert contract is not None
        if declarer is None:
            return score_all_pass(profile, contract, self.tricks_won, self._trick_sides)
        declarer_tricks = self.tricks_won[self._side_of[declarer]]
        if not profile.end.reads_tricks and len(profile.sides) == 2:
            return score_deal(profile, contract, declarer, declarer_tricks)
        return score_deal(
            profile,
            contract,
            declarer,
            declarer_tricks,
            self.tricks_won,
            self._trick_sides,
            dealer=self.dealer,
        )

    # ---- copying and comparing -----------------------------------------------------

    def copy(self) -> Deal:
        other = Deal.__new__(Deal)
        for name in Deal.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = list(value)
            setattr(other, name, value)
        return other

    def snapshot(self) -> tuple[object, ...]:
        """Every field, for checking that a refused action changed nothing (the executor
        takes one before every action, so the fields are read in two C calls and only the
        lists, named in :data:`LIST_FIELDS`, are copied)."""
        return (*_FIXED_FIELDS(self), *map(tuple, _LIST_FIELDS(self)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]


def _lead_caps(profile: Profile, tricks: Sequence[int], leader: Seat, opening: Seat) -> list[int]:
    """For each side, how many of the tricks played its seats can have led: the first
    (if the opening leader is theirs) and one after each trick they won, but the last
    trick's winner, ``leader``, leads only the trick to come."""
    caps = [tricks[side] for side in range(len(profile.sides))]
    caps[profile.side_of[leader]] -= 1
    caps[profile.side_of[opening]] += 1
    return caps


def _check_suits_led(
    profile: Profile,
    contract: Bid,
    nominated: Suit | None,
    hands: list[int],
    playing: list[Seat],
    led_suits: list[Suit],
    played: int,
    lead_caps: list[int],
) -> None:
    """Refuse ``suits_led`` that no play could have left these hands with.

    Cards are never gained during play, so a seat that still holds a card of a suit
    followed that suit every time it was led (or led it): a trick of that suit took one
    of its cards from each such seat, and one more from a leader who holds none now
    (unless that leader led the suitless joker naming it).  Seats can lead only as many
    tricks as their sides won, plus the first (``lead_caps``).  Each suit listed was led
    at least once, and all the tricks played must fit into the suits listed, with the
    cards of each that no hand holds.  This is a necessary condition only: it catches a
    position whose hands contradict its history."""
    rules = trick_rules(contract.trump, nominated)
    held = 0
    for mask in hands:
        held |= mask
    joker_lead = rules.joker_is_suitless and profile.has_card(JOKER) and not held >> JOKER & 1
    suits = list(dict.fromkeys(led_suits))

    def most(suit: Suit, joker: bool) -> int:
        """The most tricks of ``suit`` that its gone cards allow (one joker lead or not)."""
        cards = rules.suit_masks[suit] & profile.deck_mask
        holders = [seat for seat in playing if hands[seat] & cards]
        gone = (cards & ~held).bit_count()
        sides = {profile.side_of[seat] for seat in holders}
        cap = sum(max(lead_caps[side], 0) for side in sides)  # leads the holders can have had
        tricks = 0
        while tricks < played:
            n = tricks + 1
            need = n * (len(holders) + 1) - min(n, cap) - joker
            if need > gone:
                break
            tricks = n
        return tricks

    plain = [most(suit, False) for suit in suits]
    options = [plain]
    if joker_lead:  # the joker, led naming one suit, spares that suit one card once
        for index, suit in enumerate(suits):
            options.append([*plain[:index], most(suit, True), *plain[index + 1 :]])
    feasible = [counts for counts in options if min(counts) >= 1]
    never = [
        s for s, counts in zip(suits, zip(*options, strict=True), strict=True) if not max(counts)
    ]
    if never:
        name = never[0].name.lower()
        raise SetupError(
            f"{name} cannot have been led: the hands in play that still hold {name} would "
            "have followed it with more cards than are gone"
        )
    if not feasible or max(sum(counts) for counts in feasible) < played:
        raise SetupError(
            f"{played} tricks cannot have been led in {', '.join(s.letter for s in led_suits)} "
            "with these hands: a seat that still holds a suit followed it every time it was "
            "led, and its sides led only the tricks they won, so the suits led would have used "
            "more cards than are gone"
        )


LIST_FIELDS = ("_calls", "_trick_sides", "hands", "trick_cards", "trick_seats", "tricks_won")
"""The fields holding a list, changed in place as the deal goes on (a test checks that no
other field ever holds one); the others hold values that are replaced, never changed."""
_FIXED_FIELDS = operator.attrgetter(*(f for f in Deal.__slots__ if f not in LIST_FIELDS))
_LIST_FIELDS = operator.attrgetter(*LIST_FIELDS)


def _hands_in_play(
    profile: Profile,
    hands: Sequence[Iterable[Card]],
    resting: Sequence[Seat],
    out: Sequence[Seat],
    declarer: Seat,
) -> tuple[list[list[Card]], int]:
    """The hands of a deal set up in play, checked, and the size of those in play: every
    hand in play the same size, none for the seats out of the deal."""
    hand_lists = [list(h) for h in hands]
    _check_cards(profile, hand_lists, [])
    if declarer in resting:
        raise SetupError("the dealer sits out this deal and cannot be the declarer")
    if any(hand_lists[s] for s in resting):
        raise SetupError("the dealer sits out this deal and holds no cards")
    sizes = {len(h) for s, h in enumerate(hand_lists) if s not in out}
    if len(sizes) != 1:
        raise SetupError("every hand in play must have the same number of cards")
    size = sizes.pop()
    if not 1 <= size <= profile.hand_size:
        raise SetupError(f"hands in play must have 1 to {profile.hand_size} cards")
    return hand_lists, size


def _tricks_won(
    profile: Profile,
    dealer: Seat,
    declarer: Seat,
    contract: Bid,
    tricks: Sequence[int] | None,
    size: int,
    played: int,
) -> list[int]:
    """The tricks each side has won in a deal set up in play (none by default), checked
    against the tricks the hand size says were played."""
    won = [0] * len(profile.sides) if tricks is None else list(tricks)
    if len(won) != len(profile.sides):
        raise SetupError(f"give the tricks of each of the {len(profile.sides)} sides")
    if any(won[side] for side in profile.absent_sides(dealer)):
        raise SetupError("the dealer sits out this deal and has won no tricks")
    if min(won) < 0 or sum(won) != played:
        raise SetupError(
            f"hands of {size} cards mean {played} tricks played, "
            f"but the tricks won add up to {sum(won)}"
        )
    if (
        contract.is_misere
        and profile.misere.ends_on_declarer_trick
        and won[profile.side_of[declarer]] > 0
    ):
        raise SetupError("a misère deal ends when the declarer wins a trick")
    return won


def _leader_in_play(
    profile: Profile,
    leader: Seat | None,
    opening: Seat,
    declarer: Seat,
    tricks: Sequence[int],
    played: int,
    resting: Sequence[Seat],
    out: Sequence[Seat],
) -> Seat:
    """Who leads the next trick of a deal set up in play: the opening leader before any
    trick (and nobody else), and after one, a seat whose side has won a trick."""
    if leader is None:
        if played:
            raise SetupError("say who leads when tricks have already been played")
        return opening
    if played == 0 and leader != opening:
        raise SetupError(
            "the declarer leads to the first trick"
            if opening == declarer
            else f"{profile.seat_name(opening)} leads to the first trick"
        )
    if leader in resting:
        raise SetupError("the dealer sits out this deal and does not lead")
    if played and not tricks[profile.side_of[leader]]:
        # The winner of a trick leads the next, so after the first trick the leader's
        # side has won at least one (in a misère that stops at the declarer's first
        # trick, the declarer can therefore never lead again).
        raise SetupError(
            f"the winner of a trick leads the next: {profile.seat_name(leader)}'s side "
            f"has won none of the {played} tricks played"
        )
    if leader in out:
        raise SetupError("the misère declarer's partner takes no part in the play")
    return leader


def _opening_leader(profile: Profile, dealer: Seat, declarer: Seat, contract: Bid) -> Seat:
    """Who leads to the first trick: the declarer, or under the profile's ``dealers-left``
    rule the first seat left of the dealer that takes part in the play."""
    out = profile.sitting_out[declarer] if contract.is_misere else ()
    # profile.left_in_deal: a seat resting this deal is skipped too
    return profile.play.opening_leader(dealer, declarer, profile.left_in_deal[dealer], out)


def _first_call_rejection(seat: Seat, call: Bid) -> Rejection:
    """The refusal of a bid that may be only a first call, from a seat that has called."""
    if call.misere is _BLIND_MISERE:
        return _reject(
            Code.BLIND_MISERE_FIRST_CALL,
            f"{seat.name} has already called: blind misère must be the first call",
        )
    return _reject(
        Code.SIX_BID_FIRST_CALL,
        f"{seat.name} has already called: a six-level bid must be the first call",
    )


def _not_your_turn(seat: Seat, to_act: Seat | None) -> Rejection:
    expected = f"{to_act.name} is to act" if to_act is not None else "nobody is to act"
    return _reject(Code.NOT_YOUR_TURN, f"not {seat.name}'s turn: {expected}")


def _check_cards(profile: Profile, hands: list[list[Card]], kitty: list[Card]) -> None:
    if len(hands) != profile.seats:
        raise SetupError(
            "a deal has four hands"
            if profile.seats == 4
            else f"a deal of {profile.name} has {profile.seats} hands"
        )
    # Fast path: every card distinct and in the deck.  Only when that fails does the loop
    # below run, to name the first offending card.
    seen_mask = 0
    count = len(kitty)
    for card in kitty:
        seen_mask |= 1 << card
    for hand in hands:
        count += len(hand)
        for card in hand:
            seen_mask |= 1 << card
    if bin(seen_mask).count("1") == count and seen_mask & ~profile.deck_mask == 0:
        return
    seen: set[Card] = set()
    for card in [c for h in hands for c in h] + kitty:
        if not profile.has_card(card):
            raise SetupError(f"{card_token(card)} is not in the {profile.name} deck")
        if card in seen:
            raise SetupError(f"{card_token(card)} appears more than once")
        seen.add(card)
