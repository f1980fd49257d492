"""The import contract (also checked by ``lint-imports`` in CI) and what commands import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_package_has_no_import_cycle() -> None:
    graph = grimp.build_graph("fivehundred")
    modules = sorted(graph.modules)
    cycles = [
        (a, b)
        for a in modules
        for b in graph.find_modules_directly_imported_by(a)
        if graph.chain_exists(importer=b, imported=a)
    ]
    assert cycles == []


@pytest.mark.slow
def test_the_import_contract_holds() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "importlinter.cli", "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if "No module named" in result.stderr:
        pytest.fail(result.stderr)
    assert result.returncode == 0, result.stdout[-3000:]


SCRIPT = """
import sys, tempfile, os
from fivehundred.cli import main
out = os.path.join(tempfile.mkdtemp(), "x.json")
for args in (["validate"], ["verify"], ["show", "NQGC"], ["rules"], ["export", "-o", out]):
    try:
        main(args, standalone_mode=False)
    except SystemExit:
        pass
print(sorted(m for m in sys.modules if m.split(".")[0] in ("pytest", "_pytest", "mkdocs")))
"""


@pytest.mark.slow
def test_running_commands_never_imports_pytest_or_mkdocs() -> None:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "[]"


SERVE_SCRIPT = """
import sys
from fivehundred.cli import main
try:
    main(["serve", "--one-shot"], standalone_mode=False)
except SystemExit:
    pass
print(" ".join(sorted({m.split(".")[0] for m in sys.modules})))
"""


def test_serve_starts_without_the_libraries_it_does_not_use() -> None:
    """``serve --one-shot`` starts once per scenario: rich, PyYAML and the schema
    validators would add a large part of its start-up time to every scenario."""
    result = subprocess.run(
        [sys.executable, "-c", SERVE_SCRIPT],
        cwd=ROOT,
        input="",
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = set(result.stdout.split())
    assert "fivehundred" in loaded and "click" in loaded
    assert loaded.isdisjoint({"rich", "yaml", "jsonschema", "jsonschema_rs", "pytest", "mkdocs"})
