"""A fuzz case and the scenario the reference makes of it.

A :class:`Case` is a start and a list of actions, nothing expected: what the generators
produce and what the shrinker edits.  :func:`materialize` runs it on the reference and
turns it into an ordinary :class:`~fivehundred.scenarios.Scenario`: each action gets the
reference's outcome (accepted, or the code it was refused with) and is followed by a
checkpoint of every observation asked for.  That scenario passes on the reference by
construction, so any failure on an implementation is a disagreement with the reference.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..engine import (
    DEFAULT_PROFILE_NAME,
    JOKER,
    Bid,
    Deal,
    Phase,
    Seat,
    card_token,
    cards_in,
    sorted_cards,
)
from ..scenarios import (
    ActionStep,
    AuctionStart,
    CallStep,
    Checkpoint,
    DealResultStep,
    DealStep,
    DeckStart,
    GameStart,
    PlayStart,
    Scenario,
    ScenarioInput,
    Setup,
    Step,
)
from ..scenarios.format.model import Deck
from ..scenarios.format.vocabulary import StepOutcome
from ..verify.reference import InputError, ReferenceSession

__all__ = [
    "Case",
    "Replay",
    "deal_start",
    "materialize",
    "play_start",
    "replay",
    "step_kind",
]

CASE_ID = "FUZZ"
START = -1
"""The "action index" of the checkpoint before the first action."""


@dataclass(frozen=True)
class Case:
    """A start and the actions taken from it (no expected results)."""

    setup: Setup
    actions: tuple[Step, ...]
    profile: str = DEFAULT_PROFILE_NAME
    variants: tuple[str, ...] = ()
    """The profile's variant toggles, sorted."""

    @property
    def size(self) -> int:
        """How big the case is, for the shrinker: actions first, then cards in the start,
        then bids (a pass is simpler than a bid)."""
        bids = sum(1 for s in self.actions if isinstance(s, CallStep) and s.call != "PASS")
        return len(self.actions) * 1000 + setup_cards(self.setup) * 10 + bids


def setup_cards(setup: Setup) -> int:
    if isinstance(setup, AuctionStart | PlayStart):
        return sum(len(cards) for cards in setup.hands.values())
    if isinstance(setup, DeckStart):
        return 43
    return 0


def step_kind(step: Step) -> str:
    """``call``, ``play``, ``discard``, ``sans_kitty``, ``nominate``, ``deal`` or
    ``deal_result``."""
    if isinstance(step, ActionStep):
        return step.action
    if isinstance(step, DealResultStep):
        return "deal_result"
    return "deal"


def _session(case: Case) -> ReferenceSession:
    return ReferenceSession(ScenarioInput(CASE_ID, case.profile, case.setup, (), case.variants))


def _with_reject(step: Step, code: str | None) -> Step:
    if isinstance(step, ActionStep | DealStep | DealResultStep):
        return replace(step, reject=code)
    return step


def materialize(
    case: Case,
    keys: Sequence[str],
    *,
    title: str = "Fuzz case",
    rules: tuple[str, ...] = ("worked-example",),
    checkpoints: dict[int, tuple[str, ...]] | None = None,
    scenario_id: str = CASE_ID,
    tags: tuple[str, ...] = ("fuzz",),
    assertion: str = "The implementation agrees with the reference at every step.",
    explanation: str = "",
) -> Scenario:
    """The case as a scenario the reference passes; raises :class:`InputError` when the
    reference cannot run it.

    At the start and after each action comes a checkpoint of ``keys``; ``checkpoints``
    (action index, or :data:`START`, to keys) replaces that with checkpoints only where
    it says.
    """
    session = _session(case)
    steps: list[Step] = []
    at_start = tuple(keys) if checkpoints is None else checkpoints.get(START, ())
    if at_start:
        steps.append(Checkpoint({key: session.observe(key) for key in at_start}))
    for index, action in enumerate(case.actions):
        outcome = session.step(action, index)
        code = outcome.get("code") if outcome["outcome"] == StepOutcome.REJECTED else None
        steps.append(_with_reject(action, code))
        asked = tuple(keys) if checkpoints is None else checkpoints.get(index, ())
        if asked:
            steps.append(Checkpoint({key: session.observe(key) for key in asked}))
    return Scenario(
        id=scenario_id,
        title=title,
        rules=rules,
        assertion=assertion,
        setup=case.setup,
        steps=tuple(steps),
        profile=None if case.profile == DEFAULT_PROFILE_NAME else case.profile,
        profile_name=case.profile,
        variants=case.variants,
        tags=tags,
        explanation=explanation,
    )


