"""The release's notes are the change log's section of the tagged version
(``.ci/release_notes.py``, run by ``.github/workflows/release.yml``)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from ci_scripts import ROOT, ci_script
from fivehundred import SUITE_VERSION

notes = ci_script("release_notes")

CHANGELOG = """# Change log

Intro.

## 2.0.0 (major)

The big one.

* a point

## 1.10.0 (minor)

Ten.

## 1.1.0 (minor)

One.
"""


def test_a_section_runs_from_its_heading_to_the_next() -> None:
    assert notes.section(CHANGELOG, "2.0.0") == "The big one.\n\n* a point\n"
    assert notes.section(CHANGELOG, "v1.1.0") == "One.\n"
    assert notes.section(CHANGELOG, "1.10.0") == "Ten.\n"


@pytest.mark.parametrize(
    ("version", "message"),
    [
        ("1.0.0", "no section '## 1.0.0'"),
        ("1.1", "not a version"),
        ("1.1.0; rm -rf /", "not a version"),
    ],
)
def test_a_version_without_a_section_is_refused(version: str, message: str) -> None:
    with pytest.raises(notes.NotesError, match=message):
        notes.section(CHANGELOG, version)


def test_a_prefix_of_another_version_is_not_its_section() -> None:
    with pytest.raises(notes.NotesError, match="no section"):
        notes.section("## 1.10.0 (minor)\n\nTen.\n", "1.1.0")


def test_an_empty_section_is_refused() -> None:
    with pytest.raises(notes.NotesError, match="empty"):
        notes.section("## 1.2.0 (minor)\n\n## 1.1.0\n\nOne.\n", "1.2.0")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "release_notes.py"), *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_command_prints_the_current_versions_notes_from_the_real_change_log() -> None:
    done = _run(f"v{SUITE_VERSION}", "--check")
    assert done.returncode == 0, done.stderr
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert done.stdout.strip() and done.stdout.strip() in changelog
    assert f"## {SUITE_VERSION}" not in done.stdout and "\n## " not in done.stdout


def test_a_tag_that_is_not_the_packages_version_fails_the_release() -> None:
    done = _run("v0.0.1", "--check")
    assert done.returncode == 1
    assert f"pyproject.toml says {SUITE_VERSION}" in done.stderr
    assert _run().returncode == 2
