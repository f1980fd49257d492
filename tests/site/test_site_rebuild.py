"""A rebuild that reuses the hook's caches writes the same site as a build without them.

``mkdocs serve`` rebuilds in one process after every edit; the hook then reuses each
unchanged page's rendering, search entries and whole HTML file, and lets the scenario
pages' HTML blocks skip the Markdown parser, and converts only the scenarios index's
tables that changed.  None of that may change a byte of the
output: the site is built, a scenario edited, the site rebuilt with the caches, then
built again with them cleared, and the two outputs compared file by file.  A small
corpus (one area, with the dispute records) keeps it quick; the build is not strict,
since most clauses then have no scenario.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds the site three times

REPO = Path(__file__).resolve().parents[2]
HOOKS = REPO / "reference" / "fivehundred" / "site" / "mkdocs_hooks.py"


def _tree(root: Path) -> Path:
    shutil.copy2(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copy2(REPO / "CHANGELOG.md", root / "CHANGELOG.md")  # the change log page shows it
    for folder in ("site", "schema", "results"):
        shutil.copytree(REPO / folder, root / folder)
    hooks = root / HOOKS.parent.relative_to(REPO)
    hooks.mkdir(parents=True)
    shutil.copy2(HOOKS, hooks / HOOKS.name)
    for area in ("deck", "disputes"):
        shutil.copytree(REPO / "scenarios" / area, root / "scenarios" / area)
    return min((root / "scenarios" / "deck").glob("*.yaml"))


def _build(root: Path, out: Path) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    build(load_config(str(root / "mkdocs.yml"), site_dir=str(out)))


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_a_cached_rebuild_writes_what_a_clean_build_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivehundred.site.generator import RENDER_CACHE

    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    root = tmp_path / "repo"
    root.mkdir()
    edited = _tree(root)
    monkeypatch.chdir(root)
    saved = dict(RENDER_CACHE)
    RENDER_CACHE.clear()
    try:
        _build(root, tmp_path / "first")
        text = edited.read_text(encoding="utf-8")
        edited.write_text(
            re.sub(r"^title: .*$", "title: A title edited between builds", text, flags=re.M),
            encoding="utf-8",
        )
        _build(root, tmp_path / "cached")
        assert RENDER_CACHE.get("templates") and RENDER_CACHE.get("pages")
        assert RENDER_CACHE.get("fragments")  # the index's tables, converted apart
        RENDER_CACHE.clear()
        _build(root, tmp_path / "clean")
    finally:
        RENDER_CACHE.clear()
        RENDER_CACHE.update(saved)
        os.chdir(REPO)
    first, cached, clean = (_files(tmp_path / n) for n in ("first", "cached", "clean"))
    assert cached.keys() == clean.keys()
    differing = [name for name in clean if cached[name] != clean[name]]
    assert differing == []
    scenario_pages = [n for n in clean if n.startswith("scenarios/") and n.endswith("index.html")]
    assert any(b"A title edited between builds" in clean[n] for n in scenario_pages)
    # the edit reached the pages that show the scenario, and only through the caches' keys
    assert [n for n in clean if clean[n] != first.get(n)]
    for page in scenario_pages:
        assert b"fh-raw-" not in clean[page] and b"fh-table-" not in clean[page]
    index = "scenarios/index.html"
    assert b"A title edited between builds" in cached[index] != first[index]
