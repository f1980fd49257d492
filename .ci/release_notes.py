#!/usr/bin/env python3
"""Print the section of ``CHANGELOG.md`` for one version: the release's notes.

The release workflow (``.github/workflows/release.yml``) runs it with the version of the tag
it builds, so the notes on the release page are the change log's own words, and a tag whose
version has no section (or whose version is not the package's) fails the release before
anything is published.

    python .ci/release_notes.py 1.5.0            # the section's text on standard output
    python .ci/release_notes.py v1.5.0 --check   # also: the package's version is 1.5.0

A section starts at a level-two heading that begins with the version (``## 1.5.0 …``) and
runs to the next level-two heading.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_VERSION = re.compile(r"\d+\.\d+\.\d+(?:(?:a|b|rc)\d+)?")


class NotesError(Exception):
    """No notes can be given for the version asked (with what is wrong)."""


def section(changelog: str, version: str) -> str:
    """The text under the heading of ``version``, without the heading."""
    version = version.removeprefix("v")
    if not _VERSION.fullmatch(version):
        raise NotesError(f"{version!r} is not a version such as 1.5.0")
    heading = re.compile(rf"^## +\[?{re.escape(version)}\]?(?![\w.])", re.MULTILINE)
    found = heading.search(changelog)
    if found is None:
        raise NotesError(f"CHANGELOG.md has no section '## {version}'")
    line_end = changelog.find("\n", found.end())
    start = len(changelog) if line_end == -1 else line_end + 1
    following = re.compile(r"^## ", re.MULTILINE).search(changelog, start)
    text = changelog[start : following.start() if following else len(changelog)].strip()
    if not text:
        raise NotesError(f"the section of {version} in CHANGELOG.md is empty")
    return text + "\n"


def package_version(root: Path = ROOT) -> str:
    """The version ``pyproject.toml`` gives the package."""
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    return str(project["project"]["version"])


def main(argv: list[str]) -> int:
    if not argv or len(argv) > 2 or (len(argv) == 2 and argv[1] != "--check"):
        print("usage: release_notes.py VERSION [--check]", file=sys.stderr)
        return 2
    version = argv[0].removeprefix("v")
    try:
        if len(argv) == 2 and version != package_version():
            raise NotesError(f"the tag says {version} but pyproject.toml says {package_version()}")
        notes = section((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), version)
    except (NotesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    sys.stdout.write(notes)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
