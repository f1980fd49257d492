"""The subprocess layer in-process: deadlines, caps, exit reasons, group kills, reaping.

These drive :class:`AdapterProcess` and :class:`ExternalImplementation` directly, so
they can check what the command line hides: that this process is left with no child
(running or zombie), that a child which never reads its stdin cannot block a write,
and exactly how much stderr is kept.
"""

from __future__ import annotations

import dataclasses
import shlex
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fivehundred.safety import signals_deferred
from fivehundred.scenarios import Checkpoint, SansKittyStep
from fivehundred.verify._process import (
    STDERR_TAIL_BYTES,
    AdapterProcess,
    ChannelError,
    ChannelTimeout,
)
from fivehundred.verify.external import (
    ExternalImplementation,
    capability_skip,
    unsupported_observations,
)
from fivehundred.verify.protocol import Capabilities
from fivehundred.verify.reference import run_input
from fivehundred.verify.runner import judge
from protocol_helpers import (
    PYTHON,
    adapter,
    corpus,
    processes_with,
    sample,
    serve_command,
)

pytestmark = pytest.mark.slow  # starts processes


def _child(code: str, marker: str, **options: int) -> AdapterProcess:
    return AdapterProcess.start([PYTHON, "-c", code, marker], **options)  # type: ignore[arg-type]


def _soon(seconds: float = 5.0) -> float:
    return time.monotonic() + seconds


def test_a_child_that_never_reads_cannot_block_a_big_write(marker: str) -> None:
    # Four MiB is far more than a pipe holds: a blocking write would hang here forever.
    child = _child("import time; time.sleep(60)", marker)
    with pytest.raises(ChannelTimeout):
        child.exchange(b"x" * (4 << 20) + b"\n", time.monotonic() + 0.5)
    child.kill()


def test_a_stderr_flood_is_drained_and_only_its_tail_kept(marker: str) -> None:
    code = (
        "import sys\n"
        "sys.stdin.readline()\n"
        "sys.stderr.write('noise\\n' * 900000)\n"
        "sys.stderr.write('the end of the flood\\n'); sys.stderr.flush()\n"
        "print('{}', flush=True)\n"
    )
    child = _child(code, marker)
    assert child.exchange(b"go\n", _soon(60)) == b"{}"
    child.stop(5)
    tail = child.take_stderr()
    assert tail.endswith("the end of the flood\n")
    assert tail.startswith("[… ") and "earlier bytes of stderr dropped" in tail
    assert len(tail.encode()) <= STDERR_TAIL_BYTES + 100


def test_an_endless_line_is_cut_at_the_cap(marker: str) -> None:
    child = _child(
        "import sys; sys.stdout.write('y' * 100000); sys.stdout.flush()", marker, max_line=1024
    )
    with pytest.raises(ChannelError, match="longer than 1,024 bytes"):
        child.exchange(b"\n", _soon())
    child.kill()


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("sys.exit(5)", "exited with status 5 without replying"),
        ("import os, signal; os.kill(os.getpid(), signal.SIGTERM)", "was killed by SIGTERM"),
        ("sys.stdout.write('half a li'); sys.exit(0)", "bytes of an unfinished line"),
    ],
)
def test_an_early_exit_says_how_the_child_ended(code: str, says: str, marker: str) -> None:
    # The child reads the message first: one that ends before the message is written is
    # another case ("closed its stdin"), and on a loaded machine it could win the race.
    child = _child(f"import sys; sys.stdin.readline(); {code}", marker)
    with pytest.raises(ChannelError, match=says):
        child.exchange(b"\n", _soon())
    child.kill()


def test_kill_takes_the_whole_process_group(marker: str) -> None:
    grandchild = "print('ready', flush=True); import time; time.sleep(60)"
    code = (
        "import subprocess, sys, time\n"
        f"subprocess.Popen([sys.executable, '-c', {grandchild!r}, sys.argv[1]])\n"
        "time.sleep(60)\n"
    )
    child = _child(code, marker)
    assert child.exchange(b"\n", _soon(30)) == b"ready"
    assert len(processes_with(marker)) == 2
    child.kill()  # the fixture checks the grandchild is gone and nothing is left to reap


