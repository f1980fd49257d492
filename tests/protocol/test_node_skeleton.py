"""The Node.js adapter skeleton speaks the protocol and skips everything, as shipped:
a run in which nothing was checked, which says so and exits 1.

CI installs Node.js; without it this test fails rather than skips, so a missing
runtime can never make the skeleton silently untested.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess

import pytest
from fivehundred.resources import validator
from fivehundred.verify import protocol as p
from protocol_helpers import ROOT, cli_here, corpus, id_options

pytestmark = pytest.mark.slow  # starts processes or builds the site

SKELETON = ROOT / "adapters" / "node-skeleton" / "adapter.js"


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node") or ("/usr/bin/node" if shutil.which("/usr/bin/node") else None)
    if found is None:
        pytest.fail(
            "Node.js is required for the adapter skeleton test: install nodejs (node on PATH)"
        )
    return found


def _command(node: str, marker: str, *extra: str) -> str:
    # Node ignores arguments after the script; the marker lets the fixture find strays.
    return shlex.join([node, str(SKELETON), *extra, marker])


def test_hello_reply_follows_the_schema(node: str) -> None:
    done = subprocess.run(
        [node, str(SKELETON)],
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
    assert hello.capabilities == p.Capabilities(("australian-4",), False, False)


def test_the_whole_suite_is_skipped_and_the_run_says_nothing_was_checked(
    node: str, marker: str
) -> None:
    run = cli_here("verify", "--impl", _command(node, marker), "--format", "json")
    report = run.json()
    assert run.code == 1, run.stderr  # nothing checked is never a pass
    assert report["implementation"]["name"] == "node-skeleton"
    assert report["run"]["lenient_errors"] is True  # error_codes: false
    assert report["totals"]["skipped"] == report["totals"]["total"] == len(corpus())
    reasons = {e["profile"]: set() for e in report["scenarios"]}
    for entry in report["scenarios"]:
        reasons[entry["profile"]].add(entry["message"])
    # The default profile's scenarios are all sent and refused by the skeleton; the other
    # rule sets, which it does not declare, are never sent.
    assert all(r.startswith("not implemented: ") for r in reasons.pop("australian-4"))
    assert reasons and all(
        r.startswith(f"profile {label.split('+')[0]} is not supported") or r.startswith("variant ")
        for label, messages in reasons.items()
        for r in messages
    )
    assert report["coverage"]["headline"].startswith(
        f"Nothing was checked: checked 0 of {len(corpus())} scenarios"
    )


def test_one_shot_mode_works_too(node: str, marker: str) -> None:
    chosen = list(corpus())[::200]  # a process each: a few show the mode works
    run = cli_here(
        "verify",
        "--impl",
        _command(node, marker, "--one-shot"),
        "--one-shot",
        *id_options(chosen),
        "--format",
        "json",
    )
    assert run.code == 1, run.stderr  # everything skipped: nothing checked
    report = run.json()
    assert report["totals"]["skipped"] == len(chosen)
    # sent to an adapter process of its own and skipped there, not only by the runner
    assert any(s["message"].startswith("not implemented") for s in report["scenarios"])


def test_skips_are_listed_with_their_reasons(node: str, marker: str) -> None:
    chosen = [s for s in corpus() if s.area == "deal"]
    text = cli_here("verify", "--impl", _command(node, marker), *id_options(chosen))
    assert text.code == 1, text.stderr
    assert f"{len(chosen)} skipped" in text.stdout
    assert "Nothing was checked" in text.stdout
    assert "SKIPPED" in text.stdout and "not implemented: " in text.stdout
    assert all(s.id in text.stdout for s in chosen)
    markdown = cli_here(
        "verify", "--impl", _command(node, marker), *id_options(chosen), "--format", "markdown"
    )
    assert "## Skipped" in markdown.stdout
    assert "**Nothing was checked**" in markdown.stdout
    assert all(s.id in markdown.stdout for s in chosen)
