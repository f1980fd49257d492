"""The position on the table before the first step of a scenario and after each step,
computed by running the scenario through the reference engine.

The site draws these positions (:mod:`.table_drawing`) and its stepper only shows
them one after another: no rule of the game is decided in the browser, so what the
page shows after a step is what the reference does with it.  A position is read
through the reference's own observations (the ``hands``, ``trick``, ``tricks`` …
that an implementation reports), plus the calls of the auction, which no
observation lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..scenarios import ActionStep, Checkpoint, DealResultStep, DealStep, ObserveStep, PlayStep
from ..scenarios import Scenario as _Scenario
from ..scenarios.format.vocabulary import StepOutcome
from ..verify.reference import InputError, ReferenceSession


@dataclass(frozen=True, slots=True)
class Position:
    """What is on the table at one moment, in the scenario format's notation."""

    seats: tuple[str, ...]
    """Every seat of the profile, in playing order (``N E S W`` for four)."""
    hands: Mapping[str, tuple[str, ...]]
    """Seat → the cards it holds (empty between deals)."""
    dealer: str
    phase: str
    """``auction``, ``kitty``, ``play``, ``over``, or ``none`` between deals."""
    to_act: str | None
    contract: str | None
    declarer: str | None
    calls: Mapping[str, str]
    """Seat → its last call in the auction under way (``PASS``, ``7H``)."""
    high_bidder: str | None
    kitty: tuple[str, ...]
    """The kitty still on the table (before the declarer takes it)."""
    discards: tuple[str, ...]
    trick: tuple[tuple[str, str], ...]
    """(seat, card) of the trick in the middle, in the order played; the first led."""
    trick_winner: str | None
    """Who wins the trick in the middle, once it is complete."""
    tricks: Mapping[str, int]
    """Side → tricks taken in this deal."""
    scores: Mapping[str, int]
    sitting_out: tuple[str, ...]
    nominated: str | None
    exposed: bool
    """The declarer's hand lies face up (open misère)."""
    moved: str | None
    """The card that has just gone from a hand to the trick."""
    game_over: bool = False


@dataclass(frozen=True, slots=True)
class Frame:
    """One moment of the stepper: the step that led to it (``None`` for the start) and
    how it went (``accepted``, ``rejected`` with a code, or a checkpoint)."""

    index: int | None
    """The step's index in the scenario (from 0), ``None`` for the start."""
    outcome: str
    """``start``, ``accepted``, ``rejected`` or ``check``."""
    code: str | None
    position: Position


_KEPT: dict[str, list[Frame]] = {}
"""The frames of each scenario drawn in this process, by the scenario's whole text (its
``repr``): a site draws every scenario once per language and again under the clauses it
illustrates, and ``mkdocs serve`` draws the unchanged ones again on every rebuild."""

_KEPT_MAX = 8192


def frames(scenario: _Scenario) -> list[Frame]:
    """The start and the position after each step; empty when the reference cannot run the
    scenario (lint reports such a file, and its page shows no drawing)."""
    key = repr(scenario)
    kept = _KEPT.get(key)
    if kept is None:
        if len(_KEPT) >= _KEPT_MAX:  # edits under ``mkdocs serve`` leave old versions behind
            _KEPT.clear()
        kept = _KEPT[key] = _frames(scenario)
    return list(kept)


def _frames(scenario: _Scenario) -> list[Frame]:
    try:
        session = ReferenceSession(scenario.input())
    except InputError:
        return []
    out = [Frame(None, "start", None, _position(session, show_last=False, moved=None))]
    show_last = False
    try:
        sent_steps = scenario.input().steps
        for index, (step, sent) in enumerate(zip(scenario.steps, sent_steps, strict=True)):
            if isinstance(sent, ObserveStep) or isinstance(step, Checkpoint):
                out.append(Frame(index, "check", None, out[-1].position))
                continue
            result = session.step(sent, index)
            outcome = str(result.get("outcome", "accepted"))
            code = result.get("code")
            moved = None
            if outcome == StepOutcome.ACCEPTED:
                if isinstance(step, PlayStep):
                    moved = step.card
                    show_last = True
                elif isinstance(step, ActionStep | DealStep | DealResultStep):
                    show_last = False
            out.append(
                Frame(
                    index,
                    outcome,
                    None if code is None else str(code),
                    _position(session, show_last=show_last, moved=moved),
                )
            )
    except InputError:
        return out[:1]
    return out


def _position(session: ReferenceSession, *, show_last: bool, moved: str | None) -> Position:
    seen: dict[str, Any] = {
        key: session.observe(key)
        for key in (
            "hands",
            "dealer",
            "phase",
            "to_act",
            "contract",
            "declarer",
            "high_bidder",
            "kitty",
            "discards",
            "trick",
            "last_trick",
            "tricks",
            "scores",
            "nominated",
            "exposed",
            "game_over",
        )
    }
    profile = session.profile
    deal = session.deal
    calls: dict[str, str] = {}
    sitting_out: tuple[str, ...] = ()
    if deal is not None:
        if seen["phase"] == "auction":
            for seat, call in deal.calls:
                calls[seat.name] = call.token
        sitting_out = tuple(s.name for s in deal.sitting_out_seats)
    trick: tuple[tuple[str, str], ...] = ()
    winner = None
    current = seen["trick"]
    last = seen["last_trick"]
    if current:
        trick = tuple(current["cards"].items())
    elif show_last and last:
        trick = tuple(last["cards"].items())
        winner = str(last["winner"])
    hands = seen["hands"]
    return Position(
        seats=tuple(profile.seat_names),
        hands={seat: tuple(hands.get(seat, ())) for seat in profile.seat_names},
        dealer=str(seen["dealer"]),
        phase=str(seen["phase"]),
        to_act=seen["to_act"],
        contract=seen["contract"],
        declarer=seen["declarer"],
        calls=calls,
        high_bidder=seen["high_bidder"],
        kitty=tuple(seen["kitty"] or ()),
        discards=tuple(seen["discards"] or ()),
        trick=trick,
        trick_winner=winner,
        tricks=dict(seen["tricks"] or {}),
        scores=dict(seen["scores"] or {}),
        sitting_out=sitting_out,
        nominated=seen["nominated"],
        exposed=bool(seen["exposed"]),
        moved=moved if trick else None,
        game_over=bool(seen["game_over"]),
    )