def test_leftover_lines_wait_for_the_next_exchange(marker: str) -> None:
    child = _child("print('one'); print('two', flush=True); import time; time.sleep(60)", marker)
    assert child.exchange(b"\n", _soon()) == b"one"
    assert child.exchange(b"\n", _soon()) == b"two"
    child.kill()


def test_a_crash_mid_run_restarts_and_leaves_no_zombie(marker: str) -> None:
    chosen = sample(4)
    implementation = ExternalImplementation(
        shlex.split(adapter("crash_mid_run.py", "1", marker=marker))
    )
    implementation.start()
    outcomes = [implementation.run(s) for s in chosen]
    implementation.close()
    assert [o.result is not None for o in outcomes] == [True, False, True, False]
    assert implementation.restarts == 1  # after the first crash; the second is the last run


def test_an_adapter_that_cannot_restart_stops_being_tried(tmp_path: Path, marker: str) -> None:
    flag = tmp_path / "started"
    implementation = ExternalImplementation(
        shlex.split(adapter("starts_once.py", str(flag), marker=marker))
    )
    implementation.start()
    first, second, third = (implementation.run(s) for s in sample(3))
    implementation.close()
    assert first.errored is not None and "status 70" in first.errored
    assert second.errored is not None and "could not be restarted" in second.errored
    assert "already started once" in second.stderr
    assert third.errored is not None and third.errored.startswith("not run:")


def test_capabilities_decide_what_is_sent() -> None:
    scenarios = list(sample(40))
    full = Capabilities(("australian-4",), True, True)
    assert all(capability_skip(s, full) is None for s in scenarios)
    other = Capabilities(("american-5",), True, True)
    assert all(
        "profile australian-4 is not supported" in (capability_skip(s, other) or "")
        for s in scenarios
    )
    no_legal = Capabilities(("australian-4",), False, True)
    assert all(capability_skip(s, no_legal) is None for s in scenarios)  # run, not skipped
    assert set(unsupported_observations(no_legal)) == {"legal", "legal_count", "perft"}
    assert unsupported_observations(full) == {}
    some = Capabilities(("australian-4",), True, True, ("phase", "to_act", "nonsense"))
    left_out = unsupported_observations(some)
    assert "phase" not in left_out and "to_act" not in left_out and "legal" in left_out
    assert "nonsense" not in left_out  # unknown declared keys are ignored


def test_an_action_of_a_toggle_is_sent_only_to_adapters_declaring_it() -> None:
    """A scenario with a ``sans_kitty`` step is skipped for an adapter that does not declare
    ``sans-kitty``, even one of the plain default profile (no bundled scenario is, but a
    user's may be): no adapter written before the action receives it."""
    with_step = [s for s in corpus() if any(isinstance(st, SansKittyStep) for st in s.steps)]
    assert with_step and all("sans-kitty" in s.variants for s in with_step)
    plain = [dataclasses.replace(s, variants=()) for s in with_step]
    before = Capabilities(("australian-4",), True, True)
    skip = capability_skip(plain[0], before) or ""
    assert "the action sans_kitty belongs to the variant sans-kitty" in skip
    toggles = tuple(sorted({v for s in with_step for v in s.variants}))  # some need a second
    declared = Capabilities(("australian-4",), True, True, None, toggles)
    assert all(capability_skip(s, declared) is None for s in [*with_step, *plain])


