"""Stop signals as exceptions, and the steps that hold them (``cli/stopping.py``).

Real signals sent to this process: each test checks first that the handler under test
is installed, so a failure cannot end the test run itself.
"""

from __future__ import annotations

import os
import signal

import pytest
from fivehundred.cli.stopping import signals_held, signals_raise


class Stopped(BaseException):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _send(signum: int) -> None:
    assert signal.getsignal(signum) not in (signal.SIG_DFL, signal.SIG_IGN, None)
    os.kill(os.getpid(), signum)


def test_a_signal_inside_a_held_step_is_raised_when_it_ends() -> None:
    done = []
    with pytest.raises(Stopped) as stop, signals_raise(Stopped):
        with signals_held():
            _send(signal.SIGTERM)
            done.append("step")
        done.append("after")  # not reached: the stop comes as the held step ends
    assert stop.value.signum == signal.SIGTERM and done == ["step"]


def test_a_second_signal_stops_a_held_step_at_once_as_the_first() -> None:
    done = []
    with pytest.raises(Stopped) as stop, signals_raise(Stopped), signals_held():
        _send(signal.SIGTERM)
        _send(signal.SIGHUP)
        done.append("not reached")
    assert stop.value.signum == signal.SIGTERM and done == []


def test_the_previous_handlers_come_back_and_nothing_is_left_held() -> None:
    before = {n: signal.getsignal(n) for n in (signal.SIGTERM, signal.SIGHUP)}
    with pytest.raises(Stopped), signals_raise(Stopped), signals_held():
        _send(signal.SIGTERM)
    assert {n: signal.getsignal(n) for n in before} == before
    with signals_raise(Stopped), signals_held():
        pass  # no stop that nobody sent
