"""The suite's vocabularies, each written down once.

Observation keys (with their value schema, description, comparison and rendering),
kinds of start, kinds of step, kinds of action (each with its step key and action
string) and rejection codes are defined here and nowhere else.  The published JSON
Schemas and the tables of ``site/scenario-format.md`` are generated from these
registries (``python -m fivehundred.scenarios.format.sync --write``), and a test fails when
either drifts; verdict comparison, the export,
``show`` and the site read the registries directly.

Rejection codes belong to the engine (:class:`~fivehundred.engine.Code`, with its
descriptions); this module only publishes them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from ...engine import (
    CODE_DESCRIPTIONS,
    PROFILE_NAMES,
    VARIANTS,
    Profile,
    profile_named,
    variants_for,
)

__all__ = [
    "ACTION_KINDS",
    "OBSERVATIONS",
    "OBSERVATION_NAMES",
    "REJECTION_CODES",
    "STARTS",
    "STEP_KINDS",
    "ActionKind",
    "Comparison",
    "ObservationKey",
    "Rendering",
    "StartKind",
    "StepKind",
    "StepOutcome",
    "observation",
]


class StepOutcome(StrEnum):
    """What became of one action step: the ``outcome`` of a run reply's step and of an
    exported step (a rejected step also carries its ``code``)."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"


class Comparison(StrEnum):
    """How an observed value is compared with the expected one."""

    EXACT = "exact"
    SET = "set"
    """A list compared without regard to order."""
    PER_SEAT = "per-seat"
    """A mapping by seat, compared only for the seats given; card lists as sets."""
    PARTIAL = "partial"
    """An object compared only on the fields given (a trick)."""


class Rendering(StrEnum):
    """How ``show`` and the site draw a value."""

    PLAIN = "plain"
    CARDS = "cards"
    HANDS = "hands"
    TRICK = "trick"
    BY_SIDE = "by-side"
    BY_SEAT = "by-seat"
    ACTIONS = "actions"
    """Action strings (``7NT``, ``DISCARD …``, ``JK:H``), each drawn as its kind."""
    CALL = "call"
    SUIT = "suit"
    SUITS = "suits"


@dataclass(frozen=True, slots=True)
class ActionKind:
    """One kind of action: the key of its step (in a scenario file and in a run message),
    the JSON Schema of that key's value, and the action string ``legal`` lists for it."""

    key: str
    phase: str
    value: dict[str, Any]
    """The value's schema, ``$ref``s into the scenario schema's ``$defs``."""
    description: str
    strings: str
    """How its action strings read, as the ``legal`` observation describes them."""
    wire_note: str = ""
    """Added to the description in the protocol's run schema (what an adapter may receive
    that a scenario never writes)."""
    variant: str | None = None
    """The toggle the action belongs to: a scenario with a step of this kind is sent only
    to implementations that declare the toggle, whatever its profile and variants (so an
    adapter written before the action existed never receives it)."""


ACTION_KINDS: tuple[ActionKind, ...] = (  # in the order of the phases
    ActionKind(
        "call", "auction", {"$ref": "#/$defs/call"}, "A call in the auction.", "calls `PASS`, `7NT`"
    ),
    ActionKind(
        "discard",
        "kitty",
        {"$ref": "#/$defs/cards"},
        "The declarer's discard after taking the kitty.",
        "`DISCARD c c c`",
        " (not necessarily three cards: a wrong number is rejected)",
    ),
    ActionKind(
        "sans_kitty",
        "kitty",
        {"const": True},
        "Under the `sans-kitty` toggle: instead of a discard, the declarer of a suit or "
        "no-trump contract plays without the kitty, which goes back face down (the only "
        "value is `true`).",
        "under `sans-kitty` also `SANS KITTY`",
        variant="sans-kitty",
    ),
    ActionKind(
        "nominate",
        "play",
        {"$ref": "#/$defs/suit"},
        "The declarer nominates the joker's suit.",
        "`NOMINATE H`",
    ),
    ActionKind(
        "play",
        "play",
        {"$ref": "#/$defs/card"},
        "A card played to the trick.",
        "cards `AS`; a joker lead naming a suit `JK:H`",
    ),
)
ACTION_KEYS: tuple[str, ...] = tuple(kind.key for kind in ACTION_KINDS)


