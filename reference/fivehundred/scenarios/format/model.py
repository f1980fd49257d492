"""The scenario model: one frozen dataclass per kind of start and per kind of step.

A scenario file is parsed into this model once, right after the JSON Schema check
(:mod:`.parse`); lint, the reference executor, ``show``, the site, the export and
the protocol encoder all read the model and never look at YAML mappings again.

Values stay in the scenario notation (``"10H"``, ``"7NT"``, ``"N"``): the notation is
what scenarios, reports and the protocol speak, it is the same for every profile,
and the engine parses it under the scenario's profile when it runs.  What the model
adds is structure: which kind of start, which kind of step, what each carries, and
where in the file each step came from.

Two details exist only so that what an implementation receives is exactly what the
file says: a start keeps the order its fields were written in (:attr:`order`), and
mappings (hands, side totals, expected values) keep their written order.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, Literal

from ...engine import DEFAULT_PROFILE_NAME
from ...resources import chosen_suite, scenarios_dir
from .diagnostics import Mark, Positions

__all__ = [
    "ORDERED",
    "ActionStep",
    "AuctionStart",
    "CallStep",
    "Checkpoint",
    "DealResultStep",
    "DealStep",
    "DeckStart",
    "DiscardStep",
    "GameStart",
    "NominateStep",
    "ObserveStep",
    "PlayStart",
    "PlayStep",
    "RecordedResult",
    "SansKittyStep",
    "Scenario",
    "ScenarioInput",
    "Setup",
    "Step",
    "expected_rejection",
]

JsonValue = Any
"""A value as JSON carries it (expected observations are compared as data)."""

ORDERED: Literal["ordered"] = "ordered"
"""A deck written as ``ordered``: the profile's deck in canonical order."""

Deck = tuple[str, ...] | Literal["ordered"]
Hands = Mapping[str, tuple[str, ...]]
SidePoints = Mapping[str, int]


# ---- starts --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeckStart:
    """Before the deal: the dealer deals ``deck`` (top card first)."""

    kind: ClassVar[str] = "deck"
    dealer: str
    deck: Deck
    scores: SidePoints | None = None
    order: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AuctionStart:
    """At the first call, with every hand and the kitty given."""

    kind: ClassVar[str] = "auction"
    dealer: str
    hands: Hands
    kitty: tuple[str, ...]
    scores: SidePoints | None = None
    order: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayStart:
    """In play at a trick boundary, after the discard."""

    kind: ClassVar[str] = "play"
    dealer: str
    contract: str
    declarer: str
    hands: Hands
    leader: str | None = None
    nominated: str | None = None
    suits_led: tuple[str, ...] | None = None
    tricks: SidePoints | None = None
    scores: SidePoints | None = None
    order: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GameStart:
    """Between deals: side totals and the dealer of the next deal."""

    kind: ClassVar[str] = "game"
    dealer: str
    scores: SidePoints | None = None
    order: tuple[str, ...] = ()


Setup = DeckStart | AuctionStart | PlayStart | GameStart


# ---- steps ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ActionStep:
    """One action by one seat; accepted unless ``reject`` names the expected code."""

    kind: ClassVar[str] = "action"
    action: ClassVar[str]
    """``call``, ``discard``, ``sans_kitty``, ``nominate`` or ``play``: the key the file
    writes."""
    seat: str
    reject: str | None = field(default=None, kw_only=True)
    note: str | None = field(default=None, kw_only=True)
    mark: Mark | None = field(default=None, kw_only=True, compare=False)

    @property
    def value(self) -> str | tuple[str, ...] | bool:
        """The value written under :attr:`action`."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class CallStep(ActionStep):
    action: ClassVar[str] = "call"
    call: str

    @property
    def value(self) -> str:
        return self.call


@dataclass(frozen=True, slots=True)
class DiscardStep(ActionStep):
    action: ClassVar[str] = "discard"
    cards: tuple[str, ...]

    @property
    def value(self) -> tuple[str, ...]:
        return self.cards


@dataclass(frozen=True, slots=True)
class SansKittyStep(ActionStep):
    """The declarer plays without the kitty (``sans_kitty: true``; the ``sans-kitty``
    toggle).  The key has no other value: it names the action."""

    action: ClassVar[str] = "sans_kitty"

    @property
    def value(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class NominateStep(ActionStep):
    action: ClassVar[str] = "nominate"
    suit: str

    @property
    def value(self) -> str:
        return self.suit


@dataclass(frozen=True, slots=True)
class PlayStep(ActionStep):
    action: ClassVar[str] = "play"
    card: str
    names: str | None = None

    @property
    def value(self) -> str:
        return self.card


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """Observations expected at this point; only the keys given are compared."""

    kind: ClassVar[str] = "expect"
    expect: Mapping[str, JsonValue]
    note: str | None = None
    mark: Mark | None = field(default=None, compare=False)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self.expect)


@dataclass(frozen=True, slots=True)
class ObserveStep:
    """What a checkpoint becomes in an implementation's input: the keys to report."""

    kind: ClassVar[str] = "observe"
    keys: tuple[str, ...]
    mark: Mark | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class DealStep:
    """A new deal by the current dealer from an ordered deck."""

    kind: ClassVar[str] = "deal"
    deck: Deck
    reject: str | None = None
    note: str | None = None
    mark: Mark | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class RecordedResult:
    """A whole deal's result: ``tricks`` are the declaring side's (the declarer's own in
    a misère), or every side's tricks by side name where single players score their own."""

    contract: str
    declarer: str
    tricks: int | SidePoints

    @property
    def tricks_text(self) -> str:
        """The tricks as reports word them: ``8`` or ``N 6, E 3, S 1``."""
        if isinstance(self.tricks, int):
            return str(self.tricks)
        return ", ".join(f"{side} {count}" for side, count in self.tricks.items())


