"""Plumbing shared by the deliberately broken adapters in this folder.

Each adapter answers like the reference (through :func:`fivehundred.serve.handle`)
except for the one fault it exists to inject, so a test can tell the fault's
scenarios from the rest.  Every adapter accepts a trailing ``--marker TOKEN``
argument that it ignores: the tests look for the token in ``/proc/*/cmdline`` to
prove that no adapter process (or grandchild) outlives a run.

With ``ADAPTER_MEMO`` naming a folder, the reference's answers are kept there, a file
per message (less its ``seq``), and read back by the adapters started after: the tests
start these adapters hundreds of times with the same few messages, and importing the
reference was most of each start.  The answers are the reference's either way.  A file
is named by a CRC of the message and holds the message itself beside the answer, which
is used only when the message is the same (a CRC can collide; ``hashlib`` would have
cost every start its OpenSSL import).
"""

from __future__ import annotations

import json
import os
import sys
import zlib

TYPE_CHECKING = False  # typing and collections.abc only for the checkers: an adapter
if TYPE_CHECKING:  # starts hundreds of times, and importing them was a third of a start
    from collections.abc import Iterator
    from typing import Any


def arguments() -> list[str]:
    """The adapter's own arguments, without the marker the tests add."""
    args = sys.argv[1:]
    if "--marker" in args:
        index = args.index("--marker")
        del args[index : index + 2]
    return args


def messages() -> Iterator[dict[str, Any]]:
    for line in sys.stdin:
        if line.strip():
            yield json.loads(line)


def send(reply: dict[str, Any] | str) -> None:
    sys.stdout.write(reply if isinstance(reply, str) else json.dumps(reply) + "\n")
    sys.stdout.flush()


def answer(message: dict[str, Any]) -> dict[str, Any]:
    """The correct reply (the reference's); exits on bye."""
    if message.get("cmd") == "bye":
        sys.exit(0)
    return reference_reply(message)


def reference_reply(message: dict[str, Any]) -> dict[str, Any]:
    """The reference's reply to ``message``: from ``ADAPTER_MEMO`` when it is there."""
    folder = os.environ.get("ADAPTER_MEMO")
    seq = message.get("seq")
    path = None
    # The key leaves the seq out, so a run whose seq the reference refuses (serve.py:
    # not an integer from 1) goes to the reference, which refuses it as it always did.
    if folder and (message.get("cmd") != "run" or (type(seq) is int and seq >= 1)):
        key = json.dumps({k: v for k, v in message.items() if k != "seq"}, sort_keys=True)
        name = f"{zlib.crc32(key.encode()):08x}-{len(key)}.json"
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="utf-8") as file:
                kept = json.load(file)
        except (OSError, ValueError):
            kept = None
        known = kept.get("reply") if isinstance(kept, dict) else None
        if isinstance(known, dict) and kept.get("message") == key:
            if "seq" in known:
                known["seq"] = seq
            return known
    from fivehundred.verify.serve import handle

    reply: dict[str, Any] = handle(message)
    if path is not None:
        partial = f"{path}.{os.getpid()}"
        try:  # a memo that cannot be written only costs the next adapter its import
            with open(partial, "w", encoding="utf-8") as file:
                json.dump({"message": key, "reply": reply}, file)
            os.replace(partial, path)  # whole or absent for an adapter reading it meanwhile
        except OSError:
            pass
    return reply
