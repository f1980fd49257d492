"""Every place that shows the suite's version shows the same one (site/versioning.md says
who changes it: the change that needs it, in every one of these places at once): the
package, the versioning page's table, the first section of CHANGELOG.md, the protocol
page's examples and the committed reports."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from fivehundred import PROTOCOL_VERSION, SUITE_VERSION

ROOT = Path(__file__).resolve().parents[2]


def test_the_package_the_docs_and_the_results_show_one_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["version"] == SUITE_VERSION
    assert int(SUITE_VERSION.split(".")[0]) == PROTOCOL_VERSION
    page = (ROOT / "site" / "versioning.md").read_text(encoding="utf-8")
    table = page[: page.index("## MAJOR")]
    assert set(re.findall(r"`(\d+\.\d+\.\d+)`", table)) == {SUITE_VERSION}
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    first_entry = re.search(r"^## (\d+\.\d+\.\d+)\b", changelog, re.MULTILINE)
    assert first_entry is not None and first_entry.group(1) == SUITE_VERSION
    protocol = (ROOT / "site" / "protocol.md").read_text(encoding="utf-8")
    shown = re.findall(r'"suite": ?"(\d+\.\d+\.\d+)"', protocol)
    assert shown and set(shown) == {SUITE_VERSION}
    for report in sorted((ROOT / "results").glob("*.json")):
        suite = json.loads(report.read_text(encoding="utf-8"))["suite"]
        assert suite["version"] == SUITE_VERSION, f"{report.name}: refresh the results"
