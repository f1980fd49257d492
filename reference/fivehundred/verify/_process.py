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
  cannot have been reused;
* a stop signal that arrives while a child is being started waits until the caller
  has recorded it (:func:`fivehundred.safety.signals_deferred`), so no started child
  escapes the kill.
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

    def __init__(self, popen: subprocess.Popen[bytes], max_line: int, stderr_limit: int) -> None:
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
        self._outgoing = bytearray()
        self._send_error: str | None = None
        self._discard_stdout = False
        """Set once no reply is awaited: what the child still prints is read and dropped."""
        self._reaped = False
        self._released = False
        self.outlived_grace = False
        """Whether :meth:`stop` found it still running after its grace period."""

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

    @property
    def released(self) -> bool:
        """Killed or stopped and reaped: nothing of it is left to clean up."""
        return self._released

    # ---- the exchange ----------------------------------------------------------------

    def send(self, data: bytes) -> None:
        """Queue ``data`` for the child's stdin and write what the pipe takes now.

        Never blocks: the rest is written by :meth:`receive` while it also reads, so a
        child that is busy writing cannot deadlock with us.  A child that has closed
        its stdin is reported by :meth:`receive`, as the reason it did not reply.
        """
        if self._stdin is None:
            if self._send_error is None:
                self._send_error = "the adapter's stdin is already closed"
            return
        self._outgoing += data
        self._flush_some()

    def receive(self, deadline: float, *, close_stdin: bool = False) -> bytes:
        """The next stdout line (without its newline), writing queued input meanwhile.

        With ``close_stdin`` the child's stdin is closed once everything queued has
        been written (one-shot mode).  Raises :class:`ChannelTimeout` at ``deadline``
        and :class:`ChannelError` when the child closes stdout or stdin first or the
        line grows past the cap.
        """
        while True:
            if close_stdin and not self._outgoing:
                self.close_stdin()
            line = self._take_line()
            if line is not None:
                return line
            if self._stdout not in self._open_reads or self._send_error is not None:
                raise ChannelError(self._why_stdout_closed(deadline))
            # Past the deadline, what is already in the pipe is still read: a reply that
            # came in time while the runner was busy elsewhere is not late.
            ready = self._selector.select(max(deadline - time.monotonic(), 0))
            late = time.monotonic() >= deadline
            if late and not any(key.fd == self._stdout for key, _ in ready):
                raise ChannelTimeout("no reply before the deadline")  # stderr alone: no reply
            for key, _ in ready:
                if key.fd == self._stdin:
                    self._flush_some()
                else:
                    self._read(key.fd)

    def exchange(self, data: bytes, deadline: float, *, close_stdin: bool = False) -> bytes:
        """:meth:`send` then :meth:`receive`: one message, one reply line."""
        self.send(data)
        return self.receive(deadline, close_stdin=close_stdin)

    def _flush_some(self) -> None:
        """Write as much queued input as the pipe takes; watch stdin only while some is left."""
        assert self._stdin is not None
        while self._outgoing:
            try:
                written = os.write(self._stdin, self._outgoing[:_CHUNK])
            except BlockingIOError:
                break
            except (BrokenPipeError, ConnectionResetError):
                self._outgoing.clear()
                self._send_error = "the adapter closed its stdin before reading the message"
                break
            del self._outgoing[:written]
        watching = self._stdin in self._selector.get_map()
        if self._outgoing and not watching:
            self._selector.register(self._stdin, selectors.EVENT_WRITE)
        elif not self._outgoing and watching:
            self._selector.unregister(self._stdin)

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
            if not self._discard_stdout:
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
            raise ChannelError(
                f"the reply line is {end:,} bytes, over the {self._max_line:,} limit"
            )
        line = bytes(self._out[:end])
        del self._out[: end + 1]
        self._scanned = 0
        return line

    def _why_stdout_closed(self, deadline: float) -> str:
        status = self._wait_exit(min(deadline, time.monotonic() + 1.0))
        if self._send_error is not None:
            return f"{self._send_error} (it {describe_status(status)})"
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
        if self._stdin is not None and not self._outgoing:
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
        self._discard_stdout = True
        self.close_stdin()
        self.outlived_grace = self._wait_exit(time.monotonic() + grace) is None
        return self.kill()

    def kill(self) -> int | None:
        """Kill the whole process group, keep the last of stderr, reap the child."""
        if self._released:
            return self._popen.returncode
        self._discard_stdout = True
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
