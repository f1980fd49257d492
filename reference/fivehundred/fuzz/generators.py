"""Seeded generators of fuzz cases: every case is reproducible from ``(seed, index)``.

Deal ``index`` of a run with seed ``seed`` uses generator ``GENERATORS[index % n]`` and
a :class:`random.Random` seeded with ``"{seed}:{index}"`` (string seeds are hashed the
same way on every platform and Python version), so any deal can be regenerated alone,
on any machine, in any shard.

The generators drive the reference itself (:class:`~fivehundred.verify.reference.
ReferenceSession`) to choose legal actions, so what they produce is what the reference
will say about it.  Illegal actions are injected at random points: a random call, card,
discard, nomination or deal by a random seat, in any phase, including after the deal
and after the game are over, which between them reach every rejection code.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..engine import (
    BLIND_MISERE,
    DEFAULT_PROFILE_NAME,
    JOKER,
    MISERE,
    OPEN_MISERE,
    SANS_KITTY,
    SUIT_BIDS,
    SUITS,
    Bid,
    Card,
    Deal,
    Discard,
    DiscardChoices,
    Nominate,
    Play,
    Profile,
    SansKitty,
    Seat,
    Suit,
    card_token,
    cards_in,
    get_profile,
    parse_bid,
    parse_card,
    score_deal,
    shuffled_deck,
)
from ..engine.actions import Action
from ..scenarios import (
    AuctionStart,
    CallStep,
    DealResultStep,
    DealStep,
    DeckStart,
    DiscardStep,
    GameStart,
    NominateStep,
    PlayStart,
    PlayStep,
    RecordedResult,
    SansKittyStep,
    ScenarioInput,
    Setup,
    Step,
)
from ..verify.reference import InputError, ReferenceSession
from .boundaries import BOUNDARY_STARTS, BaseGenerators, boundary_generators
from .cases import Case, auction_start, play_start

__all__ = [
    "EXTRA_GENERATORS",
    "GENERATORS",
    "GENERATOR_NAMES",
    "GENERATOR_STARTS",
    "GeneratorError",
    "generate",
    "generator_for",
    "generators_for",
    "generators_taking",
]


class GeneratorError(Exception):
    """A generator made a position the reference refuses (a bug in the generator)."""


MAX_ACTIONS = 200
"""No case takes more actions than this (a whole game of several deals stays under it)."""


@dataclass
class _Driver:
    """A reference session being driven, and the actions taken so far."""

    rng: random.Random
    profile: Profile
    session: ReferenceSession
    actions: list[Step]
    wild: float
    """The chance of injecting an illegal (random) action before each legal one."""

    def take(self, step: Step) -> None:
        self.session.step(step, len(self.actions))
        self.actions.append(step)

    def legal_step(self) -> Step | None:
        deal = self.session.deal
        if deal is None or deal.to_act is None:
            return None
        seat = deal.to_act
        legal = deal.legal_actions()
        if not legal:
            return None
        if isinstance(legal, DiscardChoices) and legal.sans_kitty and self.rng.random() < 0.3:
            return action_step(seat, SANS_KITTY)  # one choice among hundreds: given a chance
        return action_step(seat, legal[self.rng.randrange(len(legal))])

    def play_out(self, limit: int = MAX_ACTIONS) -> None:
        """Legal actions (with wild ones injected) until the deal ends."""
        while len(self.actions) < limit:
            if self.rng.random() < self.wild:
                self.take(wild_step(self.rng, self.profile, self.session))
            step = self.legal_step()
            if step is None:
                return
            self.take(step)

    def deal_and_play(self) -> None:
        """A shuffled deck dealt, then played out."""
        self.take(DealStep(tuple(card_token(c) for c in shuffled_deck(self.profile, self.rng))))
        self.play_out()

    def after_the_end(self) -> None:
        """A few wild actions once the deal is over (deal-over, wrong-phase)."""
        for _ in range(self.rng.randrange(3)):
            self.take(wild_step(self.rng, self.profile, self.session))


def action_step(seat: Seat, action: Action) -> Step:
    """An engine action as the scenario step that takes it."""
    name = seat.name
    if isinstance(action, Discard):
        return DiscardStep(name, tuple(card_token(c) for c in action.cards))
    if isinstance(action, Nominate):
        return NominateStep(name, action.suit.letter)
    if isinstance(action, SansKitty):
        return SansKittyStep(name)
    if isinstance(action, Play):
        names = None if action.names is None else action.names.letter
        return PlayStep(name, card_token(action.card), names)
    return CallStep(name, action.token)


def _calls(profile: Profile) -> list[str]:
    """The profile's calls: a token the profile does not have (``bid-not-available``)
    cannot be written in one of its scenarios, so it is never tried."""
    return [bid.token for bid in profile.bid_rank] + ["PASS"]


def wild_step(rng: random.Random, profile: Profile, session: ReferenceSession) -> Step:
    """A random action, mostly illegal: usually one of the phase's kind by the seat to act
    (which reaches the phase's own codes), sometimes anything by anyone."""
    deal = session.deal
    to_act = None if deal is None else deal.to_act
    seats = profile.seat_list
    seat = to_act if to_act is not None and rng.random() < 0.6 else rng.choice(seats)
    nomination = _nomination_before_the_lead(rng, seats, deal)
    if nomination is not None:
        return nomination
    own = [] if deal is None else deal.hand(seat)
    wild = _Wild(rng, profile, session, seat, own)
    return _WILD_STEPS[_wild_kind(rng, deal)](wild)


@dataclass(frozen=True)
class _Wild:
    """What a random action is drawn from: the seat to take it and the cards it holds."""

    rng: random.Random
    profile: Profile
    session: ReferenceSession
    seat: Seat
    own: list[Card]

    @property
    def deal(self) -> Deal | None:
        return self.session.deal


def _nomination_before_the_lead(
    rng: random.Random, seats: tuple[Seat, ...], deal: Deal | None
) -> Step | None:
    """Half the time before the first lead: the joker's holder, declarer or not, tries
    to nominate."""
    if deal is None or deal.phase.value != "play":
        return None
    if deal.tricks_played != 0 or deal.current_trick or rng.random() >= 0.5:
        return None
    holders = [s for s in seats if JOKER in deal.hand(s)]
    return NominateStep(holders[0].name, rng.choice(SUITS).letter) if holders else None


_PHASE_KINDS = {"auction": "call", "kitty": "discard", "play": "play"}
"""The kind of action a phase takes (``any`` in the others)."""


def _wild_kind(rng: random.Random, deal: Deal | None) -> str:
    """Mostly the kind of action the phase takes, else any kind (a deal too)."""
    if deal is not None and rng.random() < 0.7:
        kind = _PHASE_KINDS.get(deal.phase.value, "any")
    else:
        kind = rng.choice(("call", "call", "play", "play", "discard", "nominate", "deal"))
    if kind == "any":
        kind = rng.choice(("call", "play", "discard", "nominate"))
    return kind


def _wild_call(wild: _Wild) -> Step:
    """A call: sometimes a misère or a pass, sometimes by a seat that has passed."""
    rng, deal, seat = wild.rng, wild.deal, wild.seat
    calls = _calls(wild.profile)
    if rng.random() < 0.3:
        calls = [c for c in ("MIS", "OMIS", "PASS", BLIND_MISERE.token) if c in calls]
    elif deal is not None and rng.random() < 0.3:
        passed = [s for s in wild.profile.seat_list if deal.has_passed(s)]
        seat = rng.choice(passed) if passed else seat
    return CallStep(seat.name, rng.choice(calls))


def _wild_play(wild: _Wild) -> Step:
    """A card, mostly from the seat's hand (the joker often, naming a suit or not), or a
    nomination in its place."""
    rng, own = wild.rng, wild.own
    if rng.random() < 0.15:
        return NominateStep(wild.seat.name, rng.choice(SUITS).letter)
    pool = own if own and rng.random() < 0.8 else list(wild.profile.deck)
    card = JOKER if JOKER in own and rng.random() < 0.3 else rng.choice(pool)
    names = None
    if (card == JOKER and rng.random() < 0.6) or rng.random() < 0.03:
        names = rng.choice(SUITS).letter
    return PlayStep(wild.seat.name, card_token(card), names)


def _wild_discard(wild: _Wild) -> Step:
    """A discard of about the kitty's size, from the hand and the kitty or the whole
    deck, once in a while repeating a card; or, where the toggle allows it, sans kitty."""
    rng, profile, deal = wild.rng, wild.profile, wild.deal
    if profile.play.sans_kitty and rng.random() < 0.25:  # the other action of the kitty
        return SansKittyStep(wild.seat.name)
    k = profile.kitty_size
    size = rng.choice((k - 1, k, k, k, k + 1))
    pool = wild.own + ([] if deal is None else _kitty(deal))
    if len(pool) < size or rng.random() < 0.2:
        pool = list(profile.deck)
    cards = rng.sample(pool, size)
    if size > 2 and size >= k and rng.random() < 0.1:
        # the same card twice: k tokens naming k - 1 cards, or k + 1 tokens naming k
        # (an engine that reads a discard as a set of cards takes the second)
        cards[-1] = cards[-2]
    return DiscardStep(wild.seat.name, tuple(card_token(c) for c in cards))


def _wild_nominate(wild: _Wild) -> Step:
    return NominateStep(wild.seat.name, wild.rng.choice(SUITS).letter)


def _wild_deal(wild: _Wild) -> Step:
    """A new deck dealt, or a recorded result, whatever the phase."""
    rng, profile = wild.rng, wild.profile
    if rng.random() < 0.5:
        return DealStep(tuple(card_token(c) for c in shuffled_deck(profile, rng)))
    return DealResultStep(_random_result(rng, profile, wild.session.game.dealer))


_WILD_STEPS: dict[str, Callable[[_Wild], Step]] = {
    "call": _wild_call,
    "play": _wild_play,
    "discard": _wild_discard,
    "nominate": _wild_nominate,
    "deal": _wild_deal,
}
"""How a random action of each kind is drawn."""


def _kitty(deal: Deal) -> list[Card]:
    return cards_in(deal.kitty)


def _random_result(rng: random.Random, profile: Profile, dealer: Seat) -> RecordedResult:
    """A result that a deal by ``dealer`` can have (its declarer one who takes part)."""
    bid = rng.choice(list(profile.bid_rank))
    tricks = rng.randrange(2) if bid.is_misere else rng.randrange(profile.hand_size + 1)
    declarer = rng.choice(profile.in_deal(dealer))
    if bid.is_misere or len(profile.sides) <= 2:
        return RecordedResult(bid.token, declarer.name, tricks)
    by_side = _by_side(rng, profile, declarer, tricks, dealer)
    return RecordedResult(bid.token, declarer.name, by_side)


def _by_side(
    rng: random.Random, profile: Profile, declarer: Seat, tricks: int, dealer: Seat
) -> dict[str, int]:
    """Every side's tricks, the declarer's side taking ``tricks`` and the others in a deal
    by ``dealer`` sharing the rest at random (a recorded result where single players score
    their own; a resting dealer takes none)."""
    side = profile.side_of[declarer]
    counts = [0] * len(profile.sides)
    counts[side] = tricks
    _share(rng, counts, side, profile.hand_size - tricks, profile.absent_sides(dealer))
    return dict(zip(profile.side_names, counts, strict=True))


def _share(
    rng: random.Random, counts: list[int], side: int, tricks: int, absent: tuple[int, ...]
) -> None:
    """Share ``tricks`` among the sides other than ``side`` and those ``absent`` from the
    deal (at random beyond two)."""
    others = [i for i in range(len(counts)) if i != side and i not in absent]
    if len(others) == 1:
        counts[others[0]] += tricks
        return
    for _ in range(tricks):
        counts[rng.choice(others)] += 1


def _side_scores(profile: Profile, scores: list[int]) -> dict[str, int]:
    return dict(zip(profile.side_names, scores, strict=True))


def _driver(rng: random.Random, profile: Profile, setup: Setup, wild: float) -> _Driver:
    session = ReferenceSession(ScenarioInput("FUZZ", profile.name, setup, (), profile.variants))
    return _Driver(rng, profile, session, [], wild)


def _deck_case(rng: random.Random, profile: Profile, wild: float) -> Case:
    deck = tuple(card_token(c) for c in shuffled_deck(profile, rng))
    setup = DeckStart(dealer=rng.choice(profile.seat_list).name, deck=deck)
    driver = _driver(rng, profile, setup, wild)
    driver.play_out()
    driver.after_the_end()
    return Case(setup, tuple(driver.actions), profile.name, profile.variants)


def random_deal(rng: random.Random, profile: Profile) -> Case:
    """A shuffled deck, random legal play, a few illegal actions."""
    return _deck_case(rng, profile, 0.08)


def illegal_heavy(rng: random.Random, profile: Profile) -> Case:
    """A shuffled deck with an illegal action tried before a third of the legal ones."""
    return _deck_case(rng, profile, 0.35)


# ---- steered contracts -----------------------------------------------------------------

CONTRACT_KINDS = ("suit", "no-trumps", "misere", "open-misere", "slam", "throw-in")
JOKER_PLACES = ("declarer", "partner", "defender", "kitty")


def _place_joker(
    rng: random.Random, hands: list[list[Card]], kitty: list[Card], where: int
) -> None:
    """Move the joker into hand ``where`` (a seat index) or the kitty (``-1``)."""
    holders = [*hands, kitty]
    target = holders[where]
    for holder in holders:
        if JOKER in holder:
            if holder is target:
                return
            swap = rng.randrange(len(target))
            holder[holder.index(JOKER)], target[swap] = target[swap], JOKER
            return


def steered(kind: str) -> Callable[[random.Random, Profile], Case]:
    """Deals steered to one kind of contract; no trumps puts the joker in every place."""

    def generate(rng: random.Random, profile: Profile) -> Case:
        seats = profile.seat_list
        dealer = rng.choice(seats)
        deal = Deal.from_deck(profile, dealer, shuffled_deck(profile, rng))
        hands = [deal.hand(s) for s in seats]
        kitty = _kitty(deal)
        left = profile.left_in_deal[dealer]  # the seats taking part, from the dealer's left
        order = [left[dealer]]
        while len(order) < profile.players:
            order.append(left[order[-1]])
        declarer = rng.choice(order)
        if kind == "no-trumps":
            place = rng.choice(JOKER_PLACES)
            side = profile.side_of[declarer]
            clockwise = [left[declarer]]  # from the declarer's left round to him
            while len(clockwise) < profile.players:
                clockwise.append(left[clockwise[-1]])
            partners = [s for s in clockwise if s != declarer and profile.side_of[s] == side]
            defenders = [s for s in clockwise if profile.side_of[s] != side]
            where = {
                "declarer": declarer,
                "partner": partners[-1] if partners else declarer,  # across at four seats
                "defender": defenders[0],  # on the declarer's left at four seats
            }.get(place)
            _place_joker(rng, hands, kitty, -1 if where is None else int(where))
        fresh = Deal(profile, dealer, hands, kitty)
        setup: AuctionStart = auction_start(fresh, dealer.name, None)
        driver = _driver(rng, profile, setup, 0.05)
        target = _target(rng, kind, profile)
        _auction(driver, declarer, target, kind)
        driver.play_out()
        driver.after_the_end()
        return Case(setup, tuple(driver.actions), profile.name, profile.variants)

    generate.__name__ = f"contract_{kind.replace('-', '_')}"
    return generate


def _target(rng: random.Random, kind: str, profile: Profile) -> Bid | None:
    """The contract to steer to (a suit bid when the profile has no such misère)."""
    misere = _MISERE_TARGETS.get(kind)
    if misere is not None and misere in profile.bid_rank:
        return misere
    if kind == "throw-in":
        return None
    fits = _TARGET_BIDS.get(kind, _is_suit_below_ten)
    return rng.choice([b for b in SUIT_BIDS.values() if b in profile.bid_rank and fits(b)])


def _is_slam(bid: Bid) -> bool:
    return bid.level == 10 and bid.strain is not None


def _is_no_trumps(bid: Bid) -> bool:
    return bid.strain is not None and bid.trump is None


def _is_suit_below_ten(bid: Bid) -> bool:
    return bid.trump is not None and (bid.level or 0) < 10


_MISERE_TARGETS = {"misere": MISERE, "open-misere": OPEN_MISERE}
"""The misère each kind of steered deal bids, where the profile has it."""
_TARGET_BIDS: dict[str, Callable[[Bid], bool]] = {"slam": _is_slam, "no-trumps": _is_no_trumps}
"""The bids a kind of steered deal draws its contract from (else a suit below ten)."""


def _auction(driver: _Driver, declarer: Seat, target: Bid | None, kind: str) -> None:
    """Calls until ``declarer`` has bid ``target`` and the others pass (all pass for a
    throw-in); a seven is bid first for a misère, and sometimes lower bids come first."""
    _SteeredAuction(driver, declarer, target, kind).run()


_SEVENS = tuple(b for b in SUIT_BIDS.values() if b.level == 7 and b.strain is not None)
"""The seven-level suit and no-trump bids: one opens the auction a misère is steered to."""


@dataclass
class _SteeredAuction:
    """An auction steered to ``target`` by ``declarer``, one turn at a time."""

    driver: _Driver
    declarer: Seat
    target: Bid | None
    kind: str
    opened: bool = False
    """Whether a seven has been bid for a steered misère."""

    def run(self) -> None:
        for _ in range(40):
            deal = self.driver.session.deal
            if deal is None or deal.to_act is None or deal.phase.value != "auction":
                return
            self._turn(deal, deal.to_act)

    def _turn(self, deal: Deal, seat: Seat) -> None:
        """The seat's call, perhaps after a misère bid too early and a wild action."""
        driver = self.driver
        legal = {str(a): a for a in deal.legal_actions()}
        if self._misere_too_early(legal):
            driver.take(CallStep(seat.name, "MIS"))  # misere-needs-seven
        call = self._call(seat, legal)
        if driver.rng.random() < driver.wild:
            driver.take(wild_step(driver.rng, driver.profile, driver.session))
        driver.take(CallStep(seat.name, call))

    def _misere_too_early(self, legal: Mapping[str, Action]) -> bool:
        """Sometimes, steering to a misère that needs a seven first, bid it before."""
        profile = self.driver.profile
        early = (
            self.kind == "misere"
            and not self.opened
            and MISERE in profile.bid_rank
            and profile.ladder.misere_needs is not None
        )
        return early and "MIS" not in legal and self.driver.rng.random() < 0.4

    def _call(self, seat: Seat, legal: Mapping[str, Action]) -> str:
        """The target by the declarer; a seven by another to open a misère's auction;
        now and then a lower bid; else a pass."""
        target = self.target
        if target is None:
            return "PASS"
        if seat == self.declarer and target.token in legal:
            return target.token
        if self.kind == "misere" and not self.opened and seat != self.declarer:
            return self._opening_seven(legal)
        if self.driver.rng.random() < 0.25:
            return self._lower_bid(legal, target)
        return "PASS"

    def _opening_seven(self, legal: Mapping[str, Action]) -> str:
        options = [b.token for b in _SEVENS if b.token in legal]
        if not options:
            return "PASS"
        self.opened = True
        return self.driver.rng.choice(options)

    def _lower_bid(self, legal: Mapping[str, Action], target: Bid) -> str:
        """A legal bid ranking below the target (never before a misère)."""
        lower = [a for t, a in legal.items() if isinstance(a, Bid) and t != target.token]
        below = [a.token for a in lower if _rank(self.driver, a) < _rank(self.driver, target)]
        if below and self.kind != "misere":
            return self.driver.rng.choice(below)
        return "PASS"


def _rank(driver: _Driver, bid: Bid) -> int:
    return driver.profile.bid_rank.get(bid, -1)


# ---- mid-deal starts and whole games ---------------------------------------------------


def mid_deal(rng: random.Random, profile: Profile) -> Case:
    """Play from a random trick boundary of a random (steered) deal."""
    whole = steered(rng.choice(CONTRACT_KINDS[:-1]))(rng, profile)
    session = ReferenceSession(
        ScenarioInput("FUZZ", profile.name, whole.setup, (), profile.variants)
    )
    boundaries: list[PlayStart] = []
    for index, action in enumerate(whole.actions):
        start = play_start(session)
        if start is not None:
            boundaries.append(start)
        session.step(action, index)
    if not boundaries:
        return whole
    chosen = rng.choice(boundaries)
    if rng.random() < 0.35:  # the declarers one made contract away from 500
        chosen = replace(chosen, scores=_one_contract_from_500(rng, profile, chosen))
    driver = _driver(rng, profile, chosen, 0.1)
    driver.play_out()
    driver.after_the_end()
    return Case(chosen, tuple(driver.actions), profile.name, profile.variants)


_LEFT_BOWER_SUIT = {"S": "C", "C": "S", "D": "H", "H": "D"}


def _hot_cards(contract: str) -> list[Card]:
    """The cards whose rank is easiest to get wrong: the joker, and in a suit contract
    both bowers and the ace of trumps."""
    trump = contract[-1]
    if contract.endswith("NT") or "MIS" in contract:
        return [JOKER]
    hot = ["JK", f"J{trump}", f"J{_LEFT_BOWER_SUIT[trump]}", f"A{trump}"]
    return [parse_card(token) for token in hot]


def joker_endgame(rng: random.Random, profile: Profile) -> Case:
    """The last tricks with the cards that are easiest to rank wrong in the hands: in no
    trumps and misère the suitless joker (often with the leader, some suits not yet led:
    where joker leads go wrong); in a suit contract the joker, both bowers and the ace."""
    size = rng.randrange(1, 4)
    contract = _endgame_contract(rng, profile)
    seats = profile.seat_list
    declarer = rng.choice(seats)
    dealer = _dealer_beside(profile, declarer)
    active = _endgame_seats(profile, contract, declarer, dealer)
    hands, holder = _endgame_hands(rng, profile, active, size, _hot_cards(contract))
    played = profile.hand_size - size
    led = rng.sample(list(SUITS), rng.randrange(0, 4))
    leader = holder if rng.random() < 0.7 else rng.choice(active)
    counts = _endgame_tricks(rng, profile, contract, declarer, dealer, played)
    if played and not counts[profile.side_of[leader]]:
        # The winner of the last trick leads, so the leader's side has won one at least.
        leader = rng.choice([s for s in active if counts[profile.side_of[s]]])
    chosen = rng.choice(seats)
    first = profile.side_of[declarer]  # the declaring side first, then the others
    setup = PlayStart(
        dealer=(chosen if dealer is None else dealer).name,
        contract=contract,
        declarer=declarer.name,
        hands={s: tuple(card_token(c) for c in cards) for s, cards in hands.items()},
        leader=leader.name,
        suits_led=None,
        tricks={profile.side_names[first]: counts[first]} | _side_scores(profile, counts),
    )
    # Random hands may not fit the suits drawn as led (a seat holding a suit followed it
    # each time it was led): then every suit, then none said to be led.
    started = _first_accepted(rng, profile, setup, (led, list(SUITS), []))
    if started is None:  # not a position the engine accepts: a random deal instead
        return random_deal(rng, profile)
    setup, driver = started
    driver.play_out()
    driver.after_the_end()
    return Case(setup, tuple(driver.actions), profile.name, profile.variants)


_ENDGAME_CONTRACTS = (
    "6NT",
    "7NT",
    "8NT",
    "9NT",
    "10NT",
    "MIS",
    "OMIS",
    *(f"{level}{s}" for level in (6, 8, 10) for s in "SCDH"),
)
"""The contracts a joker endgame is played in (those the profile has)."""


def _endgame_contract(rng: random.Random, profile: Profile) -> str:
    available = {bid.token for bid in profile.bid_rank}
    return rng.choice([c for c in _ENDGAME_CONTRACTS if c in available])


def _endgame_seats(
    profile: Profile, contract: str, declarer: Seat, dealer: Seat | None
) -> list[Seat]:
    """The seats still holding cards: not the misère declarer's partner, nor the dealer
    where the dealer rests."""
    out = profile.sitting_out[declarer] if contract in ("MIS", "OMIS") else ()
    if dealer is not None:
        out = (*out, *profile.resting(dealer))
    return [s for s in profile.seat_list if s not in out]


def _endgame_hands(
    rng: random.Random, profile: Profile, active: list[Seat], size: int, hot: list[Card]
) -> tuple[dict[str, list[Card]], Seat]:
    """``size`` cards in each active hand, the joker in one of them (its holder is
    returned), each other hot card in place of a plain card of a random hand."""
    pool = [c for c in profile.deck if c not in hot]
    rng.shuffle(pool)
    hands: dict[str, list[Card]] = {s.name: [] for s in profile.seat_list}
    for seat in active:
        hands[seat.name] = [pool.pop() for _ in range(size)]
    holder = rng.choice(active)
    hands[holder.name][0] = JOKER
    for card in hot[1:]:
        seat = rng.choice(active)
        plain = [i for i, c in enumerate(hands[seat.name]) if c not in hot]
        if plain:
            hands[seat.name][rng.choice(plain)] = card
    return hands, holder


def _endgame_tricks(
    rng: random.Random,
    profile: Profile,
    contract: str,
    declarer: Seat,
    dealer: Seat | None,
    played: int,
) -> list[int]:
    """Each side's tricks of the ``played`` ones (none for a misère's declarer)."""
    won = 0 if contract in ("MIS", "OMIS") else rng.randrange(played + 1)
    counts = [0] * len(profile.sides)
    counts[profile.side_of[declarer]] = won
    absent = () if dealer is None else profile.absent_sides(dealer)
    _share(rng, counts, profile.side_of[declarer], played - won, absent)
    return counts


def _first_accepted(
    rng: random.Random, profile: Profile, setup: PlayStart, led: tuple[list[Suit], ...]
) -> tuple[PlayStart, _Driver] | None:
    """The setup with the first of the ``led`` choices of suits already led that the
    reference accepts, and a driver started on it (``None``: it accepts none)."""
    for suits_led in led:
        start = replace(setup, suits_led=tuple(s.letter for s in suits_led) or None)
        try:
            return start, _driver(rng, profile, start, 0.4)
        except InputError:
            continue
    return None


def _dealer_beside(profile: Profile, declarer: Seat) -> Seat | None:
    """Where the dealer rests, a dealer for a deal that ``declarer`` declares (the seat
    on the declarer's right); ``None`` where every seat plays, the dealer being drawn
    as before."""
    if profile.players == profile.seats:
        return None
    return next(s for s in profile.seat_list if profile.left[s] == declarer)


def _exactly_at_the_end(
    rng: random.Random, profile: Profile
) -> tuple[list[int], Step, Seat | None]:
    """Scores from which one recorded result lands a side on exactly +500 or -500 (or
    one step past it), that result, and the dealer it needs (``None``: any)."""
    bids = list(profile.bid_rank)
    miseres = [b for b in bids if b.is_misere]
    bid = rng.choice(miseres if miseres and rng.random() < 0.3 else bids)
    declarer = rng.choice(profile.seat_list)
    dealer = _dealer_beside(profile, declarer)
    made = rng.random() < 0.6
    tricks = _tricks_taken(rng, profile, bid, made)
    many = len(profile.sides) > 2 and not bid.is_misere
    in_deal = declarer if dealer is None else dealer  # any seat where nobody rests
    by_side = _by_side(rng, profile, declarer, tricks, in_deal) if many else None
    side_tricks = None if by_side is None else list(by_side.values())
    result = score_deal(profile, bid, declarer, tricks, side_tricks, dealer=dealer)
    scores = _scores_before(rng, result.side_points, profile.side_of[declarer], made)
    recorded = RecordedResult(bid.token, declarer.name, tricks if by_side is None else by_side)
    return scores, DealResultStep(recorded), dealer


def _tricks_taken(rng: random.Random, profile: Profile, bid: Bid, made: bool) -> int:
    """The declarer's tricks in a contract made or failed."""
    if bid.is_misere:
        return 0 if made else 1
    level = bid.level or 6
    return rng.randrange(level, profile.hand_size + 1) if made else rng.randrange(level)


def _scores_before(rng: random.Random, points: Sequence[int], side: int, made: bool) -> list[int]:
    """Scores from which ``points`` land ``side`` on +500 when the contract was made,
    -500 when it failed (or ten past it), the other sides anywhere short of the ends."""
    scores = [0] * len(points)
    target = 500 if made else -500
    scores[side] = target - points[side] + rng.choice((0, 0, 0, 10))
    for other in range(len(scores)):
        if other != side:
            scores[other] = rng.randrange(-490, 500, 10) - points[other]
    return [max(-490, min(490, s)) for s in scores]


def _one_contract_from_500(
    rng: random.Random, profile: Profile, start: PlayStart
) -> dict[str, int]:
    contract = parse_bid(start.contract)
    declarer = profile.parse_seat(start.declarer)
    made = 0 if contract.is_misere else contract.level or 6
    side = profile.side_of[declarer]
    side_tricks = None
    if len(profile.sides) > 2:
        side_tricks = [0] * len(profile.sides)
        side_tricks[side] = made
    points = score_deal(profile, contract, declarer, made, side_tricks).points
    scores = [rng.randrange(-200, 490, 10) for _ in profile.sides]
    scores[side] = max(-490, min(490, 500 - points[side]))
    return _side_scores(profile, scores)


def whole_game(rng: random.Random, profile: Profile) -> Case:
    """Several deals from a game start near an end of the game, then past its end; half
    the games start one recorded result away from exactly +500 or -500."""
    near, first, dealer = _game_start(rng, profile)
    chosen = rng.choice(profile.seat_list)
    dealer = chosen if dealer is None else dealer
    setup = GameStart(dealer=dealer.name, scores=_side_scores(profile, near))
    driver = _driver(rng, profile, setup, 0.03)
    if first is not None:
        driver.take(first)
    for _ in range(rng.randrange(1, 5)):
        if len(driver.actions) > MAX_ACTIONS - 60:
            break
        _next_deal(driver)
        if driver.session.game.over:
            break
    driver.deal_and_play()
    return Case(setup, tuple(driver.actions), profile.name, profile.variants)


def _game_start(rng: random.Random, profile: Profile) -> tuple[list[int], Step | None, Seat | None]:
    """Scores near an end of the game; half the time those one recorded result (the
    step returned, with the dealer it needs) away from exactly +500 or -500."""
    near = [
        rng.randrange(-490, 500, 10) if rng.random() < 0.6 else rng.randrange(-200, 300, 10)
        for _ in profile.sides
    ]
    if rng.random() < 0.5:
        return _exactly_at_the_end(rng, profile)
    return near, None, None


def _next_deal(driver: _Driver) -> None:
    """One more deal of the game: now and then a recorded result, else a deck dealt and
    played."""
    rng = driver.rng
    if rng.random() < 0.2:
        game_dealer = driver.session.game.dealer
        driver.take(DealResultStep(_random_result(rng, driver.profile, game_dealer)))
    else:
        driver.deal_and_play()


def auction_only(rng: random.Random, profile: Profile) -> Case:
    """An auction and nothing after it: calls from a fresh deal, with illegal calls
    injected (out of turn, after passing, not higher, misère too early, after the end),
    for an engine that implements the bidding alone."""
    dealer = rng.choice(profile.seat_list)
    deal = Deal.from_deck(profile, dealer, shuffled_deck(profile, rng))
    setup = auction_start(deal, dealer.name, None)
    driver = _driver(rng, profile, setup, 0.0)
    calls = _calls(profile)
    seats = profile.seat_list
    while len(driver.actions) < MAX_ACTIONS:
        current = driver.session.deal
        if current is None or current.phase.value != "auction" or current.to_act is None:
            break
        if rng.random() < 0.25:
            driver.take(_any_call(rng, seats, calls))
            continue
        call = _low_call(rng, current.legal_actions(), len(driver.actions))
        driver.take(action_step(current.to_act, call))
    for _ in range(rng.randrange(3)):  # calls after the auction: wrong-phase
        driver.take(_any_call(rng, seats, calls))
    return Case(setup, tuple(driver.actions), profile.name, profile.variants)


def _any_call(rng: random.Random, seats: tuple[Seat, ...], calls: list[str]) -> Step:
    """Any call of the profile by any seat (out of turn, after passing, not higher, …)."""
    return CallStep(rng.choice(seats).name, rng.choice(calls))


def _low_call(rng: random.Random, legal: Sequence[Action], taken: int) -> Action:
    """One of the lowest legal bids, or a pass, more likely the more calls ``taken``."""
    bids = [a for a in legal if isinstance(a, Bid)]
    pass_rate = 0.3 + 0.1 * taken
    low = bids[: rng.randrange(1, 5)]  # mostly the lowest bids: longer auctions
    chosen = rng.choice(low) if low and rng.random() > min(pass_rate, 0.8) else None
    if chosen is not None:
        return chosen
    passes = [a for a in legal if not isinstance(a, Bid)]
    # no pass to make (not in any profile's auction): a bid after all
    return passes[0] if passes else bids[0]


Generator = Callable[[random.Random, Profile], Case]

GENERATORS: tuple[tuple[str, Generator], ...] = (
    ("random", random_deal),
    ("contract-suit", steered("suit")),
    ("illegal", illegal_heavy),
    ("contract-no-trumps", steered("no-trumps")),
    ("mid-deal", mid_deal),
    ("contract-misere", steered("misere")),
    ("game", whole_game),
    ("contract-open-misere", steered("open-misere")),
    ("random", random_deal),
    ("contract-slam", steered("slam")),
    ("joker-endgame", joker_endgame),
    ("contract-throw-in", steered("throw-in")),
    ("mid-deal", mid_deal),
    ("joker-endgame", joker_endgame),
    *boundary_generators(BaseGenerators(steered, random_deal, mid_deal, joker_endgame)),
)
"""The generators in the order deals use them (some twice, for weight)."""

EXTRA_GENERATORS: tuple[tuple[str, Generator], ...] = (("auction", auction_only),)
"""Generators used only when chosen by name (``--generators``): not in the rotation
above, so that the deal a seed and an index name stays the same deal."""

GENERATOR_NAMES: tuple[str, ...] = tuple(
    dict.fromkeys(name for name, _ in (*GENERATORS, *EXTRA_GENERATORS))
)
"""Every generator's name, once, in rotation order."""

GENERATOR_STARTS: dict[str, frozenset[str]] = {
    "random": frozenset({"deck"}),
    "illegal": frozenset({"deck"}),
    "mid-deal": frozenset({"play", "auction"}),  # a deal with no trick boundary: whole
    "joker-endgame": frozenset({"play", "deck"}),  # hands the engine refuses: a random deal
    "game": frozenset({"game"}),
    "auction": frozenset({"auction"}),
    **{name: frozenset({"auction"}) for name, _ in GENERATORS if name.startswith("contract-")},
    **BOUNDARY_STARTS,
}
"""The kinds of start each generator's cases may have."""


def generators_taking(starts: tuple[str, ...]) -> tuple[str, ...]:
    """The generators for an implementation that declared it can set up only ``starts``:
    those of the rotation whose every case has one of them, and the auction generator
    when auction starts are among them (an engine of the bidding alone has nothing
    else).  Empty when every start is declared: the rotation is then the default one."""
    if set(GENERATOR_STARTS["random"] | GENERATOR_STARTS["mid-deal"] | {"game"}) <= set(starts):
        return ()
    names = [n for n in GENERATOR_NAMES if GENERATOR_STARTS[n] <= set(starts)]
    return tuple(names)


def applies(name: str, profile: Profile) -> bool:
    """Whether generator ``name`` has anything to make under ``profile``: no misère deals
    without misère, no open misère without it, no joker endgames without the joker."""
    if name == "contract-misere":
        return MISERE in profile.bid_rank
    if name == "contract-open-misere":
        return OPEN_MISERE in profile.bid_rank
    if name == "joker-endgame":
        return profile.has_card(JOKER)
    return True


def generators_for(
    profile: str = DEFAULT_PROFILE_NAME, variants: tuple[str, ...] = (), only: tuple[str, ...] = ()
) -> tuple[tuple[str, Generator], ...]:
    """The generators deals use under the profile (those that apply to it, in order);
    with ``only``, just those named (in rotation order, keeping each one's weight)."""
    rules = get_profile(profile, variants)
    pool = GENERATORS + EXTRA_GENERATORS if only else GENERATORS
    return tuple(
        (name, g) for name, g in pool if applies(name, rules) and (not only or name in only)
    )


def generator_for(
    index: int,
    profile: str = DEFAULT_PROFILE_NAME,
    variants: tuple[str, ...] = (),
    only: tuple[str, ...] = (),
) -> str:
    chosen = generators_for(profile, variants, only)
    return chosen[index % len(chosen)][0]


def generate(
    seed: int,
    index: int,
    profile: str = DEFAULT_PROFILE_NAME,
    variants: tuple[str, ...] = (),
    only: tuple[str, ...] = (),
) -> Case:
    """Deal ``index`` of the run seeded ``seed`` (under the profile with the toggles),
    from the generators named in ``only`` if any."""
    rng = random.Random(f"{seed}:{index}")
    chosen = generators_for(profile, variants, only)
    name, generator = chosen[index % len(chosen)]
    del name
    try:
        return generator(rng, get_profile(profile, variants))
    except InputError as error:  # a generator bug: never let it end a run
        raise GeneratorError(f"deal {index} of seed {seed}: {error}") from error
