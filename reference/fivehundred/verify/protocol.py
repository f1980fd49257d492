"""Protocol v1 messages: building, encoding, decoding and checking them.

Both sides use this module — the runner (:mod:`.external`) and the
reference behind the protocol (:mod:`.serve`) — so what one writes the
other reads by construction.  Every message is one JSON object on one line
(site/protocol.md); each kind has a JSON Schema under ``schema/protocol/``, and
:func:`check` validates against exactly those files so that the published schemas
are the rules the runner enforces, not a description of them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .. import PROTOCOL_VERSION, SUITE_VERSION
from ..safety import JsonRefused, one_line, strict_json
from ..scenarios.format.vocabulary import StepOutcome

__all__ = [
    "MAX_LINE_BYTES",
    "MESSAGE_KINDS",
    "PROTOCOL_VERSION",
    "SUITE_VERSION",
    "Capabilities",
    "Hello",
    "ImplementationInfo",
    "ProtocolError",
    "RunReply",
    "bye",
    "check",
    "decode",
    "encode",
    "errored_reply",
    "hello",
    "hello_reply",
    "parse_hello_reply",
    "parse_run_reply",
    "result_reply",
    "run",
    "schema",
    "skipped_reply",
]

MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest reply line the runner reads; a longer one makes the scenario errored."""

MessageKind = Literal["hello", "hello-reply", "run", "run-reply", "bye"]
MESSAGE_KINDS: tuple[MessageKind, ...] = ("hello", "hello-reply", "run", "run-reply", "bye")


class ProtocolError(Exception):
    """A message that is not what the protocol allows at this point."""


# ---- the parties ---------------------------------------------------------------------


@dataclass(frozen=True)
class ImplementationInfo:
    """Who is being tested, as the hello reply says."""

    name: str
    version: str
    language: str
    homepage: str | None = None

    def as_json(self) -> dict[str, str]:
        info = {"name": self.name, "version": self.version, "language": self.language}
        if self.homepage is not None:
            info["homepage"] = self.homepage
        return info


@dataclass(frozen=True)
class Capabilities:
    """What an implementation can do; the runner skips what it cannot."""

    profiles: tuple[str, ...]
    legal_actions: bool
    error_codes: bool
    observations: tuple[str, ...] | None = None
    """The observation keys it can report, or ``None`` for all of them (§5)."""
    variants: tuple[str, ...] = ()
    """The variant toggles it implements (none unless declared)."""
    starts: tuple[str, ...] | None = None
    """The kinds of start it can set up (``deck``, ``auction``, ``play``, ``game``), or
    ``None`` for all of them (§5)."""

    def as_json(self) -> dict[str, Any]:
        declared: dict[str, Any] = {"profiles": list(self.profiles)}
        if self.variants:
            declared["variants"] = list(self.variants)
        declared["legal_actions"] = self.legal_actions
        declared["error_codes"] = self.error_codes
        if self.observations is not None:
            declared["observations"] = list(self.observations)
        if self.starts is not None:
            declared["starts"] = list(self.starts)
        return declared


@dataclass(frozen=True)
class Hello:
    """A checked hello reply."""

    protocol: int
    implementation: ImplementationInfo
    capabilities: Capabilities


@dataclass(frozen=True)
class RunReply:
    """A checked run reply: exactly one of result, skipped and errored is set."""

    seq: int
    result: dict[str, Any] | None = None
    skipped: str | None = None
    errored: str | None = None
    context: Any = None


# ---- building ------------------------------------------------------------------------


def hello() -> dict[str, Any]:
    return {"cmd": "hello", "protocol": PROTOCOL_VERSION, "suite": SUITE_VERSION}


def run(seq: int, scenario_input: Mapping[str, Any]) -> dict[str, Any]:
    return {"cmd": "run", "seq": seq, "scenario": scenario_input}


def bye() -> dict[str, Any]:
    return {"cmd": "bye"}


