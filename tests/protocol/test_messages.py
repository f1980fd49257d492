"""Protocol messages: the published schemas, what each side builds, and how replies are read.

The runner enforces ``schema/protocol/`` itself, so these tests check the schemas
are sound, that everything the runner and the reference write follows them, and that
the runner's fast acceptance of replies never accepts what the schema rejects.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from fivehundred import PROTOCOL_VERSION, SUITE_VERSION
from fivehundred.resources import fast_validator, load_schema, validator
from fivehundred.scenarios import input_json
from fivehundred.scenarios.format.vocabulary import OBSERVATION_NAMES as OBSERVATION_KEYS
from fivehundred.verify import protocol as p
from fivehundred.verify.reference import run_input
from fivehundred.verify.serve import REFERENCE_CAPABILITIES, REFERENCE_INFO, handle
from hypothesis import example as hypothesis_example
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_helpers import corpus

SCHEMA_FILES = [f"protocol/{kind}.schema.json" for kind in p.MESSAGE_KINDS] + [
    "expectations.schema.json",
    "report.schema.json",
    "export.schema.json",
]


def _valid(kind: p.MessageKind, message: Any) -> bool:
    """jsonschema-rs for speed; ``test_both_validators_agree`` keeps it honest."""
    return bool(fast_validator(f"protocol/{kind}.schema.json").is_valid(message))


def test_both_validators_agree() -> None:
    """The compiled validator and jsonschema judge run messages and replies alike."""
    samples: list[tuple[p.MessageKind, Any]] = []
    for seq, scenario in enumerate(corpus()[::25], start=1):
        message = p.run(seq, input_json(scenario.input()))
        broken = json.loads(json.dumps(message).replace('"dealer": "', '"dealer": "Q'))
        samples += [("run", message), ("run", broken)]
        samples.append(("run-reply", handle(message)))
    samples.append(("run-reply", {"seq": 1, "result": {"steps": "all good"}}))
    for kind, message in samples:
        slow = validator(f"protocol/{kind}.schema.json").is_valid(message)
        assert _valid(kind, message) == slow, message
    assert {_valid(kind, m) for kind, m in samples} == {True, False}


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_schema_is_draft_2020_12_with_id_and_descriptions(name: str) -> None:
    schema = load_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith("/schema/" + name)
    assert schema["description"]
    for example in schema.get("examples", []):
        assert validator(name).is_valid(example), example


def test_protocol_version_is_the_suite_major_version() -> None:
    assert int(SUITE_VERSION.split(".")[0]) == PROTOCOL_VERSION
    assert p.hello() == {"cmd": "hello", "protocol": PROTOCOL_VERSION, "suite": SUITE_VERSION}


def test_observe_steps_name_exactly_the_scenario_observations() -> None:
    listed = load_schema("protocol/run.schema.json")["$defs"]["observation"]["enum"]
    format_keys = load_schema("scenario.schema.json")["$defs"]["observations"]["properties"]
    assert listed == list(OBSERVATION_KEYS)
    assert set(listed) == set(format_keys)


def test_every_message_either_side_builds_follows_its_schema() -> None:
    assert _valid("hello", p.hello())
    assert _valid("bye", p.bye())
    assert _valid("hello-reply", p.hello_reply(REFERENCE_INFO, REFERENCE_CAPABILITIES))
    assert _valid("hello-reply", handle(p.hello()))
    assert _valid("run-reply", p.skipped_reply(3, "no open misère"))
    assert _valid("run-reply", p.errored_reply(4, "boom", {"step": 2}))
    for seq, scenario in enumerate(corpus(), start=1):
        message = p.run(seq, input_json(scenario.input()))
        assert _valid("run", message), scenario.id
        reply = handle(json.loads(p.encode(message)))
        assert _valid("run-reply", reply), scenario.id
        assert reply == p.result_reply(seq, run_input(scenario.input()))
        assert p.parse_run_reply(reply, seq).result == reply["result"]


def test_encode_writes_one_line_and_decode_reads_it_back() -> None:
    message = p.errored_reply(1, "line one\nline two", {"note": "ünïcode"})
    line = p.encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert p.decode(line[:-1]) == message


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (b"Traceback (most recent call last):", "not JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[1, 2]", "expected a JSON object"),
        (b'"seq"', "expected a JSON object"),
    ],
)
def test_decode_refuses_what_is_not_a_json_object(line: bytes, says: str) -> None:
    with pytest.raises(p.ProtocolError, match=says):
        p.decode(line)


def test_hello_reply_is_checked_for_schema_and_version() -> None:
    good = p.hello_reply(REFERENCE_INFO, REFERENCE_CAPABILITIES)
    hello = p.parse_hello_reply(good)
    assert hello.implementation == REFERENCE_INFO
    assert hello.capabilities == REFERENCE_CAPABILITIES
    with pytest.raises(p.ProtocolError, match="speaks protocol 2"):
        p.parse_hello_reply({**good, "protocol": 2})
    with pytest.raises(p.ProtocolError, match="capabilities"):
        p.parse_hello_reply({k: v for k, v in good.items() if k != "capabilities"})
    with pytest.raises(p.ProtocolError, match="legal_actions"):
        p.parse_hello_reply({**good, "capabilities": {"profiles": [], "error_codes": True}})


BAD_REPLIES: list[tuple[Any, str]] = [
    ({"seq": 1}, "valid under each of|is not valid under any"),
    ({"seq": True, "skipped": {"reason": "x"}}, "seq"),
    ({"seq": 0, "skipped": {"reason": "x"}}, "seq"),
    ({"seq": 1, "skipped": {"reason": "x"}, "errored": {"message": "y"}}, "valid under each of"),
    ({"seq": 1, "result": {"steps": "all good"}}, "not of type 'array'"),
    ({"seq": 1, "result": {"steps": [{"outcome": "maybe"}]}}, "steps\\[0\\]"),
    ({"seq": 1, "result": {"steps": [{"outcome": "accepted", "observed": {}}]}}, "steps\\[0\\]"),
    ({"seq": 1, "result": {"steps": [{"outcome": "rejected", "code": 7}]}}, "steps\\[0\\]"),
    ({"seq": 1, "skipped": {"reason": ""}}, "reason"),
    ({"seq": 1, "errored": {}}, "message"),
]


@pytest.mark.parametrize(("reply", "says"), BAD_REPLIES)
def test_off_protocol_replies_are_refused_with_the_place(reply: Any, says: str) -> None:
    with pytest.raises(p.ProtocolError, match=says):
        p.parse_run_reply(reply, 1)


def test_a_reply_to_another_message_is_refused() -> None:
    with pytest.raises(p.ProtocolError, match="seq 4; expected 5"):
        p.parse_run_reply(p.skipped_reply(4, "x"), 5)


def test_unknown_members_are_ignored() -> None:
    reply = {"seq": 2, "skipped": {"reason": "x", "ticket": 9}, "elapsed_ms": 3}
    assert p.parse_run_reply(reply, 2).skipped == "x"


# ---- the fast path never accepts what the schema refuses ----------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)
_step = st.one_of(
    st.fixed_dictionaries({"outcome": st.sampled_from(["accepted", "rejected", "x", 1])}),
    st.fixed_dictionaries(
        {"outcome": st.just("rejected"), "code": st.one_of(st.text(max_size=3), _json)}
    ),
    st.fixed_dictionaries({"observed": _json}),
    st.fixed_dictionaries({"outcome": st.just("accepted"), "observed": _json}),
    _json,
)
_body = st.one_of(
    st.fixed_dictionaries({"result": st.fixed_dictionaries({"steps": st.lists(_step)})}),
    st.fixed_dictionaries({"result": _json}),
    st.fixed_dictionaries({"skipped": st.fixed_dictionaries({"reason": _json})}),
    st.fixed_dictionaries({"errored": st.fixed_dictionaries({"message": _json})}),
    st.dictionaries(st.sampled_from(["result", "skipped", "errored", "other"]), _json),
)
_replies = st.builds(
    lambda seq, body: {"seq": seq, **body},
    st.one_of(st.integers(-1, 3), st.booleans(), st.text(max_size=2), st.none()),
    _body,
)


@settings(max_examples=150, deadline=None)
@given(_replies)
def test_fast_acceptance_implies_the_schema_accepts(reply: dict[str, Any]) -> None:
    if p._run_reply_surely_valid(reply):
        assert _valid("run-reply", reply), reply
    try:
        parsed = p.parse_run_reply(reply, reply["seq"] if type(reply["seq"]) is int else 1)
    except p.ProtocolError:
        return
    assert _valid("run-reply", reply)
    assert sum(x is not None for x in (parsed.result, parsed.skipped, parsed.errored)) == 1


_HELLO_PLACES = [
    ("protocol",),
    ("implementation",),
    ("implementation", "name"),
    ("implementation", "version"),
    ("implementation", "language"),
    ("implementation", "homepage"),
    ("capabilities",),
    ("capabilities", "profiles"),
    ("capabilities", "variants"),
    ("capabilities", "observations"),
    ("capabilities", "legal_actions"),
    ("capabilities", "error_codes"),
]
_hello_values = st.one_of(
    st.sampled_from([0, -1, 1, 2, 1.0, True, None, "", "x", "https://example.org", {}, []]),
    st.lists(st.sampled_from(["australian-4", "no-misere", "", "phase"]), max_size=3),
    _json,
)


def _spoiled_hello(changes: list[tuple[tuple[str, ...], bool, Any]]) -> dict[str, Any]:
    """The reference's hello with a few members removed or replaced."""
    hello = json.loads(json.dumps(p.hello_reply(REFERENCE_INFO, REFERENCE_CAPABILITIES)))
    for place, remove, value in changes:
        parent = hello
        for key in place[:-1]:
            parent = parent.get(key) if isinstance(parent, dict) else None
        if isinstance(parent, dict):
            if remove:
                parent.pop(place[-1], None)
            else:
                parent[place[-1]] = value
    return hello


