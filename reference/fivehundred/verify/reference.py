"""The reference engine running a scenario input: the reference side of the protocol.

The input is exactly what any implementation under test receives (a
:class:`~fivehundred.scenarios.ScenarioInput`: a setup and steps, never the expected
results).  The output lists, for every step, ``accepted``, ``rejected`` with a code,
or the observations asked for.  The in-process runner gives the model directly;
``fivehundred serve`` parses the run message into the same model first
(:func:`run_json`), so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..engine import (
    ALL_PASS_NT,
    SANS_KITTY,
    Bid,
    Card,
    Code,
    Deal,
    DealResult,
    Discard,
    IllegalAction,
    Nominate,
    NotationError,
    Play,
    Profile,
    Rejection,
    Seat,
    SetupError,
    Suit,
    Trick,
    card_token,
    cards_in,
    get_profile,
    parse_bid,
    parse_call,
    parse_card,
    score_deal,
    sorted_cards,
)
from ..engine.actions import Action
from ..engine.perft import PERFT_DEPTHS, perft
from ..engine.scoring import THROWN_IN
from ..scenarios import (
    ActionStep,
    CallStep,
    DealResultStep,
    DealStep,
    DiscardStep,
    ModelError,
    NominateStep,
    ObserveStep,
    PlayStep,
    PositionError,
    RecordedResult,
    SansKittyStep,
    ScenarioInput,
    Step,
    input_from_json,
    spelled_deck,
    start_position,
)
from ..scenarios.format.vocabulary import StepOutcome
from ..scenarios.loading.positions import cards as parse_cards
from ..scenarios.loading.positions import seat as parse_seat
from ..scenarios.loading.positions import side_points

__all__ = ["InputError", "ReferenceSession", "run_input", "run_json"]


class InputError(Exception):
    """The input cannot be run (bad setup, unknown token, unknown observation)."""


def _parse(parser: Callable[[Any], Any], value: Any, where: str) -> Any:
    try:
        return parser(value)
    except NotationError as error:
        raise InputError(f"{where}: {error}") from None


def _cards(tokens: tuple[str, ...] | list[str], where: str) -> list[Card]:
    try:
        return parse_cards(tokens, where)
    except PositionError as error:
        raise InputError(str(error)) from None


def _seat(profile: Profile, value: str, where: str) -> Seat:
    try:
        return parse_seat(profile, value, where)
    except PositionError as error:
        raise InputError(str(error)) from None


def _trick_json(trick: Trick | None) -> dict[str, Any] | None:
    if trick is None:
        return None
    return {
        "leader": trick.leader.name,
        "led": trick.led.letter,
        "cards": {seat.name: card_token(card) for seat, card in trick.cards},
        "winner": trick.winner.name,
    }


def _tokens(cards: list[Card]) -> list[str]:
    return [card_token(c) for c in sorted_cards(cards)]


def _points(profile: Profile, points: Sequence[int]) -> dict[str, int]:
    """Numbers per side, keyed by the profile's side names."""
    return dict(zip(profile.side_names, points, strict=True))


