"""The cache of checked documents: reused by content and only under the code that checked
them, sealed against damage, never required, never a crash."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fivehundred.resources import scenarios_dir
from fivehundred.scenarios import Scenario, load_file
from fivehundred.scenarios.loading import _cache, corpus, disputes
from fivehundred.scenarios.loading.corpus import load_file_once
from scenario_texts import GOOD


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "cache"
    monkeypatch.setenv(_cache.CACHE_VARIABLE, str(folder))
    _forget_folders()
    yield folder
    _forget_folders()


def _forget_folders() -> None:
    for cached in (_cache._folder, _cache._code_folder, _cache._mark_used):
        cached.cache_clear()


def _as_code(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    """Run as if the package's code hashed to ``code``."""
    monkeypatch.setattr(_cache, "checked_by", lambda: code)
    _forget_folders()


def _scenario_file(tmp_path: Path, text: str = GOOD) -> Path:
    path = tmp_path / "suite" / "area" / "good.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_checked_file_is_stored_and_read_back_as_the_same_scenario(
    cache_dir: Path, tmp_path: Path
) -> None:
    path = _scenario_file(tmp_path)
    first = load_file(path, path.parent.parent)
    assert first.scenario is not None and _cache.lookup(GOOD) is not None
    assert len(list(cache_dir.rglob("*.json"))) == 1
    second = load_file(path, path.parent.parent)
    assert second.scenario == first.scenario
    assert second.scenario is not None and second.scenario.step_mark(1) is not None
    assert second.scenario.step_mark(1) == first.scenario.step_mark(1)  # found from the text


def test_an_invalid_file_is_never_stored(cache_dir: Path, tmp_path: Path) -> None:
    path = _scenario_file(tmp_path, GOOD.replace("call: 6C", "call: 6X"))
    assert load_file(path, path.parent.parent).diagnostics
    assert not cache_dir.exists() or not list(cache_dir.rglob("*.json"))


@pytest.mark.parametrize("damage", ["not json", "[1, 2]", '{"id": "ZZ22"}'])
def test_a_damaged_entry_is_a_miss_not_a_crash(
    cache_dir: Path, tmp_path: Path, damage: str
) -> None:
    path = _scenario_file(tmp_path)
    load_file(path, path.parent.parent)
    (entry,) = cache_dir.rglob("*.json")
    entry.write_text(damage, encoding="utf-8")
    assert _cache.lookup(GOOD) is None
    result = load_file(path, path.parent.parent)
    assert result.scenario is not None and not result.diagnostics


def test_the_cache_can_be_turned_off_and_an_unwritable_one_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _scenario_file(tmp_path)
    for setting in ("off", str(path)):  # a file where a folder should be
        monkeypatch.setenv(_cache.CACHE_VARIABLE, setting)
        _forget_folders()
        assert load_file(path, path.parent.parent).scenario is not None
        assert _cache.lookup(GOOD) is None
    _forget_folders()


