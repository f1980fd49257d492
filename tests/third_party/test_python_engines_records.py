"""What is committed for the halbrd and vinceau engines agrees with itself: engine.json
names the pinned commit and the report, the report (made against that commit) validates
and names the engine, and deviations.yaml puts every failed or errored scenario of the
report in exactly one family, with one to three examples and real rule anchors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from fivehundred.resources import validator
from fivehundred.scenarios.rulings import anchor_exists

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ("halbrd", "vinceau")


def load(name: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    folder = ROOT / "adapters" / "third-party" / name
    engine = json.loads((folder / "engine.json").read_text(encoding="utf-8"))
    report = json.loads((ROOT / engine["report"]).read_text(encoding="utf-8"))
    deviations = yaml.safe_load((folder / "deviations.yaml").read_text(encoding="utf-8"))
    return engine, report, deviations


@pytest.mark.parametrize("name", ENGINES)
def test_the_report_is_of_the_pinned_commit(name: str) -> None:
    engine, report, _ = load(name)
    assert engine["name"] == name
    assert re.fullmatch(r"[0-9a-f]{40}", engine["commit"])
    assert engine["checkout_variable"] == f"FIVEHUNDRED_{name.upper()}_PATH"
    assert engine["report"] == f"results/{name}.json"
    assert validator("report.schema.json").is_valid(report)
    assert report["implementation"]["version"] == engine["commit"][:7]
    assert report["implementation"]["homepage"] == engine["repository"]
    assert report["run"]["command"] == engine["command"]


@pytest.mark.parametrize("name", ENGINES)
def test_every_failure_is_in_exactly_one_family(name: str) -> None:
    _, report, deviations = load(name)
    assert deviations["engine"] == name
    failing = {s["id"] for s in report["scenarios"] if s["status"] in ("failed", "errored")}
    listed = [scenario for family in deviations["families"] for scenario in family["scenarios"]]
    assert sorted(listed) == sorted(failing)  # each once, and nothing that did not fail
    for family in deviations["families"]:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", family["id"])
        assert family["sentence"].endswith(".")
        assert 1 <= len(family["examples"]) <= 3
        assert set(family["examples"]) <= set(family["scenarios"])
        assert family["rulings"]
        assert all(anchor_exists(slug) for slug in family["rulings"])