class ReferenceSession:
    """One scenario being run: a game, the current deal, and the last deal's result."""

    def __init__(self, scenario_input: ScenarioInput) -> None:
        try:
            self.profile: Profile = get_profile(scenario_input.profile, scenario_input.variants)
        except KeyError as error:
            raise InputError(str(error.args[0])) from None
        except ValueError as error:
            raise InputError(str(error)) from None
        try:
            self.game, self.deal = start_position(self.profile, scenario_input.setup)
        except PositionError as error:
            raise InputError(str(error)) from None
        self.last_result: DealResult | None = None

    # ---- steps -----------------------------------------------------------------------

    def step(self, step: Step, index: int) -> dict[str, Any]:
        where = f"steps[{index}]"
        if isinstance(step, ObserveStep):
            return {"observed": {key: self.observe(key, where) for key in step.keys}}
        try:
            if isinstance(step, DealStep):
                self._new_deal(_cards(spelled_deck(step.deck, self.profile), f"{where}.deal"))
            elif isinstance(step, DealResultStep):
                self._record(step.result, where)
            elif isinstance(step, ActionStep):
                self._act(step, where)
            else:
                raise InputError(f"{where}: a checkpoint must be sent as an observe step")
        except IllegalAction as refused:
            return {"outcome": StepOutcome.REJECTED.value, "code": refused.code.value}
        return {"outcome": StepOutcome.ACCEPTED.value}

    def _act(self, step: ActionStep, where: str) -> None:
        seat = _seat(self.profile, step.seat, f"{where}.seat")
        action = self._action(step, where)
        deal = self.deal
        if deal is None:
            self._refuse_between_deals()
            return
        before = deal.snapshot()
        try:
            deal.apply(seat, action)
        except IllegalAction:
            if deal.snapshot() != before:  # the engine's own contract; never expected
                raise RuntimeError("a refused action changed the deal") from None
            raise
        if deal.is_over:
            self.game.record_deal(deal)
            self.last_result = self.game.deals[-1]  # as recorded: under a cap, capped

    def _action(self, step: ActionStep, where: str) -> Action:
        if isinstance(step, CallStep):
            call: Action = _parse(parse_call, step.call, f"{where}.call")
            return call
        if isinstance(step, DiscardStep):
            return Discard(tuple(_cards(step.cards, f"{where}.discard")))
        if isinstance(step, NominateStep):
            return Nominate(_parse(Suit.parse, step.suit, f"{where}.nominate"))
        if isinstance(step, SansKittyStep):
            return SANS_KITTY
        assert isinstance(step, PlayStep)
        names = step.names
        return Play(
            _parse(parse_card, step.card, f"{where}.play"),
            None if names is None else _parse(Suit.parse, names, f"{where}.names"),
        )

    def _refuse_between_deals(self) -> None:
        """No deal on the table: after a recorded result the last deal is over; at a
        game start no deal has begun."""
        if self.last_result is not None:
            raise IllegalAction(Rejection(Code.DEAL_OVER, "the deal is over"))
        raise IllegalAction(Rejection(Code.WRONG_PHASE, "no deal is in progress"))

    def _deal_in_progress(self) -> bool:
        return self.deal is not None and not self.deal.is_over

    def _new_deal(self, deck: list[Card]) -> None:
        if self._deal_in_progress() and not self.game.over:
            raise IllegalAction(Rejection(Code.WRONG_PHASE, "a deal is in progress"))
        try:
            self.deal = self.game.new_deal(deck)
        except SetupError as error:
            raise InputError(f"deal: {error}") from None
        self.last_result = None

    def _record(self, value: RecordedResult | str, where: str) -> None:
        if self._deal_in_progress() and not self.game.over:
            raise IllegalAction(Rejection(Code.WRONG_PHASE, "a deal is in progress"))
        if not isinstance(value, RecordedResult):
            result = THROWN_IN
        else:
            contract: Bid = _parse(parse_bid, value.contract, f"{where}.deal_result.contract")
            declarer = _seat(self.profile, value.declarer, f"{where}.deal_result.declarer")
            if contract not in self.profile.bid_rank:
                raise InputError(f"{where}.deal_result.contract: not a bid of this profile")
            dealer = self.game.dealer
            if declarer in self.profile.resting(dealer):
                raise InputError(
                    f"{where}.deal_result.declarer: {value.declarer} deals and sits out this deal"
                )
            tricks, by_side = self._recorded_tricks(value, declarer, f"{where}.deal_result.tricks")
            if by_side is not None and any(
                by_side[side] for side in self.profile.absent_sides(dealer)
            ):
                raise InputError(
                    f"{where}.deal_result.tricks: the dealer sits out this deal and takes no trick"
                )
            result = score_deal(self.profile, contract, declarer, tricks, by_side, dealer=dealer)
        self.game.record(result)  # raises game-over when the game has ended
        self.deal = None
        self.last_result = self.game.deals[-1]  # as recorded: under a cap, capped

    def _recorded_tricks(
        self, value: RecordedResult, declarer: Seat, where: str
    ) -> tuple[int, list[int] | None]:
        """The declaring side's tricks, and every side's when given by side."""
        profile = self.profile
        if isinstance(value.tricks, int):
            if not 0 <= value.tricks <= profile.hand_size:
                raise InputError(
                    f"{where}: expected 0 to {profile.hand_size}, found {value.tricks}"
                )
            if len(profile.sides) > 2 and not parse_bid(value.contract).is_misere:
                raise InputError(f"{where}: give the tricks of every side")
            return value.tricks, None
        try:
            by_side = side_points(profile, value.tricks, where)
        except PositionError as error:
            raise InputError(str(error)) from None
        assert by_side is not None
        if any(t < 0 for t in by_side) or sum(by_side) > profile.hand_size:
            raise InputError(f"{where}: expected tricks adding up to at most {profile.hand_size}")
        return by_side[profile.side_of[declarer]], by_side

    # ---- observations ------------------------------------------------------------

    def observe(self, key: str, where: str = "observe") -> Any:
        getter = _OBSERVERS.get(key)
        if getter is None:
            raise InputError(f"{where}: unknown observation {key!r}")
        return getter(self)

    def result_points(self) -> dict[str, int] | None:
        if self.last_result is None:
            return None
        if self.last_result.thrown_in:  # nobody scores, at a table of any size
            return dict.fromkeys(self.profile.side_names, 0)
        return _points(self.profile, self.last_result.points)


def _deal_value(
    getter: Callable[[Deal], Any], empty: Any = None
) -> Callable[[ReferenceSession], Any]:
    """An observation of the deal on the table; ``empty`` when there is none (a game
    start before its first deal, or after a recorded ``deal_result``)."""

    def observe(session: ReferenceSession) -> Any:
        return empty if session.deal is None else getter(session.deal)

    return observe


def _per_seat(getter: Callable[[Deal, Seat], Any], empty: Any) -> Callable[[ReferenceSession], Any]:
    """A value for each seat of the table; ``empty`` for each when no deal is on it."""

    def observe(session: ReferenceSession) -> dict[str, Any]:
        deal = session.deal
        seats = session.profile.seat_list
        if deal is None:
            return {s.name: empty for s in seats}
        return {s.name: getter(deal, s) for s in seats}

    return observe


