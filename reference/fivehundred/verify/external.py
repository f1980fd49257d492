"""An implementation under test, driven over protocol v1 as a subprocess.

:class:`ExternalImplementation` is a :class:`~.runner.Implementation`
like the in-process reference, so the same runner judges both.  Its job is to turn
every way an adapter can misbehave into an *errored* scenario with a useful message
and to keep the run going: the adapter is killed and, in persistent mode, started
again (with a new handshake) for the next scenario.  A failed first handshake is a
:class:`HandshakeError`: nothing can be run, and the caller reports a broken adapter.

Scenarios of a profile the adapter did not declare, or with a start it did not declare
it can set up, are skipped without being sent.
Observations it declared it cannot report (``legal`` and ``legal_count`` when
``legal_actions`` is false; every key outside ``observations`` when that list is
given) are left out of the observe steps it is sent and judged *unchecked*.
"""

from __future__ import annotations

import json
import re
import shlex
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..safety import DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT, one_line, signals_deferred
from ..scenarios import Scenario, input_json
from ..scenarios.format.model import ActionStep
from ..scenarios.format.vocabulary import ACTION_KINDS, OBSERVATION_NAMES, observation
from ._process import AdapterProcess, ChannelError, ChannelTimeout
from .protocol import (
    MAX_LINE_BYTES,
    Capabilities,
    Hello,
    ProtocolError,
    bye,
    decode,
    encode,
    hello,
    parse_hello_reply,
    parse_run_reply,
    run,
)
from .runner import RunOutcome
from .verdict import NO_LEGAL_ACTIONS, REPORTED_ERROR, UNSUPPORTED_OBSERVATION

__all__ = [
    "DEFAULT_STARTUP_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "EXIT_GRACE",
    "SAME_FAILURE_LIMIT",
    "ExternalImplementation",
    "HandshakeError",
    "capability_skip",
    "profile_hint",
    "unknown_profiles",
    "unsupported_observations",
]

SAME_FAILURE_LIMIT = 10
"""Restarts in a row for one and the same cause after which the runner gives up on the
adapter: the rest of the run would only repeat it, at a restart and a time-out each."""

EXIT_GRACE = 2.0
"""Seconds an adapter has to exit after bye (or after its one-shot reply) before it is killed."""
CONTEXT_CHARS = 4000
_DIGITS = re.compile(r"\d+")
"""How much of an adapter's error context is kept in the message."""


@dataclass(frozen=True)
class _InFlight:
    """A run message sent and not yet answered."""

    scenario: Scenario
    seq: int
    deadline: float


class HandshakeError(Exception):
    """The adapter did not start or did not answer hello properly."""

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.stderr = stderr


def capability_skip(scenario: Scenario, capabilities: Capabilities) -> str | None:
    """Why the runner must not send ``scenario`` to this implementation, if it must not."""
    profile = scenario.profile_name
    if profile not in capabilities.profiles:
        declared = ", ".join(capabilities.profiles) or "none"
        return f"profile {profile} is not supported (the implementation declared: {declared})"
    declared = ", ".join(capabilities.variants) or "none"
    missing = [v for v in scenario.variants if v not in capabilities.variants]
    if missing:
        return (
            f"variant {', '.join(missing)} of {profile} is not supported "
            f"(the implementation declared: {declared})"
        )
    start = scenario.setup.kind
    if capabilities.starts is not None and start not in capabilities.starts:
        return (
            f"it cannot set up a {start} start (the implementation declared starts: "
            f"{', '.join(capabilities.starts) or 'none'})"
        )
    for step in scenario.steps:
        if not isinstance(step, ActionStep):
            continue
        needs = _ACTION_VARIANTS.get(step.action)
        if needs is not None and needs not in capabilities.variants:
            return (
                f"the action {step.action} belongs to the variant {needs}, which is not "
                f"supported (the implementation declared: {declared})"
            )
    return None


_ACTION_VARIANTS = {kind.key: kind.variant for kind in ACTION_KINDS if kind.variant is not None}
"""The actions that belong to a toggle, by step key."""


def unknown_profiles(capabilities: Capabilities) -> list[str]:
    """Each profile an adapter declared that the suite does not know, with the known
    names closest to it: a typo such as ``australian4`` would otherwise skip every
    scenario with no word but "not supported"."""
    from ..engine import PROFILE_NAMES
    from ..scenarios.format.diagnostics import did_you_mean

    return [
        f"{one_line(name)!r}{did_you_mean(name, PROFILE_NAMES)}"
        for name in capabilities.profiles
        if name not in PROFILE_NAMES
    ]


