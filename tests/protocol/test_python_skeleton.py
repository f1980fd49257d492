"""The Python adapter skeleton speaks the protocol, declares partial capabilities and,
as shipped, skips everything: a run in which nothing was checked, which exits 1."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest
from fivehundred.resources import validator
from fivehundred.verify import protocol as p
from protocol_helpers import ROOT, cli_here, corpus

pytestmark = pytest.mark.slow  # starts processes

SKELETON = ROOT / "adapters" / "python-skeleton" / "adapter.py"


def test_hello_reply_follows_the_schema_and_declares_observations() -> None:
    done = subprocess.run(
        [sys.executable, str(SKELETON)],
        input=p.encode(p.hello()) + p.encode(p.bye()),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    reply = json.loads(lines[0])
    assert validator("protocol/hello-reply.schema.json").is_valid(reply)
    hello = p.parse_hello_reply(reply)
    assert hello.capabilities == p.Capabilities(
        ("australian-4",), False, False, ("phase", "to_act")
    )


def test_the_skeleton_is_dependency_free() -> None:
    source = SKELETON.read_text(encoding="utf-8")
    imports = {line.split()[1] for line in source.splitlines() if line.startswith("import ")}
    assert imports <= {"json", "sys", "traceback"}
    assert not [line for line in source.splitlines() if line.startswith("from ")]


def test_the_whole_suite_is_skipped_and_nothing_checked(marker: str) -> None:
    command = shlex.join([sys.executable, str(SKELETON), marker])
    run = cli_here("verify", "--impl", command, "--format", "json")
    report = run.json()
    assert run.code == 1, run.stderr
    assert report["implementation"]["name"] == "python-skeleton"
    assert report["totals"]["skipped"] == len(corpus())
    assert report["coverage"]["nothing_checked"] is True
