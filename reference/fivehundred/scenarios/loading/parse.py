"""From JSON-shaped data to the scenario model, and back.

Two sources are parsed here, by one parser, so they cannot drift apart:

* a scenario **document** (a YAML file that already passed the JSON Schema), into a
  :class:`~.model.Scenario`; and
* a scenario **input** as the protocol carries it (``fivehundred serve`` reads it
  from a runner, unchecked), into a :class:`~.model.ScenarioInput`.

Anything the parser cannot use raises :class:`ModelError` naming the path
(``steps[3].play``) and what was found.  The way back, :func:`input_json`, is the one
encoder of what an implementation receives: run messages and the export both use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from ...engine import Profile, card_token, get_profile
from ..format.diagnostics import Mark
from ..format.model import (
    ORDERED,
    THROWN_IN,
    ActionStep,
    AuctionStart,
    CallStep,
    Checkpoint,
    DealResultStep,
    DealStep,
    Deck,
    DeckStart,
    DiscardStep,
    GameStart,
    NominateStep,
    ObserveStep,
    PlayStart,
    PlayStep,
    RecordedResult,
    SansKittyStep,
    Scenario,
    ScenarioInput,
    Setup,
    Step,
)
from ._yaml import SourceMap

__all__ = ["ModelError", "input_from_json", "input_json", "scenario_from_document", "spelled_deck"]


class ModelError(ValueError):
    """Data that does not describe a scenario; ``where`` is the path in the data."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


# ``serve`` parses every run message with these, so the common case is kept cheap: a
# plain ``dict`` is recognised by its exact type before the general check (``isinstance``
# against ``Mapping`` goes through the ABC machinery), and a list of strings is checked by
# joining it, which fails on anything but strings.


def _is_mapping(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)


def _all_text(values: list[Any]) -> bool:
    """Whether every item is a string (``str.join`` refuses anything else)."""
    try:
        "".join(values)
    except TypeError:
        return False
    return True


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ModelError(where, f"expected a string, found {value!r}")
    return value


def _optional_text(data: Mapping[str, Any], key: str, where: str) -> str | None:
    value = data.get(key)
    return None if value is None else _text(value, f"{where}.{key}")


