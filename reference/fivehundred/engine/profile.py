"""Profiles: the rules that differ between forms of the game, as a composition of rule
components.

The engine reads every rule that varies between rule sets from a :class:`Profile`
instead of branching on the name of a rule set.  A profile is a name, a title, its
sources and nine rule components (see :mod:`.rules`, which says why components): the
table, the pack and deal, the bid ladder, the auction, the misère, the joker, the start
of play, the scoring and the end of the game.  The deal and the game ask the component
of a family of rules what to do; a toggle replaces or adjusts one component.

Profiles come from :func:`profile_named` (a name from :data:`PROFILE_NAMES` plus any
variant toggles from :data:`VARIANTS`); each profile says where each of its rules comes
from in ``sources`` (keyed by rule point, ``component.field``, or by component), and a
profile whose sources leave a point open says so in ``incomplete`` and ``missing``
instead of inventing a rule.

Sources cited below: seed 000 (the default profile, with RULINGS.md), seed 002 (American
rules, two to six players), seed 003 (three players), seed 004 (Australian rules and a
list of variations), and, where the seeds are silent, pagat.com's Five Hundred page.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any, Final

from .bids import BLIND_MISERE, MISERE, OPEN_MISERE, SUIT_BIDS, Bid, Strain
from .cards import JOKER, SUITS, Card, NotationError, Suit, make_card, make_numeral
from .rules import (
    COMPONENTS,
    Auction,
    GameEnd,
    JokerRules,
    Ladder,
    MisereRules,
    Pack,
    PlayRules,
    ScoringRules,
    Table,
    by_value,
    skipping,
)
from .seats import Seat

DEFAULT_PROFILE_NAME: Final = "australian-4"
"""The name of the default profile (seed 000's Australian game): the rule set of every
scenario, fuzz run and command that names none."""

_SHORTCUTS: Final = {
    "table": (
        "seats",
        "sides",
        "seat_names",
        "left",
        "side_of",
        "side_names",
        "seat_list",
        "all_seats_mask",
        "players",
        "left_in_deal",
    ),
    "pack": ("deck", "hand_size", "kitty_size", "deck_mask"),
}


@dataclass(frozen=True, eq=False)
class Profile:
    """One form of the game: its name, its sources, and its rule components.

    Frozen and compared by identity: a profile is shared by every deal that uses it
    and keys the engine's caches (:func:`profile_named` returns the same object for the
    same name and variants).  Components compare by value, so two profiles can be
    compared component by component (the coverage and the generated pages do).

    The table's and the pack's values that every layer reads (``seats``, ``deck``,
    ``side_of`` …), the ladder's ``bid_order``, ``bid_values`` and ``bid_rank``, and the
    tables that join two components (who sits out a misère, the next seat in one, the
    bids that may only be a first call) are copied or derived once, when the profile is
    made, since the deal reads them on every action.
    """

    name: str
    title: str
    table: Table
    pack: Pack
    ladder: Ladder
    scoring: ScoringRules
    end: GameEnd
    auction: Auction = field(default_factory=Auction)
    misere: MisereRules = field(default_factory=MisereRules)
    joker: JokerRules = field(default_factory=JokerRules)
    play: PlayRules = field(default_factory=PlayRules)
    variants: tuple[str, ...] = ()
    """The variant toggles this profile was built with."""
    sources: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """For each rule (by rule point or component), the section of the source it comes
    from."""
    incomplete: bool = False
    missing: tuple[str, ...] = ()
    """The points the sources leave open (each resolved provisionally, as said)."""
    # ---- copied from the table and the pack (see the class docstring) ----
    seats: int = field(init=False, repr=False)
    sides: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    seat_names: tuple[str, ...] = field(init=False, repr=False)
    left: tuple[Seat, ...] = field(init=False, repr=False)
    side_of: tuple[int, ...] = field(init=False, repr=False)
    side_names: tuple[str, ...] = field(init=False, repr=False)
    seat_list: tuple[Seat, ...] = field(init=False, repr=False)
    all_seats_mask: int = field(init=False, repr=False)
    players: int = field(init=False, repr=False)
    left_in_deal: tuple[tuple[Seat, ...], ...] = field(init=False, repr=False)
    deck: tuple[Card, ...] = field(init=False, repr=False)
    hand_size: int = field(init=False, repr=False)
    kitty_size: int = field(init=False, repr=False)
    deck_mask: int = field(init=False, repr=False)
    bid_order: tuple[Bid, ...] = field(init=False, repr=False)
    bid_values: Mapping[Bid, int] = field(init=False, repr=False)
    bid_rank: Mapping[Bid, int] = field(init=False, repr=False)
    # ---- joining two components ----
    sitting_out: tuple[tuple[Seat, ...], ...] = field(init=False, repr=False)
    """For each misère declarer, the side-mates who lay their hands down."""
    next_in_misere: tuple[tuple[tuple[Seat, ...], ...], ...] = field(init=False, repr=False)
    """For each dealer and each misère declarer, the next seat to play after each seat
    (the declarer's side-mates and any resting seat skipped)."""
    first_call_only: frozenset[Bid] = field(init=False, repr=False)
    """The bids a player may make only as a first call of the auction (blind misère;
    the sixes under inkles), left out of the legal calls of anyone who has called."""

    def __post_init__(self) -> None:
        """Copy and derive the tables the engine reads on every action, then check that
        the components agree (a profile that cannot be dealt is a programming error)."""
        self._derive("sources", MappingProxyType(dict(self.sources)))
        for component, names in _SHORTCUTS.items():
            for name in names:
                self._derive(name, getattr(getattr(self, component), name))
        ladder, table = self.ladder, self.table
        self._derive("bid_order", ladder.order)
        self._derive("bid_values", ladder.values)
        self._derive("bid_rank", ladder.rank)
        out = self.misere.sitting_out(table)
        self._derive("sitting_out", out)
        n = table.seats
        resting = [table.resting(Seat(dealer)) for dealer in range(n)]
        self._derive(
            "next_in_misere",
            tuple(tuple(skipping(n, (*rest, *out[d])) for d in range(n)) for rest in resting),
        )
        self._derive("first_call_only", self.auction.first_call_only(ladder.order))
        if not self.pack.fits(table.players):
            raise ValueError(f"profile {self.name}: packets do not deal the whole deck")

    def _derive(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)

    def adjusted(self, component: str, **changes: Any) -> Profile:
        """This profile with fields of one component changed (a toggle's usual work)."""
        return dataclasses.replace(
            self, **{component: dataclasses.replace(getattr(self, component), **changes)}
        )

    def has_card(self, card: Card) -> bool:
        return bool(self.deck_mask >> card & 1)

    def resting(self, dealer: Seat) -> tuple[Seat, ...]:
        """The seats that take no part in a deal by ``dealer`` (see ``Table.rests``)."""
        return self.table.resting(dealer)

    def in_deal(self, dealer: Seat) -> tuple[Seat, ...]:
        """The seats that take part in a deal by ``dealer``, clockwise from seat 0."""
        return self.table.in_deal(dealer)

    def absent_sides(self, dealer: Seat) -> tuple[int, ...]:
        """The sides with nobody in a deal by ``dealer`` (a resting dealer who is a side
        alone): they take no trick and score nothing for the deal."""
        return self.table.absent_sides(dealer)

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


def rule_value(profile: Profile, point: str) -> object:
    """The value of a rule point, ``component.field``, in ``profile``."""
    component, _, name = point.partition(".")
    return getattr(getattr(profile, component), name)


def rule_points() -> tuple[str, ...]:
    """Every rule point, ``component.field``, in component order: the fields a component
    is built with (the seat names, which follow the number of seats, left out)."""
    return tuple(
        f"{name}.{f.name}"
        for name in COMPONENTS
        for f in dataclasses.fields(_COMPONENT_TYPES[name])
        if f.init and f"{name}.{f.name}" != "table.seat_names"
    )


_COMPONENT_TYPES: Final[Mapping[str, type]] = MappingProxyType(
    {
        "table": Table,
        "pack": Pack,
        "ladder": Ladder,
        "auction": Auction,
        "misere": MisereRules,
        "joker": JokerRules,
        "play": PlayRules,
        "scoring": ScoringRules,
        "end": GameEnd,
    }
)


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


# ---- the registry -------------------------------------------------------------------

_AUSTRALIAN_SOURCES = {
    "pack.deck": "seed 000 §01; ruling 1 `deck`",
    "pack.packets": "seed 000 §02; ruling 6 `deal-packets`",
    "auction": "seed 000 §03; rulings 8–14",
    "ladder.order": "seed 000 §03; ruling 9 `bid-order`",
    "ladder.values": "seed 000 §06; ruling 28 `contract-values`",
    "ladder.misere_needs": "seed 000 §03; ruling 11 `misere-needs-seven`",
    "joker": "seed 000 §05; rulings 21–27",
    "scoring.slam_value": "seed 000 §07; ruling 29 `deal-score`",
    "scoring.defender_trick_points": "seed 000 §07; ruling 29 `deal-score`",
    "misere": "seed 000 §04, §07; rulings 16, 30",
    "auction.all_pass": "seed 000 §03; ruling 14 `auction-end`",
    "end.rule": "seed 000 §08; rulings 31–34",
}

_AMERICAN_SOURCES = {
    "pack.deck": "seed 002 «Колода»",
    "pack.packets": "seed 002 «Сдача»: 3 each, the widow of 3, 4 each, 3 each",
    "auction": "seed 002 «Торговля»: one call each, starting left of the dealer",
    "ladder.order": "seed 002 «Торговля» (more tricks, or as many in a higher strain) and "
    "«Нулевая заявка» (Nullo between 8♠ and 8♣ in the Avondale table)",
    "ladder.values": "seed 002 «Нулевая заявка» (Nullo 250); Avondale table as seed 003",
    "joker": "seed 002 «Джокер»: suitless at no trumps and Nullo; a joker lead names any "
    "suit; played on a lead only when void; no nomination",
    "scoring.slam_value": "seed 002 «Подсчет очков»: all ten tricks score at least 250",
    "scoring.defender_trick_points": "seed 002 «Подсчет очков»: 10 a trick to each opponent",
    "misere": "seed 002 «Нулевая заявка»: partners lay down their hands; a failed Nullo "
    "gives each opponent 10 for each trick the bidder took (so all tricks are played)",
    "auction.all_pass": "seed 002 «Сдачу оставляют без начисления очков, если все игроки "
    "объявляют пас»; variant `all-pass-no-trumps`: «Вариант»",
    "end.lose_score": "seed 002 «Подсчет очков»: a score may go below zero («в дыре»)",
    "end.rule": "seed 002 is silent: seed 003 «Победа в игре» (first to 500; the declarer "
    "first; among defenders the one who took the first trick)",
}

_FOUR_PARTNERS = Table()
_AUSTRALIAN_PACKETS = ((3, 1), (4, 1), (3, 1))
_WIDOW_PACKETS = ((3, 3), (4, 0), (3, 0))
_SCORING = ScoringRules(slam_value=250, defender_trick_points=10)

_AMERICAN_AUCTION = Auction(procedure="one-round")
_AMERICAN_MISERE = MisereRules(ends_on_declarer_trick=False, defender_points=10)
_AMERICAN_JOKER = JokerRules(nomination=False, lead_unled_suit=False, must_play_in_misere=False)
_AMERICAN_END = GameEnd(win_score=500, lose_score=None, rule="first-to-score")


def _american_ladder(*, nullo: bool) -> Ladder:
    _, values = _avondale()
    if nullo:
        values[MISERE] = 250
    return Ladder(by_value(values), values, misere_needs=None)


def _australian_4() -> Profile:
    bids, values = _australian_bids()
    return Profile(
        name=DEFAULT_PROFILE_NAME,
        title="Australian four-handed partnership game (default)",
        table=_FOUR_PARTNERS,
        pack=Pack(_australian_deck(), 10, 3, _AUSTRALIAN_PACKETS),
        ladder=Ladder(bids, values, misere_needs=SUIT_BIDS[(7, Strain.SPADES)]),
        scoring=_SCORING,
        end=GameEnd(win_score=500, lose_score=-500),
        sources=_AUSTRALIAN_SOURCES,
    )


def _american(
    name: str,
    title: str,
    table: Table,
    deck: tuple[Card, ...],
    *,
    sources: Mapping[str, str],
    dead_hands: int = 0,
) -> Profile:
    """Seed 002's game for one number of players: its table and pack, and the rules the
    American text gives every number of players."""
    return Profile(
        name=name,
        title=title,
        table=table,
        pack=Pack(deck, 10, 3, _WIDOW_PACKETS, dead_hands=dead_hands),
        ladder=_american_ladder(nullo=True),
        scoring=_SCORING,
        end=_AMERICAN_END,
        auction=_AMERICAN_AUCTION,
        misere=_AMERICAN_MISERE,
        joker=_AMERICAN_JOKER,
        sources={**_AMERICAN_SOURCES, **sources},
    )


def _american_2() -> Profile:
    return _american(
        "american-2",
        "American two-handed game (seed 002): 33 cards, a dead third hand",
        Table(2, ((0,), (1,)), ("N", "E")),
        _deck_down_to(7),
        dead_hands=1,
        sources={
            "pack.deck": "seed 002 «Колода»: two or three players use A–7 and the joker",
            "pack.dead_hands": "seed 002 is silent on what two players do with the 10 cards "
            "left over: pagat (two players) deals a third hand as in the three-handed game "
            "and leaves it unused",
        },
    )


_THREE_SINGLES = Table(3, ((0,), (1,), (2,)), ("N", "E", "S"))


def _american_3() -> Profile:
    return _american(
        "american-3",
        "American three-handed game (seed 002): one round of bidding, Nullo",
        _THREE_SINGLES,
        _deck_down_to(7),
        sources={
            "pack.deck": "seed 002 «Колода» (it says 39 cards but lists A K Q J 10 9 8 7 and "
            "the joker: 33)",
            "table.sides": "seed 002 «Розыгрыш»: the two others are partners against the "
            "declarer for the deal; «Подсчет очков»: each opponent scores his own tricks",
        },
    )


def _three_handed() -> Profile:
    """Seed 003's game.  It shares american-3's deck, deal, ladder values, joker and scoring,
    and differs in three points: the auction (seed 003 does not limit it to one round, so
    pagat's applies), no Nullo (seed 003 has none), and seed 003's own end of the game
    (which american-3 borrows, seed 002 being silent).  Two profiles built from one
    description rather than one profile and toggles: the differences are what each seed
    says, not options a table picks, and a toggle for each would let a mix that no seed
    describes pass for a rule set."""
    return dataclasses.replace(
        _american_3(),
        name="three-handed",
        title="Three-handed game (seed 003): 33 cards, no Nullo, bidding until two pass",
        ladder=_american_ladder(nullo=False),
        auction=Auction(),
        end=dataclasses.replace(_AMERICAN_END, barred_at=-500),
        sources={
            "pack.deck": "seed 003 «Иерархия колоды и карт»: A to 7 and one joker, 33 cards",
            "pack.packets": "seed 003 «Раздача карт»: 3 each, 3 to the widow, 4 each, 3 each",
            "auction": "seed 003 «Ставка и объявление» does not say one round or more: "
            "pagat's auction (round and round until all but one have passed)",
            "ladder.order": "seed 003 «Таблица на 500 очков» (spades lowest; its sentence "
            "listing no trumps first is read as highest first)",
            "ladder.values": "seed 003 «Таблица на 500 очков» (Avondale; its doubled cells "
            "read as the Avondale values)",
            "joker": "seed 003 «Козырь»: suitless at no trumps, a joker lead names its suit",
            "scoring.slam_value": "seed 003 «Очки»: all 10 tricks with a bid under 250 score 250",
            "scoring.defender_trick_points": "seed 003 «Очки»: 10 a trick, each opponent his own",
            "auction.all_pass": "seed 003 «Ставка и объявление»: the deal is thrown in",
            "end.lose_score": "seed 003 «Победа в игре»: minus 500 does not end the game",
            "end.barred_at": "seed 003 «Победа в игре» and its FAQ: a player who has fallen "
            "to minus 500 plays on, and reaching 500 later does not make him the winner; the "
            "game goes on. Once every player has fallen that far, nobody can win and the game "
            "ends without a winner (the seed is silent; the suite's reading)",
            "end.rule": "seed 003 «Победа в игре»",
        },
    )


def _american_4() -> Profile:
    return _american(
        "american-4",
        "American four-handed partnership game (seed 002): one round, Nullo",
        _FOUR_PARTNERS,
        _australian_deck(),
        sources={"pack.deck": "seed 002 «Колода»: four players, A to 5 and the red 4s, joker"},
    )


def _american_5() -> Profile:
    profile = _american(
        "american-5",
        "American five-handed game (seed 002): three against two, 53 cards",
        Table(5, ((0, 2, 4), (1, 3)), ("N", "E", "S", "W", "P5")),
        _deck_down_to(2),
        sources={"table.sides": "seed 002 «Число игроков»: five play 3x2"},
    )
    return _leaves_open(
        profile,
        "deck: seed 002 gives none for five players; the 52 cards and the joker that five "
        "hands of 10 and a widow of 3 need (as pagat) are used",
        "seating: seed 002 says five play «3x2» but not who sits where; the side of three "
        "is taken as seats 0, 2, 4 (so 4 and 0 sit together)",
    )


def _american_6() -> Profile:
    return _american(
        "american-6",
        "American six-handed game (seed 002): 63 cards, two teams of three",
        Table(6, ((0, 2, 4), (1, 3, 5)), ("N", "E", "S", "W", "P5", "P6")),
        _six_handed_deck(),
        sources={
            "pack.deck": "seed 002 «Колода»: 63 cards with 11s and 12s of every suit and red "
            "13s; the rest of the deck (2 to ace) and the numerals' place between 10 and J as "
            "pagat",
            "table.sides": "seed 002 «Число игроков»: six play 3x3; alternate seats as pagat",
        },
    )


_BUILDERS: dict[str, tuple[Callable[[], Profile], str]] = {
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
    """A named toggle: a change to a profile's rules, with its source.  ``apply`` returns
    the profile changed (most toggles adjust one component, see :func:`_adjust`)."""

    name: str
    description: str
    source: str
    applies_to: tuple[str, ...]
    apply: Callable[[Profile], Profile] = field(repr=False)
    conflicts: tuple[str, ...] = ()


def _leaves_open(profile: Profile, *points: str) -> Profile:
    """The profile marked incomplete, with the points its source leaves open (each with
    the reading taken) added to those already listed."""
    return dataclasses.replace(profile, incomplete=True, missing=(*profile.missing, *points))


def _with_sources(profile: Profile, **sources: str) -> Profile:
    return dataclasses.replace(profile, sources={**profile.sources, **sources})


def _adjust(component: str, **changes: Any) -> Callable[[Profile], Profile]:
    """A toggle that changes fields of one component."""

    def apply(profile: Profile) -> Profile:
        return profile.adjusted(component, **changes)

    return apply


def _adjust_reading(reading: str, component: str, **changes: Any) -> Callable[[Profile], Profile]:
    """:func:`_adjust`, for a toggle whose source leaves a point open: the profile is
    marked incomplete with ``reading``, the point and the reading taken."""

    def apply(profile: Profile) -> Profile:
        return _leaves_open(profile.adjusted(component, **changes), reading)

    return apply


def _remove_misere(profile: Profile) -> Profile:
    ladder = profile.ladder
    return profile.adjusted(
        "ladder",
        order=tuple(b for b in ladder.order if not b.is_misere),
        values={b: v for b, v in ladder.values.items() if not b.is_misere},
        misere_needs=None,
    )


def _blind_misere(profile: Profile) -> Profile:
    ladder = profile.ladder
    order = list(ladder.order)
    _insert_above(order, BLIND_MISERE, OPEN_MISERE)
    changed = profile.adjusted(
        "ladder",
        order=tuple(order),
        values={**ladder.values, BLIND_MISERE: 500},
        ties=(*ladder.ties, (OPEN_MISERE, BLIND_MISERE)),
    )
    return _leaves_open(
        changed,
        "blind misère: seed 004 gives only its name, its place beside open misère and its "
        "500; taken as the bidder's first call only, tied with open misère (neither over the "
        "other), played as a misère (hand not exposed, kitty taken, no seven needed)",
    )


_DEFENDER_CAP = (
    "defender cap: seed 004 does not say whether {limit} is the side's score before the deal "
    "or a ceiling on its points; taken as the score before the deal (at {limit} or more, no "
    "trick points; below it, every trick point, even past {limit})"
)


def _short_deck(profile: Profile) -> Profile:
    pack = Pack(_deck_down_to(9, joker=False), 10, 2, ((3, 2), (4, 0), (3, 0)), undealt=2)
    return _leaves_open(
        dataclasses.replace(profile, pack=pack),
        "24-card deck: seed 002 allows it for two players but gives neither its deal nor "
        "whether it keeps the joker; taken as A–9 without the joker (24 cards), so the widow "
        "is 2 (seed 002 «Сдача»: two without the joker) and 2 cards stay undealt",
    )


def _avondale_less_twenty(profile: Profile) -> Profile:
    """Every suit and no-trump contract 20 below its Avondale value; the misères keep
    theirs, and the ladder (ranked by place, not value) is unchanged."""
    values = {b: v if b.is_misere else v - 20 for b, v in profile.ladder.values.items()}
    return _leaves_open(
        profile.adjusted("ladder", values=values),
        "Avondale less twenty: the source lowers the suit and no-trump values only and does "
        "not say whether the misères (250, 500) go down too; taken as unchanged",
    )


def _forty_five_card_pack(profile: Profile) -> Profile:
    """All four 4s in the pack: 45 cards, ten to each player and five to the kitty."""
    pack = Pack(_deck_down_to(4), 10, 5, ((3, 2), (4, 2), (3, 1)))
    return _leaves_open(
        dataclasses.replace(profile, pack=pack),
        "45-card pack: the source gives a five-card kitty but not how it is dealt; taken as "
        "2 to the kitty after the first round of 3 each, 2 after the round of 4, 1 after the "
        "last round of 3",
    )


def _one_sits_out(profile: Profile) -> Profile:
    """Seed 002's other five-handed form: four play american-4's game and the fifth rests
    for the whole game, away from the table, which therefore has american-4's four seats,
    sides, pack and deal (the rest of american-5's rules are american-4's already)."""
    four = _american_4()
    changed = dataclasses.replace(
        profile,
        title="American five-handed game (seed 002), one resting: four play the four-handed game",
        table=four.table,
        pack=four.pack,
        missing=(),
    )
    changed = _with_sources(
        changed,
        **{
            "pack.deck": four.sources["pack.deck"],
            "table.sides": "seed 002 «Число игроков»: five may instead draw lots for the "
            "players of the game, one resting; the four play the four-handed partnership game",
        },
    )
    return _leaves_open(
        changed,
        "who rests in the games after the first: seed 002 says only that the first "
        "game's players are drawn by lot (every game here is four players' game, the "
        "fifth away from the table)",
        "seed 002 says lots choose «трех-четырех» (three or four) players for the game "
        "with one resting; with five players one resting leaves four, so four play",
    )


def _dealer_sits_out(profile: Profile) -> Profile:
    """Seed 002's second four-handed form: each deal the dealer rests and the other three
    play american-3's game (its pack, single players scoring their own tricks); the seats,
    the deal and the auction skip the dealer through the table's ``rests``."""
    three = _american_3()
    changed = dataclasses.replace(
        profile,
        title="American four-handed game (seed 002), the dealer sitting out: three play "
        "the three-handed game",
        table=Table(4, ((0,), (1,), (2,), (3,)), rests="dealer"),
        pack=three.pack,
    )
    return _with_sources(
        changed,
        **{
            "pack.deck": three.sources["pack.deck"],
            "table.sides": "seed 002 «Число игроков», four players, form б: three active "
            "players and the dealer idle in each deal; " + three.sources["table.sides"],
        },
    )


def _three_sides_of_two(profile: Profile) -> Profile:
    """Six players in three partnerships of two, partners opposite (N–W, E–P5, S–P6)."""
    changed = dataclasses.replace(
        profile.adjusted("table", sides=((0, 3), (1, 4), (2, 5))),
        title="American six-handed game: 63 cards, three partnerships of two",
    )
    changed = _with_sources(
        changed,
        **{
            "table.sides": "pagat (six-handed game) and Wikipedia (other numbers of "
            "players): three teams of two; partners sit opposite each other"
        },
    )
    return _leaves_open(
        changed,
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
                _adjust("ladder", misere_needs=None),
                ("no-misere",),
            ),
            Variant(
                "joker-leads-last-trick-only",
                "a suitless joker may be led only to the last trick",
                "seed 004 «ODMIANY» 3: «Jokera można poprowadzić tylko w ostatniej sztuczce»",
                _AUSTRALIAN_ONLY,
                _adjust("joker", lead_last_trick_only=True),
            ),
            Variant(
                "raise-after-all-pass",
                "the highest bidder may raise once more after all the others have passed",
                "seed 004 «ODMIANY» 4 names the opposite («Nie możesz podnieść swojej oferty po "
                "tym, jak wszyscy inni spasowali») as a variation; seed 000 §03 forbids it",
                _AUSTRALIAN_ONLY,
                _adjust("auction", raise_after_all_pass=True),
            ),
            Variant(
                "defender-cap-490",
                "a side with 490 or more before the deal scores nothing for its tricks against "
                "the contract (incomplete)",
                "seed 004 «ODMIANY» 5: «Jeśli masz wynik 490 (lub 480), nie możesz otrzymać "
                "punktów za wygranie triku przeciwko kontrahentowi»",
                _AUSTRALIAN_ONLY,
                _adjust_reading(_DEFENDER_CAP.format(limit=490), "scoring", defender_cap=490),
                ("defender-cap-480",),
            ),
            Variant(
                "defender-cap-480",
                "a side with 480 or more before the deal scores nothing for its tricks against "
                "the contract (incomplete)",
                "seed 004 «ODMIANY» 5 (the 480 form)",
                _AUSTRALIAN_ONLY,
                _adjust_reading(_DEFENDER_CAP.format(limit=480), "scoring", defender_cap=480),
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
                _adjust("auction", all_pass="no-trumps"),
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
                _adjust_reading(
                    "inkles: the source does not say what happens when the auction ends with a "
                    "six as the highest bid; taken as a throw-in, as if all had passed",
                    "auction",
                    inkles=True,
                ),
            ),
            Variant(
                "sans-kitty",
                "the declarer of a suit or no-trump contract may play without the kitty "
                "(SANS KITTY instead of a discard; incomplete)",
                "seed 004 «Licytacja», list of bids: «Oferty można składać Sans Kitty»",
                _AUSTRALIAN_ONLY,
                _adjust_reading(
                    "sans-kitty: seed 004 names the bid and nothing more; it is given no value "
                    "of its own (the contract scores as usual), and it is announced at the "
                    "kitty, where the contract is known, rather than with the bid as the seed "
                    "says",
                    "play",
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
                _adjust_reading(
                    "double nullo: the published descriptions make it a call of its own "
                    "beside the 250 nullo (a 1990s team-rules text values it at 500); the "
                    "toggle adds no call and makes the profile's misère and open misère double "
                    "instead, at their own values; only the declarer's hand is exposed",
                    "misere",
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
                _adjust("misere", open_shown="opening-lead"),
                ("open-misere-shown-before-lead",),
            ),
            Variant(
                "open-misere-shown-before-lead",
                "the open-misère declarer's cards are laid face up as play begins, before the "
                "opening lead",
                "whatisflike.com, «What is a misdeal in 500?»: the open misère hand is shown "
                "before the first card is led",
                _AUSTRALIAN_ONLY,
                _adjust("misere", open_shown="play"),
                ("open-misere-shown-after-lead",),
            ),
            Variant(
                "dealers-left-leads",
                "the first player left of the dealer who takes part in the play leads to the "
                "first trick, not the declarer",
                "Wikipedia, «500 (card game)», variations: the player on the dealer's left "
                "leads first",
                _AUSTRALIAN_ONLY,
                _adjust("play", opening_lead="dealers-left"),
            ),
            Variant(
                "no-slam-bonus",
                "all ten tricks score only the contract's value (no raise to 250)",
                "Wikipedia, «500 (card game)», an older revision of the scoring text: no "
                "reward for taking every trick beyond the contract's value",
                _AUSTRALIAN_ONLY,
                _adjust("scoring", slam_value=0),
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
                _adjust("auction", procedure="passes-not-final"),
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
                _adjust("end", barred_at=None),
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
    profile = builder()
    for v in variants:
        variant = VARIANTS.get(v)
        if variant is None:
            raise KeyError(f"unknown variant {v!r}; known variants: {', '.join(VARIANTS)}")
        if name not in variant.applies_to:
            raise ValueError(f"variant {v} does not apply to profile {name}")
        clash = set(variant.conflicts) & set(variants)
        if clash:
            raise ValueError(f"variant {v} cannot be combined with {', '.join(sorted(clash))}")
        profile = _with_sources(variant.apply(profile), **{f"variant {v}": variant.source})
    if variants:
        profile = dataclasses.replace(
            profile, variants=variants, title=f"{profile.title} + {', '.join(variants)}"
        )
    return profile


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
