"""Markers of the site tests, and the site built once for all of them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "site"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: drives a real browser against the built site (tests/site/test_browser.py)"
    )


def _tree(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*")}


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built the way a maintainer builds it (``mkdocs build --strict``), once a
    session: ``test_site.py`` reads it and ``test_browser.py`` serves it; neither writes
    to it.  The build must not write into ``site/``."""
    out = tmp_path_factory.mktemp("site")
    before = _tree(DOCS)
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=REPO,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stderr}"
    assert _tree(DOCS) == before, "the build wrote into site/"
    return out