def _tokens(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not _all_text(value):
        raise ModelError(where, f"expected a list of cards, found {value!r}")
    return tuple(value)


def _int(value: Any, where: str) -> int:
    if type(value) is not int:
        raise ModelError(where, f"expected a whole number, found {value!r}")
    return value


def _sides(value: Any, where: str) -> dict[str, int] | None:
    if value is None:
        return None
    if not _is_mapping(value) or not _all_text(list(value)):
        raise ModelError(where, f"expected a number for each side, found {value!r}")
    return {key: _int(v, f"{where}.{key}") for key, v in value.items()}


def _hands(value: Any, where: str) -> dict[str, tuple[str, ...]]:
    if not _is_mapping(value):
        raise ModelError(where, "expected a mapping of seat to cards")
    return {_text(k, where): _tokens(v, f"{where}.{k}") for k, v in value.items()}


def _deck(value: Any, where: str) -> Deck:
    if value == ORDERED:
        return ORDERED
    return _tokens(value, where)


def parse_setup(data: Any, where: str = "setup") -> Setup:
    if not _is_mapping(data):
        raise ModelError(where, "expected a mapping")
    order = tuple(map(str, data))
    start = data.get("start")
    dealer = _text(data.get("dealer"), f"{where}.dealer")
    scores = _sides(data.get("scores"), f"{where}.scores")
    if start == "deck":
        return DeckStart(dealer, _deck(data.get("deck"), f"{where}.deck"), scores, order)
    if start == "auction":
        return AuctionStart(
            dealer,
            _hands(data.get("hands"), f"{where}.hands"),
            _tokens(data.get("kitty"), f"{where}.kitty"),
            scores,
            order,
        )
    if start == "play":
        suits_led = data.get("suits_led")
        return PlayStart(
            dealer,
            _text(data.get("contract"), f"{where}.contract"),
            _text(data.get("declarer"), f"{where}.declarer"),
            _hands(data.get("hands"), f"{where}.hands"),
            leader=_optional_text(data, "leader", where),
            nominated=_optional_text(data, "nominated", where),
            suits_led=None if suits_led is None else _tokens(suits_led, f"{where}.suits_led"),
            tricks=_sides(data.get("tricks"), f"{where}.tricks"),
            scores=scores,
            order=order,
        )
    if start == "game":
        return GameStart(dealer, scores, order)
    raise ModelError(f"{where}.start", f"expected deck, auction, play or game; found {start!r}")


def _action(data: Mapping[str, Any], where: str, mark: Mark | None, wire: bool) -> ActionStep:
    seat = _text(data.get("seat"), f"{where}.seat")
    reject = None if wire else _optional_text(data, "reject", where)
    note = None if wire else _optional_text(data, "note", where)
    if "call" in data:
        call = _text(data["call"], f"{where}.call")
        return CallStep(seat, call, reject=reject, note=note, mark=mark)
    if "discard" in data:
        cards = _tokens(data["discard"], f"{where}.discard")
        return DiscardStep(seat, cards, reject=reject, note=note, mark=mark)
    if "nominate" in data:
        suit = _text(data["nominate"], f"{where}.nominate")
        return NominateStep(seat, suit, reject=reject, note=note, mark=mark)
    if "sans_kitty" in data:
        if data["sans_kitty"] is not True:
            raise ModelError(f"{where}.sans_kitty", "expected true")
        return SansKittyStep(seat, reject=reject, note=note, mark=mark)
    if "play" in data:
        names = _optional_text(data, "names", where)
        card = _text(data["play"], f"{where}.play")
        return PlayStep(seat, card, names, reject=reject, note=note, mark=mark)
    raise ModelError(where, "expected call, discard, sans_kitty, nominate or play")


def _result(value: Any, where: str) -> RecordedResult | Literal["thrown-in"]:
    if value == THROWN_IN:
        return THROWN_IN
    if not _is_mapping(value):
        raise ModelError(where, "expected a mapping or 'thrown-in'")
    return RecordedResult(
        _text(value.get("contract"), f"{where}.contract"),
        _text(value.get("declarer"), f"{where}.declarer"),
        _tricks(value.get("tricks"), f"{where}.tricks"),
    )


def _tricks(value: Any, where: str) -> int | dict[str, int]:
    if _is_mapping(value):
        sides = _sides(value, where)
        assert sides is not None
        return sides
    return _int(value, where)


def parse_step(data: Any, index: int, *, wire: bool, mark: Mark | None = None) -> Step:
    """One step; ``wire`` for an implementation's input (``observe``, no expectations).

    ``mark`` is where the step starts in its file, kept for reports."""
    where = f"steps[{index}]"
    if not _is_mapping(data):
        raise ModelError(where, "expected a mapping")
    if wire and "observe" in data:
        keys = data["observe"]
        if not isinstance(keys, list) or not _all_text(keys):
            raise ModelError(f"{where}.observe", "expected a list of observation names")
        return ObserveStep(tuple(keys), mark)
    if not wire and "expect" in data:
        expect = data["expect"]
        if not _is_mapping(expect):
            raise ModelError(f"{where}.expect", "expected a mapping of observations")
        return Checkpoint(dict(expect), _optional_text(data, "note", where), mark)
    reject = None if wire else _optional_text(data, "reject", where)
    note = None if wire else _optional_text(data, "note", where)
    if "deal_result" in data:
        result = _result(data["deal_result"], f"{where}.deal_result")
        return DealResultStep(result, reject, note, mark)
    if "deal" in data:
        return DealStep(_deck(data["deal"], f"{where}.deal"), reject, note, mark)
    return _action(data, where, mark, wire)


def _steps(data: Any, *, wire: bool) -> tuple[Step, ...]:
    if not isinstance(data, list):
        raise ModelError("steps", "expected a list")
    return tuple(parse_step(s, i, wire=wire) for i, s in enumerate(data))


def _profile(name: str | None, variants: tuple[str, ...]) -> Profile:
    try:
        return get_profile(name, variants)
    except KeyError as error:
        raise ModelError("variants" if variants else "profile", str(error.args[0])) from None
    except ValueError as error:
        raise ModelError("variants", str(error)) from None


def _variants(data: Any) -> tuple[str, ...]:
    if data is None:
        return ()
    if not isinstance(data, list) or not _all_text(data):
        raise ModelError("variants", f"expected a list of variant names, found {data!r}")
    return tuple(sorted(set(data)))


def scenario_from_document(
    doc: Mapping[str, Any],
    path: Path | None = None,
    area: str = "",
    source: SourceMap | None = None,
) -> Scenario:
    """A schema-valid scenario document as a :class:`Scenario`."""
    profile = doc.get("profile")
    variants = _variants(doc.get("variants"))
    return Scenario(
        id=doc["id"],
        title=doc["title"],
        rules=tuple(doc["rules"]),
        assertion=doc["assert"],
        setup=parse_setup(doc["setup"]),
        steps=_steps(doc["steps"], wire=False),
        profile=profile,
        profile_name=_profile(profile, variants).name,
        variants=variants,
        tags=tuple(doc.get("tags", ())),
        explanation=doc.get("explanation", ""),
        path=path,
        area=area,
        source=source,
    )


def input_from_json(data: Any) -> ScenarioInput:
    """A scenario input as a runner sends it (unchecked data; raises :class:`ModelError`)."""
    if not _is_mapping(data):
        raise ModelError("scenario", "expected an object")
    profile = data.get("profile")
    if profile is not None and not isinstance(profile, str):
        raise ModelError("profile", f"expected a profile name, found {profile!r}")
    variants = _variants(data.get("variants"))
    return ScenarioInput(
        id=str(data.get("id", "")),
        profile=_profile(profile, variants).name,
        setup=parse_setup(data.get("setup")),
        steps=_steps(data.get("steps"), wire=True),
        variants=variants,
    )


# ---- back to JSON ----------------------------------------------------------------------


def spelled_deck(deck: Deck, profile: Profile) -> list[str]:
    """A deck as a list of tokens: ``ordered`` becomes the profile's canonical order."""
    if deck == ORDERED:
        return [card_token(c) for c in profile.deck]
    return list(deck)


def _setup_json(setup: Setup, profile: Profile) -> dict[str, Any]:
    values: dict[str, Any] = {"start": setup.kind, "dealer": setup.dealer}
    if setup.scores is not None:
        values["scores"] = dict(setup.scores)
    if isinstance(setup, DeckStart):
        values["deck"] = spelled_deck(setup.deck, profile)
    elif isinstance(setup, AuctionStart):
        values["hands"] = {seat: list(cards) for seat, cards in setup.hands.items()}
        values["kitty"] = list(setup.kitty)
    elif isinstance(setup, PlayStart):
        values.update(_play_json(setup))
    order = [key for key in setup.order if key in values]
    return {key: values[key] for key in order + [k for k in values if k not in order]}


def _play_json(setup: PlayStart) -> dict[str, Any]:
    """A play start's contract, hands, and the optional state of play it gives."""
    values: dict[str, Any] = {
        "contract": setup.contract,
        "declarer": setup.declarer,
        "hands": {seat: list(cards) for seat, cards in setup.hands.items()},
    }
    optional = {
        "leader": setup.leader,
        "nominated": setup.nominated,
        "suits_led": None if setup.suits_led is None else list(setup.suits_led),
        "tricks": None if setup.tricks is None else dict(setup.tricks),
    }
    values.update({k: v for k, v in optional.items() if v is not None})
    return values


def _step_json(step: Step, profile: Profile) -> dict[str, Any]:
    if isinstance(step, ObserveStep):
        return {"observe": list(step.keys)}
    if isinstance(step, Checkpoint):
        return {"observe": list(step.keys)}
    if isinstance(step, DealStep):
        return {"deal": spelled_deck(step.deck, profile)}
    if isinstance(step, DealResultStep):
        result = step.result
        if isinstance(result, RecordedResult):
            return {
                "deal_result": {
                    "contract": result.contract,
                    "declarer": result.declarer,
                    "tricks": result.tricks
                    if isinstance(result.tricks, int)
                    else dict(result.tricks),
                }
            }
        return {"deal_result": result}
    assert isinstance(step, ActionStep)
    value = step.value
    out: dict[str, Any] = {
        "seat": step.seat,
        step.action: list(value) if isinstance(value, tuple) else value,
    }
    if isinstance(step, PlayStep) and step.names is not None:
        out["names"] = step.names
    return out


def input_json(scenario_input: ScenarioInput) -> dict[str, Any]:
    """The input as JSON, exactly as a run message and the export carry it."""
    name, variants = scenario_input.profile, scenario_input.variants
    profile = get_profile(name, variants)
    head: dict[str, Any] = {"id": scenario_input.id, "profile": name}
    if variants:
        head["variants"] = list(variants)
    return {
        **head,
        "setup": _setup_json(scenario_input.setup, profile),
        "steps": [_step_json(s, profile) for s in scenario_input.steps],
    }
