"""The registries are the one source: schemas, the format page and the code agree with them."""

from __future__ import annotations

from pathlib import Path

import pytest
from fivehundred.engine import Code
from fivehundred.resources import load_schema
from fivehundred.scenarios.format import sync, vocabulary
from fivehundred.verify.reference import observer_names

ROOT = Path(__file__).resolve().parents[2]


def test_generated_schemas_and_tables_match_the_registries() -> None:
    stale = [
        path.relative_to(ROOT).as_posix()
        for path, text in vocabulary.regenerated(ROOT).items()
        if path.read_text(encoding="utf-8") != text
    ]
    assert stale == [], "run: python -m fivehundred.scenarios.format.sync --write"


def test_the_check_command_says_so_when_a_file_drifts(tmp_path: Path) -> None:
    for relative in [*vocabulary.GENERATED_FILES, *vocabulary.GENERATED_PAGES]:
        target = tmp_path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text((ROOT / relative).read_text(encoding="utf-8"), encoding="utf-8")
    assert sync.main(["--root", str(tmp_path)]) == 0
    page = tmp_path / "site" / "scenario-format.md"
    page.write_text(page.read_text(encoding="utf-8").replace("`legal_count`", "`legal_cnt`"))
    assert sync.main(["--root", str(tmp_path)]) == 1
    assert sync.main(["--root", str(tmp_path), "--write"]) == 0
    assert "`legal_count`" in page.read_text(encoding="utf-8")


def test_a_broken_schema_is_named_with_its_line_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for relative in [*vocabulary.GENERATED_FILES, *vocabulary.GENERATED_PAGES]:
        target = tmp_path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text((ROOT / relative).read_text(encoding="utf-8"), encoding="utf-8")
    schema = tmp_path / "schema" / "scenario.schema.json"
    schema.write_text('{\n  "a": 1,\n', encoding="utf-8")  # as a bad merge leaves it
    assert sync.main(["--root", str(tmp_path), "--write"]) == 2
    assert f"{schema}:3:1: not JSON" in capsys.readouterr().err
    assert schema.read_text(encoding="utf-8") == '{\n  "a": 1,\n'  # nothing rewritten


def test_every_registered_observation_has_a_reference_observer_and_no_other() -> None:
    assert list(observer_names()) == list(vocabulary.OBSERVATION_NAMES)


def test_every_engine_code_is_published_once() -> None:
    published = [code for code, _ in vocabulary.REJECTION_CODES]
    assert sorted(published) == sorted(c.value for c in Code)
    assert len(published) == len(set(published))


def test_the_schema_lists_exactly_the_registered_starts_and_observations() -> None:
    schema = load_schema("scenario.schema.json")["$defs"]
    assert schema["setup"]["properties"]["start"]["enum"] == [s.name for s in vocabulary.STARTS]
    assert list(schema["observations"]["properties"]) == list(vocabulary.OBSERVATION_NAMES)
    run = load_schema("protocol/run.schema.json")["$defs"]
    assert run["observation"]["enum"] == list(vocabulary.OBSERVATION_NAMES)


@pytest.mark.parametrize("start", vocabulary.STARTS, ids=lambda s: s.name)
def test_each_start_kind_allows_exactly_its_fields(start: vocabulary.StartKind) -> None:
    """The schema's per-start conditions forbid every field the registry does not list."""
    setup = load_schema("scenario.schema.json")["$defs"]["setup"]
    fields = set(setup["properties"]) - {"start"}
    branch = next(
        rule["then"]
        for rule in setup["allOf"]
        if rule["if"]["properties"]["start"]["const"] == start.name
    )
    forbidden = {k for k, v in branch.get("properties", {}).items() if v is False}
    allowed = fields - forbidden
    assert allowed == set(start.required) | set(start.optional)
    assert set(branch.get("required", [])) | {"dealer"} >= set(start.required)


def test_the_schema_step_branches_are_the_registered_step_kinds_in_order() -> None:
    branches = load_schema("scenario.schema.json")["$defs"]["step"]["anyOf"]
    names = [b["$ref"].rsplit("/", 1)[1].removesuffix("_step") for b in branches]
    assert names == [k.name for k in vocabulary.STEP_KINDS if k.in_file]
