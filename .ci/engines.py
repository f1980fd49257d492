#!/usr/bin/env python3
"""The third-party engines the nightly workflow runs, read from their ``engine.json``.

Each engine's adapter lives in ``adapters/third-party/<name>/`` with an ``engine.json`` that
pins the engine (repository and commit) and says how to run it (the adapter's command, the
environment variable that names the checkout, the Debian packages it needs, the report it
refreshes).  The workflow ``.github/workflows/engines.yml`` asks this script, rather than a
list of its own, so an engine added on any branch is run without touching the workflow;
and everything it passes on to a shell or to ``$GITHUB_ENV`` is checked here first, since
a pull request can change an ``engine.json``.

    python .ci/engines.py list                 # the engines' names as a JSON array
    python .ci/engines.py env NAME             # NAME's settings as KEY=VALUE lines
    python .ci/engines.py changed OLD NEW      # exit 1 when the reports' numbers differ
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ENGINES = Path("adapters") / "third-party"

FIELDS = (
    "name",
    "title",
    "repository",
    "commit",
    "language",
    "checkout_variable",
    "command",
    "system_packages",
    "report",
)
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
_REPOSITORY = re.compile(r"https://[A-Za-z0-9.-]+/[A-Za-z0-9._/-]+")
_COMMIT = re.compile(r"[0-9a-f]{40}")
_VARIABLE = re.compile(r"FIVEHUNDRED_[A-Z0-9_]+_PATH")
_PACKAGE = re.compile(r"[a-z0-9][a-z0-9.+-]+")


class EngineError(Exception):
    """An ``engine.json`` that the workflow cannot use, with the file and the reason."""


def _check(path: Path, data: Any) -> dict[str, Any]:
    """The engine's settings once every field has the shape the workflow relies on."""

    def fail(message: str) -> EngineError:
        return EngineError(f"{path}: {message}")

    if not isinstance(data, dict):
        raise fail("expected a JSON object")
    missing = [f for f in FIELDS if f not in data]
    if missing:
        raise fail(f"missing {', '.join(missing)}")
    text = {f: data[f] for f in FIELDS if f != "system_packages"}
    for field, value in text.items():
        if not isinstance(value, str) or not value or "\n" in value or "\r" in value:
            raise fail(f"{field}: expected a one-line string, found {value!r}")
    name = data["name"]
    if not _NAME.fullmatch(name) or name != path.parent.name:
        raise fail(f"name: expected the folder's name {path.parent.name!r}, found {name!r}")
    if not _REPOSITORY.fullmatch(data["repository"]):
        raise fail(f"repository: expected an https:// address, found {data['repository']!r}")
    if not _COMMIT.fullmatch(data["commit"]):
        raise fail(f"commit: expected 40 hexadecimal digits, found {data['commit']!r}")
    if not _VARIABLE.fullmatch(data["checkout_variable"]):
        raise fail(
            "checkout_variable: expected FIVEHUNDRED_<NAME>_PATH, "
            f"found {data['checkout_variable']!r}"
        )
    if data["report"] != f"results/{name}.json":
        raise fail(f"report: expected 'results/{name}.json', found {data['report']!r}")
    packages = data["system_packages"]
    if not isinstance(packages, list) or not all(
        isinstance(p, str) and _PACKAGE.fullmatch(p) for p in packages
    ):
        raise fail(f"system_packages: expected a list of Debian package names, found {packages!r}")
    return data


def load(root: Path = ROOT) -> list[dict[str, Any]]:
    """Every engine under ``adapters/third-party/``, by name."""
    engines = []
    for path in sorted((root / ENGINES).glob("*/engine.json")):
        relative = path.relative_to(root)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise EngineError(f"{relative}: not readable JSON ({error})") from None
        engines.append(_check(relative, data))
    return engines


def environment(engine: dict[str, Any]) -> list[str]:
    """The lines the workflow appends to ``$GITHUB_ENV`` for one engine's job."""
    return [
        f"ENGINE_REPOSITORY={engine['repository']}",
        f"ENGINE_COMMIT={engine['commit']}",
        f"ENGINE_CHECKOUT_VARIABLE={engine['checkout_variable']}",
        f"ENGINE_COMMAND={engine['command']}",
        f"ENGINE_PACKAGES={' '.join(engine['system_packages'])}",
        f"ENGINE_REPORT={engine['report']}",
    ]


def numbers(report: dict[str, Any]) -> dict[str, Any]:
    """What a report says about the engine, without what changes on every run (times)."""
    return {
        "suite": report.get("suite"),
        "totals": report.get("totals"),
        "coverage": report.get("coverage"),
        "statuses": {s.get("id"): s.get("status") for s in report.get("scenarios", [])},
    }


def changed(old: Path, new: Path) -> bool:
    """Whether the engine's numbers moved (a missing old report counts as a change)."""
    if not old.is_file():
        return True
    before = json.loads(old.read_text(encoding="utf-8"))
    after = json.loads(new.read_text(encoding="utf-8"))
    return numbers(before) != numbers(after)


def main(argv: list[str]) -> int:
    usage = "usage: engines.py list | env NAME | changed OLD NEW"
    try:
        if argv == ["list"]:
            print(json.dumps([e["name"] for e in load()]))
            return 0
        if len(argv) == 2 and argv[0] == "env":
            found = [e for e in load() if e["name"] == argv[1]]
            if not found:
                print(f"no engine named {argv[1]!r} under {ENGINES}", file=sys.stderr)
                return 2
            print("\n".join(environment(found[0])))
            return 0
        if len(argv) == 3 and argv[0] == "changed":
            moved = changed(Path(argv[1]), Path(argv[2]))
            print("numbers changed" if moved else "numbers unchanged")
            return 1 if moved else 0
    except (EngineError, OSError, json.JSONDecodeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
