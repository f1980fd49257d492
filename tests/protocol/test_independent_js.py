"""Cross-check from outside: an independent JavaScript implementation, written from the
documents alone, must agree with the scenarios and with the reference.

Two implementations that share no code agreeing on every scenario, and on thousands of
random inputs, is the suite's evidence that the scenarios say what the rules say rather
than what one engine happens to do.  Node.js is required (CI installs it); without it this
test fails rather than skips.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from protocol_helpers import ROOT, cli_here, corpus

pytestmark = pytest.mark.slow  # starts processes or builds the site

ADAPTER = ROOT / "adapters" / "independent-js"
DIFF_ARGS = ("--profile", "all", "--other")


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("Node.js is required for the independent implementation: install nodejs")
    return found


def test_the_independent_implementation_passes_every_scenario(node: str) -> None:
    run = cli_here("verify", "--impl", f"{node} {ADAPTER / 'adapter.js'}", "--format", "json")
    report = run.json()
    failing = [e["id"] for e in report["scenarios"] if e["status"] != "passed"]
    assert failing == [], run.stdout[-4000:]
    assert report["totals"]["passed"] == len(corpus())
    assert run.code == 0


def test_random_inputs_give_the_same_answers_as_the_reference(node: str) -> None:
    """Random scenarios of every profile and every toggle on its own."""
    serve = f"{sys.executable} -m fivehundred serve"
    done = subprocess.run(
        [node, str(ADAPTER / "difftest.js"), *("--n", "400", "--seed", "11"), *DIFF_ARGS, serve],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    report = json.loads(done.stdout)
    assert report["scenarios"] == 400
    assert (report["disagreeing"], report["no_result"]) == (0, 0), done.stdout[-4000:]
    assert done.returncode == 0


def test_its_profiles_and_toggles_are_the_registry(node: str) -> None:
    """The twin keeps its own table of rule sets; a profile or toggle added to the engine's
    registry and not to the twin (or applying to other profiles there) fails here."""
    from fivehundred.engine.profile import PROFILE_NAMES, VARIANTS

    listing = subprocess.run(
        [
            node,
            "-e",
            "const p = require(process.argv[1]);"
            "console.log(JSON.stringify({profiles: Object.keys(p.PROFILES),"
            " variants: p.VARIANTS}))",
            str(ADAPTER / "profiles.js"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    twin = json.loads(listing.stdout)
    assert sorted(twin["profiles"]) == sorted(PROFILE_NAMES)
    assert {k: sorted(v) for k, v in twin["variants"].items()} == {
        name: sorted(v.applies_to) for name, v in VARIANTS.items()
    }


def test_its_self_checks_pass(node: str) -> None:
    """Random legal games of every profile and toggle, checked for invariants and the fixed
    tables of each profile, with no other implementation involved."""
    done = subprocess.run(
        [node, str(ADAPTER / "selftest.js"), "--games", "10", "--seed", "3"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert done.stdout.rstrip().endswith(", 0 failed"), done.stdout[-2000:]
