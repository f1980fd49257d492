"""What is committed for every third-party engine agrees with itself and with the suite:
its ``engine.json`` pins a commit, its report in ``results/`` was made against that commit
with the adapter's documented command and names the engine, and its ``deviations.yaml``
puts every failed or errored scenario of the report in exactly one family (the conformance
page's own check, :func:`fivehundred.site.results.load_engines`, run on the repository)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fivehundred.site.results import RESULTS_DIR, load_engines, load_reports

ROOT = Path(__file__).resolve().parents[2]
ENGINES = sorted(p.parent.name for p in (ROOT / "adapters" / "third-party").glob("*/engine.json"))


def test_there_are_the_engines_the_results_page_shows() -> None:
    assert {"waldo", "jaymehuskinson", "halbrd", "vinceau", "gareth001"} <= set(ENGINES)


def test_every_engine_s_files_and_families_fit_its_report() -> None:
    reports, problems = load_reports(ROOT / RESULTS_DIR)
    engines, more = load_engines(ROOT, reports)
    assert problems + more == []
    assert sorted(e.engine.name for e in engines) == ENGINES
    assert all(e.families for e in engines)


@pytest.mark.parametrize("name", ENGINES)
def test_the_report_is_of_the_pinned_commit_and_the_documented_command(name: str) -> None:
    engine = json.loads((ROOT / "adapters/third-party" / name / "engine.json").read_text())
    report = json.loads((ROOT / engine["report"]).read_text())
    assert report["implementation"]["version"] == engine["commit"][:7]
    assert report["implementation"]["homepage"] == engine["repository"]
    assert report["run"]["command"] == engine["command"]
    readme = (ROOT / "adapters/third-party" / name / "README.md").read_text()
    assert engine["commit"] in readme