_hellos = st.builds(
    _spoiled_hello,
    st.lists(st.tuples(st.sampled_from(_HELLO_PLACES), st.booleans(), _hello_values), max_size=3),
)


@settings(max_examples=200, deadline=None)
@given(_hellos)
@hypothesis_example(_spoiled_hello([(("capabilities", "variants"), False, ["no-misere", ""])]))
@hypothesis_example(_spoiled_hello([(("capabilities", "observations"), False, ["phase", "phase"])]))
@hypothesis_example(_spoiled_hello([(("protocol",), False, 0)]))
def test_fast_hello_acceptance_implies_the_schema_accepts(hello: dict[str, Any]) -> None:
    fast = p._hello_reply_surely_valid(hello)
    if fast:
        assert _valid("hello-reply", hello), hello
    try:
        parsed = p.parse_hello_reply(hello)
    except p.ProtocolError:
        assert not fast or hello["protocol"] != p.PROTOCOL_VERSION
        return
    assert _valid("hello-reply", hello)
    assert parsed.protocol == hello["protocol"]


def test_the_fast_hello_check_accepts_the_usual_hello() -> None:
    """Without it every run would build a jsonschema validator for the handshake."""
    assert p._hello_reply_surely_valid(p.hello_reply(REFERENCE_INFO, REFERENCE_CAPABILITIES))