def profile_hint(declared: Sequence[str]) -> str:
    """``"; it declared 'australian4', which the suite does not know; did you mean
    australian-4?"``, or ``""`` when every declared profile is known."""
    unknown = unknown_profiles(Capabilities(tuple(declared), False, False))
    if not unknown:
        return ""
    return f"; the suite knows no profile {'; nor '.join(unknown)}"


def unsupported_observations(capabilities: Capabilities) -> dict[str, str]:
    """The observation keys not to ask this implementation for, each with the reason."""
    unsupported: dict[str, str] = {}
    declared = None if capabilities.observations is None else set(capabilities.observations)
    for key in OBSERVATION_NAMES:
        if declared is not None and key not in declared:
            unsupported[key] = UNSUPPORTED_OBSERVATION
        elif not capabilities.legal_actions and _needs_legal(key):
            unsupported[key] = NO_LEGAL_ACTIONS
    return unsupported


def _needs_legal(key: str) -> bool:
    registered = observation(key)
    return registered is not None and registered.needs_legal_actions


def _without(scenario_input: dict[str, Any], unsupported: Mapping[str, str]) -> dict[str, Any]:
    """The input with the unsupported keys left out of every observe step."""
    steps = [
        {"observe": [k for k in step["observe"] if k not in unsupported]}
        if "observe" in step
        else step
        for step in scenario_input["steps"]
    ]
    return {**scenario_input, "steps": steps}


def _error_text(message: str, context: object) -> str:
    if context is None:
        return message
    shown = json.dumps(context, ensure_ascii=False, indent=2)
    if len(shown) > CONTEXT_CHARS:
        shown = shown[:CONTEXT_CHARS] + f"… ({len(shown) - CONTEXT_CHARS:,} more characters)"
    return f"{message}\ncontext: {shown}"


