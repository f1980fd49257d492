"""Plumbing shared by the deliberately broken adapters in this folder.

Each adapter answers like the reference (through :func:`fivehundred.serve.handle`)
except for the one fault it exists to inject, so a test can tell the fault's
scenarios from the rest.  Every adapter accepts a trailing ``--marker TOKEN``
argument that it ignores: the tests look for the token in ``/proc/*/cmdline`` to
prove that no adapter process (or grandchild) outlives a run.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

from fivehundred.verify.serve import handle


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
    return handle(message)
