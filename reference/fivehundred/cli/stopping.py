"""Turning SIGTERM and SIGHUP into an exception, shared by the long-running commands.

A CI cancel signals the whole process group; raising in the main thread lets every
``finally`` run, so adapters are killed and what a command has so far is kept.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterator
from types import FrameType


@contextlib.contextmanager
def signals_raise(exception: Callable[[int], BaseException]) -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise ``exception(signum)``; the previous handlers
    come back afterwards.  Outside the main thread nothing changes."""

    def handler(signum: int, frame: FrameType | None) -> None:
        raise exception(signum)

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            with contextlib.suppress(ValueError, OSError):  # not the main thread
                previous[number] = signal.signal(number, handler)
    try:
        yield
    finally:
        for number, old in previous.items():
            signal.signal(number, old)