def _winner(session: ReferenceSession) -> str | None:
    winner = session.game.winner
    return None if winner is None else session.profile.side_names[winner]


def _phase(session: ReferenceSession) -> str:
    if session.deal is None:
        return "none" if session.last_result is None else "over"
    return session.deal.phase.value


def _legal(session: ReferenceSession) -> list[str]:
    if session.deal is None or session.deal.to_act is None:
        return []
    return sorted(str(a) for a in session.deal.legal_actions())


def _legal_count(session: ReferenceSession) -> int:
    """``len(_legal(session))``, without naming and sorting each action: in the kitty phase
    there are hundreds of discards, and ``legal`` and ``legal_count`` are asked together."""
    if session.deal is None or session.deal.to_act is None:
        return 0
    return len(session.deal.legal_actions())


def _perft(session: ReferenceSession) -> list[int]:
    deal = session.deal
    if deal is None:
        return [0 for _ in PERFT_DEPTHS]
    return [perft(deal, depth) for depth in PERFT_DEPTHS]


def _contract_and_declarer(session: ReferenceSession) -> tuple[Bid | None, Seat | None]:
    """From the deal on the table, or from the last recorded result when there is none.
    A deal everybody passed has no contract, even when it is played at no trumps."""
    deal = session.deal
    found: tuple[Bid | None, Seat | None]
    if deal is not None and deal.contract is not None:
        found = deal.contract, deal.declarer
    else:
        result = session.last_result
        found = (None, None) if result is None else (result.contract, result.declarer)
    return (None, None) if found[0] is ALL_PASS_NT else found


def _contract(session: ReferenceSession) -> str | None:
    contract = _contract_and_declarer(session)[0]
    return None if contract is None else contract.token


def _declarer(session: ReferenceSession) -> str | None:
    return _name(_contract_and_declarer(session)[1])


def _made(session: ReferenceSession) -> bool | None:
    result = session.last_result
    if result is None or result.thrown_in or result.contract is ALL_PASS_NT:
        return None
    return result.made


def _current_trick(deal: Deal) -> dict[str, Any] | None:
    trick = deal.current_trick
    if not trick:
        return None
    led = deal.led_suit
    return {
        "leader": trick[0][0].name,
        "led": None if led is None else led.letter,
        "cards": {seat.name: card_token(card) for seat, card in trick},
    }


def _name(value: Seat | None) -> str | None:
    return None if value is None else value.name


def _exposed(deal: Deal) -> list[str] | None:
    cards = deal.exposed
    return None if cards is None else _tokens(cards)


_OBSERVERS: dict[str, Callable[[ReferenceSession], Any]] = {
    "phase": _phase,
    "to_act": _deal_value(lambda d: _name(d.to_act)),
    "legal": _legal,
    "legal_count": _legal_count,
    "perft": _perft,
    "high_bid": _deal_value(lambda d: None if d.high_bid is None else d.high_bid.token),
    "high_bidder": _deal_value(lambda d: _name(d.high_bidder)),
    "passed": _deal_value(lambda d: [s.name for s in d.profile.seat_list if d.has_passed(s)], []),
    "contract": _contract,
    "declarer": _declarer,
    "hands": _per_seat(lambda d, s: _tokens(d.hand(s)), []),
    "hand_sizes": _per_seat(lambda d, s: len(d.hand(s)), 0),
    "kitty": _deal_value(lambda d: _tokens(cards_in(d.kitty)), []),
    "discards": _deal_value(lambda d: _tokens(cards_in(d.discards)), []),
    "nominated": _deal_value(lambda d: None if d.nominated is None else d.nominated.letter),
    "sitting_out": _deal_value(lambda d: _name(d.sitting_out)),
    "trick": _deal_value(_current_trick),
    "last_trick": _deal_value(lambda d: _trick_json(d.last_trick)),
    "suits_led": _deal_value(lambda d: [s.letter for s in d.suits_led_list], []),
    "tricks": _deal_value(lambda d: _points(d.profile, d.tricks_won)),
    "deal_score": ReferenceSession.result_points,
    "made": _made,
    "scores": lambda s: _points(s.profile, s.game.scores),
    "dealer": lambda s: s.game.dealer.name,
    "exposed": _deal_value(_exposed),
    "game_over": lambda s: s.game.over,
    "winner": _winner,
}


def run_input(scenario_input: ScenarioInput) -> dict[str, Any]:
    """Run every step of a scenario input; return ``{"steps": [...]}``.

    Raises :class:`InputError` when the input itself cannot be run.
    """
    session = ReferenceSession(scenario_input)
    return {"steps": [session.step(step, i) for i, step in enumerate(scenario_input.steps)]}


def run_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """Run a scenario input as a run message carries it (unchecked JSON)."""
    try:
        scenario_input = input_from_json(data)
    except ModelError as error:
        raise InputError(str(error)) from None
    return run_input(scenario_input)


def observer_names() -> tuple[str, ...]:
    """The observations the reference can report, in the order they are defined."""
    return tuple(_OBSERVERS)
