"""Generators aimed at the scoring and rule boundaries that random deals rarely reach.

Random play seldom leaves a defending side exactly at the defender cap, two or three
sides crossing 500 in the same deal, a side landing on −500, or the one situation a
toggle changes.  These generators put games there on purpose, for every profile:

* ``defender-cap``: a defending side at the cap (490 or 480 where a toggle sets one,
  else at 490 or 480 anyway), ten under it or ten over, then a deal is played or recorded;
* ``cross-500``: a steered deal is played once to learn what each side scores, then
  started again with two or three sides' scores set so that the deal takes each of them
  to 500 (or ten short, or ten past): the tie-breaks between the contractor and the
  defenders, and between defenders, by the first trick taken;
* ``minus-500``: a recorded failed contract lands a side on −500 (or ten either side of
  it), then the game goes on with real deals (the seed 003 bar, a score going on below);
* ``rule-trigger``: one of the points where the profile (with its toggles) differs from
  the default, drawn at random, and a deal steered to where that rule acts (a passed
  deal, a misère, a six won, a slam, the joker led late, a raise, …).

Each is seeded like the others (:mod:`.generators`); the base generators register these
at the end of their list, and these import the base ones when they run, so that either
module can be imported first.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from ..engine import (
    MISERE,
    OPEN_MISERE,
    SUIT_BIDS,
    Deal,
    Profile,
    Seat,
    card_token,
    score_deal,
    shuffled_deck,
)
from ..engine.bids import BLIND_MISERE, Bid
from ..scenarios import DealResultStep, DealStep, GameStart, RecordedResult, ScenarioInput
from ..verify.reference import ReferenceSession
from .cases import Case, auction_start

__all__ = ["BOUNDARY_GENERATORS", "cross_500", "defender_cap", "minus_500", "rule_trigger"]

Generator = Callable[[random.Random, Profile], Case]


def _side_scores(profile: Profile, scores: list[int]) -> dict[str, int]:
    return dict(zip(profile.side_names, scores, strict=True))


def _limit(profile: Profile, score: int) -> int:
    """A starting score the game accepts: below 500 and above the losing score."""
    low = -490 if profile.lose_score is not None else -990
    return max(low, min(490, score))


def _recorded(
    rng: random.Random, profile: Profile, bid: Bid, declarer: Seat, tricks: int, dealer: Seat
) -> tuple[RecordedResult, list[int]]:
    """A recorded result of ``bid`` by ``declarer`` taking ``tricks``, and what each side
    scores for it (several defenders share the rest at random)."""
    from .generators import _by_side

    many = len(profile.sides) > 2 and not bid.is_misere
    by_side = _by_side(rng, profile, declarer, tricks, dealer) if many else None
    side_tricks = None if by_side is None else list(by_side.values())
    resting = dealer if profile.resting(dealer) else None
    points = score_deal(profile, bid, declarer, tricks, side_tricks, dealer=resting).points
    result = RecordedResult(bid.token, declarer.name, tricks if by_side is None else by_side)
    return result, list(points)


def _declarer_and_dealer(rng: random.Random, profile: Profile) -> tuple[Seat, Seat]:
    """A declarer and a dealer for a deal it can declare (a resting dealer on its right)."""
    from .generators import _dealer_beside

    declarer = rng.choice(profile.seat_list)
    dealer = _dealer_beside(profile, declarer)
    return declarer, rng.choice(profile.seat_list) if dealer is None else dealer


def _game_then_deals(
    rng: random.Random, profile: Profile, scores: list[int], dealer: Seat, first: DealResultStep
) -> Case:
    """A game from ``scores``: the recorded result ``first``, then real deals played out
    until the game ends (at most three)."""
    from .generators import MAX_ACTIONS, _driver

    setup = GameStart(dealer=dealer.name, scores=_side_scores(profile, scores))
    driver = _driver(rng, profile, setup, 0.03)
    driver.take(first)
    for _ in range(3):
        if driver.session.game.over or len(driver.actions) > MAX_ACTIONS - 60:
            break
        driver.take(DealStep(tuple(card_token(c) for c in shuffled_deck(profile, rng))))
        driver.play_out()
    return Case(setup, tuple(driver.actions), profile.name, profile.variants)


def _suit_bid(rng: random.Random, profile: Profile, levels: tuple[int, ...]) -> Bid:
    bids = [b for b in SUIT_BIDS.values() if b in profile.bid_rank and b.level in levels]
    return rng.choice(bids)


def defender_cap(rng: random.Random, profile: Profile) -> Case:
    """A defending side at, just under or just over the cap when a contract is scored."""
    cap = profile.defender_cap or rng.choice((490, 480))
    declarer, dealer = _declarer_and_dealer(rng, profile)
    bid = _suit_bid(rng, profile, (6, 7, 8))
    level = bid.level or 6
    tricks = rng.choice((level - 1, level, level, profile.hand_size - 1))
    result, _points = _recorded(rng, profile, bid, declarer, tricks, dealer)
    own = profile.side_of[declarer]
    scores = [rng.randrange(-200, 400, 10) for _ in profile.sides]
    for side in range(len(scores)):
        if side != own:
            scores[side] = _limit(profile, cap + rng.choice((-20, -10, 0, 0, 0, 10)))
    return _game_then_deals(rng, profile, scores, dealer, DealResultStep(result))


def _played_points(profile: Profile, case: Case) -> list[int] | None:
    """What each side scores in the played deal of ``case`` (``None`` if it was not
    scored: a throw-in, or a deal left unfinished)."""
    session = ReferenceSession(
        ScenarioInput("FUZZ", profile.name, case.setup, (), profile.variants)
    )
    for index, action in enumerate(case.actions):
        session.step(action, index)
    deal = session.deal
    if deal is None or deal.result is None or deal.result.contract is None:
        return None
    return list(deal.result.points)


def cross_500(rng: random.Random, profile: Profile) -> Case:
    """A played deal after which two or three sides stand at or near 500 together."""
    from .generators import steered

    kind = rng.choice(("suit", "suit", "no-trumps", "misere", "slam"))
    case = steered(kind)(rng, profile)
    points = _played_points(profile, case)
    if points is None or not hasattr(case.setup, "scores"):
        return case
    gaining = [side for side, p in enumerate(points) if p > 0]
    rng.shuffle(gaining)
    crossing = gaining[: rng.choice((2, 3))]
    scores = [_limit(profile, rng.randrange(-200, 300, 10)) for _ in points]
    for side in crossing:
        scores[side] = _limit(profile, 500 - points[side] + rng.choice((0, 0, 0, 10, -10)))
    setup = replace(case.setup, scores=_side_scores(profile, scores))
    return Case(setup, case.actions, profile.name, profile.variants)


def minus_500(rng: random.Random, profile: Profile) -> Case:
    """A failed contract landing its side on −500 (or ten either side), then more deals."""
    declarer, dealer = _declarer_and_dealer(rng, profile)
    bid = _suit_bid(rng, profile, (6, 7, 8, 9, 10))
    tricks = rng.randrange(bid.level or 6)
    result, points = _recorded(rng, profile, bid, declarer, tricks, dealer)
    own = profile.side_of[declarer]
    scores = [rng.randrange(-300, 400, 10) for _ in profile.sides]
    floor = -990 if profile.lose_score is None else -490
    scores[own] = max(floor, -500 - points[own] + rng.choice((0, 0, 10, -10)))
    if profile.lose_score is not None:
        scores[own] = max(scores[own], -490)
    return _game_then_deals(rng, profile, scores, dealer, DealResultStep(result))


def _trigger(rng: random.Random, profile: Profile, point: str) -> Case:
    """A deal steered to where the rule ``point`` (a Profile field) acts."""
    from .generators import joker_endgame, mid_deal, random_deal, steered

    if point in ("all_pass", "inkles") and rng.random() < 0.5:
        return steered("throw-in")(rng, profile)
    if point in ("misere_needs", "bid_order", "bid_ties", "blind_misere_first_call"):
        return _misere_auction(rng, profile)
    if point == "inkles":
        return _to_contract(rng, profile, _suit_bid(rng, profile, (6,)))
    if point in ("misere_ends_on_declarer_trick", "misere_defender_points", "double_nullo"):
        return steered("misere")(rng, profile)
    if point in ("open_misere_shown", "joker_must_play_in_misere"):
        kind = "open-misere" if OPEN_MISERE in profile.bid_rank else "misere"
        return steered(kind)(rng, profile)
    if point in ("joker_lead_last_trick_only", "joker_lead_unled_suit", "joker_nomination"):
        if rng.random() < 0.6:
            return joker_endgame(rng, profile)
        return steered("no-trumps")(rng, profile)
    if point in ("slam_value", "bid_values"):
        declarer, dealer = _declarer_and_dealer(rng, profile)
        bid = _suit_bid(rng, profile, (6, 7, 8))
        result, _ = _recorded(rng, profile, bid, declarer, profile.hand_size, dealer)
        scores = [rng.randrange(-200, 300, 10) for _ in profile.sides]
        return _game_then_deals(rng, profile, scores, dealer, DealResultStep(result))
    if point == "defender_cap":
        return defender_cap(rng, profile)
    if point in ("lose_score", "barred_at"):
        return minus_500(rng, profile)
    if point in ("game_end", "win_score", "sides", "defender_trick_points"):
        return cross_500(rng, profile)
    if point in ("opening_lead", "sans_kitty", "raise_after_all_pass"):
        return steered(rng.choice(("suit", "no-trumps")))(rng, profile)
    if point == "auction":
        return random_deal(rng, profile)
    return mid_deal(rng, profile) if rng.random() < 0.3 else random_deal(rng, profile)


def _misere_auction(rng: random.Random, profile: Profile) -> Case:
    """An auction with a misère bid early (before a seven, as a first call, over the
    other misères), then played out."""
    targets = [b for b in (MISERE, OPEN_MISERE, BLIND_MISERE) if b in profile.bid_rank]
    if not targets:
        return _to_contract(rng, profile, _suit_bid(rng, profile, (7, 8)))
    return _to_contract(rng, profile, rng.choice(targets))


def _to_contract(rng: random.Random, profile: Profile, target: Bid) -> Case:
    """A shuffled deal whose auction is steered to ``target`` by a random declarer (the
    others pass, sometimes after lower bids), then played out."""
    from .generators import _auction, _driver

    dealer = rng.choice(profile.seat_list)
    deal = Deal.from_deck(profile, dealer, shuffled_deck(profile, rng))
    setup = auction_start(deal, dealer.name, None)
    driver = _driver(rng, profile, setup, 0.05)
    left = profile.left_in_deal[dealer]
    order = [left[dealer]]
    while len(order) < profile.players:
        order.append(left[order[-1]])
    kind = "misere" if target.is_misere else "suit"
    _auction(driver, rng.choice(order), target, kind)
    driver.play_out()
    driver.after_the_end()
    return Case(setup, tuple(driver.actions), profile.name, profile.variants)


def rule_trigger(rng: random.Random, profile: Profile) -> Case:
    """A deal steered to one of the rules where the profile differs from the default,
    drawn at random (any deal for the default profile itself)."""
    from ..scenarios.rule_points import differing_fields

    points = differing_fields(profile)
    if not points:
        return _trigger(rng, profile, "")
    return _trigger(rng, profile, rng.choice(points))


BOUNDARY_GENERATORS: tuple[tuple[str, Generator], ...] = (
    ("defender-cap", defender_cap),
    ("cross-500", cross_500),
    ("minus-500", minus_500),
    ("rule-trigger", rule_trigger),
)
"""Registered at the end of :data:`.generators.GENERATORS`."""