def test_undeclared_observations_are_never_asked_for_and_are_unchecked(marker: str) -> None:
    chosen = [
        s
        for s in sample(60)
        if any(isinstance(st, Checkpoint) and "legal" in st.expect for st in s.steps)
    ][:5]
    assert chosen
    command = adapter("capabilities.py", "australian-4", "no", "yes", "phase,to_act", marker=marker)
    implementation = ExternalImplementation(shlex.split(command))
    implementation.start()
    outcomes = [implementation.run(s) for s in chosen]
    implementation.close()
    for scenario, outcome in zip(chosen, outcomes, strict=True):
        assert outcome.result is not None, outcome.errored  # the adapter exits if over-asked
        verdict = judge(scenario, outcome)
        assert verdict.status.value == "passed"
        unchecked = {u.what for u in verdict.unchecked}
        assert "legal" in unchecked and not {"phase", "to_act"} & unchecked


def test_the_python_running_the_tests_is_the_one_adapters_use() -> None:
    assert sys.executable == PYTHON


def test_a_plan_sends_ahead_and_going_off_plan_is_still_correct(marker: str) -> None:
    chosen = sample(6)
    implementation = ExternalImplementation(shlex.split(serve_command(marker)))
    implementation.start()
    implementation.plan(chosen)
    in_order = [implementation.run(s).result for s in chosen[:3]]
    off_plan = [implementation.run(s).result for s in (chosen[5], chosen[3])]
    implementation.close()
    assert in_order == [run_input(s.input()) for s in chosen[:3]]
    assert off_plan == [run_input(s.input()) for s in (chosen[5], chosen[3])]
    assert implementation.restarts == 1  # chosen[3] was in flight when chosen[5] was asked for


def test_a_reply_already_in_the_pipe_at_the_deadline_is_read_not_timed_out(marker: str) -> None:
    """The runner may be busy when the deadline passes; a reply that arrived before it is
    read, and only a pipe with nothing in it times out (stderr alone is no reply)."""
    child = _child("import sys; print('{}', flush=True); import time; time.sleep(60)", marker)
    try:
        time.sleep(1.0)  # the reply is written long before the deadline below
        assert child.receive(time.monotonic() - 0.5) == b"{}"
        with pytest.raises(ChannelTimeout):
            child.receive(time.monotonic() - 0.5)  # nothing more in the pipe
    finally:
        child.kill()
    flood = "import sys\nwhile True:\n    sys.stderr.write('x' * 100 + '\\n'); sys.stderr.flush()"
    noisy = _child(flood, marker)
    try:
        started = time.monotonic()
        with pytest.raises(ChannelTimeout):
            noisy.receive(time.monotonic() + 0.3)
        assert time.monotonic() - started < 5
    finally:
        noisy.kill()


class _Stop(Exception):
    pass


def _raise_stop(signum: int, frame: object) -> None:
    raise _Stop(signum)


def test_a_stop_signal_during_a_start_waits_until_the_child_is_recorded() -> None:
    """Raised inside the block, the handler's exception would leave a started child that
    nothing holds; it comes on the way out instead, and an ignored signal stays ignored
    (the child inherits that)."""
    previous = signal.signal(signal.SIGTERM, _raise_stop)
    ignored = signal.signal(signal.SIGINT, signal.SIG_IGN)
    body_finished = False
    try:
        with pytest.raises(_Stop), signals_deferred():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            signal.raise_signal(signal.SIGTERM)
            body_finished = True
        assert body_finished
        assert signal.getsignal(signal.SIGTERM) is _raise_stop
        with signals_deferred():  # nothing arrived: nothing raised
            pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, ignored)


def test_a_signal_while_an_adapter_starts_kills_it(
    marker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The signal arrives just after the process exists (as a CI cancel may, while the
    one-shot runner starts a child per scenario): the adapter is killed, none is left."""
    real_start = AdapterProcess.start

    def start_then_signal(*args: Any, **kwargs: Any) -> AdapterProcess:
        process = real_start(*args, **kwargs)
        signal.raise_signal(signal.SIGTERM)
        return process

    monkeypatch.setattr(AdapterProcess, "start", start_then_signal)
    previous = signal.signal(signal.SIGTERM, _raise_stop)
    try:
        implementation = ExternalImplementation(shlex.split(serve_command(marker)))
        with pytest.raises(_Stop):
            implementation.start()
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert processes_with(marker) == []  # killed at once, not left for the fixture to find
