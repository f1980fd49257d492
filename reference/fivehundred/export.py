"""The whole corpus as one versioned JSON file, for implementers who will not parse YAML.

Each scenario carries its ``input`` — byte for byte what a ``run`` message would
carry — and its ``expectations``: one entry per step shaped like the step result an
implementation must produce (``{"outcome": …}`` or ``{"observed": …}``), so a
harness can compare its own answers without the runner.  The comparison rules the
runner applies (which observations are sets, which are partial) travel with the
file.  Schema: ``schema/export.schema.json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import PROTOCOL_VERSION, SUITE_VERSION
from .scenario import Scenario, step_kind
from .verdict import PER_SEAT_KEYS, SET_KEYS, TRICK_KEYS

__all__ = ["EXPORT_SCHEMA_ID", "expected_results", "export_corpus"]

EXPORT_SCHEMA_ID = "https://fivehundred.example/schema/export.schema.json"


def expected_results(scenario: Scenario) -> list[dict[str, Any]]:
    """For each step, the step result a conforming implementation gives."""
    results: list[dict[str, Any]] = []
    for step in scenario.steps:
        if step_kind(step) == "expect":
            results.append({"observed": dict(step["expect"])})
        elif "reject" in step:
            results.append({"outcome": "rejected", "code": step["reject"]})
        else:
            results.append({"outcome": "accepted"})
    return results


def _scenario(scenario: Scenario) -> dict[str, Any]:
    return {
        "id": scenario.id,
        "title": scenario.title,
        "area": scenario.area,
        "rules": list(scenario.rules),
        "assert": scenario.assertion,
        "tags": list(scenario.tags),
        "profile": scenario.profile_name,
        "input": scenario.input(),
        "expectations": expected_results(scenario),
    }


def export_corpus(scenarios: Sequence[Scenario]) -> dict[str, Any]:
    """The export document for ``scenarios`` (normally the whole corpus)."""
    return {
        "$schema": EXPORT_SCHEMA_ID,
        "suite": {"version": SUITE_VERSION, "protocol": PROTOCOL_VERSION},
        "comparison": {
            "set_keys": sorted(SET_KEYS),
            "per_seat_keys": sorted(PER_SEAT_KEYS),
            "partial_keys": sorted(TRICK_KEYS),
            "lenient_errors": (
                "an implementation that does not report rejection codes compares only "
                "accepted versus rejected"
            ),
        },
        "scenarios": [_scenario(s) for s in scenarios],
    }
