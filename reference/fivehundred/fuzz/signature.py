"""What a disagreement looks like, coarsely: the key that groups disagreements into families.

Two disagreements are of one family when they have the same signature: the kind of step
where the first check failed (a call, a play, …), the check (``outcome`` or the
observation key), and the *shape* of the expected and the actual value: rejection codes
exactly, seats and phases exactly, numbers and cards as their type, the kinds of legal
actions missing or extra, the fields of an object that differ.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import SANS_KITTY_STRING
from ..scenarios import Checkpoint, Scenario
from ..scenarios.format.vocabulary import StepOutcome
from ..verify.verdict import Status, Verdict
from .cases import step_kind

__all__ = ["Disagreement", "Signature", "first_disagreement", "rulings_for"]

_EXACT_KEYS = {"phase", "made", "game_over"}
_SEAT_KEYS = {"to_act", "dealer", "declarer", "high_bidder", "sitting_out"}
_BID_KEYS = {"contract", "high_bid"}
_SEAT_ORDER = "NESW"
_RELATION = {1: "the seat to its left", 2: "its partner", 3: "the seat to its right"}


def _seats(expected: Any, actual: Any) -> tuple[str, str]:
    """Seats relative to each other: a wrong seat is named by where it sits."""
    if _is_seat(expected) and _is_seat(actual):
        turn = (_SEAT_ORDER.index(actual) - _SEAT_ORDER.index(expected)) % 4
        return "a seat", _RELATION.get(turn, "the same seat")
    return _exact_kind(expected), _exact_kind(actual)


def _is_seat(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 1 and value in _SEAT_ORDER


def _exact_kind(value: Any) -> str:
    return "a seat" if isinstance(value, str) and value in ("N", "E", "S", "W") else _shape(value)


@dataclass(frozen=True, order=True)
class Signature:
    kind: str
    """The kind of step the failed check follows (``call``, ``play``, … or ``errored``)."""
    check: str
    """``outcome`` for the step's acceptance, or the observation key."""
    expected: str
    actual: str

    def describe(self) -> str:
        if self.kind == "errored":
            return f"errored: {self.actual}"
        return f"{self.kind} {self.check}: expected {self.expected}, got {self.actual}"

    def as_json(self) -> dict[str, str]:
        return {
            "kind": self.kind,
            "check": self.check,
            "expected": self.expected,
            "actual": self.actual,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, str]) -> Signature:
        return cls(data["kind"], data["check"], data["expected"], data["actual"])


@dataclass(frozen=True)
class Disagreement:
    signature: Signature
    action: int
    """Index of the action in the case after which (or at which) the check failed; -1 for
    the checkpoint at the start, and when the implementation errored."""
    expected: Any = None
    actual: Any = None


_TOKEN_KINDS = {
    "PASS": "pass",
    "MIS": "mis",
    "OMIS": "omis",
    "BMIS": "bmis",
    SANS_KITTY_STRING: "sans-kitty",
    "JK": "joker",
}
"""The kinds of the tokens that are a kind on their own."""
_PREFIX_KINDS = (("DISCARD", "discard"), ("NOMINATE", "nominate"))


def _action_kind(text: str, calls: bool = True) -> str:
    """The kind of an action's token.  ``6S`` to ``10H`` name a bid and a card alike:
    ``calls`` says which list the token is from (a call's, or a card's)."""
    if text in _TOKEN_KINDS:
        return _TOKEN_KINDS[text]
    for prefix, kind in _PREFIX_KINDS:
        if text.startswith(prefix):
            return kind
    if ":" in text:
        return "joker-lead"
    if text.endswith("NT") or (calls and re.fullmatch(r"\d+[SCDH]", text)):
        return "bid"
    return "card"


def _is_call(text: str) -> bool:
    """A token that can only be a call: a pass, a misère, a no-trumps bid."""
    return text in ("PASS", "MIS", "OMIS", "BMIS") or bool(re.fullmatch(r"\d+NT", text))


def _kinds(values: Any, calls: bool = True) -> set[str]:
    if not isinstance(values, list):
        return {_shape(values)}
    return {_action_kind(v, calls) if isinstance(v, str) else _shape(v) for v in values}


