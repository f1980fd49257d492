"""The misreadings of the other rule sets: each names real rule sets, breaks a rule point
where they differ from the default, and acts only on the rule sets it names."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest
from fivehundred.engine import get_profile
from fivehundred.scenarios.derived.rule_points import differing_fields, rule_fields
from protocol_helpers import ROOT

ADAPTER = ROOT / "adapters" / "independent-js"


def _node(script: str) -> Any:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is required for the independent implementation: install nodejs")
    done = subprocess.run(
        [node, "-e", script], cwd=ADAPTER, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def _info() -> list[dict[str, Any]]:
    script = "console.log(JSON.stringify([...require('./misreadings').INFO.values()]))"
    found: list[dict[str, Any]] = _node(script)
    return found


def test_at_least_thirty_misreadings_break_the_other_rule_sets() -> None:
    others = [m for m in _info() if m["profiles"] != ["australian-4"]]
    assert len(others) >= 30


def test_each_names_a_rule_field_and_real_rule_sets() -> None:
    """The rule point is a field of the reference's profile; most are points where the rule
    set differs from the default (the three-handed game keeping the default's auction can
    still be misread as the American one-round auction)."""
    differing = set()
    for misreading in _info():
        if misreading["number"] is not None:
            continue  # a ruling of the default profile
        assert misreading["slug"] in rule_fields(), misreading["name"]
        for label in misreading["profiles"]:
            profile, *toggles = label.split("+")
            rules = get_profile(profile, toggles)  # raises for a set that does not exist
            if misreading["slug"] in differing_fields(rules):
                differing.add(misreading["name"])
    assert len(differing) >= 30


def test_a_misreading_acts_only_on_the_rule_sets_it_names() -> None:
    script = """
    const M = require('./misreadings');
    const P = (name, ...v) => ({ name, variants: new Set(v) });
    console.log(JSON.stringify([
      M.appliesTo('nullo-partner-plays', P('american-4')),
      M.appliesTo('nullo-partner-plays', P('american-4', 'all-pass-no-trumps')),
      M.appliesTo('nullo-partner-plays', P('australian-4')),
      M.appliesTo('inkles-six-is-played', P('australian-4', 'inkles')),
      M.appliesTo('inkles-six-is-played', P('australian-4')),
      M.appliesTo('misere-by-value', P('australian-4', 'inkles')),
      M.appliesTo('misere-by-value', P('american-4')),
    ]));
    """
    assert _node(script) == [True, True, False, True, False, True, False]