def _one_of(words: Iterable[str], last: str) -> str:
    *rest, final = (f"`{w}`" if last == "or" else w for w in words)
    return f"{', '.join(rest)} {last} {final}"


@dataclass(frozen=True, slots=True)
class ObservationKey:
    name: str
    description: str
    """What the value is, in the words of the format page and the schema."""
    schema: dict[str, Any]
    """The JSON Schema of the expected value (``$ref``s into the scenario schema)."""
    comparison: Comparison = Comparison.EXACT
    rendering: Rendering = Rendering.PLAIN
    needs_legal_actions: bool = False
    """Only an implementation that lists legal actions can report it."""


def _nullable(ref: str) -> dict[str, Any]:
    return {"anyOf": [{"$ref": f"#/$defs/{ref}"}, {"type": "null"}]}


_SEAT_OR_NULL = _nullable("seat")
_SIDES_OR_NULL = _nullable("side_points")

OBSERVATIONS: tuple[ObservationKey, ...] = (
    ObservationKey(
        "phase",
        "`auction`, `kitty`, `play`, `over` (deal finished or thrown in), or `none` "
        "(a game start before any deal).",
        {"enum": ["none", "auction", "kitty", "play", "over"]},
    ),
    ObservationKey("to_act", "The seat to act, or `null` when nobody is.", _SEAT_OR_NULL),
    ObservationKey(
        "legal",
        "*Set* of action strings: exactly what the seat to act may do ("
        + "; ".join(kind.strings for kind in ACTION_KINDS)
        + ").",
        {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        Comparison.SET,
        Rendering.ACTIONS,
        needs_legal_actions=True,
    ),
    ObservationKey(
        "legal_count",
        "The number of legal actions (286 for a 13-card discard).",
        {"type": "integer", "minimum": 0},
        needs_legal_actions=True,
    ),
    ObservationKey(
        "perft",
        "The numbers of legal action sequences of one, two and three actions from here, "
        "within the deal (`fivehundred perft`); `[0, 0, 0]` when nobody is to act.",
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
            "minItems": 3,
            "maxItems": 3,
        },
        needs_legal_actions=True,
    ),
    ObservationKey(
        "high_bid",
        "The highest bid so far, or `null`; in a `play` start, the contract (the auction "
        "ended with that bid standing).",
        _nullable("bid"),
        rendering=Rendering.CALL,
    ),
    ObservationKey(
        "high_bidder",
        "Who made the highest bid so far, or `null`; in a `play` start, the declarer.",
        _SEAT_OR_NULL,
    ),
    ObservationKey(
        "passed",
        "*Set* of seats that have passed in this auction (under `pass-may-re-enter`, the "
        "seats whose latest call is a pass).",
        {"type": "array", "items": {"$ref": "#/$defs/seat"}, "uniqueItems": True},
        Comparison.SET,
    ),
    ObservationKey(
        "contract",
        "The contract once the auction is over (also after the deal), else `null`.",
        _nullable("bid"),
        rendering=Rendering.CALL,
    ),
    ObservationKey(
        "declarer",
        "The declarer once the auction is over (also after the deal), else `null`.",
        _SEAT_OR_NULL,
    ),
    ObservationKey(
        "hands",
        "For each seat given, its cards (each a *set*).",
        {
            "type": "object",
            "propertyNames": {"$ref": "#/$defs/seat"},
            "additionalProperties": {"$ref": "#/$defs/cards"},
        },
        Comparison.PER_SEAT,
        Rendering.HANDS,
    ),
    ObservationKey(
        "hand_sizes",
        "For each seat given, its number of cards.",
        {
            "type": "object",
            "propertyNames": {"$ref": "#/$defs/seat"},
            "additionalProperties": {"type": "integer", "minimum": 0},
        },
        Comparison.PER_SEAT,
        Rendering.BY_SEAT,
    ),
    ObservationKey(
        "kitty",
        "The kitty (*set*); empty once the declarer has taken it (under `sans-kitty`, "
        "its cards again once the declarer has announced `SANS KITTY`).",
        {"$ref": "#/$defs/cards"},
        Comparison.SET,
        Rendering.CARDS,
    ),
    ObservationKey(
        "discards",
        "*Set* of the declarer's discards (under `double-nullo`, in a misère, the cards out of "
        "play: none while the partner holds the declarer's three, then the partner's).",
        {"$ref": "#/$defs/cards"},
        Comparison.SET,
        Rendering.CARDS,
    ),
    ObservationKey("nominated", "The suit nominated for the joker, or `null`.", _nullable("suit")),
    ObservationKey(
        "sitting_out",
        "The misère declarer's partner from the end of the auction, or `null`; that seat "
        "keeps its cards face down (they stay in `hands` and `hand_sizes`). With sides of "
        "three both partners sit out and this names the first of them in seat order "
        "(N E S W P5 P6). Under `double-nullo` nobody sits out and this stays `null`.",
        _SEAT_OR_NULL,
    ),
    ObservationKey(
        "trick",
        "The trick in progress `{leader, led, cards: {seat: card}}`, or `null` before its "
        "first card; only the fields given are compared. A joker lead shows as the card "
        "`JK`, with the named suit as `led`.",
        _nullable("trick"),
        Comparison.PARTIAL,
        Rendering.TRICK,
    ),
    ObservationKey(
        "last_trick",
        "The last completed trick `{leader, led, cards, winner}`, or `null`; only the "
        "fields given are compared.",
        _nullable("trick"),
        Comparison.PARTIAL,
        Rendering.TRICK,
    ),
    ObservationKey(
        "suits_led",
        "*Set* of suits led so far in this deal (a joker lead counts as the suit it names).",
        {"type": "array", "items": {"$ref": "#/$defs/suit"}, "uniqueItems": True},
        Comparison.SET,
        Rendering.SUITS,
    ),
    ObservationKey(
        "tricks",
        "`{NS, EW}` tricks won in the deal on the table, or `null` when no deal is on the table.",
        _SIDES_OR_NULL,
        rendering=Rendering.BY_SIDE,
    ),
    ObservationKey(
        "deal_score",
        "`{NS, EW}` points of the deal just finished (`0, 0` for a throw-in), or `null` "
        "while it is on.",
        _SIDES_OR_NULL,
        rendering=Rendering.BY_SIDE,
    ),
    ObservationKey(
        "made",
        "Whether the finished contract was made; `null` while the deal is on or after a throw-in.",
        {"type": ["boolean", "null"]},
    ),
    ObservationKey(
        "scores",
        "`{NS, EW}` running side totals of the game.",
        {"$ref": "#/$defs/side_points"},
        rendering=Rendering.BY_SIDE,
    ),
    ObservationKey(
        "dealer",
        "The dealer of the current deal, or of the next deal once the current one is over "
        "(it moves on after every deal, the one that ends the game included).",
        {"$ref": "#/$defs/seat"},
    ),
    ObservationKey(
        "exposed",
        "The open-misère declarer's remaining cards (*set*) from the end of the first trick "
        "on (also when that trick ended the deal), else `null`; under "
        "`open-misere-shown-after-lead` from the opening lead on, under "
        "`open-misere-shown-before-lead` from the start of play (after the discard).",
        _nullable("cards"),
        Comparison.SET,
        Rendering.CARDS,
    ),
    ObservationKey("game_over", "Whether the game has ended.", {"type": "boolean"}),
    ObservationKey("winner", "The side that won the game, or `null`.", _nullable("side")),
)

