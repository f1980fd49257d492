"""``fivehundred profiles``: every rule set and toggle, one line each, and as JSON."""

from __future__ import annotations

import json

from click.testing import CliRunner
from fivehundred.cli import main
from fivehundred.engine import PROFILE_NAMES, VARIANTS


def test_every_profile_and_toggle_has_one_line() -> None:
    result = CliRunner().invoke(main, ["profiles"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for name in PROFILE_NAMES:
        (line,) = [x for x in lines if x.split()[:1] == [name]]
        assert len(line.split()) > 1  # with its title
    for name, variant in VARIANTS.items():
        (line,) = [x for x in lines if x.split()[:1] == [name]]
        assert variant.description in line and ", ".join(variant.applies_to) in line


def test_json_lists_the_same_with_titles_toggles_and_sources() -> None:
    result = CliRunner().invoke(main, ["profiles", "--format", "json"])
    assert result.exit_code == 0
    listing = json.loads(result.output)
    assert listing["default"] == "australian-4"
    assert [p["name"] for p in listing["profiles"]] == list(PROFILE_NAMES)
    assert {v["name"] for v in listing["variants"]} == set(VARIANTS)
    australian = listing["profiles"][0]
    assert australian["seats"] == 4 and "no-misere" in australian["variants"]
    no_misere = next(v for v in listing["variants"] if v["name"] == "no-misere")
    assert no_misere["applies_to"] == ["australian-4"] and "seed 004" in no_misere["source"]
