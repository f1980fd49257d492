"""Profiles: the rules that differ between forms of the game, held as data.

The engine reads every rule that varies between rule sets from a :class:`Profile`
instead of branching on the name of a rule set: the table (how many seats, how they
form sides), the deck, the packets, the kitty and any dead hand, the auction procedure,
the bid ladder with its values, the misère and joker rules, the slam, the defenders'
points, what happens when everybody passes, and the end of the game.  The one rule that
is not data, the test for the end of the game, is a small named hook (``game_end``,
resolved in :mod:`.game`), never a copy of the engine.

Profiles come from :func:`profile_named` (a name from :data:`PROFILE_NAMES` plus any
variant toggles from :data:`VARIANTS`); each profile says where each of its rules comes
from in ``sources``, and a profile whose sources leave a point open says so in
``incomplete`` and ``missing`` instead of inventing a rule.

Sources cited below: seed 000 (the default profile, with RULINGS.md), seed 002 (American
rules, two to six players), seed 003 (three players), seed 004 (Australian rules and a
list of variations), and, where the seeds are silent, pagat.com's Five Hundred page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from types import MappingProxyType
from typing import Any, Final, Literal

from .bids import BLIND_MISERE, MISERE, OPEN_MISERE, SUIT_BIDS, Bid, Misere, Strain
from .cards import JOKER, SUITS, Card, NotationError, Suit, make_card, make_numeral, mask_of
from .seats import Seat

Auction = Literal["until-passes", "one-round", "passes-not-final"]
AllPass = Literal["throw-in", "no-trumps"]
GameEnd = Literal["own-contract", "first-to-score"]
OpenMisereShown = Literal["first-trick", "opening-lead", "play"]
OpeningLead = Literal["declarer", "dealers-left"]
Rests = Literal["nobody", "dealer"]


DEFAULT_PROFILE_NAME: Final = "australian-4"
"""The name of the default profile (seed 000's Australian game): the rule set of every
scenario, fuzz run and command that names none."""


@dataclass(frozen=True, eq=False)
class Profile:
    """One form of the game.

    Frozen and compared by identity: a profile is shared by every deal that uses it
    and keys the engine's caches (:func:`profile_named` returns the same object for the
    same name and variants).  Every field after ``lose_score`` has the default
    profile's behaviour as its default.
    """

    name: str
    title: str
    deck: tuple[Card, ...]
    hand_size: int
    kitty_size: int
    packets: tuple[tuple[int, int], ...]
    """Dealing rounds as (cards to each hand, cards to the kitty), starting left of the
    dealer; each round gives the seats in order, then any dead hands."""
    bid_order: tuple[Bid, ...]
    """Every bid of the profile, lowest first (bids tied in ``bid_ties`` are adjacent)."""
    bid_values: Mapping[Bid, int]
    misere_needs: Bid | None
    """Misère may be bid only when the highest bid so far ranks at least this high."""
    slam_value: int
    """A slam of a contract worth less than this scores this instead."""
    defender_trick_points: int
    win_score: int
    lose_score: int | None
    """A side at or below this after a deal loses; ``None``: negative scores go on."""
    seats: int = 4
    sides: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
    """The seats of each side, which shares one score; a side of one is a single player."""
    dead_hands: int = 0
    """Hands dealt like a player's but not played (two-handed game)."""
    undealt: int = 0
    """Cards left over after the packets, set aside unseen."""
    auction: Auction = "until-passes"
    """``until-passes``: round and round until all but one have passed, a pass being final;
    ``one-round``: each player calls once, starting left of the dealer;
    ``passes-not-final``: round and round with nobody skipped, a player who passed may bid
    again, until the others have passed in succession after a bid (four passes first:
    everybody passed)."""
    raise_after_all_pass: bool = False
    """The highest bidder may raise once more after all the others have passed."""
    bid_ties: tuple[tuple[Bid, Bid], ...] = ()
    """Pairs of bids of equal rank: neither may be bid over the other."""
    outranks_by: Literal["rank", "value"] = "rank"
    """``rank``: a bid outranks another by its place in ``bid_order``, whatever the values
    (the default profile: misère 250 ranks below 8♠ 240); ``value``: by point value, then
    by tricks (seed 002's note for its other tables), and ``bid_order`` must then be in
    that order (checked).  The engine compares places in ``bid_order`` either way."""
    misere_ends_on_declarer_trick: bool = True
    """A misère ends as soon as the declarer wins a trick (else all tricks are played);
    under ``double_nullo``, as soon as the declarer's side does."""
    misere_defender_points: int = 0
    """Points to each defending side for every trick the misère declarer takes."""
    joker_nomination: bool = True
    """The declarer holding the joker may nominate its suit in no trumps and misères."""
    joker_lead_unled_suit: bool = True
    """A suitless joker lead names a suit not yet led, and once all four suits have been
    led it may be led only to the last trick; otherwise any suit may be named."""
    joker_must_play_in_misere: bool = True
    """In a misère a player void in the suit led holding a suitless joker must play it."""
    joker_lead_last_trick_only: bool = False
    """A suitless joker may be led only to the last trick."""
    barred_at: int | None = None
    """A side at or below this after a deal plays on but can never win the game (seed
    003); once every side is barred nobody can win and the game ends without a winner.
    ``None``: no such bar."""
    defender_cap: int | None = None
    """A defending side whose score is at least this before the deal scores nothing for
    tricks against the contract."""
    all_pass: AllPass = "throw-in"
    """``throw-in``: nobody scores; ``no-trumps``: the deal is played at no trumps, each
    for himself, the player left of the dealer leading, each trick scoring
    ``defender_trick_points`` to its winner's side."""
    game_end: GameEnd = "own-contract"
    """Name of the end-of-game hook (see :mod:`.game`)."""
    rests: Rests = "nobody"
    """Who takes no part in a deal: ``nobody``; or ``dealer``, the one rule that makes the
    seats of a deal depend on who deals (seed 002's second four-handed form): the dealer
    is dealt no cards, never calls or plays, and scores nothing for the deal, and the
    packets, the auction and the play go round the other seats.  The table and its sides
    stay whole, and the deal still passes to the left over every seat."""
    seat_names: tuple[str, ...] = ("N", "E", "S", "W")
    variants: tuple[str, ...] = ()
    """The variant toggles this profile was built with."""
    sources: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """For each rule (by field name or topic), the section of the source it comes from."""
    incomplete: bool = False
    missing: tuple[str, ...] = ()
    """The points the sources leave open (each resolved provisionally, as said)."""
    inkles: bool = False
    """Six-level bids only signal: each may be made only as the bidder's first call, and
    an auction won by one is thrown in as if all had passed."""
    sans_kitty: bool = False
    """The declarer of a suit or no-trump contract may play without the kitty (the action
    ``SANS KITTY`` at the kitty, instead of a discard)."""
    double_nullo: bool = False
    """In a misère the declarer's partners play too (nobody sits out), the partner takes the
    declarer's discards and discards as many, and the misère ends when the declarer's side
    wins a trick."""
    open_misere_shown: OpenMisereShown = "first-trick"
    """When the open-misère declarer's cards are laid face up: once the first trick is
    complete, once the opening lead has been played, or as play begins (before the lead)."""
    opening_lead: OpeningLead = "declarer"
    """Who leads to the first trick: the declarer, or the first player left of the dealer
    who takes part in the play (a misère declarer's partners sit out)."""
    bid_rank: Mapping[Bid, int] = field(init=False, repr=False, compare=False)
    deck_mask: int = field(init=False, repr=False, compare=False)
    left: tuple[Seat, ...] = field(init=False, repr=False, compare=False)
    """The next seat clockwise after each seat."""
    side_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The side of each seat."""
    all_seats_mask: int = field(init=False, repr=False, compare=False)
    players: int = field(init=False, repr=False, compare=False)
    """How many seats take part in each deal (all of them unless someone rests)."""
    left_in_deal: tuple[tuple[Seat, ...], ...] = field(init=False, repr=False, compare=False)
    """For each dealer, the next seat taking part in the deal after each seat: ``left``
    itself (the same tuple) unless someone rests."""
    next_in_misere: tuple[tuple[tuple[Seat, ...], ...], ...] = field(
        init=False, repr=False, compare=False
    )
    """For each dealer and each misère declarer, the next seat to play after each seat
    (the declarer's side-mates and any resting seat skipped)."""
    sitting_out: tuple[tuple[Seat, ...], ...] = field(init=False, repr=False, compare=False)
    """For each misère declarer, the side-mates who lay their hands down."""
    blind_misere: bool = field(init=False, repr=False, compare=False)
    """Blind misère is one of the bids."""
    first_call_only: frozenset[Bid] = field(init=False, repr=False, compare=False)
    """The bids a player may make only as a first call of the auction (blind misère;
    the sixes under ``inkles``), left out of the legal calls of anyone who has called."""
    side_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """Each side's name: the names of its seats in seat order (``NS``, ``EW``; ``N`` for a
    single player; ``NSP5`` for seats N, S and P5)."""

    def __post_init__(self) -> None:
        """Derive the tables the engine reads on every action, then check that the
        profile's parts agree (a profile that cannot be dealt is a programming error)."""
        self._derive_auction()
        self._derive_table()
        self._check_consistent()

    def _derive(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)

    def _derive_auction(self) -> None:
        ranks: dict[Bid, int] = {}
        tied = {b: a for a, b in self.bid_ties}
        rank = -1
        for bid in self.bid_order:
            if bid in tied and tied[bid] in ranks:
                ranks[bid] = ranks[tied[bid]]
            else:
                rank += 1
                ranks[bid] = rank
        self._derive("bid_rank", MappingProxyType(ranks))
        self._derive("blind_misere", any(b.misere is Misere.BLIND for b in ranks))
        first_only = {b for b in ranks if b.misere is Misere.BLIND}
        if self.inkles:
            first_only |= {b for b in ranks if b.level == 6}
        self._derive("first_call_only", frozenset(first_only))

    def _derive_table(self) -> None:
        self._derive("deck_mask", mask_of(self.deck))
        n = self.seats
        self._derive("left", tuple(Seat((s + 1) % n) for s in range(n)))
        side_of = [-1] * n
        for index, members in enumerate(self.sides):
            for seat in members:
                side_of[seat] = index
        if -1 in side_of:
            raise ValueError(f"profile {self.name}: every seat needs a side")
        self._derive("side_of", tuple(side_of))
        names = tuple("".join(self.seat_names[s] for s in sorted(m)) for m in self.sides)
        self._derive("side_names", names)
        self._derive("all_seats_mask", (1 << n) - 1)
        out = tuple(
            () if self.double_nullo else tuple(Seat(m) for m in self.sides[side_of[d]] if m != d)
            for d in range(n)
        )
        self._derive("sitting_out", out)
        resting = [self.resting(Seat(dealer)) for dealer in range(n)]
        self._derive("players", n - len(resting[0]))
        self._derive(
            "left_in_deal", tuple(_skipping(n, rest) if rest else self.left for rest in resting)
        )
        self._derive(
            "next_in_misere",
            tuple(tuple(_skipping(n, (*rest, *out[d])) for d in range(n)) for rest in resting),
        )

    def _check_consistent(self) -> None:
        if self.outranks_by == "value" and list(self.bid_order) != list(
            _by_value({b: self.bid_values[b] for b in self.bid_order})
        ):
            raise ValueError(f"profile {self.name}: bids out of value order")
        hands = self.players + self.dead_hands
        dealt = sum(p * hands + k for p, k in self.packets) + self.undealt
        if dealt != len(self.deck) or sum(k for _, k in self.packets) != self.kitty_size:
            raise ValueError(f"profile {self.name}: packets do not deal the whole deck")
        if sum(p for p, _ in self.packets) != self.hand_size:
            raise ValueError(f"profile {self.name}: packets do not make the hand size")
        if len(self.seat_names) != self.seats:
            raise ValueError(f"profile {self.name}: one name for each seat")

    def has_card(self, card: Card) -> bool:
        return bool(self.deck_mask >> card & 1)

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

    @cached_property
    def seat_list(self) -> tuple[Seat, ...]:
        """The seats of the table, clockwise from seat 0 (made once: observations and
        the deal ask for it after every action)."""
        return tuple(Seat(s) for s in range(self.seats))

    def seat_name(self, seat: Seat) -> str:
        return self.seat_names[seat]

    @property
    def label(self) -> str:
        """The profile's name with its variant toggles: ``australian-4+no-misere``."""
        return "+".join((self.name, *self.variants))

    def parse_side(self, text: object) -> int:
        """A side of this table (its index) from its name, as :attr:`side_names` gives it."""
        if isinstance(text, str) and text in self.side_names:
            return self.side_names.index(text)
        raise NotationError(
            f"expected a side of {self.name}: {', '.join(self.side_names)}; found {text!r}"
        )

    def parse_seat(self, text: object) -> Seat:
        """A seat of this table from its name (``N E S W`` at four, ``P5 P6`` beyond)."""
        if isinstance(text, str) and text in self.seat_names:
            return Seat(self.seat_names.index(text))
        raise NotationError(
            f"expected a seat of {self.name}: {', '.join(self.seat_names)}; found {text!r}"
        )


def _skipping(n: int, out: Iterable[int]) -> tuple[Seat, ...]:
    """The next seat clockwise after each of ``n`` seats, passing over the seats ``out``."""
    skipped = set(out)
    row = []
    for s in range(n):
        t = (s + 1) % n
        while t in skipped and t != s:
            t = (t + 1) % n
        row.append(Seat(t))
    return tuple(row)


# ---- decks --------------------------------------------------------------------------


def _deck(lowest: Mapping[Suit, int], *, joker: bool = True) -> tuple[Card, ...]:
    cards = [make_card(s, r) for s in SUITS for r in range(14, lowest[s] - 1, -1)]
    if joker:
        cards.append(JOKER)
    return tuple(cards)


def _australian_deck() -> tuple[Card, ...]:
    return _deck({Suit.SPADES: 5, Suit.CLUBS: 5, Suit.DIAMONDS: 4, Suit.HEARTS: 4})


def _deck_down_to(rank: int, *, joker: bool = True) -> tuple[Card, ...]:
    return _deck(dict.fromkeys(SUITS, rank), joker=joker)


def _six_handed_deck() -> tuple[Card, ...]:
    """2 to ace in every suit, 11 and 12 in every suit, red 13s, the joker: 63 cards.

    In canonical order, like every deck: suit by suit, each from its highest card to its
    lowest in plain-suit order (the numerals rank between the jack and the ten), then
    the joker."""
    cards: list[Card] = []
    for suit in SUITS:
        red = suit in (Suit.DIAMONDS, Suit.HEARTS)
        cards += [make_card(suit, r) for r in (14, 13, 12, 11)]
        cards += [make_numeral(suit, n) for n in ((13, 12, 11) if red else (12, 11))]
        cards += [make_card(suit, r) for r in range(10, 1, -1)]
    return (*cards, JOKER)


# ---- bid ladders --------------------------------------------------------------------


def _avondale() -> tuple[list[Bid], dict[Bid, int]]:
    order: list[Bid] = []
    values: dict[Bid, int] = {}
    for level in range(6, 11):
        for strain in Strain:
            bid = SUIT_BIDS[(level, strain)]
            order.append(bid)
            values[bid] = 40 + 100 * (level - 6) + 20 * strain  # the Avondale table
    return order, values


def _insert_above(order: list[Bid], bid: Bid, below: Bid) -> None:
    order.insert(order.index(below) + 1, bid)


def _australian_bids() -> tuple[tuple[Bid, ...], dict[Bid, int]]:
    order, values = _avondale()
    _insert_above(order, MISERE, SUIT_BIDS[(7, Strain.NO_TRUMPS)])  # above every seven
    _insert_above(order, OPEN_MISERE, SUIT_BIDS[(10, Strain.DIAMONDS)])  # below 10♥
    values[MISERE] = 250
    values[OPEN_MISERE] = 500
    return tuple(order), values


def _by_value(values: Mapping[Bid, int]) -> tuple[Bid, ...]:
    """The ladder of a table that ranks bids by value, then by tricks (seed 002, note to
    «Торговля»); a misère counts as ten tricks, after every bid of its value."""
    return tuple(sorted(values, key=lambda b: (values[b], b.level or 10)))


# ---- the registry -------------------------------------------------------------------

_AUSTRALIAN_SOURCES = {
    "deck": "seed 000 §01; ruling 1 `deck`",
    "packets": "seed 000 §02; ruling 6 `deal-packets`",
    "auction": "seed 000 §03; rulings 8–14",
    "bid_order": "seed 000 §03; ruling 9 `bid-order`",
    "bid_values": "seed 000 §06; ruling 28 `contract-values`",
    "misere_needs": "seed 000 §03; ruling 11 `misere-needs-seven`",
    "joker": "seed 000 §05; rulings 21–27",
    "slam_value": "seed 000 §07; ruling 29 `deal-score`",
    "defender_trick_points": "seed 000 §07; ruling 29 `deal-score`",
    "misere": "seed 000 §04, §07; rulings 16, 30",
    "all_pass": "seed 000 §03; ruling 14 `auction-end`",
    "game_end": "seed 000 §08; rulings 31–34",
}

_AMERICAN_SOURCES = {
    "deck": "seed 002 «Колода»",
    "packets": "seed 002 «Сдача»: 3 each, the widow of 3, 4 each, 3 each",
    "auction": "seed 002 «Торговля»: one call each, starting left of the dealer",
    "bid_order": "seed 002 «Торговля» (more tricks, or as many in a higher strain) and "
    "«Нулевая заявка» (Nullo between 8♠ and 8♣ in the Avondale table)",
    "bid_values": "seed 002 «Нулевая заявка» (Nullo 250); Avondale table as seed 003",
    "joker": "seed 002 «Джокер»: suitless at no trumps and Nullo; a joker lead names any "
    "suit; played on a lead only when void; no nomination",
    "slam_value": "seed 002 «Подсчет очков»: all ten tricks score at least 250",
    "defender_trick_points": "seed 002 «Подсчет очков»: 10 a trick to each opponent",
    "misere": "seed 002 «Нулевая заявка»: partners lay down their hands; a failed Nullo "
    "gives each opponent 10 for each trick the bidder took (so all tricks are played)",
    "all_pass": "seed 002 «Сдачу оставляют без начисления очков, если все игроки объявляют "
    "пас»; variant `all-pass-no-trumps`: «Вариант»",
    "lose_score": "seed 002 «Подсчет очков»: a score may go below zero («в дыре»)",
    "game_end": "seed 002 is silent: seed 003 «Победа в игре» (first to 500; the declarer "
    "first; among defenders the one who took the first trick)",
}

_AMERICAN_JOKER = {
    "joker_nomination": False,
    "joker_lead_unled_suit": False,
    "joker_must_play_in_misere": False,
}


def _american_bids(*, nullo: bool) -> tuple[tuple[Bid, ...], dict[Bid, int]]:
    _, values = _avondale()
    if nullo:
        values[MISERE] = 250
    return _by_value(values), values


def _australian_4() -> dict[str, Any]:
    bids, values = _australian_bids()
    return {
        "name": DEFAULT_PROFILE_NAME,
        "title": "Australian four-handed partnership game (default)",
        "deck": _australian_deck(),
        "hand_size": 10,
        "kitty_size": 3,
        "packets": ((3, 1), (4, 1), (3, 1)),
        "bid_order": bids,
        "bid_values": values,
        "misere_needs": SUIT_BIDS[(7, Strain.SPADES)],
        "slam_value": 250,
        "defender_trick_points": 10,
        "win_score": 500,
        "lose_score": -500,
        "sources": dict(_AUSTRALIAN_SOURCES),
    }


def _american(seats: int) -> dict[str, Any]:
    bids, values = _american_bids(nullo=True)
    return {
        "hand_size": 10,
        "kitty_size": 3,
        "packets": ((3, 3), (4, 0), (3, 0)),
        "bid_order": bids,
        "bid_values": values,
        "misere_needs": None,
        "slam_value": 250,
        "defender_trick_points": 10,
        "win_score": 500,
        "lose_score": None,
        "seats": seats,
        "auction": "one-round",
        "outranks_by": "rank",
        "misere_ends_on_declarer_trick": False,
        "misere_defender_points": 10,
        "game_end": "first-to-score",
        "sources": dict(_AMERICAN_SOURCES),
        **_AMERICAN_JOKER,
    }


def _american_2() -> dict[str, Any]:
    kw = _american(2)
    kw.update(
        name="american-2",
        title="American two-handed game (seed 002): 33 cards, a dead third hand",
        deck=_deck_down_to(7),
        sides=((0,), (1,)),
        dead_hands=1,
        seat_names=("N", "E"),
    )
    kw["sources"]["deck"] = "seed 002 «Колода»: two or three players use A–7 and the joker"
    kw["sources"]["dead_hands"] = (
        "seed 002 is silent on what two players do with the 10 cards left over: pagat "
        "(two players) deals a third hand as in the three-handed game and leaves it unused"
    )
    return kw


def _american_3() -> dict[str, Any]:
    kw = _american(3)
    kw.update(
        name="american-3",
        title="American three-handed game (seed 002): one round of bidding, Nullo",
        deck=_deck_down_to(7),
        sides=((0,), (1,), (2,)),
        seat_names=("N", "E", "S"),
    )
    kw["sources"]["deck"] = (
        "seed 002 «Колода» (it says 39 cards but lists A K Q J 10 9 8 7 and the joker: 33)"
    )
    kw["sources"]["sides"] = (
        "seed 002 «Розыгрыш»: the two others are partners against the declarer for the deal; "
        "«Подсчет очков»: each opponent scores his own tricks"
    )
    return kw


def _three_handed() -> dict[str, Any]:
    """Seed 003's game.  It shares american-3's deck, deal, ladder values, joker and scoring,
    and differs in three points: the auction (seed 003 does not limit it to one round, so
    pagat's applies), no Nullo (seed 003 has none), and seed 003's own end of the game
    (which american-3 borrows, seed 002 being silent).  Two profiles built from one
    description rather than one profile and toggles: the differences are what each seed
    says, not options a table picks, and a toggle for each would let a mix that no seed
    describes pass for a rule set."""
    kw = _american_3()
    bids, values = _american_bids(nullo=False)
    kw.update(
        name="three-handed",
        title="Three-handed game (seed 003): 33 cards, no Nullo, bidding until two pass",
        bid_order=bids,
        bid_values=values,
        auction="until-passes",
        barred_at=-500,
    )
    kw["sources"] = {
        "deck": "seed 003 «Иерархия колоды и карт»: A to 7 and one joker, 33 cards",
        "packets": "seed 003 «Раздача карт»: 3 each, 3 to the widow, 4 each, 3 each",
        "auction": "seed 003 «Ставка и объявление» does not say one round or more: pagat's "
        "auction (round and round until all but one have passed)",
        "bid_order": "seed 003 «Таблица на 500 очков» (spades lowest; its sentence listing "
        "no trumps first is read as highest first)",
        "bid_values": "seed 003 «Таблица на 500 очков» (Avondale; its doubled cells read as "
        "the Avondale values)",
        "joker": "seed 003 «Козырь»: suitless at no trumps, a joker lead names its suit",
        "slam_value": "seed 003 «Очки»: all 10 tricks with a bid under 250 score 250",
        "defender_trick_points": "seed 003 «Очки»: 10 a trick, each opponent his own",
        "all_pass": "seed 003 «Ставка и объявление»: the deal is thrown in",
        "lose_score": "seed 003 «Победа в игре»: minus 500 does not end the game",
        "barred_at": "seed 003 «Победа в игре» and its FAQ: a player who has fallen to minus "
        "500 plays on, and reaching 500 later does not make him the winner; the game goes "
        "on. Once every player has fallen that far, nobody can win and the game ends without "
        "a winner (the seed is silent; the suite's reading)",
        "game_end": "seed 003 «Победа в игре»",
    }
    return kw


def _american_4() -> dict[str, Any]:
    kw = _american(4)
    kw.update(
        name="american-4",
        title="American four-handed partnership game (seed 002): one round, Nullo",
        deck=_australian_deck(),
    )
    kw["sources"]["deck"] = "seed 002 «Колода»: four players, A to 5 and the red 4s, joker"
    return kw


def _american_5() -> dict[str, Any]:
    kw = _american(5)
    kw.update(
        name="american-5",
        title="American five-handed game (seed 002): three against two, 53 cards",
        deck=_deck_down_to(2),
        sides=((0, 2, 4), (1, 3)),
        seat_names=("N", "E", "S", "W", "P5"),
        incomplete=True,
        missing=(
            "deck: seed 002 gives none for five players; the 52 cards and the joker that five "
            "hands of 10 and a widow of 3 need (as pagat) are used",
            "seating: seed 002 says five play «3x2» but not who sits where; the side of three "
            "is taken as seats 0, 2, 4 (so 4 and 0 sit together)",
        ),
    )
    kw["sources"]["sides"] = "seed 002 «Число игроков»: five play 3x2"
    return kw


def _american_6() -> dict[str, Any]:
    kw = _american(6)
    kw.update(
        name="american-6",
        title="American six-handed game (seed 002): 63 cards, two teams of three",
        deck=_six_handed_deck(),
        sides=((0, 2, 4), (1, 3, 5)),
        seat_names=("N", "E", "S", "W", "P5", "P6"),
    )
    kw["sources"]["deck"] = (
        "seed 002 «Колода»: 63 cards with 11s and 12s of every suit and red 13s; the rest of "
        "the deck (2 to ace) and the numerals' place between 10 and J as pagat"
    )
    kw["sources"]["sides"] = "seed 002 «Число игроков»: six play 3x3; alternate seats as pagat"
    return kw


_BUILDERS: dict[str, tuple[Callable[[], dict[str, Any]], str]] = {
    DEFAULT_PROFILE_NAME: (_australian_4, "Australian four-handed partnership game (default)"),
    "american-2": (_american_2, "seed 002, two players, 33 cards and a dead hand"),
    "american-3": (_american_3, "seed 002, three single players, one round of bidding"),
    "three-handed": (_three_handed, "seed 003, three single players, bidding until two pass"),
    "american-4": (_american_4, "seed 002, two partnerships, one round of bidding, Nullo"),
    "american-5": (_american_5, "seed 002, five players, three against two (incomplete)"),
    "american-6": (_american_6, "seed 002, six players, two teams of three, 63 cards"),
}
PROFILE_NAMES: tuple[str, ...] = tuple(_BUILDERS)
PROFILE_DESCRIPTIONS: Mapping[str, str] = MappingProxyType(
    {name: text for name, (_, text) in _BUILDERS.items()}
)

_AUSTRALIAN_ONLY = (DEFAULT_PROFILE_NAME,)
_AMERICAN_ALL = ("american-2", "american-3", "american-4", "american-5", "american-6")


@dataclass(frozen=True)
class Variant:
    """A named toggle: a change to a profile's rules, with its source."""

    name: str
    description: str
    source: str
    applies_to: tuple[str, ...]
    apply: Callable[[dict[str, Any]], None] = field(repr=False)
    conflicts: tuple[str, ...] = ()


def _leaves_open(kw: dict[str, Any], *points: str) -> None:
    """Mark the profile being built incomplete, adding the points its source leaves open
    (each with the reading taken) to those already listed."""
    kw["incomplete"] = True
    kw["missing"] = (*kw.get("missing", ()), *points)


def _remove_misere(kw: dict[str, Any]) -> None:
    kw["bid_order"] = tuple(b for b in kw["bid_order"] if not b.is_misere)
    kw["bid_values"] = {b: v for b, v in kw["bid_values"].items() if not b.is_misere}
    kw["misere_needs"] = None


def _set(**changes: Any) -> Callable[[dict[str, Any]], None]:
    def apply(kw: dict[str, Any]) -> None:
        kw.update(changes)

    return apply


def _set_reading(reading: str, **changes: Any) -> Callable[[dict[str, Any]], None]:
    """:func:`_set`, for a toggle whose source leaves a point open: the profile is marked
    incomplete with ``reading``, the point and the reading taken."""

    def apply(kw: dict[str, Any]) -> None:
        kw.update(changes)
        _leaves_open(kw, reading)

    return apply


def _blind_misere(kw: dict[str, Any]) -> None:
    order = list(kw["bid_order"])
    _insert_above(order, BLIND_MISERE, OPEN_MISERE)
    kw["bid_order"] = tuple(order)
    kw["bid_values"] = {**kw["bid_values"], BLIND_MISERE: 500}
    kw["bid_ties"] = (*kw.get("bid_ties", ()), (OPEN_MISERE, BLIND_MISERE))
    _leaves_open(
        kw,
        "blind misère: seed 004 gives only its name, its place beside open misère and its "
        "500; taken as the bidder's first call only, tied with open misère (neither over the "
        "other), played as a misère (hand not exposed, kitty taken, no seven needed)",
    )


_DEFENDER_CAP = (
    "defender cap: seed 004 does not say whether {limit} is the side's score before the deal "
    "or a ceiling on its points; taken as the score before the deal (at {limit} or more, no "
    "trick points; below it, every trick point, even past {limit})"
)


def _all_pass_no_trumps(kw: dict[str, Any]) -> None:
    kw["all_pass"] = "no-trumps"


def _short_deck(kw: dict[str, Any]) -> None:
    kw["deck"] = _deck_down_to(9, joker=False)
    kw["dead_hands"] = 0
    kw["kitty_size"] = 2
    kw["packets"] = ((3, 2), (4, 0), (3, 0))
    kw["undealt"] = 2
    _leaves_open(
        kw,
        "24-card deck: seed 002 allows it for two players but gives neither its deal nor "
        "whether it keeps the joker; taken as A–9 without the joker (24 cards), so the widow "
        "is 2 (seed 002 «Сдача»: two without the joker) and 2 cards stay undealt",
    )


def _avondale_less_twenty(kw: dict[str, Any]) -> None:
    """Every suit and no-trump contract 20 below its Avondale value; the misères keep
    theirs, and the ladder (ranked by place, not value) is unchanged."""
    kw["bid_values"] = {b: v if b.is_misere else v - 20 for b, v in kw["bid_values"].items()}
    _leaves_open(
        kw,
        "Avondale less twenty: the source lowers the suit and no-trump values only and does "
        "not say whether the misères (250, 500) go down too; taken as unchanged",
    )


def _forty_five_card_pack(kw: dict[str, Any]) -> None:
    """All four 4s in the pack: 45 cards, ten to each player and five to the kitty."""
    kw["deck"] = _deck_down_to(4)
    kw["kitty_size"] = 5
    kw["packets"] = ((3, 2), (4, 2), (3, 1))
    _leaves_open(
        kw,
        "45-card pack: the source gives a five-card kitty but not how it is dealt; taken as "
        "2 to the kitty after the first round of 3 each, 2 after the round of 4, 1 after the "
        "last round of 3",
    )


def _one_sits_out(kw: dict[str, Any]) -> None:
    """Seed 002's other five-handed form: four play american-4's game and the fifth rests
    for the whole game, away from the table, which therefore has american-4's four seats,
    sides, pack and deal (the rest of american-5's rules are american-4's already)."""
    four = _american_4()
    kw.update(
        title="American five-handed game (seed 002), one resting: four play the four-handed game",
        seats=four["seats"],
        deck=four["deck"],
        sides=((0, 2), (1, 3)),
        seat_names=("N", "E", "S", "W"),
        incomplete=True,
        missing=(
            "who rests in the games after the first: seed 002 says only that the first "
            "game's players are drawn by lot (every game here is four players' game, the "
            "fifth away from the table)",
            "seed 002 says lots choose «трех-четырех» (three or four) players for the game "
            "with one resting; with five players one resting leaves four, so four play",
        ),
    )
    kw["sources"]["deck"] = four["sources"]["deck"]
    kw["sources"]["sides"] = (
        "seed 002 «Число игроков»: five may instead draw lots for the players of the game, "
        "one resting; the four play the four-handed partnership game"
    )


def _dealer_sits_out(kw: dict[str, Any]) -> None:
    """Seed 002's second four-handed form: each deal the dealer rests and the other three
    play american-3's game (its pack, single players scoring their own tricks); the seats,
    the deal and the auction skip the dealer through ``rests``."""
    three = _american_3()
    kw.update(
        title="American four-handed game (seed 002), the dealer sitting out: three play "
        "the three-handed game",
        deck=three["deck"],
        sides=((0,), (1,), (2,), (3,)),
        rests="dealer",
    )
    kw["sources"]["deck"] = three["sources"]["deck"]
    kw["sources"]["sides"] = (
        "seed 002 «Число игроков», four players, form б: three active players and the "
        "dealer idle in each deal; " + three["sources"]["sides"]
    )


def _three_sides_of_two(kw: dict[str, Any]) -> None:
    """Six players in three partnerships of two, partners opposite (N–W, E–P5, S–P6)."""
    kw["title"] = "American six-handed game: 63 cards, three partnerships of two"
    kw["sides"] = ((0, 3), (1, 4), (2, 5))
    kw["sources"]["sides"] = (
        "pagat (six-handed game) and Wikipedia (other numbers of players): three teams of "
        "two; partners sit opposite each other"
    )
    _leaves_open(
        kw,
        "three partnerships of two: the sources that describe them do not say which pack and "
        "widow go with them (pagat mentions other packs); american-6's 63 cards and widow of "
        "three are kept",
    )


VARIANTS: Mapping[str, Variant] = MappingProxyType(
    {
        v.name: v
        for v in (
            Variant(
                "no-misere",
                "no misère bids at all (misère and open misère are removed from the ladder)",
                "seed 004 «ODMIANY» 1: «Oferty Misere nie są dozwolone»",
                _AUSTRALIAN_ONLY,
                _remove_misere,
                ("misere-without-seven", "blind-misere"),
            ),
            Variant(
                "misere-without-seven",
                "misère may be bid without a seven bid before it",
                "seed 004 «ODMIANY» 2: «Misere może być licytowane bez licytacji 7»",
                _AUSTRALIAN_ONLY,
                _set(misere_needs=None),
                ("no-misere",),
            ),
            Variant(
                "joker-leads-last-trick-only",
                "a suitless joker may be led only to the last trick",
                "seed 004 «ODMIANY» 3: «Jokera można poprowadzić tylko w ostatniej sztuczce»",
                _AUSTRALIAN_ONLY,
                _set(joker_lead_last_trick_only=True),
            ),
            Variant(
                "raise-after-all-pass",
                "the highest bidder may raise once more after all the others have passed",
                "seed 004 «ODMIANY» 4 names the opposite («Nie możesz podnieść swojej oferty po "
                "tym, jak wszyscy inni spasowali») as a variation; seed 000 §03 forbids it",
                _AUSTRALIAN_ONLY,
                _set(raise_after_all_pass=True),
            ),
            Variant(
                "defender-cap-490",
                "a side with 490 or more before the deal scores nothing for its tricks against "
                "the contract (incomplete)",
                "seed 004 «ODMIANY» 5: «Jeśli masz wynik 490 (lub 480), nie możesz otrzymać "
                "punktów za wygranie triku przeciwko kontrahentowi»",
                _AUSTRALIAN_ONLY,
                _set_reading(_DEFENDER_CAP.format(limit=490), defender_cap=490),
                ("defender-cap-480",),
            ),
            Variant(
                "defender-cap-480",
                "a side with 480 or more before the deal scores nothing for its tricks against "
                "the contract (incomplete)",
                "seed 004 «ODMIANY» 5 (the 480 form)",
                _AUSTRALIAN_ONLY,
                _set_reading(_DEFENDER_CAP.format(limit=480), defender_cap=480),
                ("defender-cap-490",),
            ),
            Variant(
                "blind-misere",
                "blind misère, bid before looking (as the bidder's first call), ranked tied "
                "with open misère and worth 500 (incomplete)",
                "seed 004 «Licytacja» (Blind Misere) and «PUNKTACJA» (OTWARTE/ŚLEPE MISERE 500)",
                _AUSTRALIAN_ONLY,
                _blind_misere,
                ("no-misere",),
            ),
            Variant(
                "all-pass-no-trumps",
                "a deal everybody passed is played at no trumps, each for himself, 10 a trick",
                "seed 002 «Вариант» after «Нулевая заявка»",
                _AMERICAN_ALL,
                _all_pass_no_trumps,
            ),
            Variant(
                "deck-24",
                "two players use the 24-card deck (A to 9) instead of 33 cards (incomplete)",
                "seed 002 «Колода»: «При наличии двух игроков можно использовать колоду из 24 "
                "карт»",
                ("american-2",),
                _short_deck,
            ),
            # -- toggles-e: default-profile toggles pairing the disputes six-level-bids,
            # sans-kitty-bids and misere-partner --
            Variant(
                "inkles",
                "six-level bids only signal: a six may be only the bidder's first call, and an "
                "auction won by a six is thrown in (incomplete)",
                "Wikipedia, 500 (card game), variations: six-level bids (inkles) signal to "
                "partner and cannot become the contract",
                _AUSTRALIAN_ONLY,
                _set_reading(
                    "inkles: the source does not say what happens when the auction ends with a "
                    "six as the highest bid; taken as a throw-in, as if all had passed",
                    inkles=True,
                ),
            ),
            Variant(
                "sans-kitty",
                "the declarer of a suit or no-trump contract may play without the kitty "
                "(SANS KITTY instead of a discard; incomplete)",
                "seed 004 «Licytacja», list of bids: «Oferty można składać Sans Kitty»",
                _AUSTRALIAN_ONLY,
                _set_reading(
                    "sans-kitty: seed 004 names the bid and nothing more; it is given no value "
                    "of its own (the contract scores as usual), and it is announced at the "
                    "kitty, where the contract is known, rather than with the bid as the seed "
                    "says",
                    sans_kitty=True,
                ),
            ),
            Variant(
                "double-nullo",
                "in a misère the declarer's partner plays too and must also lose every trick, "
                "taking the declarer's discards and discarding three in turn (incomplete)",
                "Wikipedia, 500 (card game), variations: double nullo, both partners playing "
                "the misère",
                _AUSTRALIAN_ONLY,
                _set_reading(
                    "double nullo: the published descriptions make it a call of its own "
                    "beside the 250 nullo (a 1990s team-rules text values it at 500); the "
                    "toggle adds no call and makes the profile's misère and open misère double "
                    "instead, at their own values; only the declarer's hand is exposed",
                    double_nullo=True,
                ),
            ),
            # ---- toggles that give the other answers of disputes a rule set ----
            Variant(
                "open-misere-shown-after-lead",
                "the open-misère declarer's cards are laid face up once the opening lead has "
                "been played, not once the first trick is complete",
                "seed 004 «ROZGRYWKA»: the open misère hand goes on the table «po pierwszym "
                "wiście» (after the first lead)",
                _AUSTRALIAN_ONLY,
                _set(open_misere_shown="opening-lead"),
                ("open-misere-shown-before-lead",),
            ),
            Variant(
                "open-misere-shown-before-lead",
                "the open-misère declarer's cards are laid face up as play begins, before the "
                "opening lead",
                "whatisflike.com, «What is a misdeal in 500?»: the open misère hand is shown "
                "before the first card is led",
                _AUSTRALIAN_ONLY,
                _set(open_misere_shown="play"),
                ("open-misere-shown-after-lead",),
            ),
            Variant(
                "dealers-left-leads",
                "the first player left of the dealer who takes part in the play leads to the "
                "first trick, not the declarer",
                "Wikipedia, «500 (card game)», variations: the player on the dealer's left "
                "leads first",
                _AUSTRALIAN_ONLY,
                _set(opening_lead="dealers-left"),
            ),
            Variant(
                "no-slam-bonus",
                "all ten tricks score only the contract's value (no raise to 250)",
                "Wikipedia, «500 (card game)», an older revision of the scoring text: no "
                "reward for taking every trick beyond the contract's value",
                _AUSTRALIAN_ONLY,
                _set(slam_value=0),
            ),
            Variant(
                "avondale-less-twenty",
                "every suit and no-trump contract is worth 20 less than in the Avondale table "
                "(six spades 20 … ten no trumps 500); the misères keep their values",
                "Wikipedia, «500 (card game)», variations: the Avondale values less 20, so "
                "that ten no trumps is worth exactly 500",
                _AUSTRALIAN_ONLY,
                _avondale_less_twenty,
            ),
            Variant(
                "forty-five-card-pack",
                "all four 4s stay in the pack: 45 cards, a five-card kitty, five discards",
                "Wikipedia, «500 (card game)», variations: 45 cards with all the 4s and a "
                "kitty of five",
                _AUSTRALIAN_ONLY,
                _forty_five_card_pack,
            ),
            Variant(
                "pass-may-re-enter",
                "a pass is not final: a player who has passed may bid when the turn comes "
                "round again; the auction ends when the three others pass in succession "
                "after a bid",
                "pagat.com, «Five Hundred», variations; TricksterBots, option bidAfterPass",
                _AUSTRALIAN_ONLY,
                _set(auction="passes-not-final"),
            ),
            # ---- readings of other profiles ----
            Variant(
                "fallen-player-may-win",
                "a player who has fallen to −500 or lower plays on and may still win by "
                "reaching 500 later, like any other player",
                "the reading of seed 003 «Победа в игре» before suite 1.6, which set aside "
                "the sentence barring such a player; seed 002, silent on −500, lets scores "
                "go below zero with no bar",
                ("three-handed",),
                _set(barred_at=None),
            ),
            # ---- seating forms of other profiles ----
            Variant(
                "one-sits-out",
                "five players draw lots: four play the four-handed partnership game and the "
                "fifth rests (incomplete)",
                "seed 002 «Число игроков»: «путем жеребьевки определить трех-четырех первого "
                "гейма с одним отдыхающим»",
                ("american-5",),
                _one_sits_out,
            ),
            Variant(
                "dealer-sits-out",
                "in each deal the dealer sits out and the other three play the three-handed "
                "game, each for himself",
                "seed 002 «Число игроков», four players, form б: «три действующих и один "
                "(сдающий) бездействующий игрок в каждом гейме»",
                ("american-4",),
                _dealer_sits_out,
            ),
            Variant(
                "three-sides-of-two",
                "six players in three partnerships of two, partners opposite (incomplete)",
                "pagat.com, Five Hundred, six-handed game; Wikipedia, 500 (card game), other "
                "numbers of players: three teams of two",
                ("american-6",),
                _three_sides_of_two,
            ),
        )
    }
)


@cache
def _build(name: str, variants: tuple[str, ...]) -> Profile:
    try:
        builder = _BUILDERS[name][0]
    except KeyError:
        known = ", ".join(PROFILE_NAMES)
        raise KeyError(f"unknown profile {name!r}; known profiles: {known}") from None
    kw = builder()
    for v in variants:
        variant = VARIANTS.get(v)
        if variant is None:
            raise KeyError(f"unknown variant {v!r}; known variants: {', '.join(VARIANTS)}")
        if name not in variant.applies_to:
            raise ValueError(f"variant {v} does not apply to profile {name}")
        clash = set(variant.conflicts) & set(variants)
        if clash:
            raise ValueError(f"variant {v} cannot be combined with {', '.join(sorted(clash))}")
        variant.apply(kw)
        kw["sources"][f"variant {v}"] = variant.source
    if variants:
        kw["variants"] = variants
        kw["title"] = f"{kw['title']} + {', '.join(variants)}"
    kw["bid_values"] = MappingProxyType(dict(kw["bid_values"]))
    kw["sources"] = MappingProxyType(kw["sources"])
    return Profile(**kw)


def profile_named(name: str, variants: Iterable[str] = ()) -> Profile:
    """The profile ``name`` with the variant toggles ``variants`` (order does not matter).

    The same name and variants always give the same object.
    """
    return _build(name, tuple(sorted(set(variants))))


def variants_for(name: str) -> list[Variant]:
    """The variant toggles that apply to profile ``name``."""
    return [v for v in VARIANTS.values() if name in v.applies_to]


AUSTRALIAN = profile_named(DEFAULT_PROFILE_NAME)
DEFAULT_PROFILE = AUSTRALIAN

ALL_PROFILES: Mapping[str, Profile] = MappingProxyType(
    {name: profile_named(name) for name in PROFILE_NAMES}
)
"""Every profile of the registry without variants."""
PROFILES = ALL_PROFILES
"""Profiles the scenario layers accept by name (every profile of the registry)."""


def get_profile(name: str | None, variants: Iterable[str] = ()) -> Profile:
    """The named profile with ``variants``; the default profile for ``None``.

    Raises ``KeyError`` for an unknown profile or variant and ``ValueError`` for a
    variant that does not apply to the profile or clashes with another, each with a
    message that names what is known.
    """
    return profile_named(DEFAULT_PROFILE.name if name is None else name, variants)