_BY_NAME = {key.name: key for key in OBSERVATIONS}
OBSERVATION_NAMES: tuple[str, ...] = tuple(_BY_NAME)


def observation(name: str) -> ObservationKey | None:
    """The registered observation called ``name``, if there is one."""
    return _BY_NAME.get(name)


# ---- starts and steps ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartKind:
    name: str
    required: tuple[str, ...]
    optional: tuple[str, ...]
    description: str


STARTS: tuple[StartKind, ...] = (
    StartKind(
        "deck",
        ("dealer", "deck"),
        ("scores",),
        "before the deal: the dealer deals the ordered deck (top card first) in packets, "
        "starting left of the dealer",
    ),
    StartKind(
        "auction",
        ("dealer", "hands", "kitty"),
        ("scores",),
        "at the first call, made by the seat left of the dealer",
    ),
    StartKind(
        "play",
        ("dealer", "contract", "declarer", "hands"),
        ("leader", "nominated", "suits_led", "tricks", "scores"),
        "in play at a trick boundary, after the discard",
    ),
    StartKind(
        "game", ("dealer",), ("scores",), "between deals; steps are `deal` and `deal_result`"
    ),
)


@dataclass(frozen=True, slots=True)
class StepKind:
    name: str
    key: str
    """The key that marks a step of this kind in a scenario file (or an input)."""
    description: str
    in_file: bool = True


