"""An adapter that answers like the reference except for one hostile fault.

``python hostile.py FAULT [--marker TOKEN]``: FAULT names what goes wrong (see
``FAULTS``); the marker is ignored, and lets the campaign find stray processes.
Faults named ``hello-*`` spoil the hello reply; the others spoil every run reply
(or do something nasty around it), so one scenario is enough to see the effect.

The reference's answers come from ``reference_reply`` of the protocol tests' adapters
(``tests/protocol/adapters/_common.py``), which can keep them in ``ADAPTER_MEMO``.
"""

from __future__ import annotations

import json
import os
import sys
import time

# Only what a start needs, as in _common.py: the campaign starts this adapter hundreds of
# times, and pathlib, subprocess and typing were half of each start.
sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "../../protocol/adapters")
)
from _common import TYPE_CHECKING, arguments, reference_reply

if TYPE_CHECKING:
    from typing import Any

DEEP = 100_000
BIG = "9" * 5000
UNSAFE_TEXT = (
    "oops\x1b[2J\x1b]0;title\x07\x1b]8;;http://evil\x07link\x1b]8;;\x07\x9b31m\x85"
    "\u202eesrever\u202c\u2066\u2069\u200b\u2028\nverify: 400 passed, 0 failed"
)
"""Terminal control, C1, bidi and format characters, separators and a forged line."""


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def _raw_with(reply: dict[str, Any], marker: str, raw: str) -> str:
    """The reply as JSON with the string ``marker`` replaced by raw (non-JSON) text."""
    return json.dumps(reply).replace(json.dumps(marker), raw) + "\n"


def _first_observed(reply: dict[str, Any], value: Any) -> dict[str, Any]:
    for step in reply.get("result", {}).get("steps", []):
        if "observed" in step:
            for key in step["observed"]:
                step["observed"][key] = value
                return reply
    reply["result"]["steps"][0] = {"observed": {"phase": value}}
    return reply


def hello_line(fault: str, reply: dict[str, Any]) -> str:
    name = {
        "hello-markup": "[/][bold red]evil[/",
        "hello-ansi": "evil\x1b[2J\x1b]0;pwned\x07\x1b[31m",
        "hello-nul": "evil\x00name\x01\x7f",
        "hello-newline": "evil\nverify: 400 passed, 0 failed",
        "hello-bidi": "evil\u202e\u2028name",
    }.get(fault)
    if name is not None:
        reply["implementation"]["name"] = name
        reply["implementation"]["version"] = name
        return json.dumps(reply) + "\n"
    if fault == "hello-surrogate":
        return _raw_with(reply, reply["implementation"]["name"], '"evil\\ud800"')
    if fault == "hello-bigint":
        return _raw_with(reply, "fivehundred-reference", BIG)
    if fault == "hello-deep":
        return _raw_with(reply, "fivehundred-reference", deep(DEEP))
    if fault == "hello-nan":
        return _raw_with(reply, "fivehundred-reference", "NaN")
    if fault == "hello-float-protocol":
        return json.dumps(reply).replace('"protocol": 1', '"protocol": 1.0') + "\n"
    if fault == "hello-no-legal":
        reply["capabilities"]["legal_actions"] = False
    return json.dumps(reply) + "\n"