def _shape(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list" if value else "empty list"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _shapes(key: str, expected: Any, actual: Any) -> tuple[str, str]:
    """The shapes of an observation's expected and actual values, as its key reads them."""
    if key in _EXACT_KEYS and not isinstance(expected, Mapping | list):
        return _exact(expected), _exact(actual)
    if key in _SEAT_KEYS:
        return _seats(expected, actual)
    if key in _BID_KEYS:
        return _bid_kind(expected), _bid_kind(actual)
    if isinstance(expected, list) and isinstance(actual, list):
        return _legal_shapes(expected, actual) if key == "legal" else _list_shapes(expected, actual)
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        return _field_shapes(expected, actual)
    return _shape(expected), _shape(actual)


def _bid_kind(value: Any) -> str:
    return _action_kind(value) if isinstance(value, str) else _shape(value)


def _legal_shapes(expected: list[Any], actual: list[Any]) -> tuple[str, str]:
    """The kinds of legal actions missing and extra."""
    want = {str(v) for v in expected}
    got = {str(v) for v in actual}
    # the reference's list says which phase it is (the implementation's, if empty)
    calls = any(_is_call(v) for v in (want or got))
    missing = sorted(_kinds(sorted(want - got), calls))
    extra = sorted(_kinds(sorted(got - want), calls))
    return (
        "missing " + ",".join(missing) if missing else "nothing missing",
        "extra " + ",".join(extra) if extra else "nothing extra",
    )


def _list_shapes(expected: list[Any], actual: list[Any]) -> tuple[str, str]:
    return f"list of {len(expected)}", f"list of {len(actual)}"


def _field_shapes(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> tuple[str, str]:
    """The fields of an object that differ, and those the actual one has beyond."""
    fields = sorted(k for k in expected if expected.get(k) != actual.get(k))
    extra = sorted(k for k in actual if k not in expected)
    return "fields " + ",".join(fields), "differs" + (" +" + ",".join(extra) if extra else "")


def _exact(value: Any) -> str:
    if isinstance(value, str):
        return value
    return _shape(value)


def _outcome_text(outcome: Mapping[str, Any]) -> str:
    if outcome.get("outcome") == StepOutcome.ACCEPTED:
        return "accepted"
    code = outcome.get("code")
    return "rejected" if code is None else f"rejected {code}"


_NUMBERS = re.compile(r"\d+(\.\d+)?")


def _errored_signature(message: str) -> Signature:
    first = message.strip().splitlines()[0] if message.strip() else "no message"
    first = _NUMBERS.sub("N", first)[:160]
    return Signature("errored", "run", "a reply", first)


def first_disagreement(
    scenario: Scenario, verdict: Verdict, result: Mapping[str, Any] | None
) -> Disagreement | None:
    """The first failed check of a run of a materialized case, or ``None`` if it passed."""
    if verdict.status is Status.ERRORED:
        return Disagreement(_errored_signature(verdict.message), -1)
    if verdict.status is not Status.FAILED or not verdict.mismatches:
        return None
    mismatch = min(verdict.mismatches, key=lambda m: m.step)
    action = _action_at(scenario, mismatch.step)
    kind = _kind_of(scenario, action)
    outcomes = result.get("steps", []) if result is not None else []
    reply = outcomes[mismatch.step] if mismatch.step < len(outcomes) else {}
    step = scenario.steps[mismatch.step]
    if isinstance(step, Checkpoint):
        return _observation_disagreement(step, mismatch.what, reply, kind, action)
    expected_text = str(mismatch.expected)
    actual_text = _outcome_text(reply) if isinstance(reply, Mapping) else "nothing"
    return Disagreement(
        Signature(kind, "outcome", expected_text, actual_text), action, expected_text, actual_text
    )


def _kind_of(scenario: Scenario, action: int) -> str:
    """The kind of action ``action`` (``start`` for -1: the checkpoint at the start)."""
    if action < 0:
        return "start"
    actions = [s for s in scenario.steps if not isinstance(s, Checkpoint)]
    return step_kind(actions[action])


def _action_at(scenario: Scenario, step: int) -> int:
    """Which action step ``step`` is, or which action the checkpoint there follows (-1:
    the checkpoint at the start)."""
    return sum(1 for s in scenario.steps[: step + 1] if not isinstance(s, Checkpoint)) - 1


def _observation_disagreement(
    checkpoint: Checkpoint, key: str, reply: Any, kind: str, action: int
) -> Disagreement:
    """A checkpoint's observation ``key`` that differs from what the reply reports."""
    expected = checkpoint.expect.get(key)
    observed: Mapping[str, Any] = {}
    if isinstance(reply, Mapping):
        observed = reply.get("observed") or {}
    actual = observed.get(key, "(not reported)")
    shapes = _shapes(key, expected, actual)
    return Disagreement(Signature(kind, key, *shapes), action, expected, actual)


# ---- the rulings a failed check is about -------------------------------------------------

_CODE_RULINGS = {
    "game-over": ("end-check",),
    "deal-over": ("misere-score", "auction-end"),
    "wrong-phase": ("auction-end",),
    "not-your-turn": ("first-call",),
    "already-passed": ("pass-is-final",),
    "bid-not-available": ("bid-order",),
    "bid-not-higher": ("bid-must-outrank",),
    "misere-needs-seven": ("misere-needs-seven",),
    "blind-misere-first-call": ("bid-order",),
    "discard-needs-three": ("kitty-exchange",),
    "card-not-held": ("kitty-exchange",),
    "nomination-not-allowed": ("joker-nomination",),
    "must-follow-suit": ("follow-suit",),
    "joker-only-when-void": ("suitless-joker-following",),
    "joker-must-be-played": ("misere-joker",),
    "joker-lead-needs-suit": ("joker-lead",),
    "joker-suit-already-led": ("joker-lead",),
    "joker-lead-all-suits-led": ("joker-lead-all-suits-led",),
    "unexpected-suit-name": ("joker-lead",),
    "joker-lead-last-trick-only": ("joker-lead",),
    "six-bid-first-call": ("bid-order",),
    "sans-kitty-not-allowed": ("kitty-exchange",),
}

_KEY_RULINGS = {
    "phase": ("auction-end",),
    "high_bid": ("bid-must-outrank", "bid-order"),
    "high_bidder": ("bid-must-outrank",),
    "passed": ("pass-is-final",),
    "contract": ("auction-end", "bid-order"),
    "declarer": ("auction-end",),
    "hands": ("kitty-exchange", "deal-packets"),
    "hand_sizes": ("kitty-exchange", "deal-packets"),
    "kitty": ("kitty-exchange", "deal-packets"),
    "discards": ("kitty-exchange",),
    "nominated": ("joker-nomination",),
    "sitting_out": ("misere-partner-out",),
    "trick": ("trick-winner", "follow-suit"),
    "last_trick": ("trick-winner", "trump-order"),
    "suits_led": ("joker-lead",),
    "tricks": ("trick-winner", "trump-order"),
    "made": ("deal-score",),
    "scores": ("deal-score", "contract-values"),
    "dealer": ("dealer-rotation",),
    "exposed": ("open-misere-exposure",),
    "game_over": ("end-check", "win-on-own-contract", "lose-at-minus-500"),
    "winner": ("end-check", "win-on-own-contract", "no-ties"),
}

_KIND_RULINGS = {
    "call": ("bid-order", "bid-must-outrank"),
    "discard": ("kitty-exchange",),
    "sans_kitty": ("kitty-exchange",),
    "nominate": ("joker-nomination",),
    "play": ("follow-suit",),
    "deal": ("dealer-rotation", "deal-packets"),
    "deal_result": ("end-check", "deal-score"),
    "start": ("opening-lead",),
}


_LEGAL_RULINGS = {
    "call": ("bid-order", "bid-must-outrank", "misere-needs-seven"),
    "discard": ("joker-nomination", "opening-lead"),
    "nominate": ("follow-suit", "joker-lead"),
    "play": ("follow-suit", "joker-lead"),
    "start": ("follow-suit", "joker-lead"),
}
"""A legal list that differs, by the kind of step it follows (else ``first-call``)."""

_TO_ACT_RULINGS = {
    "call": ("first-call", "pass-is-final"),
    "discard": ("opening-lead",),
    "deal": ("first-call",),
}
"""The seat to act that differs, by the kind of step it follows (else the lead's)."""


def rulings_for(signature: Signature, contract: str | None = None) -> tuple[str, ...]:
    """The ruling slugs of a failed check, primary first."""
    misere = contract in ("MIS", "OMIS")
    by_check = _CHECK_RULINGS.get(signature.check, _key_rulings)
    found = by_check(signature, misere)
    if signature.check in ("tricks", "last_trick", "trick") and misere:
        found.insert(0, "misere-score")
    if not found:
        found.append("worked-example")
    return tuple(dict.fromkeys(found))[:3]


def _outcome_rulings(signature: Signature, misere: bool) -> list[str]:
    """A step accepted or refused otherwise: the rulings of the codes, then the step's."""
    del misere
    found: list[str] = []
    for text in (signature.expected, signature.actual):
        code = text.removeprefix("rejected ").strip()
        found += _CODE_RULINGS.get(code, ())
    return found + list(_KIND_RULINGS.get(signature.kind, ()))


def _legal_rulings(signature: Signature, misere: bool) -> list[str]:
    """A legal list: by the step, the joker's lead or a misère's first when they differ."""
    del misere
    found = list(_LEGAL_RULINGS.get(signature.kind, ("first-call",)))
    kinds = {
        word
        for text in (signature.expected, signature.actual)
        for word in text.replace("missing ", "").replace("extra ", "").split(",")
    }
    if kinds & {"joker-lead", "joker"}:
        found.insert(0, "joker-lead")
    if kinds & {"mis", "omis"}:
        found.insert(0, "misere-needs-seven")
    return found


def _to_act_rulings(signature: Signature, misere: bool) -> list[str]:
    found = list(_TO_ACT_RULINGS.get(signature.kind, ("opening-lead", "trick-winner")))
    if misere:
        found.insert(0, "misere-partner-out")
    return found


def _deal_score_rulings(signature: Signature, misere: bool) -> list[str]:
    del signature
    return ["misere-score"] if misere else ["deal-score", "contract-values"]


def _key_rulings(signature: Signature, misere: bool) -> list[str]:
    del misere
    return list(_KEY_RULINGS.get(signature.check, ()))


_CHECK_RULINGS: dict[str, Callable[[Signature, bool], list[str]]] = {
    "outcome": _outcome_rulings,
    "legal": _legal_rulings,
    "legal_count": _legal_rulings,
    "to_act": _to_act_rulings,
    "deal_score": _deal_score_rulings,
}
"""The rulings of a failed check, by what was checked (else by the observation key)."""