STEP_KINDS: tuple[StepKind, ...] = (  # in the order of the schema's ``step`` branches
    StepKind("action", "seat", f"one action by one seat: {_one_of(ACTION_KEYS, 'or')}"),
    StepKind("expect", "expect", "a checkpoint: the observations expected"),
    StepKind("observe", "observe", "a checkpoint as an implementation receives it", False),
    StepKind("deal", "deal", "a new deal by the current dealer from an ordered deck"),
    StepKind("deal_result", "deal_result", "a whole deal's result, recorded at game level"),
)

REJECTION_CODES: tuple[tuple[str, str], ...] = tuple(
    (code.value, text) for code, text in CODE_DESCRIPTIONS.items()
)
"""Every rejection code with when it applies, in the order of precedence the format page
gives (the engine's :data:`~fivehundred.engine.CODE_DESCRIPTIONS`)."""


# ---- what is generated from the registries -------------------------------------------


def observations_schema() -> dict[str, Any]:
    """The ``observations`` properties of the scenario schema."""
    return {
        key.name: {**key.schema, "description": key.description.replace("*Set*", "Set")}
        for key in OBSERVATIONS
    }


def observations_table() -> str:
    lines = ["| key | value | compared |", "|---|---|---|"]
    for key in OBSERVATIONS:
        compared = {
            Comparison.EXACT: "exactly",
            Comparison.SET: "as a set",
            Comparison.PER_SEAT: "for the seats given",
            Comparison.PARTIAL: "on the fields given",
        }[key.comparison]
        lines.append(f"| `{key.name}` | {key.description} | {compared} |")
    return "\n".join(lines)


def codes_table() -> str:
    lines = ["| code | when |", "|---|---|"]
    lines += [f"| `{code}` | {text} |" for code, text in REJECTION_CODES]
    return "\n".join(lines)


def _ordered_union(groups: Iterable[Iterable[str]]) -> list[str]:
    seen: dict[str, None] = {}
    for group in groups:
        seen.update(dict.fromkeys(group))
    return list(seen)


def _every_profile() -> list[Profile]:
    """Every profile, plain and with each variant toggle that applies to it."""
    out = [profile_named(name) for name in PROFILE_NAMES]
    out += [profile_named(v.applies_to[0], [v.name]) for v in VARIANTS.values()]
    return out


def seat_names() -> list[str]:
    """Every seat name of any profile, in clockwise order."""
    return _ordered_union(p.seat_names for p in _every_profile())


def side_names() -> list[str]:
    """Every side name of any profile."""
    return _ordered_union(p.side_names for p in _every_profile())


def bid_tokens() -> list[str]:
    """Every bid of any profile: the default profile's ladder, then the others' extras."""
    return _ordered_union([b.token for b in p.bid_order] for p in _every_profile())


def profiles_table() -> str:
    lines = ["| profile | seats | sides | cards | variant toggles |", "|---|---|---|---|---|"]
    for name in PROFILE_NAMES:
        p = profile_named(name)
        toggles = ", ".join(f"`{v.name}`" for v in variants_for(name)) or "none"
        lines.append(
            f"| `{name}` | {' '.join(p.seat_names)} | {', '.join(p.side_names)} "
            f"| {len(p.deck)} | {toggles} |"
        )
    return "\n".join(lines)


