"""The cache of checked documents: reused by content, never trusted blindly, never required."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from fivehundred.scenarios import _cache, load_file
from fivehundred.scenarios.corpus import load_file_once
from scenario_texts import GOOD


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "cache"
    monkeypatch.setenv(_cache.CACHE_VARIABLE, str(folder))
    _cache._folder.cache_clear()
    yield folder
    _cache._folder.cache_clear()


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
        _cache._folder.cache_clear()
        assert load_file(path, path.parent.parent).scenario is not None
        assert _cache.lookup(GOOD) is None
    _cache._folder.cache_clear()


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