def test_a_file_changed_on_disk_is_loaded_again(cache_dir: Path, tmp_path: Path) -> None:
    path = _scenario_file(tmp_path)
    root = path.parent.parent
    before = load_file_once(path, root)
    path.write_text(GOOD.replace("ZZ22", "ZZ23"), encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    after = load_file_once(path, root)
    assert before.scenario is not None and after.scenario is not None
    assert (before.scenario.id, after.scenario.id) == ("ZZ22", "ZZ23")
    assert json.loads(json.dumps(after.diagnostics)) == []


def test_a_file_replaced_with_the_same_size_and_time_is_loaded_again(
    cache_dir: Path, tmp_path: Path
) -> None:
    """An editor that saves by renaming a new file over the old one keeps neither inode:
    the reload is keyed by the file itself, not only by its size and modification time."""
    path = _scenario_file(tmp_path)
    root = path.parent.parent
    before = load_file_once(path, root)
    stat = path.stat()
    replacement = path.with_suffix(".new")
    replacement.write_text(GOOD.replace("ZZ22", "ZZ23"), encoding="utf-8")
    os.utime(replacement, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    os.replace(replacement, path)
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (stat.st_size, stat.st_mtime_ns)
    after = load_file_once(path, root)
    assert before.scenario is not None and after.scenario is not None
    assert (before.scenario.id, after.scenario.id) == ("ZZ22", "ZZ23")


def test_a_moved_entry_is_a_miss(cache_dir: Path, tmp_path: Path) -> None:
    """Each entry is sealed with its own key: another text's entry copied over it is
    never read as this text's document."""
    other = GOOD.replace("ZZ22", "ZZ23")
    path = _scenario_file(tmp_path)
    load_file(path, path.parent.parent)
    path.write_text(other, encoding="utf-8")
    load_file(path, path.parent.parent)
    entries = sorted(cache_dir.rglob("*.json"), key=lambda e: e.stat().st_mtime_ns)
    assert len(entries) == 2
    entries[0].write_bytes(entries[1].read_bytes())
    assert _cache.lookup(GOOD) is None
    path.write_text(GOOD, encoding="utf-8")
    reloaded = load_file(path, path.parent.parent)
    assert reloaded.scenario is not None and reloaded.scenario.id == "ZZ22"


def test_lint_is_reused_only_under_the_same_code(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _scenario_file(tmp_path)
    first = load_file(path, path.parent.parent)
    assert first.scenario is not None
    linted: list[str] = []

    def counting_lint(scenario: Scenario) -> list[object]:
        linted.append(scenario.id)
        return []

    monkeypatch.setattr(corpus, "lint_scenario", counting_lint)
    again = load_file(path, path.parent.parent)
    assert again.scenario == first.scenario and linted == []  # clean under this code
    _as_code(monkeypatch, "another version of the code")
    assert _cache.lookup(GOOD) is None  # checked by other code: not believed at all
    assert load_file(path, path.parent.parent).scenario == first.scenario
    assert linted == ["ZZ22"]  # read from the YAML and linted again; the entry rewritten
    assert load_file(path, path.parent.parent).scenario == first.scenario
    assert linted == ["ZZ22"]


def test_a_document_lint_refuses_is_linted_again_at_every_load(
    cache_dir: Path, tmp_path: Path
) -> None:
    path = _scenario_file(tmp_path, GOOD.replace("[bid-must-outrank]", "[no-such-rule]"))
    first = load_file(path, path.parent.parent)
    entry = _cache.lookup(path.read_text(encoding="utf-8"))
    assert entry is not None and not entry.lint_clean  # stored past the schema, not as clean
    second = load_file(path, path.parent.parent)
    assert first.scenario is None and second.scenario is None
    assert [(d.line, d.column, d.message) for d in second.diagnostics] == [
        (d.line, d.column, d.message) for d in first.diagnostics
    ]
    assert "no rule anchor 'no-such-rule'" in first.diagnostics[0].message


def test_a_dispute_record_is_read_back_from_the_cache(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = next(iter(sorted((scenarios_dir() / "disputes").glob("*.yaml"))))
    path = tmp_path / source.name
    shutil.copyfile(source, path)
    first, problems = disputes.load_dispute_file(path)
    assert first is not None and problems == []

    def no_yaml(text: str) -> object:
        raise AssertionError("read through YAML although cached")

    monkeypatch.setattr(corpus, "load_yaml_plain", no_yaml)
    second, problems = disputes.load_dispute_file(path)
    assert second == first and problems == []


def test_an_entry_that_is_not_a_regular_file_is_a_miss(cache_dir: Path, tmp_path: Path) -> None:
    """A FIFO where an entry should be would block a plain read forever."""
    path = _scenario_file(tmp_path)
    load_file(path, path.parent.parent)
    (entry,) = cache_dir.rglob("*.json")
    entry.unlink()
    os.mkfifo(entry)
    assert _cache.lookup(GOOD) is None
    assert load_file(path, path.parent.parent).scenario is not None


def _forge(text: str, stored: str) -> None:
    """Write an entry for ``text`` with a correct seal, as only a deliberate forger could."""
    key = _cache._key(text, _cache.SCENARIO_SCHEMA)
    assert key is not None
    body = stored.encode("utf-8")
    entry = Path(_cache._path(key))
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_bytes(_cache._seal(key, body) + b"\n" + body)


@pytest.mark.parametrize(
    "document",
    [
        '{"id": 5}',  # no scenario at all
        '{"id": "ZZ22", "title": "t", "rules": 7, "assert": "a", "setup": {}, "steps": []}',
        "[" * 100_000 + "]" * 100_000,  # deeper than the JSON reader goes
    ],
)
def test_a_sealed_entry_that_is_no_scenario_is_read_from_the_yaml_instead(
    cache_dir: Path, tmp_path: Path, document: str
) -> None:
    """Forging needs intent (the seal is computed here), but even then: no traceback."""
    path = _scenario_file(tmp_path)
    checked_by = json.dumps(_cache.checked_by())
    stored = f'{{"document": {document}, "checked_by": {checked_by}, "lint_clean": true}}'
    _forge(GOOD, stored)
    result = load_file(path, path.parent.parent)
    assert result.scenario is not None and result.scenario.title.startswith("A declarer")
    assert not result.diagnostics


def test_the_checking_libraries_versions_are_part_of_what_checked_an_entry() -> None:
    from importlib.metadata import version

    expected = [
        f"{name}-{version(dist)}"
        for name, dist in (
            ("jsonschema", "jsonschema"),
            ("jsonschema_rs", "jsonschema-rs"),
            ("pyyaml", "PyYAML"),
        )
    ]
    assert _cache._checker_versions() == expected


def test_no_home_folder_means_no_cache_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    for variable in (_cache.CACHE_VARIABLE, "XDG_CACHE_HOME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(Path, "home", no_home)
    _forget_folders()
    try:
        assert _cache._folder() is None and _cache.lookup(GOOD) is None
    finally:
        _forget_folders()


def test_each_code_keeps_its_own_entries_and_the_least_recently_used_are_removed(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two checkouts of different code sharing a cache do not overwrite each other's
    entries; past the last few codes used, the oldest code's folder goes, and nothing
    else in the folder is touched."""
    path = _scenario_file(tmp_path)
    codes = [f"code{i}" for i in range(_cache.KEEP_CODES)]
    for i, code in enumerate(codes):
        _as_code(monkeypatch, code)
        assert load_file(path, path.parent.parent).scenario is not None
        os.utime(cache_dir / f"code-{code}", (1000 + i, 1000 + i))
    (cache_dir / "notes").mkdir()
    (cache_dir / "notes" / "mine.txt").write_text("kept", encoding="utf-8")
    _as_code(monkeypatch, "code0")
    assert _cache.lookup(GOOD) is not None  # its entry survived the others' stores
    _as_code(monkeypatch, "newest")
    assert load_file(path, path.parent.parent).scenario is not None
    left = sorted(p.name for p in cache_dir.iterdir())
    assert left == ["code-code0", "code-code2", "code-code3", "code-newest", "notes"]
    assert (cache_dir / "notes" / "mine.txt").read_text(encoding="utf-8") == "kept"


def test_the_default_folder_drops_the_old_flat_layout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(_cache.CACHE_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    old = tmp_path / "xdg" / "fivehundred" / "documents" / "00"
    old.mkdir(parents=True)
    (old / "00aa.json").write_text("{}", encoding="utf-8")
    site = tmp_path / "xdg" / "fivehundred" / "site"
    site.mkdir()
    _forget_folders()
    try:
        path = _scenario_file(tmp_path)
        assert load_file(path, path.parent.parent).scenario is not None
        assert _cache.lookup(GOOD) is not None
    finally:
        _forget_folders()
    assert sorted(p.name for p in (tmp_path / "xdg" / "fivehundred").iterdir()) == [
        "checked",
        "site",
    ]
