"""``fivehundred perft``: legal action counts from shipped positions, for any engine.

The positions file (``scenarios/perft-positions.json``) lists positions chosen where legal
actions are easy to get wrong: the auction before and after a seven, the kitty's 286
discards, the joker's nomination, suitless joker leads, a misère, an open misère, the last
tricks.  Each is a start and the actions that reach the position, written in the scenario
notation, with the reference's counts of legal action sequences of one, two and three
actions.  The reference must reproduce the file; an adapter that lists legal actions is
sent each position as an ordinary scenario that observes ``perft``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.perft import PERFT_DEPTHS, perft
from ..resources import scenarios_dir
from ..safety import FileRefused, JsonRefused, clean_name, read_json_file
from ..scenarios import Checkpoint, Scenario, ScenarioInput, Step
from ..scenarios.format.vocabulary import StepOutcome
from ..scenarios.loading.parse import parse_setup, parse_step
from ..verify.reference import InputError, ReferenceSession
from ..verify.runner import Implementation, judge
from .cases import Case

__all__ = [
    "PerftError",
    "Position",
    "check_implementation",
    "check_reference",
    "dump_positions",
    "load_positions",
    "positions_file",
    "read_positions",
    "reference_counts",
]

FORMAT = "fivehundred-perft/1"


class PerftError(Exception):
    """The positions file cannot be read or names an impossible position."""


@dataclass(frozen=True)
class Position:
    name: str
    case: Case
    counts: tuple[int, ...]
    note: str = ""


_FLAT_LIST = re.compile(r"\[\s*([^\[\]{}]*?)\s*\]", re.DOTALL)


def dump_positions(data: Any) -> str:
    """The positions file as JSON with each list of cards or counts on one line."""
    text = json.dumps(data, indent=1, ensure_ascii=False)
    return (
        _FLAT_LIST.sub(
            lambda m: "[" + ", ".join(part.strip() for part in m.group(1).split(",")) + "]",
            text,
        )
        + "\n"
    )


def positions_file() -> Path:
    return scenarios_dir() / "perft-positions.json"


def _position(data: Any, index: int) -> Position:
    where = f"positions[{index}]"
    if not isinstance(data, Mapping):
        raise PerftError(f"{where}: expected a mapping with name, setup and perft")
    try:
        return _parsed_position(data)
    except KeyError as error:
        raise PerftError(f"{where}: {clean_name(str(error.args[0]))}: missing") from None
    except (TypeError, ValueError) as error:
        raise PerftError(f"{where}: {clean_name(str(error))[:300]}") from None


def _parsed_position(data: Mapping[str, Any]) -> Position:
    """A position's fields, each checked (``KeyError``, ``TypeError`` or ``ValueError``
    on the first that is wrong)."""
    setup = parse_setup(data["setup"])
    steps = data.get("steps", [])
    if not isinstance(steps, list):
        raise ValueError("steps: expected a list")
    parsed = tuple(parse_step(step, i, wire=False) for i, step in enumerate(steps))
    counts = _counts(data["perft"])
    name, note = data["name"], data.get("note", "")
    if not isinstance(name, str) or not isinstance(note, str):
        raise ValueError("name and note: expected text")
    return Position(name, Case(setup, parsed), counts, note)


def _counts(counts: Any) -> tuple[int, ...]:
    if not isinstance(counts, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts
    ):
        raise ValueError("perft: expected a list of counts (whole numbers, 0 or more)")
    return tuple(counts)


def read_positions(path: Path) -> Any:
    """The JSON of a positions file, read as every file from outside is (a regular file
    within the size limit, strict JSON: :func:`~fivehundred.safety.read_json_file`)."""
    try:
        return read_json_file(path)
    except (FileRefused, JsonRefused) as error:
        raise PerftError(f"{clean_name(path)}: {error}") from None


def load_positions(path: Path | None = None) -> list[Position]:
    path = path or positions_file()
    data = read_positions(path)
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise PerftError(f"{clean_name(path)}: not a perft positions file ({FORMAT})")
    positions = data.get("positions", [])
    if not isinstance(positions, list):
        raise PerftError(f"{clean_name(path)}: positions: expected a list")
    return [_position(item, i) for i, item in enumerate(positions)]


def _session_at(case: Case) -> ReferenceSession:
    session = ReferenceSession(ScenarioInput("PERFT", case.profile, case.setup, ()))
    for index, step in enumerate(case.actions):
        outcome = session.step(step, index)
        if outcome.get("outcome") != StepOutcome.ACCEPTED:
            raise PerftError(f"step {index + 1} is refused ({outcome.get('code')})")
    return session


def reference_counts(case: Case, depths: tuple[int, ...] = PERFT_DEPTHS) -> tuple[int, ...]:
    """The reference's perft counts at the end of ``case``."""
    try:
        session = _session_at(case)
    except InputError as error:
        raise PerftError(str(error)) from None
    deal = session.deal
    if deal is None:
        return tuple(0 for _ in depths)
    return tuple(perft(deal, depth) for depth in depths)


def check_reference(positions: list[Position]) -> Iterator[tuple[Position, tuple[int, ...]]]:
    """Each position with the reference's counts (compare them with ``position.counts``)."""
    for position in positions:
        yield position, counts_of(position)


def counts_of(position: Position, depths: tuple[int, ...] = PERFT_DEPTHS) -> tuple[int, ...]:
    """:func:`reference_counts` of a position, an error naming it when it cannot be set up."""
    try:
        return reference_counts(position.case, depths)
    except PerftError as error:
        raise PerftError(f"position {position.name!r}: {error}") from None


def scenario_of(position: Position, index: int) -> Scenario:
    steps: tuple[Step, ...] = (
        *position.case.actions,
        Checkpoint({"perft": list(position.counts)}),
    )
    return Scenario(
        id=f"P{index:03d}",
        title=f"perft: {position.name}",
        rules=("worked-example",),
        assertion=f"The perft counts of {position.name}.",
        setup=position.case.setup,
        steps=steps,
        profile_name=position.case.profile,
    )


def check_implementation(
    implementation: Implementation, positions: list[Position]
) -> Iterator[tuple[Position, str | None]]:
    """Each position with ``None`` when the implementation's counts agree, or what went
    wrong (its counts, or why it errored)."""
    for index, position in enumerate(positions):
        scenario = scenario_of(position, index)
        outcome = implementation.run(scenario)
        verdict = judge(scenario, outcome)
        if verdict.ok:
            yield position, None
        elif verdict.mismatches:
            first = verdict.mismatches[0]
            yield position, f"{first.what}: {first.describe()}"
        else:
            yield position, verdict.message or verdict.status.value
