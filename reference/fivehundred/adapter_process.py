"""A child process spoken to in lines, which can never hang or flood the runner.

The implementation under test is arbitrary code: it may crash, hang, never read its
stdin, print megabytes to stderr, or write one endless line.  Everything here exists
so that none of that stops a run:

* the child starts in its own session, so its whole process group (wrappers, shells,
  the JVM it launched) can be killed at once;
* one ``selectors`` loop writes the message, reads stdout and drains stderr together,
  with a deadline, so neither side can block the other on a full pipe;
* a reply line is capped in length, and only the tail of stderr is kept;
* the child is always reaped (no zombies), and its group is killed before the leader
  is reaped where the platform lets us peek at the exit first, so the group id
  cannot have been reused.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from .protocol import MAX_LINE_BYTES

__all__ = ["STDERR_TAIL_BYTES", "AdapterProcess", "ChannelError", "ChannelTimeout"]

STDERR_TAIL_BYTES = 16 * 1024
"""How much of an adapter's stderr is kept for the report (the end of it)."""

_CHUNK = 1 << 16


class ChannelError(Exception):
    """The exchange with the child failed: it exited, closed a pipe, or sent too much."""


class ChannelTimeout(ChannelError):
    """No complete reply line before the deadline."""


def describe_status(status: int | None) -> str:
    """A return code as a person reads it."""
    if status is None:
        return "is still running"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return f"was killed by {name}"
    return f"exited with status {status}"