def variants_table() -> str:
    lines = ["| toggle | applies to | what changes |", "|---|---|---|"]
    for v in VARIANTS.values():
        lines.append(f"| `{v.name}` | {', '.join(v.applies_to)} | {v.description} |")
    return "\n".join(lines)


_START = re.compile(r"<!-- generated: (?P<name>[a-z-]+) -->\n")
_END = "<!-- end generated -->"
TABLES = {
    "observations": observations_table,
    "rejection-codes": codes_table,
    "profiles": profiles_table,
    "variants": variants_table,
}


def fill_tables(markdown: str) -> str:
    """``markdown`` with the body between each ``<!-- generated: NAME -->`` line and the
    next ``<!-- end generated -->`` replaced by the registry's current table."""
    out: list[str] = []
    position = 0
    for start in _START.finditer(markdown):
        if start.start() < position:
            continue
        end = markdown.find(_END, start.end())
        if end < 0:
            break
        out += [markdown[position : start.end()], TABLES[start.group("name")](), "\n"]
        position = end
    return "".join(out) + markdown[position:]


def _sync_schema(schema: dict[str, Any]) -> dict[str, Any]:
    defs = schema["$defs"]
    schema["properties"]["profile"]["enum"] = list(PROFILE_NAMES)
    schema["properties"]["variants"]["items"]["enum"] = list(VARIANTS)
    defs["seat"]["enum"] = seat_names()
    defs["side"]["enum"] = side_names()
    defs["bid"]["enum"] = bid_tokens()
    defs["call"]["enum"] = ["PASS", *bid_tokens()]
    defs["observations"]["properties"] = observations_schema()
    defs["code"]["enum"] = [code for code, _ in REJECTION_CODES]
    defs["setup"]["properties"]["start"]["enum"] = [s.name for s in STARTS]
    _sync_action_step(defs["action_step"], wire=False)
    return schema


def _sync_action_step(step: dict[str, Any], wire: bool) -> None:
    """The action kinds' keys in an action step's schema: one property each, after
    ``seat`` and before the other members, and exactly one of them required."""
    properties = step["properties"]
    kinds: dict[str, Any] = {}
    for kind in ACTION_KINDS:
        value = kind.value
        description = kind.description
        if wire:
            value = json.loads(json.dumps(value).replace('"#/', '"../scenario.schema.json#/'))
            if kind.wire_note:
                description = f"{description[:-1]}{kind.wire_note}."
        kinds[kind.key] = {**value, "description": description}
    others = {k: v for k, v in properties.items() if k not in kinds and k not in ACTION_KEYS}
    step["properties"] = {"seat": others.pop("seat"), **kinds, **others}
    step["oneOf"] = [{"required": [key]} for key in ACTION_KEYS]
    if wire:
        step["description"] = (
            f"One action by one seat, exactly one of {_one_of(ACTION_KEYS, 'and')}. Answer "
            "accepted, or rejected with the rejection code; a rejected action changes nothing."
        )


def _sync_run_schema(schema: dict[str, Any]) -> dict[str, Any]:
    schema["$defs"]["observation"]["enum"] = list(OBSERVATION_NAMES)
    _sync_action_step(schema["$defs"]["action_step"], wire=True)
    return schema


GENERATED_FILES = {
    "schema/scenario.schema.json": _sync_schema,
    "schema/protocol/run.schema.json": _sync_run_schema,
}
GENERATED_PAGES = ("site/scenario-format.md",)


def regenerated(root: Path) -> dict[Path, str]:
    """Each generated file's text as the registries say it should be."""
    out: dict[Path, str] = {}
    for relative, sync in GENERATED_FILES.items():
        path = root / relative
        try:
            schema = sync(json.loads(path.read_text(encoding="utf-8")))
        except json.JSONDecodeError as error:  # e.g. left broken by a merge
            raise ValueError(
                f"{path}:{error.lineno}:{error.colno}: not JSON: {error.msg}"
            ) from None
        out[path] = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    for relative in GENERATED_PAGES:
        path = root / relative
        out[path] = fill_tables(path.read_text(encoding="utf-8"))
    return out
