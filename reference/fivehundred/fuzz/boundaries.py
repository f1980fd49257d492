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
* ``minus-500``: a steered deal whose contract fails, started again with the declaring
  side's score set so that the deal lands it on −500 (or ten either side of it);
* ``rule-trigger``: one of the points where the profile (with its toggles) differs from
  the default, drawn at random, and a deal steered to where that rule acts (a passed
  deal, a misère, a six won, a slam, the joker led late, a raise, …).

Each is seeded like the others (:mod:`.generators`), and builds on the base generators,
which register these at the end of their list and hand them the few base generators they
use (:class:`BaseGenerators`): this module never imports that one, so there is no cycle.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..engine import MISERE, OPEN_MISERE, SUIT_BIDS, Profile
from ..engine.bids import Bid
from ..scenarios import DealResultStep, GameStart, RecordedResult, ScenarioInput
from ..scenarios.derived.rule_points import differing_fields
from ..verify.reference import ReferenceSession
from .cases import Case

__all__ = ["BOUNDARY_STARTS", "BaseGenerators", "boundary_generators"]

Generator = Callable[[random.Random, Profile], Case]


@dataclass(frozen=True)
class BaseGenerators:
    """The base generators these build on (:mod:`.generators` passes its own)."""

    steered: Callable[[str], Generator]
    """A deal steered to a kind of contract: ``suit``, ``no-trumps``, ``misere``,
    ``open-misere``, ``slam`` or ``throw-in``."""
    random_deal: Generator
    mid_deal: Generator
    joker_endgame: Generator


ATTEMPTS = 8
"""Steered deals tried for one with the outcome a generator needs."""


def _side_scores(profile: Profile, scores: list[int]) -> dict[str, int]:
    return dict(zip(profile.side_names, scores, strict=True))


def _start_score(profile: Profile, score: int) -> int:
    """A starting score the game accepts: below 500 and above the losing score."""
    low = -490 if profile.end.lose_score is not None else -990
    return max(low, min(490, score))


def _played(profile: Profile, case: Case) -> tuple[list[int], int | None] | None:
    """What each side scores in the played deal of ``case`` and the declaring side
    (``None`` if the deal was not scored: a throw-in, or left unfinished)."""
    session = ReferenceSession(
        ScenarioInput("FUZZ", profile.name, case.setup, (), profile.variants)
    )
    for index, action in enumerate(case.actions):
        session.step(action, index)
    deal = session.deal
    if deal is None or deal.result is None or deal.result.contract is None:
        return None
    side = deal.result.declaring_side
    return list(deal.result.points), None if side is None else int(side)


def _restarted(profile: Profile, case: Case, scores: list[int]) -> Case:
    """The same deal and actions from other starting scores."""
    setup = replace(case.setup, scores=_side_scores(profile, scores))
    return Case(setup, case.actions, profile.name, profile.variants)


def defender_cap(base: BaseGenerators, rng: random.Random, profile: Profile) -> Case:
    """A played deal whose defending sides start at the cap (490 or 480 where a toggle sets
    one, else either), ten or twenty under it, or ten over."""
    cap = profile.scoring.defender_cap or rng.choice((490, 480))
    case = base.steered(rng.choice(("suit", "suit", "no-trumps", "slam")))(rng, profile)
    played = _played(profile, case)
    if played is None or played[1] is None:
        return case
    points, declaring = played
    scores = [_start_score(profile, rng.randrange(-200, 400, 10)) for _ in points]
    for side in range(len(scores)):
        if side != declaring:
            scores[side] = _start_score(profile, cap + rng.choice((-20, -10, 0, 0, 0, 10)))
    return _restarted(profile, case, scores)


def cross_500(base: BaseGenerators, rng: random.Random, profile: Profile) -> Case:
    """A played deal after which two or three sides stand at 500 together (or ten short, or
    ten past): the contractor against the defenders, and defenders among themselves."""
    kind = rng.choice(("suit", "suit", "no-trumps", "misere", "slam"))
    case = base.steered(kind)(rng, profile)
    played = _played(profile, case)
    if played is None:
        return case
    points = played[0]
    gaining = [side for side, p in enumerate(points) if p > 0]
    rng.shuffle(gaining)
    scores = [_start_score(profile, rng.randrange(-200, 300, 10)) for _ in points]
    for side in gaining[: rng.choice((2, 3))]:
        scores[side] = _start_score(profile, 500 - points[side] + rng.choice((0, 0, 0, 10, -10)))
    return _restarted(profile, case, scores)


def minus_500(base: BaseGenerators, rng: random.Random, profile: Profile) -> Case:
    """A played deal whose contract fails, landing its side on −500 (or ten either side)."""
    case = base.steered("suit")(rng, profile)
    for _ in range(ATTEMPTS):
        played = _played(profile, case)
        if played is not None and played[1] is not None and played[0][played[1]] < 0:
            points, declaring = played[0], played[1]
            scores = [_start_score(profile, rng.randrange(-300, 400, 10)) for _ in points]
            landing = -500 - points[declaring] + rng.choice((0, 0, 10, -10))
            scores[declaring] = _start_score(profile, landing)
            return _restarted(profile, case, scores)
        case = base.steered(rng.choice(("suit", "slam", "misere")))(rng, profile)
    return case


