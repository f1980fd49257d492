"""The bundled corpus: valid, unique, and covering every ruling."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from fivehundred.scenarios.format.rulings import RULINGS
from fivehundred.scenarios.loading.corpus import ID_PATTERN, load_corpus, read_retired_ids

CORPUS = load_corpus()


def test_every_bundled_file_is_valid() -> None:
    assert [str(d) for d in CORPUS.diagnostics] == []


def test_ids_are_well_formed_unique_and_never_retired() -> None:
    ids = [s.id for s in CORPUS.scenarios]
    assert all(ID_PATTERN.match(i) for i in ids)
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    assert set(ids) & read_retired_ids() == set()


def test_every_ruling_is_illustrated_by_a_scenario() -> None:
    cited = {anchor for s in CORPUS.scenarios for anchor in s.rules}
    assert [r.slug for r in RULINGS if r.slug not in cited] == []


def test_the_seed_worked_example_is_in_the_corpus() -> None:
    assert any("worked-example" in s.rules for s in CORPUS.scenarios)


def test_every_scenario_lives_in_an_area_folder() -> None:
    assert [str(s.path) for s in CORPUS.scenarios if not s.area] == []


def test_every_file_points_editors_at_the_schema() -> None:
    missing = [
        str(s.path)
        for s in CORPUS.scenarios
        if s.path is not None
        and not s.path.read_text(encoding="utf-8").startswith(
            "# yaml-language-server: $schema=../../schema/scenario.schema.json"
        )
    ]
    assert missing == []


def test_every_schema_property_is_described() -> None:
    """Editors show these descriptions while a scenario is typed; none may be missing."""
    from fivehundred.resources import load_schema

    missing: list[str] = []

    def walk(node: object, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.get("properties", {}).items():
                if isinstance(value, dict) and "if" not in path and "description" not in value:
                    missing.append(f"{path}/{key}")
            for key, value in node.items():
                walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}/{i}")

    walk(load_schema("scenario.schema.json"), "")
    assert missing == []


def test_no_scenario_writes_an_id_other_yaml_parsers_read_as_a_number() -> None:
    """``73E5`` is text to PyYAML but a float to YAML 1.2 tools (check-jsonschema, editors)."""
    from fivehundred.cli.scaffold import NUMBER_LIKE

    root = Path(__file__).resolve().parents[2] / "scenarios"
    unquoted = [
        path.name
        for path in root.rglob("*.yaml")
        for line in path.read_text(encoding="utf-8").splitlines()[:3]
        if line.startswith("id: ") and NUMBER_LIKE.fullmatch(line[4:].strip())
    ]
    assert unquoted == []