def _tokens(cards: Iterable[Any]) -> tuple[str, ...]:
    return tuple(card_token(c) for c in sorted_cards(list(cards)))


def _scores(session: ReferenceSession) -> dict[str, int] | None:
    scores = tuple(session.game.scores)
    if not any(scores):
        return None
    return dict(zip(session.profile.side_names, scores, strict=True))


def play_start(session: ReferenceSession) -> PlayStart | None:
    """The deal on the table as a ``play`` start, when it is in play at a trick boundary."""
    deal = session.deal
    if (
        deal is None
        or deal.phase is not Phase.PLAY
        or deal.current_trick
        or deal.to_act is None
        or deal.contract is None
        or deal.declarer is None
    ):
        return None
    if deal.nominated is not None and JOKER not in deal.hand(deal.declarer):
        return None  # a nominated joker already played: no play start says that
    return _play_start(session, deal, deal.contract, deal.declarer, deal.to_act)


def _play_start(
    session: ReferenceSession, deal: Deal, contract: Bid, declarer: Seat, leader: Seat
) -> PlayStart:
    """The deal at a trick boundary, ``leader`` to lead, as a ``play`` start."""
    out = deal.sitting_out_seats if contract.is_misere else ()
    seats = session.profile.seat_list
    hands = {s.name: () if s in out else _tokens(deal.hand(s)) for s in seats}
    played = deal.tricks_played
    sides = session.profile.side_names
    return PlayStart(
        dealer=deal.dealer.name,
        contract=contract.token,
        declarer=declarer.name,
        hands=hands,
        leader=leader.name,
        nominated=None if deal.nominated is None else deal.nominated.letter,
        suits_led=tuple(s.letter for s in deal.suits_led_list) or None,
        tricks=dict(zip(sides, deal.tricks_won, strict=True)) if played else None,
        scores=_scores(session),
    )


def deal_start(session: ReferenceSession, deck: Deck) -> DeckStart | GameStart:
    """A start just before a ``deal`` step of this deck: a deck start of the same deck."""
    if session.game.over:
        return GameStart(dealer=session.game.dealer.name, scores=_scores(session))
    return DeckStart(dealer=session.game.dealer.name, deck=deck, scores=_scores(session))


def auction_start(deal: Deal, dealer: str, scores: dict[str, int] | None) -> AuctionStart:
    """A deal at its first call as an ``auction`` start."""
    return AuctionStart(
        dealer=dealer,
        hands={s.name: _tokens(deal.hand(s)) for s in deal.profile.seat_list},
        kitty=_tokens(cards_in(deal.kitty)),
        scores=scores,
    )


@dataclass
class Replay:
    """The reference's state before each action of a case: later starts to shrink to."""

    starts: dict[int, tuple[Setup, int]]
    """Action index to a start equivalent to the position just before that action, and the
    index of the first action to keep after it (the next one when the start is the deal
    step itself)."""


def replay(case: Case) -> Replay:
    """Run the case on the reference and note every later start it passes through."""
    session = _session(case)
    starts: dict[int, tuple[Setup, int]] = {}
    for index, action in enumerate(case.actions):
        if index > 0:
            between_deals = session.deal is None or session.deal.is_over
            if isinstance(action, DealStep) and between_deals:
                later = deal_start(session, action.deck)
                starts[index] = (later, index if isinstance(later, GameStart) else index + 1)
            else:
                start = play_start(session)
                if start is not None:
                    starts[index] = (start, index)
        try:
            session.step(action, index)
        except InputError:
            break
    return Replay(starts)
