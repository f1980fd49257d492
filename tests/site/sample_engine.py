"""A small sample third-party engine for the tests of the conformance page: its
``engine.json``, its ``deviations.yaml`` and its report, made from the reference's
committed report with chosen scenarios failed, errored and skipped.

The real engines' files arrive with their adapters; these tests need one that is
there whatever the branch, and whose every number is known.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
REFERENCE_REPORT = REPO / "results" / "reference.json"
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def engine_json(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "title": f"example/{name}",
        "repository": f"https://github.com/example/{name}",
        "commit": COMMIT,
        "language": "Ruby",
        "checkout_variable": f"FIVEHUNDRED_{name.upper().replace('-', '_')}_PATH",
        "command": f"python3 adapters/third-party/{name}/adapter.py",
        "system_packages": ["ruby"],
        "report": f"results/{name}.json",
    }


def sample_report(
    name: str,
    failed: Sequence[str] = (),
    errored: Sequence[str] = (),
    skipped: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The reference's report, as if made by engine ``name`` with those scenarios failed,
    errored and skipped (id to reason)."""
    document: dict[str, Any] = copy.deepcopy(json.loads(REFERENCE_REPORT.read_text("utf-8")))
    document["implementation"] = {
        "name": name,
        "version": COMMIT[:7],
        "language": "ruby",
        "homepage": f"https://github.com/example/{name}",
    }
    skipped = skipped or {}
    for entry in document["scenarios"]:
        if entry["id"] in failed:
            entry.update(status="failed", outcome="failed", fails_run=True)
        elif entry["id"] in errored:
            entry.update(status="errored", outcome="errored", fails_run=True, message="boom")
        elif entry["id"] in skipped:
            entry.update(status="skipped", outcome="skipped", message=skipped[entry["id"]])
    return document


def write_engine(
    root: Path,
    name: str,
    families: Sequence[Mapping[str, Any]],
    report: Mapping[str, Any] | None,
) -> None:
    """The engine's folder under ``root/adapters/third-party/`` and its report under
    ``root/results/`` (none when ``report`` is None)."""
    folder = root / "adapters" / "third-party" / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "engine.json").write_text(json.dumps(engine_json(name), indent=2) + "\n")
    deviations = {"engine": name, "families": [dict(f) for f in families]}
    (folder / "deviations.yaml").write_text(yaml.safe_dump(deviations, sort_keys=False))
    if report is not None:
        (root / "results").mkdir(exist_ok=True)
        (root / "results" / f"{name}.json").write_text(json.dumps(report, indent=1) + "\n")


def family(family_id: str, sentence: str, scenarios: Sequence[str]) -> dict[str, Any]:
    return {
        "id": family_id,
        "sentence": sentence,
        "rulings": [],
        "examples": list(scenarios[:2]),
        "scenarios": list(scenarios),
    }
