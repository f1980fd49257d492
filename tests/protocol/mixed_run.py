"""One run with every outcome, shared by the expectations and report-format tests.

Six scenarios through ``adapters/partial.py``: one fails as the expectations file
says, one fails unexpectedly, one errors, one is skipped by the adapter, one passes
although listed as failing, and one simply passes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml
from fivehundred.scenarios import Checkpoint, Scenario, expected_rejection
from protocol_helpers import adapter, id_options, passing


@dataclass
class MixedRun:
    expected_failure: str
    failure: str
    error: str
    skip: str
    unexpected_pass: str
    passing: str
    command: str
    expectations: Path

    @property
    def ids(self) -> list[str]:
        return [
            self.expected_failure,
            self.failure,
            self.error,
            self.skip,
            self.unexpected_pass,
            self.passing,
        ]

    def options(self, scenarios: list[Scenario]) -> list[str]:
        return ["verify", "--impl", self.command, *id_options(scenarios)]


def _has_accepted_step(scenario: Scenario) -> bool:
    return any(
        not isinstance(s, Checkpoint) and expected_rejection(s) is None for s in scenario.steps
    )


def mixed_run(tmp_path: Path, marker: str) -> tuple[MixedRun, list[Scenario]]:
    """Pick the six scenarios (across areas), build the adapter command and the file."""
    candidates = [s for s in passing() if _has_accepted_step(s)]
    chosen: list[Scenario] = []
    areas: set[str] = set()
    for scenario in candidates:  # prefer a new area each time, for per-area reports
        if scenario.area not in areas:
            chosen.append(scenario)
            areas.add(scenario.area)
        if len(chosen) == 6:
            break
    for scenario in candidates:
        if len(chosen) == 6:
            break
        if scenario not in chosen:
            chosen.append(scenario)
    assert len(chosen) == 6
    ids = [s.id for s in chosen]
    command = adapter("partial.py", f"{ids[0]},{ids[1]}", ids[2], ids[3], marker=marker)
    expectations = tmp_path / "expectations.yaml"
    expectations.write_text(
        yaml.safe_dump(
            {
                ids[0]: {"status": "fail", "reason": "known bug", "link": "https://example.org/1"},
                # as --write-expectations writes it: the step and check of the failure
                ids[4]: {
                    "status": "fail",
                    "reason": "was broken, now fixed",
                    "step": 1,
                    "check": "phase",
                },
            }
        ),
        encoding="utf-8",
    )
    return MixedRun(*ids, command=command, expectations=expectations), chosen