def hello_reply(info: ImplementationInfo, capabilities: Capabilities) -> dict[str, Any]:
    return {
        "protocol": PROTOCOL_VERSION,
        "implementation": info.as_json(),
        "capabilities": capabilities.as_json(),
    }


def result_reply(seq: int, result: Mapping[str, Any]) -> dict[str, Any]:
    return {"seq": seq, "result": result}


def skipped_reply(seq: int, reason: str) -> dict[str, Any]:
    return {"seq": seq, "skipped": {"reason": reason}}


def errored_reply(seq: int, message: str, context: Any = None) -> dict[str, Any]:
    errored: dict[str, Any] = {"message": message}
    if context is not None:
        errored["context"] = context
    return {"seq": seq, "errored": errored}


# ---- the wire ------------------------------------------------------------------------


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""Made once: ``json.dumps`` with options builds a new encoder on every call."""


def encode(message: Mapping[str, Any]) -> bytes:
    """One line of UTF-8 JSON with its newline; JSON escapes any newline inside strings."""
    return _ENCODER.encode(message).encode("utf-8") + b"\n"


def _excerpt(line: bytes, limit: int = 120) -> str:
    text = line[:limit].decode("utf-8", errors="replace")
    return repr(text) + ("…" if len(line) > limit else "")


def decode(line: bytes) -> dict[str, Any]:
    """Parse one line (without its newline) into a JSON object.

    Only strict RFC 8259 JSON within the limits of :func:`fivehundred.safety.strict_json`
    is accepted (no NaN or Infinity, no over-long integer, no deep nesting, no lone
    surrogate); anything else is a :class:`ProtocolError`.
    """
    try:
        message = strict_json(line)  # decoded as UTF-8 first: json.loads(bytes) guesses UTF-16
    except UnicodeDecodeError as error:
        raise ProtocolError(f"the line is not UTF-8 ({error.reason}): {_excerpt(line)}") from None
    except json.JSONDecodeError as error:
        raise ProtocolError(f"the line is not JSON ({error.msg}): {_excerpt(line)}") from None
    except JsonRefused as error:
        raise ProtocolError(f"the line is not strict JSON: {error}: {_excerpt(line)}") from None
    if not isinstance(message, dict):
        raise ProtocolError(
            f"expected a JSON object, found {type(message).__name__}: {_excerpt(line)}"
        )
    return message


# ---- the schemas ---------------------------------------------------------------------


# jsonschema is imported on first use: ``serve`` never validates, and starts faster.


def schema(kind: MessageKind) -> dict[str, Any]:
    """The JSON Schema of one message kind, as published in ``schema/protocol/``."""
    from ..resources import load_schema

    return load_schema(f"protocol/{kind}.schema.json")


def check(kind: MessageKind, message: Any) -> None:
    """Raise :class:`ProtocolError` unless ``message`` follows the schema of ``kind``."""
    from jsonschema.exceptions import best_match

    from ..resources import describe_error, validator

    error = best_match(validator(f"protocol/{kind}.schema.json").iter_errors(message))
    if error is not None:
        raise ProtocolError(f"not a valid {kind} message: at {describe_error(error)}")


# ---- reading replies -----------------------------------------------------------------


def _names_ok(value: Any) -> bool:
    """A list of distinct non-empty strings (the schema's profiles, variants, observations)."""
    return (
        isinstance(value, list)
        and all(isinstance(name, str) and name != "" for name in value)
        and len(set(value)) == len(value)
    )


def _hello_reply_surely_valid(message: Any) -> bool:
    """A fast check that implies the hello-reply schema holds (never the converse).

    Every run against an adapter starts with one hello; checking it here instead of with
    jsonschema spares each ``verify`` and ``fuzz`` process the validator's import and build.
    Anything else goes to the schema, which has the last word and locates what is wrong.
    """
    if not isinstance(message, dict) or type(message.get("protocol")) is not int:
        return False
    info, capabilities = message.get("implementation"), message.get("capabilities")
    if message["protocol"] < 1 or not isinstance(info, dict):
        return False
    if not isinstance(info.get("homepage", ""), str):  # its "format" is an annotation only
        return False
    if not all(_text_ok(info, key) for key in ("name", "version", "language")):
        return False
    return (
        isinstance(capabilities, dict)
        and _names_ok(capabilities.get("profiles"))
        and all(
            key not in capabilities or _names_ok(capabilities[key])
            for key in ("variants", "observations", "starts")
        )
        and all(type(capabilities.get(key)) is bool for key in ("legal_actions", "error_codes"))
    )


def parse_hello_reply(message: Any) -> Hello:
    """Check a hello reply, including that it speaks our protocol version."""
    if not _hello_reply_surely_valid(message):
        check("hello-reply", message)
    if type(message["protocol"]) is not int:  # 1.0 is not the integer 1 here
        raise ProtocolError(f"protocol must be an integer, found {message['protocol']!r}")
    if message["protocol"] != PROTOCOL_VERSION:
        raise ProtocolError(
            f"the implementation speaks protocol {message['protocol']}; "
            f"this runner speaks protocol {PROTOCOL_VERSION} (suite {SUITE_VERSION})"
        )
    info = message["implementation"]
    capabilities = message["capabilities"]
    return Hello(
        message["protocol"],
        ImplementationInfo(
            one_line(info["name"]),
            one_line(info["version"]),
            one_line(info["language"]),
            None if info.get("homepage") is None else one_line(info["homepage"]),
        ),
        Capabilities(
            tuple(capabilities["profiles"]),
            capabilities["legal_actions"],
            capabilities["error_codes"],
            None
            if capabilities.get("observations") is None
            else tuple(capabilities["observations"]),
            tuple(capabilities.get("variants") or ()),
            None if capabilities.get("starts") is None else tuple(capabilities["starts"]),
        ),
    )


def _step_result_ok(step: Any) -> bool:
    if not isinstance(step, dict):
        return False
    if "outcome" in step:
        outcome = step["outcome"]
        return "observed" not in step and (
            outcome == StepOutcome.ACCEPTED
            or (outcome == StepOutcome.REJECTED and isinstance(step.get("code", ""), str))
        )
    return isinstance(step.get("observed"), dict)


def _text_ok(value: Any, key: str) -> bool:
    return isinstance(value, dict) and isinstance(value.get(key), str) and value[key] != ""


def _run_reply_surely_valid(message: Any) -> bool:
    """A fast check that implies the run-reply schema holds (never the converse).

    Validating every reply with jsonschema would cost more than running the scenario
    in-process; this check accepts the common well-formed reply in microseconds and
    anything it does not accept goes to the schema, which has the last word.
    """
    if not isinstance(message, dict) or type(message.get("seq")) is not int:
        return False
    if message["seq"] < 1:
        return False
    present = [key for key in ("result", "skipped", "errored") if key in message]
    if len(present) != 1:
        return False
    body = message[present[0]]
    if present[0] == "skipped":
        return _text_ok(body, "reason")
    if present[0] == "errored":
        return _text_ok(body, "message")
    steps = body.get("steps") if isinstance(body, dict) else None
    return isinstance(steps, list) and all(_step_result_ok(step) for step in steps)


def parse_run_reply(message: Any, expected_seq: int) -> RunReply:
    """Check a run reply and that it answers run message ``expected_seq``."""
    if not _run_reply_surely_valid(message):
        check("run-reply", message)
    seq = message["seq"]
    if type(seq) is not int:  # the schema's integer admits 1.0; a reply's seq does not
        raise ProtocolError(f"the reply's seq must be an integer, found {seq!r}")
    if seq != expected_seq:
        raise ProtocolError(f"the reply has seq {seq}; expected {expected_seq}")
    if "result" in message:
        return RunReply(seq, result=message["result"])
    if "skipped" in message:
        return RunReply(seq, skipped=message["skipped"]["reason"])
    errored = message["errored"]
    return RunReply(seq, errored=errored["message"], context=errored.get("context"))