class AdapterProcess:
    """One running child with non-blocking pipes; see the module docstring."""

    def __init__(
        self, popen: subprocess.Popen[bytes], max_line: int, stderr_limit: int
    ) -> None:
        self._popen = popen
        self._max_line = max_line
        self._stderr_limit = stderr_limit
        assert popen.stdin and popen.stdout and popen.stderr
        self._stdin: int | None = popen.stdin.fileno()
        self._stdout = popen.stdout.fileno()
        self._stderr = popen.stderr.fileno()
        for fd in (self._stdin, self._stdout, self._stderr):
            os.set_blocking(fd, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout, selectors.EVENT_READ)
        self._selector.register(self._stderr, selectors.EVENT_READ)
        self._open_reads = {self._stdout, self._stderr}
        self._out = bytearray()
        self._scanned = 0
        self._err = bytearray()
        self._err_dropped = 0
        self._reaped = False
        self._released = False

    @classmethod
    def start(
        cls,
        argv: Sequence[str],
        *,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        max_line: int = MAX_LINE_BYTES,
        stderr_limit: int = STDERR_TAIL_BYTES,
    ) -> AdapterProcess:
        try:
            popen = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                cwd=cwd,
                env=None if env is None else dict(env),
                start_new_session=True,
            )
        except OSError as error:
            reason = error.strerror or str(error)
            raise ChannelError(f"cannot start {argv[0]!r}: {reason}") from None
        return cls(popen, max_line, stderr_limit)

    @property
    def pid(self) -> int:
        return self._popen.pid

    # ---- the exchange ----------------------------------------------------------------

    def exchange(self, data: bytes, deadline: float, *, close_stdin: bool = False) -> bytes:
        """Write ``data``, then return the next stdout line (without its newline).

        Raises :class:`ChannelTimeout` at ``deadline`` and :class:`ChannelError` when
        the child closes stdout or stdin first or the line grows past the cap.
        """
        if self._stdin is None:
            raise ChannelError("the adapter's stdin is already closed")
        view = memoryview(data)
        written = 0
        line: bytes | None = None
        self._selector.register(self._stdin, selectors.EVENT_WRITE)
        try:
            while True:
                if line is None:
                    line = self._take_line()  # also enforces the cap while still writing
                if written == len(view):
                    if line is not None:
                        return line
                    if self._stdout not in self._open_reads:
                        raise ChannelError(self._why_stdout_closed(deadline))
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise ChannelTimeout("no reply before the deadline")
                for key, _ in self._selector.select(remaining):
                    if key.fd == self._stdin:
                        written += self._write(view[written:], deadline)
                        if written == len(view):
                            self._selector.unregister(self._stdin)
                            if close_stdin:
                                self.close_stdin()
                    else:
                        self._read(key.fd)
        finally:
            if self._stdin is not None and self._stdin in self._selector.get_map():
                self._selector.unregister(self._stdin)

    def _write(self, view: memoryview, deadline: float) -> int:
        assert self._stdin is not None
        try:
            return os.write(self._stdin, view[:_CHUNK])
        except BlockingIOError:
            return 0
        except (BrokenPipeError, ConnectionResetError):
            self._wait_exit(min(deadline, time.monotonic() + 1.0))
            raise ChannelError(
                f"the adapter closed its stdin before reading the message "
                f"(it {describe_status(self._peek_status())})"
            ) from None

    def _read(self, fd: int) -> None:
        try:
            chunk = os.read(fd, _CHUNK)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._selector.unregister(fd)
            self._open_reads.discard(fd)
        elif fd == self._stdout:
            self._out += chunk
        else:
            self._keep_stderr(chunk)

    def _keep_stderr(self, chunk: bytes) -> None:
        self._err += chunk
        excess = len(self._err) - self._stderr_limit
        if excess > self._stderr_limit:  # trim in batches, not on every chunk
            del self._err[:excess]
            self._err_dropped += excess

    def _take_line(self) -> bytes | None:
        end = self._out.find(b"\n", self._scanned)
        if end < 0:
            self._scanned = len(self._out)
            if len(self._out) > self._max_line:
                raise ChannelError(
                    f"the reply line is longer than {self._max_line:,} bytes (the limit)"
                )
            return None
        if end > self._max_line:
            raise ChannelError(f"the reply line is {end:,} bytes, over the {self._max_line:,} limit")
        line = bytes(self._out[:end])
        del self._out[: end + 1]
        self._scanned = 0
        return line

    def _why_stdout_closed(self, deadline: float) -> str:
        status = self._wait_exit(min(deadline, time.monotonic() + 1.0))
        partial = f" after {len(self._out):,} bytes of an unfinished line" if self._out else ""
        if status is None:
            return f"the adapter closed its stdout{partial} without replying"
        return f"the adapter {describe_status(status)}{partial} without replying"

    # ---- stderr ----------------------------------------------------------------------

    def take_stderr(self) -> str:
        """The tail of what the child wrote to stderr since the last call."""
        excess = len(self._err) - self._stderr_limit
        if excess > 0:
            del self._err[:excess]
            self._err_dropped += excess
        text = self._err.decode("utf-8", errors="replace")
        if self._err_dropped:
            text = f"[… {self._err_dropped:,} earlier bytes of stderr dropped …]\n" + text
        self._err.clear()
        self._err_dropped = 0
        return text

    # ---- the end -------------------------------------------------------------------

    def close_stdin(self) -> None:
        if self._stdin is not None:
            if self._stdin in self._selector.get_map():
                self._selector.unregister(self._stdin)
            assert self._popen.stdin is not None
            with contextlib.suppress(OSError):
                self._popen.stdin.close()  # the file object owns the descriptor
            self._stdin = None

    def send_quietly(self, data: bytes) -> None:
        """Best effort, never blocking: a farewell the child may already be deaf to."""
        if self._stdin is None:
            return
        with contextlib.suppress(OSError):
            os.write(self._stdin, data)

    def _peek_status(self) -> int | None:
        """The exit status if the child has exited, without reaping it where possible."""
        if self._reaped:
            return self._popen.returncode
        if hasattr(os, "waitid"):
            try:
                info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return self._popen.returncode
            if info is None:
                return None
            if info.si_code == os.CLD_EXITED:
                return info.si_status
            return -info.si_status
        return self._popen.poll()

    def _wait_exit(self, deadline: float) -> int | None:
        """Drain the pipes until the child exits or the deadline passes."""
        pause = 0.001
        while True:
            status = self._peek_status()
            if status is not None:
                return status
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            if self._open_reads:
                for key, _ in self._selector.select(min(pause, remaining)):
                    self._read(key.fd)
            else:
                time.sleep(min(pause, remaining))
            pause = min(pause * 2, 0.05)

    def stop(self, grace: float) -> int | None:
        """Close stdin, give the child ``grace`` seconds to exit, then kill and reap it."""
        self.close_stdin()
        self._wait_exit(time.monotonic() + grace)
        return self.kill()

    def kill(self) -> int | None:
        """Kill the whole process group, keep the last of stderr, reap the child."""
        if self._released:
            return self._popen.returncode
        self.close_stdin()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        self._drain_after_kill(time.monotonic() + 0.5)
        status: int | None
        try:
            status = self._popen.wait(timeout=5.0)
        except subprocess.TimeoutExpired:  # unkillable (uninterruptible sleep): give up
            status = None
        self._reaped = status is not None
        self._release()
        return status

    def _drain_after_kill(self, deadline: float) -> None:
        """Read what is left in the pipes; a grandchild outside the group may hold them."""
        while self._open_reads:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            for key, _ in self._selector.select(remaining):
                self._read(key.fd)

    def _release(self) -> None:
        self._released = True
        self._selector.close()
        for stream in (self._popen.stdout, self._popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._open_reads.clear()
