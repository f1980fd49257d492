"""Fuzzing with hypothesis: mutated scenarios, replies and runner messages are always classified.

Starting from valid scenarios and the reference's own replies, hypothesis changes
values, keys, types and structure (and raw bytes).  Whatever it builds:

* loading a scenario file ends in a scenario or in located diagnostics, and a loaded
  scenario runs to a verdict;
* a reply line ends in a verdict (passed, failed, errored) or a :class:`ProtocolError`,
  never another exception;
* ``serve`` answers a line or reports it, and returns an exit status.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from fivehundred.scenarios import input_json, load_corpus, load_file
from fivehundred.verify.protocol import ProtocolError, decode, parse_run_reply
from fivehundred.verify.reference import run_json
from fivehundred.verify.runner import ReferenceImplementation, RunOutcome, judge
from fivehundred.verify.serve import Bye, handle, serve
from fivehundred.verify.verdict import Status
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.slow  # 150 examples a test: tens of seconds in all

CORPUS = load_corpus()
SAMPLE = CORPUS.scenarios[:: max(1, len(CORPUS.scenarios) // 12)][:12]
DOCUMENTS = [yaml.safe_load(s.path.read_text(encoding="utf-8")) for s in SAMPLE if s.path]
REPLIES = [(s, {"seq": 1, "result": run_json(input_json(s.input()))}) for s in SAMPLE]

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, 1, 7, 13, -1, 10**400]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["\x1b[31m", "\x00", "[/]", "\ud800", "6S", "PASS", "N", "JK", "10H"]),
    st.dates(),
    st.datetimes(),
    st.binary(max_size=8),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.one_of(st.text(max_size=8), st.integers(), st.none()), inner, max_size=4
        ),
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*prefix, index))
    return out


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    """``base`` with one to three changes: replace a value, drop or add a key, wrap, unwrap."""
    document = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(document)
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "drop", "add", "wrap", "unwrap"]))
        if not path:
            if action == "wrap":
                document = [document]
            continue
        parent = document
        for part in path[:-1]:
            parent = parent[part]
        last = path[-1]
        if action == "replace":
            parent[last] = draw(values)
        elif action == "drop":
            del parent[last]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.one_of(st.text(max_size=8), st.integers()))] = draw(values)
        elif action == "wrap":
            parent[last] = [parent[last]]
        elif action == "unwrap" and isinstance(parent[last], list | dict) and parent[last]:
            inner = parent[last]
            parent[last] = inner[0] if isinstance(inner, list) else next(iter(inner.values()))
    return document


def _dump(document: Any) -> str:
    try:
        return yaml.safe_dump(document, allow_unicode=True, sort_keys=False)
    except (yaml.YAMLError, TypeError, ValueError):
        return yaml.safe_dump(json.loads(json.dumps(document, default=str)), sort_keys=False)


def _load_and_run(tmp_path: Path, text: str | bytes) -> None:
    path = tmp_path / "area" / "fuzzed.yaml"
    path.parent.mkdir(exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    result = load_file(path, tmp_path)
    if result.scenario is None:
        assert result.diagnostics, "refused without saying why"
        for diagnostic in result.diagnostics:
            assert diagnostic.line >= 1
            assert diagnostic.column >= 1
            assert diagnostic.kind in ("io", "yaml", "schema", "lint", "corpus")
        return
    outcome = ReferenceImplementation().run(result.scenario)
    verdict = judge(result.scenario, outcome)
    assert verdict.status in tuple(Status)


@FUZZ
@given(data=st.data())
def test_mutated_scenarios_are_refused_with_a_location_or_run(tmp_path: Path, data: Any) -> None:
    base = data.draw(st.sampled_from(DOCUMENTS))
    _load_and_run(tmp_path, _dump(data.draw(mutated(base))))


@FUZZ
@given(data=st.data())
def test_scenario_bytes_spoiled_at_random_are_classified(tmp_path: Path, data: Any) -> None:
    scenario = data.draw(st.sampled_from(SAMPLE))
    assert scenario.path is not None
    raw = bytearray(scenario.path.read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw)))
        junk = data.draw(
            st.one_of(
                st.binary(max_size=6),
                st.sampled_from(
                    [b"&a ", b"*a", b"!!set ", b"!!binary ", b"[" * 70, b"\x00", b"\t"]
                ),
            )
        )
        cut = data.draw(st.integers(0, 3))
        raw[at : at + cut] = junk
    _load_and_run(tmp_path, bytes(raw))


def _judge_line(scenario: Any, line: bytes) -> Status | None:
    try:
        reply = parse_run_reply(decode(line), 1)
    except ProtocolError:
        return None
    if reply.result is not None:
        return judge(scenario, RunOutcome(result=reply.result)).status
    return Status.SKIPPED if reply.skipped is not None else Status.ERRORED


@FUZZ
@given(data=st.data())
def test_mutated_replies_end_in_a_verdict_or_a_protocol_error(data: Any) -> None:
    scenario, reply = data.draw(st.sampled_from(REPLIES))
    spoiled = data.draw(mutated(reply))
    text = json.dumps(spoiled, default=str, ensure_ascii=data.draw(st.booleans()))
    _judge_line(scenario, text.encode("utf-8", errors="surrogatepass"))


@FUZZ
@given(data=st.data())
def test_reply_bytes_spoiled_at_random_are_classified(data: Any) -> None:
    scenario, reply = data.draw(st.sampled_from(REPLIES))
    raw = bytearray(json.dumps(reply).encode())
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(raw)))
        junk = data.draw(
            st.one_of(
                st.binary(max_size=6),
                st.sampled_from(
                    [b"NaN", b"Infinity", b"1e400", b"9" * 5000, b"[" * 100, b'"\\ud800"', b"\xff"]
                ),
            )
        )
        raw[at : at + data.draw(st.integers(0, 3))] = junk
    _judge_line(scenario, bytes(raw).replace(b"\n", b" "))


@FUZZ
@given(data=st.data())
def test_serve_answers_or_reports_every_message(data: Any) -> None:
    scenario = data.draw(st.sampled_from(SAMPLE))
    message = {"cmd": "run", "seq": 1, "scenario": input_json(scenario.input())}
    spoiled = data.draw(mutated(message))
    try:
        if isinstance(spoiled, dict):
            handle(spoiled)
    except (ProtocolError, Bye):
        pass
    line = json.dumps(spoiled, default=str).encode("utf-8", errors="surrogatepass")
    out = io.BytesIO()
    code = serve(io.BytesIO(line + b"\n"), out)
    assert code in (0, 2)
    if out.getvalue():
        json.loads(out.getvalue())


def test_the_samples_are_real() -> None:
    assert len(SAMPLE) >= 8
    assert all(s.path is not None for s in SAMPLE)
