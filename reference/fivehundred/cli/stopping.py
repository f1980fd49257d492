"""Turning SIGTERM and SIGHUP into an exception, shared by the long-running commands.

A CI cancel signals the whole process group; raising in the main thread lets every
``finally`` run, so adapters are killed and what a command has so far is kept.
:func:`signals_held` makes a step and the record of it indivisible: a signal that
arrives inside it is raised when it ends, so a command never says it has not written a
file it has.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterator
from types import FrameType


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived (a CI cancel signals the whole group): raised by
    :func:`signals_raise` in every command that starts an adapter, so that its clean-up
    kills the adapter's process group before the command ends with 128 + the signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _Held:
    """The state shared by the handler and :func:`signals_held` (both run in the main
    thread: Python runs signal handlers there)."""

    depth = 0
    pending: int | None = None


@contextlib.contextmanager
def signals_raise(exception: Callable[[int], BaseException]) -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise ``exception(signum)``, at once or, inside
    :func:`signals_held`, when it ends; the previous handlers come back afterwards.
    Outside the main thread nothing changes."""

    def handler(signum: int, frame: FrameType | None) -> None:
        if _Held.depth and _Held.pending is None:
            _Held.pending = signum
            return
        # a second signal while one is held stops at once (a held step that hangs can
        # still be stopped), as the first
        first, _Held.pending = _Held.pending, None
        raise exception(signum if first is None else first)

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
        _Held.pending = None


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold a stop signal until the block ends, then raise it as :func:`signals_raise`
    would have; a second signal meanwhile raises at once.  Only for steps that cannot
    block for long (a file written and renamed, a flag set).  Outside
    :func:`signals_raise` it holds nothing: the signals keep their own handlers."""
    _Held.depth += 1
    try:
        yield
    finally:
        _Held.depth -= 1
        if not _Held.depth and _Held.pending is not None:
            signum, _Held.pending = _Held.pending, None
            with contextlib.suppress(ValueError, OSError):  # re-delivered to the handler
                signal.raise_signal(signum)