THROWN_IN: Literal["thrown-in"] = "thrown-in"


@dataclass(frozen=True, slots=True)
class DealResultStep:
    """A deal recorded at game level without being played."""

    kind: ClassVar[str] = "deal_result"
    result: RecordedResult | Literal["thrown-in"]
    reject: str | None = None
    note: str | None = None
    mark: Mark | None = field(default=None, compare=False)


Step = ActionStep | Checkpoint | ObserveStep | DealStep | DealResultStep
"""Any step.  A scenario file has no :class:`ObserveStep`; an input has no :class:`Checkpoint`."""


def expected_rejection(step: Step) -> str | None:
    """The code a step must be refused with; ``None`` when it must be accepted, or is a
    checkpoint."""
    if isinstance(step, ActionStep | DealStep | DealResultStep):
        return step.reject
    return None


# ---- scenarios -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScenarioInput:
    """What an implementation receives: the setup and the steps, never the expectations.

    Action steps carry no ``reject`` or ``note``; checkpoints are :class:`ObserveStep`.
    ``profile`` is always the resolved profile name; ``variants`` are its variant
    toggles, sorted (none for most scenarios).
    """

    id: str
    profile: str
    setup: Setup
    steps: tuple[Step, ...]
    variants: tuple[str, ...] = ()


@dataclass(frozen=True)
class Scenario:
    """One scenario file, validated and parsed."""

    id: str
    title: str
    rules: tuple[str, ...]
    assertion: str
    setup: Setup
    steps: tuple[Step, ...]
    profile: str | None = None
    """The profile as written, ``None`` for the default."""
    profile_name: str = DEFAULT_PROFILE_NAME
    """The profile resolved to its name."""
    variants: tuple[str, ...] = ()
    """The profile's variant toggles, sorted."""
    tags: tuple[str, ...] = ()
    explanation: str = ""
    path: Path | None = None
    area: str = ""
    source: Positions | None = field(default=None, repr=False, compare=False)

    def input(self) -> ScenarioInput:
        """The scenario as an implementation receives it (see :class:`ScenarioInput`)."""
        return ScenarioInput(
            self.id, self.profile_name, self.setup, _input_steps(self.steps), self.variants
        )

    @property
    def profile_label(self) -> str:
        """The profile with its toggles, as reports group scenarios:
        ``australian-4+no-misere``."""
        return "+".join((self.profile_name, *self.variants))

    def step_mark(self, index: int) -> Mark | None:
        """Where step ``index`` starts in the file, when the scenario came from one (found
        on demand: most runs never need a position)."""
        if self.source is None:
            return self.steps[index].mark
        return self.source.value(("steps", index))

    def rerun_command(self) -> str:
        """The command that runs this scenario alone; it names the file when the file
        is not one of the suite's scenarios (which ``verify`` reads by default)."""
        command = f"fivehundred verify --id {self.id}"
        if self.path is not None:
            try:
                inside = scenarios_dir().resolve() in self.path.resolve().parents
            except Exception:  # no suite folder at all: name the file
                inside = False
            if not inside:
                command = f"fivehundred verify {shlex.quote(str(self.path))} --id {self.id}"
            elif (named := chosen_suite()) is not None:  # the suite came from --suite
                command = f"fivehundred --suite {shlex.quote(str(named))} verify --id {self.id}"
        return command


def _input_step(step: Step) -> Step:
    """The step as an implementation is sent it: no expected rejection, no note."""
    if isinstance(step, Checkpoint):
        return ObserveStep(step.keys, step.mark)
    if isinstance(step, ObserveStep) or (step.reject is None and step.note is None):
        return step  # nothing to leave out (steps are frozen, so they can be shared)
    return replace(step, reject=None, note=None)


def _input_steps(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    return tuple(_input_step(s) for s in steps)