class ExternalImplementation:
    """An implementation behind the protocol: a command run as a child process."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
        one_shot: bool = False,
        max_line: int = MAX_LINE_BYTES,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        give_up_after: int | None = SAME_FAILURE_LIMIT,
    ) -> None:
        """``command`` is split like a shell would (``shlex``) but never run by one.

        ``give_up_after``: kills in a row for one cause after which no more scenarios
        are sent (``None``: never give up; fuzz reports each deal's error instead)."""
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("the implementation command is empty")
        self.command = command if isinstance(command, str) else shlex.join(command)
        self.name = Path(self.argv[0]).name
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.one_shot = one_shot
        self.max_line = max_line
        self.cwd = cwd
        self.env = env
        self.hello: Hello | None = None
        self.restarts = 0
        self.one_shot_runs = 0
        """One-shot children that replied (the handshake's included)."""
        self.lingered = 0
        """Of those, the ones still running :data:`EXIT_GRACE` seconds after their reply
        (each was then killed, and the wait is part of the run's time)."""
        self._process: AdapterProcess | None = None
        self._seq = 0
        self._dead: str | None = None
        self._plan: deque[Scenario] = deque()
        self._in_flight: _InFlight | None = None
        self._unsupported: dict[str, str] = {}
        self._started: list[AdapterProcess] = []
        """Every process started and not yet released, so that :meth:`kill` reaches each
        one, whatever moment a signal interrupts."""
        self.deadline: float | None = None
        """``time.monotonic()`` when the run's budget (``--max-time``) runs out, if any."""
        self.give_up_after = give_up_after
        self.gave_up: str | None = None
        """Why the runner stopped sending scenarios: the adapter was killed and restarted
        :data:`SAME_FAILURE_LIMIT` times in a row for the same cause."""
        self._same_failures: tuple[str, int] = ("", 0)
        """The last cause an adapter was killed for (numbers masked) and how many times
        in a row."""

    @property
    def capabilities(self) -> Capabilities:
        if self.hello is None:
            raise RuntimeError("start() the implementation before asking its capabilities")
        return self.hello.capabilities

    # ---- starting ------------------------------------------------------------------

    def start(self) -> Hello:
        """Start the adapter and shake hands; raises :class:`HandshakeError`."""
        self.hello, self._process = self._handshake()
        self.name = self.hello.implementation.name
        self._unsupported = unsupported_observations(self.hello.capabilities)
        return self.hello

    def _spawn(self) -> AdapterProcess:
        """Start an adapter process, recorded before any stop signal can interrupt.

        A stop signal that came meanwhile is raised on the way out; every adapter is
        killed before it goes on, since nothing between here and the caller's own clean-up
        may hold the new process yet."""
        try:
            with signals_deferred():
                process = AdapterProcess.start(
                    self.argv, cwd=self.cwd, env=self.env, max_line=self.max_line
                )
                self._started = [p for p in self._started if not p.released] + [process]
        except ChannelError:  # it did not start: nothing new to kill
            raise
        except BaseException:
            self.kill()
            raise
        return process

    def _handshake(self) -> tuple[Hello, AdapterProcess | None]:
        deadline = time.monotonic() + self.startup_timeout
        try:
            process = self._spawn()
        except ChannelError as error:
            raise HandshakeError(str(error)) from None
        try:
            line = process.exchange(encode(hello()), deadline, close_stdin=self.one_shot)
            reply = parse_hello_reply(decode(line))
        except BaseException as error:  # every way out kills the adapter's process group
            process.kill()
            if isinstance(error, ChannelTimeout):
                raise HandshakeError(
                    f"no answer to hello within {self.startup_timeout:g} s "
                    "(raise it with --startup-timeout if the adapter starts slowly)",
                    process.take_stderr(),
                ) from None
            if isinstance(error, ChannelError | ProtocolError):
                raise HandshakeError(str(error), process.take_stderr()) from None
            if isinstance(error, Exception):
                raise HandshakeError(
                    f"the hello reply could not be read: {type(error).__name__}: {error}",
                    process.take_stderr(),
                ) from None
            raise
        process.take_stderr()  # a start-up banner belongs to no scenario
        if self.one_shot:
            self._stop_one_shot(process)
            return reply, None
        return reply, process

    # ---- running -------------------------------------------------------------------

    def plan(self, scenarios: Sequence[Scenario]) -> None:
        """Say which scenarios :meth:`run` will be called with, in order.

        In persistent mode the next run message then goes out the moment a reply
        arrives, and the runner judges that reply while the adapter works: still one
        message in flight, but the runner's own work no longer adds to the adapter's.
        Without a plan (or off it) each message is sent when :meth:`run` is called.
        """
        self._plan = deque(scenarios)

    def has_in_flight(self, scenario: Scenario) -> bool:
        """Whether ``scenario``'s run message was already sent ahead (see :meth:`plan`)."""
        return self._in_flight is not None and self._in_flight.scenario is scenario

    def run(self, scenario: Scenario) -> RunOutcome:
        outcome = self._run(scenario)
        if outcome.result is not None:
            outcome.unsupported = self._unsupported
        return outcome

    def _run(self, scenario: Scenario) -> RunOutcome:
        if self.hello is None:
            self.start()
        self._advance_plan(scenario)
        skip = capability_skip(scenario, self.capabilities)
        if skip is not None:
            return RunOutcome(skipped=skip)
        if self._dead is not None:
            return RunOutcome(errored=f"not run: {self._dead}")
        if self.gave_up is not None:
            return RunOutcome(errored=f"not run: {self.gave_up}")
        if self.one_shot:
            try:
                child = self._spawn()
            except ChannelError as error:
                return RunOutcome(errored=str(error))
            try:
                return self._finish(child, self._send(child, scenario))
            finally:
                child.kill()
        in_flight, self._in_flight = self._in_flight, None
        if (
            self._process is not None
            and in_flight is not None
            and in_flight.scenario is not scenario
        ):
            self._process.kill()  # off plan: the adapter is busy with another scenario
            self._process, in_flight = None, None
        process = self._process
        if process is None:
            try:
                _, process = self._handshake()
            except HandshakeError as error:
                self._dead = f"the adapter could not be restarted: {error.message}"
                return RunOutcome(errored=self._dead, stderr=error.stderr)
            assert process is not None  # persistent mode keeps the process
            self._process = process
            self.restarts += 1
        return self._finish(process, in_flight or self._send(process, scenario))

    def _advance_plan(self, scenario: Scenario) -> None:
        while self._plan:
            if self._plan.popleft() is scenario:
                return

    def _send(self, process: AdapterProcess, scenario: Scenario) -> _InFlight:
        message, seq = self._prepare(scenario)
        process.send(message)
        return _InFlight(scenario, seq, self._reply_deadline())

    def _reply_deadline(self) -> float:
        """When a reply to a message sent now is due: the timeout, or the run's budget."""
        due = time.monotonic() + self.timeout
        return due if self.deadline is None else min(due, self.deadline)

    def _prepare(self, scenario: Scenario) -> tuple[bytes, int]:
        self._seq += 1
        scenario_input = input_json(scenario.input())
        if self._unsupported:
            scenario_input = _without(scenario_input, self._unsupported)
        return encode(run(self._seq, scenario_input)), self._seq

    def _upcoming(self) -> Scenario | None:
        """The next planned scenario that will be sent (capability skips never are)."""
        assert self.hello is not None
        for scenario in self._plan:
            if capability_skip(scenario, self.hello.capabilities) is None:
                return scenario
        return None

    def _finish(self, process: AdapterProcess, sent: _InFlight) -> RunOutcome:
        """Wait for the reply to ``sent`` and turn it into an outcome.

        In persistent mode the next planned message is encoded before waiting and
        sent as soon as the reply line arrives, before this reply is even parsed: the
        adapter starts on it at once.  If this reply turns out to be broken, the
        adapter is killed anyway and the next scenario goes to a fresh one.
        """
        late = self.deadline is not None and time.monotonic() >= self.deadline
        upcoming = None if self.one_shot or late else self._upcoming()  # nothing sent late
        prepared = None if upcoming is None else self._prepare(upcoming)
        delivered = False
        try:
            line = process.receive(sent.deadline, close_stdin=self.one_shot)
            if upcoming is not None and prepared is not None:
                process.send(prepared[0])
                delivered = True
                self._in_flight = _InFlight(upcoming, prepared[1], self._reply_deadline())
            reply = parse_run_reply(decode(line), sent.seq)
        except ChannelTimeout:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                return self._abandon(process, "no reply before the run's --max-time ran out")
            return self._abandon(
                process,
                f"no reply within {self.timeout:g} s (--timeout; a reply written but not "
                "flushed looks the same)",
            )
        except (ChannelError, ProtocolError) as error:
            return self._abandon(process, str(error))
        except Exception as error:  # never let one reply end the run
            return self._abandon(
                process, f"the reply could not be read: {type(error).__name__}: {error}"
            )
        finally:
            if prepared is not None and not delivered:  # its seq goes to the next message
                self._seq = prepared[1] - 1
        if self.one_shot:
            self._stop_one_shot(process)
        self._same_failures = ("", 0)  # a reply the protocol allows: the adapter works
        stderr = process.take_stderr()
        if reply.result is not None:
            return RunOutcome(result=reply.result, stderr=stderr)
        if reply.skipped is not None:
            return RunOutcome(skipped=reply.skipped, stderr=stderr)
        return RunOutcome(
            errored=_error_text(f"{REPORTED_ERROR}{reply.errored}", reply.context),
            stderr=stderr,
        )

    def _abandon(self, process: AdapterProcess, why: str) -> RunOutcome:
        """Kill an adapter that broke the protocol; the next scenario gets a fresh one."""
        process.kill()
        self._count_failure(why)
        if process is self._process:
            self._process, self._in_flight = None, None
            why += "; the adapter was killed and will be restarted"
        return RunOutcome(errored=why, stderr=process.take_stderr())

    def _count_failure(self, why: str) -> None:
        """Give up after :data:`SAME_FAILURE_LIMIT` kills in a row for one cause (the
        first line of the message, numbers masked: a seq or a time differs each time)."""
        first = why.split("\n", 1)[0]
        cause = _DIGITS.sub("N", first)
        last, count = self._same_failures
        count = count + 1 if cause == last else 1
        self._same_failures = (cause, count)
        limit = self.give_up_after
        if limit is not None and count >= limit and self.gave_up is None:
            hint = ""
            if first.startswith("the line is not"):
                hint = " (standard output is for protocol messages only: log to standard error)"
            self.gave_up = (
                f"the adapter failed {count} times in a row in the same way, so the run "
                f"was stopped: {first}{hint}"
            )

    # ---- stopping ------------------------------------------------------------------

    def close(self) -> None:
        """Say bye, give the adapter a moment to exit, then make sure it has."""
        process, self._process, self._in_flight = self._process, None, None
        if process is not None:
            try:
                process.send_quietly(encode(bye()))
                process.stop(EXIT_GRACE)
            finally:
                process.kill()
        self.kill()

    def _stop_one_shot(self, process: AdapterProcess) -> None:
        """A one-shot child has replied: it should exit now; it is killed if it does not."""
        process.stop(EXIT_GRACE)
        self.one_shot_runs += 1
        self.lingered += process.outlived_grace

    def lingering_warning(self) -> str | None:
        """A word on one-shot children that did not exit after replying, if any did."""
        if not self.lingered:
            return None
        return (
            f"{self.lingered} of {self.one_shot_runs} one-shot adapter processes were still "
            f"running {EXIT_GRACE:g} s after replying and were killed; that wait cost this run "
            f"{self.lingered * EXIT_GRACE:g} s (a one-shot adapter should exit once it has "
            "written its reply)"
        )

    def kill(self) -> None:
        """Kill every adapter process group at once, without a farewell (on a signal)."""
        for process in self._started:
            process.kill()
        self._started = []
        self._process, self._in_flight = None, None