def _slam_recorded(rng: random.Random, profile: Profile) -> Case:
    """A recorded slam of a six, seven or eight (the slam value at its edge)."""
    bids = [b for b in SUIT_BIDS.values() if b in profile.bid_rank and b.level in (6, 7, 8)]
    bid: Bid = rng.choice(bids)
    declarer = rng.choice(profile.seat_list)
    dealer = rng.choice([s for s in profile.seat_list if s != declarer])
    side = profile.side_of[declarer]
    tricks: int | dict[str, int] = profile.hand_size
    if len(profile.sides) > 2:
        names = profile.side_names
        tricks = {n: profile.hand_size if i == side else 0 for i, n in enumerate(names)}
    scores = [_start_score(profile, rng.randrange(-200, 300, 10)) for _ in profile.sides]
    setup = GameStart(dealer=dealer.name, scores=_side_scores(profile, scores))
    step = DealResultStep(RecordedResult(bid.token, declarer.name, tricks))
    return Case(setup, (step,), profile.name, profile.variants)


def _misere_kind(profile: Profile) -> str:
    if MISERE in profile.bid_rank:
        return "misere"
    return "open-misere" if OPEN_MISERE in profile.bid_rank else "suit"


_STEER: dict[str, Callable[[random.Random, Profile], str]] = {
    "auction.all_pass": lambda rng, p: "throw-in",
    "auction.inkles": lambda rng, p: rng.choice(("throw-in", "suit")),
    "ladder.misere_needs": lambda rng, p: _misere_kind(p),
    "ladder.order": lambda rng, p: rng.choice((_misere_kind(p), "suit")),
    "ladder.ties": lambda rng, p: "open-misere",
    "misere.ends_on_declarer_trick": lambda rng, p: _misere_kind(p),
    "misere.defender_points": lambda rng, p: _misere_kind(p),
    "misere.double_nullo": lambda rng, p: _misere_kind(p),
    "misere.open_shown": lambda rng, p: "open-misere",
    "joker.must_play_in_misere": lambda rng, p: _misere_kind(p),
    "joker.nomination": lambda rng, p: "no-trumps",
    "play.opening_lead": lambda rng, p: rng.choice(("suit", "no-trumps", _misere_kind(p))),
    "play.sans_kitty": lambda rng, p: rng.choice(("suit", "no-trumps")),
    "auction.raise_after_all_pass": lambda rng, p: "suit",
}
"""The kind of steered deal where the rule of each field acts (the others below)."""


def rule_trigger(base: BaseGenerators, rng: random.Random, profile: Profile) -> Case:
    """A deal steered to where one of the rules that differ from the default profile acts,
    the rule drawn at random (any deal for the default profile itself)."""
    points = differing_fields(profile)
    point = rng.choice(points) if points else ""
    if point in _STEER:
        return base.steered(_STEER[point](rng, profile))(rng, profile)
    if point in ("joker.lead_last_trick_only", "joker.lead_unled_suit"):
        return base.joker_endgame(rng, profile)
    if point in ("scoring.slam_value", "ladder.values"):
        return _slam_recorded(rng, profile)
    if point == "scoring.defender_cap":
        return defender_cap(base, rng, profile)
    if point in ("end.lose_score", "end.barred_at"):
        return minus_500(base, rng, profile)
    if point in ("end.rule", "end.win_score", "table.sides", "scoring.defender_trick_points"):
        return cross_500(base, rng, profile)
    return base.mid_deal(rng, profile) if rng.random() < 0.3 else base.random_deal(rng, profile)


def boundary_generators(base: BaseGenerators) -> tuple[tuple[str, Generator], ...]:
    """The generators of this module, bound to the base ones, as the registry lists them."""

    def bound(
        name: str, generator: Callable[[BaseGenerators, random.Random, Profile], Case]
    ) -> tuple[str, Generator]:
        def generate(rng: random.Random, profile: Profile) -> Case:
            return generator(base, rng, profile)

        generate.__name__ = generator.__name__
        return name, generate

    return (
        bound("defender-cap", defender_cap),
        bound("cross-500", cross_500),
        bound("minus-500", minus_500),
        bound("rule-trigger", rule_trigger),
    )


BOUNDARY_STARTS: dict[str, frozenset[str]] = {
    "defender-cap": frozenset({"auction"}),
    "cross-500": frozenset({"auction"}),
    "minus-500": frozenset({"auction"}),
    # a steered deal, a joker endgame, a deal from the middle, a random deal or a recorded slam
    "rule-trigger": frozenset({"auction", "play", "deck", "game"}),
}
"""The kinds of start each generator's cases may have (``GENERATOR_STARTS``)."""
