"""The reference engine behind protocol v1 (``fivehundred serve``).

It answers exactly as an implementation under test must, using the same
:func:`~.reference.run_json` as the in-process runner, so a run through
the protocol and a run in-process cannot disagree — the protocol tests compare the
two over the whole corpus.  It is also a worked example for adapter authors.
"""

from __future__ import annotations

import sys
from typing import Any, BinaryIO

from .. import SUITE_VERSION
from ..engine import PROFILES, VARIANTS
from .protocol import (
    Capabilities,
    ImplementationInfo,
    ProtocolError,
    decode,
    encode,
    errored_reply,
    hello_reply,
    result_reply,
)
from .reference import InputError, run_json

__all__ = ["REFERENCE_CAPABILITIES", "REFERENCE_INFO", "handle", "serve"]

REFERENCE_INFO = ImplementationInfo("fivehundred-reference", SUITE_VERSION, "python")
REFERENCE_CAPABILITIES = Capabilities(
    tuple(sorted(PROFILES)), True, True, variants=tuple(sorted(VARIANTS))
)


def _traceback() -> str:
    """The current exception's traceback (imported here: a reference that works never
    needs the module, and every ``serve`` start would pay for it)."""
    import traceback

    return traceback.format_exc()


class Bye(Exception):
    """The runner said bye."""


def _run(message: dict[str, Any]) -> dict[str, Any]:
    seq = message.get("seq")
    scenario = message.get("scenario")
    if type(seq) is not int or seq < 1:
        raise ProtocolError(f"run message without a valid seq: {seq!r}")
    if not isinstance(scenario, dict):
        return errored_reply(seq, "the run message has no scenario object")
    try:
        return result_reply(seq, run_json(scenario))
    except InputError as error:
        return errored_reply(seq, f"cannot run this input: {error}", {"id": scenario.get("id")})
    except Exception as error:  # a bug in the reference: say so and stay up
        return errored_reply(
            seq,
            f"the reference crashed: {type(error).__name__}: {error}",
            {"id": scenario.get("id"), "traceback": _traceback()},
        )


def handle(message: dict[str, Any]) -> dict[str, Any]:
    """The reply to one runner message; raises :class:`Bye` on bye."""
    command = message.get("cmd")
    if command == "hello":
        return hello_reply(REFERENCE_INFO, REFERENCE_CAPABILITIES)
    if command == "run":
        return _run(message)
    if command == "bye":
        raise Bye
    raise ProtocolError(f"unknown cmd {command!r}; expected hello, run or bye")


def serve(stdin: BinaryIO, stdout: BinaryIO, *, one_shot: bool = False) -> int:
    """Answer messages from ``stdin`` until bye or end of input; return the exit status.

    A line that is not a runner message is a bug in the runner, not in a scenario:
    it is reported on stderr and ends the session with status 2.
    """
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        try:
            reply = handle(decode(line.rstrip(b"\r\n")))
        except Bye:
            return 0
        except ProtocolError as error:
            print(f"fivehundred serve: message {number}: {error}", file=sys.stderr)
            return 2
        stdout.write(encode(reply))
        stdout.flush()
        if one_shot:
            return 0
    return 0
