"""``fivehundred export``: the corpus as one JSON file that follows its schema.

Beyond the schema, the file must be usable on its own: each input is exactly the
run message's scenario, and feeding each scenario's expectations back as a result
passes — so a harness comparing against the export judges like the runner does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fivehundred import PROTOCOL_VERSION, SUITE_VERSION
from fivehundred.resources import fast_validator, validator
from fivehundred.scenarios import input_json
from fivehundred.scenarios.derived.export import export_corpus
from fivehundred.verify.verdict import Status, compare
from protocol_helpers import cli_here, corpus


def test_export_follows_its_schema_and_holds_the_whole_corpus() -> None:
    document = json.loads(json.dumps(export_corpus(corpus())))
    assert fast_validator("export.schema.json").is_valid(document)
    assert validator("export.schema.json").is_valid(
        {**document, "scenarios": document["scenarios"][:40]}
    )
    assert document["suite"] == {"version": SUITE_VERSION, "protocol": PROTOCOL_VERSION}
    exported = {entry["id"]: entry for entry in document["scenarios"]}
    assert list(exported) == [s.id for s in corpus()]
    for scenario in corpus():
        entry = exported[scenario.id]
        assert entry["input"] == input_json(scenario.input())
        assert entry["rules"] == list(scenario.rules) and entry["area"] == scenario.area
        assert len(entry["expectations"]) == len(scenario.steps)
        verdict = compare(scenario, {"steps": entry["expectations"]})
        assert verdict.status is Status.PASSED, (scenario.id, verdict.mismatches)


@pytest.mark.slow
def test_export_to_a_file_and_to_stdout_is_the_same_document(tmp_path: Path) -> None:
    target = tmp_path / "corpus.json"
    run = cli_here("export", "--output", str(target))
    assert run.code == 0, run.stderr
    assert f"export: {len(corpus())} scenarios, suite {SUITE_VERSION}" in run.stderr
    run = cli_here("export")
    assert run.code == 0
    assert json.loads(run.stdout) == json.loads(target.read_text(encoding="utf-8"))
    assert json.loads(run.stdout) == json.loads(json.dumps(export_corpus(corpus())))


@pytest.mark.slow
def test_export_refuses_an_invalid_corpus_and_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "area" / "bad.yaml"
    bad.parent.mkdir()
    bad.write_text("id: ZZ22\ntitle: [unclosed\n", encoding="utf-8")
    target = tmp_path / "out.json"
    run = cli_here("export", str(tmp_path / "area"), "-o", str(target))
    assert run.code == 1
    assert "bad.yaml" in run.stderr and "nothing written" in run.stderr
    assert not target.exists()
