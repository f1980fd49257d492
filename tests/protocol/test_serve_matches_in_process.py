"""The reference through the protocol gives exactly the reference's in-process verdicts.

``fivehundred serve`` runs as a real subprocess behind ``fivehundred verify --impl`` (the
runner itself in this process), over the whole corpus, and every scenario's status and
mismatches must equal the in-process run's.  Any difference would be a protocol bug (a
lost step, a mangled token), since both sides call the same engine.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from typing import Any

import pytest
from fivehundred.scenarios import input_json
from fivehundred.verify import protocol as p
from fivehundred.verify.external import ExternalImplementation
from fivehundred.verify.reference import run_input
from fivehundred.verify.runner import ReferenceImplementation, run_scenarios
from protocol_helpers import PYTHON, by_id, cli_here, corpus, id_options, serve_command

pytestmark = pytest.mark.slow  # starts processes or builds the site

Verdicts = dict[str, tuple[str, list[Any]]]


def _in_process() -> Verdicts:
    summary = run_scenarios(list(corpus()), ReferenceImplementation())
    return {
        r.scenario.id: (
            r.status.value,
            [[m.step, m.what, m.expected, m.actual] for m in r.verdict.mismatches],
        )
        for r in summary.reports
    }


def _from_report(report: dict[str, Any]) -> Verdicts:
    return {
        scenario_id: (
            entry["status"],
            [[m["step"], m["what"], m["expected"], m["actual"]] for m in entry["mismatches"]],
        )
        for scenario_id, entry in by_id(report).items()
    }


def test_whole_corpus_through_serve_matches_in_process(marker: str) -> None:
    run = cli_here("verify", "--impl", serve_command(marker), "--format", "json")
    report = run.json()
    assert report["run"]["mode"] == "persistent"
    assert report["implementation"]["name"] == "fivehundred-reference"
    assert report["broken_adapter"] is None
    assert len(report["scenarios"]) == len(corpus())
    assert _from_report(report) == _in_process()
    in_process = cli_here("verify", "--format", "json").json()
    assert run.code == in_process["exit_code"]


def test_every_result_through_serve_is_the_in_process_result(marker: str) -> None:
    """Stronger than equal verdicts: every step result is identical."""
    implementation = ExternalImplementation(shlex.split(serve_command(marker)))
    try:
        implementation.start()
        for scenario in corpus():
            outcome = implementation.run(scenario)
            assert outcome.errored is None, (scenario.id, outcome.errored, outcome.stderr)
            assert outcome.result == run_input(scenario.input()), scenario.id
    finally:
        implementation.close()
    assert implementation.restarts == 0


def test_one_shot_mode_matches_in_process_on_a_sample(marker: str) -> None:
    # A process per scenario: one of every profile and one with toggles (the test above
    # runs every scenario through serve in one process; one-shot changes how it starts).
    everything = list(corpus())
    ids = {*{s.profile_name: s.id for s in reversed(everything)}.values()}
    ids.add(next(s.id for s in everything if s.variants))
    chosen = [s for s in everything if s.id in ids]
    assert len(chosen) >= 8
    run = cli_here(
        "verify",
        "--impl",
        serve_command(marker, "--one-shot"),
        "--one-shot",
        *id_options(chosen),
        "--format",
        "json",
    )
    report = run.json()
    assert report["run"]["mode"] == "one-shot"
    expected = _in_process()
    assert _from_report(report) == {s.id: expected[s.id] for s in chosen}


def _serve(*lines: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [PYTHON, "-m", "fivehundred", "serve"],
        input=b"".join(lines),
        capture_output=True,
        timeout=60,
        check=False,
    )


def test_serve_reports_an_input_it_cannot_run_and_stays_up() -> None:
    bad = p.run(
        1,
        {
            "id": "ZZ22",
            "profile": "australian-4",
            "setup": {"start": "nowhere", "dealer": "N"},
            "steps": [{"observe": ["phase"]}],
        },
    )
    good = p.run(2, input_json(corpus()[0].input()))
    done = _serve(p.encode(p.hello()), p.encode(bad), p.encode(good), p.encode(p.bye()))
    assert done.returncode == 0, done.stderr
    hello, first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert p.parse_hello_reply(hello).implementation.name == "fivehundred-reference"
    errored = p.parse_run_reply(first, 1)
    assert errored.errored is not None and "setup.start" in errored.errored
    assert errored.context == {"id": "ZZ22"}
    assert p.parse_run_reply(second, 2).result == run_input(corpus()[0].input())


@pytest.mark.parametrize(
    ("line", "says"),
    [(b"not json\n", "is not JSON"), (b'{"cmd": "dance"}\n', "unknown cmd 'dance'")],
)
def test_serve_stops_on_a_line_no_runner_would_send(line: bytes, says: str) -> None:
    done = _serve(p.encode(p.hello()), line, p.encode(p.bye()))
    assert done.returncode == 2
    assert len(done.stdout.splitlines()) == 1  # the hello reply only
    assert says in done.stderr.decode() and b"Traceback" not in done.stderr


def test_serve_one_shot_answers_one_message_and_exits() -> None:
    done = subprocess.run(
        [PYTHON, "-m", "fivehundred", "serve", "--one-shot"],
        input=p.encode(p.hello()) + p.encode(p.hello()),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == 1
