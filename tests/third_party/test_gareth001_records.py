"""What is committed for Gareth001/500 agrees with itself: engine.json names the pinned
commit, the command and the report; the report (made against that commit) validates and
names the engine; and deviations.yaml puts every failed or errored scenario of the report
in exactly one family, with one to three examples and rule anchors that exist."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml
from fivehundred.resources import validator
from fivehundred.scenarios.rulings import anchor_exists

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "adapters" / "third-party" / "gareth001"


def engine() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FOLDER / "engine.json").read_text(encoding="utf-8"))
    return loaded


def report() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((ROOT / engine()["report"]).read_text(encoding="utf-8"))
    return loaded


def test_the_report_is_of_the_pinned_commit() -> None:
    pinned = engine()
    made = report()
    assert pinned["name"] == "gareth001"
    assert re.fullmatch(r"[0-9a-f]{40}", pinned["commit"])
    assert pinned["checkout_variable"] == "FIVEHUNDRED_GARETH001_PATH"
    assert pinned["report"] == "results/gareth001.json"
    assert validator("report.schema.json").is_valid(made)
    assert made["implementation"]["name"] == "gareth001"
    assert made["implementation"]["version"] == pinned["commit"][:7]
    assert made["implementation"]["homepage"] == pinned["repository"]
    assert made["run"]["command"] == pinned["command"]
    # The adapter says the same commit it was run against.
    assert pinned["commit"] in (FOLDER / "adapter.py").read_text(encoding="utf-8")


def test_every_failure_is_in_exactly_one_family() -> None:
    deviations = yaml.safe_load((FOLDER / "deviations.yaml").read_text(encoding="utf-8"))
    assert deviations["engine"] == "gareth001"
    failing = {s["id"] for s in report()["scenarios"] if s["status"] in ("failed", "errored")}
    listed = [scenario for family in deviations["families"] for scenario in family["scenarios"]]
    assert sorted(listed) == sorted(failing)  # each once, and nothing that did not fail
    for family in deviations["families"]:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", family["id"])
        assert family["sentence"].endswith(".")
        assert 1 <= len(family["examples"]) <= 3
        assert set(family["examples"]) <= set(family["scenarios"])
        assert family["rulings"]
        assert all(anchor_exists(slug) for slug in family["rulings"])
