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

from ... import PROTOCOL_VERSION, SUITE_VERSION
from ..format.model import Checkpoint, Scenario, expected_rejection
from ..format.vocabulary import OBSERVATIONS, Comparison, StepOutcome
from ..loading.parse import input_json

__all__ = ["EXPORT_SCHEMA_ID", "expected_results", "export_corpus"]

EXPORT_SCHEMA_ID = "https://fivehundred.example/schema/export.schema.json"


def expected_results(scenario: Scenario) -> list[dict[str, Any]]:
    """For each step, the step result a conforming implementation gives."""
    results: list[dict[str, Any]] = []
    for step in scenario.steps:
        if isinstance(step, Checkpoint):
            results.append({"observed": dict(step.expect)})
        elif (code := expected_rejection(step)) is not None:
            results.append({"outcome": StepOutcome.REJECTED.value, "code": code})
        else:
            results.append({"outcome": StepOutcome.ACCEPTED.value})
    return results


def _scenario(scenario: Scenario) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": scenario.id,
        "title": scenario.title,
        "area": scenario.area,
        "rules": list(scenario.rules),
        "assert": scenario.assertion,
        "tags": list(scenario.tags),
        "profile": scenario.profile_name,
    }
    if scenario.variants:
        entry["variants"] = list(scenario.variants)
    entry["input"] = input_json(scenario.input())
    entry["expectations"] = expected_results(scenario)
    return entry


def _keys_compared(how: Comparison) -> list[str]:
    return sorted(key.name for key in OBSERVATIONS if key.comparison is how)


def export_corpus(scenarios: Sequence[Scenario]) -> dict[str, Any]:
    """The export document for ``scenarios`` (normally the whole corpus)."""
    return {
        "$schema": EXPORT_SCHEMA_ID,
        "suite": {"version": SUITE_VERSION, "protocol": PROTOCOL_VERSION},
        "comparison": {
            "set_keys": _keys_compared(Comparison.SET),
            "per_seat_keys": _keys_compared(Comparison.PER_SEAT),
            "partial_keys": _keys_compared(Comparison.PARTIAL),
            "lenient_errors": (
                "an implementation that does not report rejection codes compares only "
                "accepted versus rejected"
            ),
        },
        "scenarios": [_scenario(s) for s in scenarios],
    }