def run_line(fault: str, reply: dict[str, Any]) -> str:
    if fault == "reply-bigint-seq":
        return json.dumps(reply).replace(f'"seq": {reply["seq"]}', f'"seq": {BIG}') + "\n"
    if fault == "reply-bigint-value":
        return _raw_with(_first_observed(reply, "@@"), "@@", BIG)
    if fault == "reply-deep":
        return _raw_with(_first_observed(reply, "@@"), "@@", deep(DEEP))
    if fault == "reply-deep-object":
        return _raw_with(_first_observed(reply, "@@"), "@@", '{"a":' * 5000 + "1" + "}" * 5000)
    if fault in ("reply-nan", "reply-infinity", "reply-minus-infinity"):
        raw = {"reply-nan": "NaN", "reply-infinity": "Infinity"}.get(fault, "-Infinity")
        return _raw_with(_first_observed(reply, "@@"), "@@", raw)
    if fault == "reply-surrogate":
        return _raw_with(_first_observed(reply, "@@"), "@@", '"x\\udc80y"')
    if fault == "reply-float-seq":
        return (
            json.dumps(reply).replace(f'"seq": {reply["seq"]}', f'"seq": {reply["seq"]}.0') + "\n"
        )
    if fault == "reply-1e400":
        return _raw_with(_first_observed(reply, "@@"), "@@", "1e400")
    forged = {
        "reply-ansi-message": "oops\x1b[2K\r\x1b[32mverify: 400 passed, 0 failed\x1b[0m",
        "reply-osc-message": "oops\x1b]8;;http://evil\x07link\x1b]8;;\x07\x1b]0;title\x07",
        "reply-nul-message": "oops\x00\x01\x02\x0b\x0c\x1f\x7f\x85\x9b",
        "reply-markup-message": "[/][bold]oops[link=http://evil]x[/link]",
        "reply-forged-summary": "oops\nverify: 400 passed, 0 failed, 0 errored\n\x1b[1A\x1b[2K",
        "reply-bidi-message": UNSAFE_TEXT,
    }.get(fault)
    if forged is not None:
        return (
            json.dumps({"seq": reply["seq"], "errored": {"message": forged, "context": forged}})
            + "\n"
        )
    if fault == "reply-markup-value":
        return json.dumps(_first_observed(reply, "[/]\x1b[31m[bold]x")) + "\n"
    if fault == "reply-unsafe-value":
        return json.dumps(_first_observed(reply, UNSAFE_TEXT)) + "\n"
    return json.dumps(reply) + "\n"


def main() -> None:
    args = arguments()
    fault = args[0] if args else "none"
    if fault == "grandchild":  # a sleeping grandchild in the group, then slow normal answers
        import subprocess

        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", *sys.argv[1:]])
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        command = message.get("cmd")
        if command == "bye":
            return
        if fault == "stderr-escapes":
            sys.stderr.write("\x1b[2J\x1b]0;pwned\x07\x00\r\x1b[32mverify: all passed\x1b[0m\n")
            sys.stderr.flush()
        if command == "hello" and fault == "hang-hello":
            time.sleep(600)
        if command == "run" and fault in ("hang", "grandchild-hang"):
            time.sleep(600)
        if command == "run" and fault == "grandchild":
            # Correct answers, but slowly enough (at least 2 s for the campaign's 40
            # scenarios) that the run is still going when the signal comes, however
            # fast the machine.
            time.sleep(0.05)
        reply = reference_reply(message)
        text = hello_line(fault, reply) if command == "hello" else run_line(fault, reply)
        out.write(text)
        out.flush()
        if fault == "exit-after-reply":
            os._exit(0)


FAULTS = (
    "hello-markup",
    "hello-ansi",
    "hello-nul",
    "hello-newline",
    "hello-bidi",
    "hello-surrogate",
    "hello-bigint",
    "hello-deep",
    "hello-nan",
    "hello-float-protocol",
    "hello-no-legal",
    "reply-bigint-seq",
    "reply-bigint-value",
    "reply-deep",
    "reply-deep-object",
    "reply-nan",
    "reply-infinity",
    "reply-minus-infinity",
    "reply-surrogate",
    "reply-float-seq",
    "reply-1e400",
    "reply-ansi-message",
    "reply-osc-message",
    "reply-nul-message",
    "reply-markup-message",
    "reply-forged-summary",
    "reply-markup-value",
    "reply-bidi-message",
    "reply-unsafe-value",
    "stderr-escapes",
    "hang",
    "hang-hello",
    "grandchild",
    "grandchild-hang",
)

if __name__ == "__main__":
    main()
