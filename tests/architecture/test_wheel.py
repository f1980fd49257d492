"""A built wheel works outside the checkout: schemas and the bundled corpus ship inside it."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _outside_environment() -> dict[str, str]:
    """This process's environment without what would point the installed package back at
    a checkout: ``FIVEHUNDRED_HOME`` and ``PYTHONPATH`` (``benchmarks/tests.py --against``
    puts another tree's package there)."""
    return {k: v for k, v in os.environ.items() if k not in ("FIVEHUNDRED_HOME", "PYTHONPATH")}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment outside the checkout with the package installed from
    it as a user installs it, ``pip install .``: pip builds the wheel in an environment of
    its own with what ``[build-system]`` requires (so the test also checks that table, and
    ``hatch_build.py``, which puts the schemas and the corpus in the wheel), then installs
    the wheel and the dependencies it declares.  One pip run, not ``pip wheel`` and then
    ``pip install`` of the wheel: the same wheel, without a second pip start (the figures
    are on the site's benchmarks page)."""
    base = tmp_path_factory.mktemp("wheel")
    env_dir = base / "venv"
    # No pip inside: this pip installs into it (`--python`), which saves bootstrapping a
    # second pip (ensurepip); the environment is as fresh either way.
    # `--no-compile`: Python compiles what the commands below import as they import it,
    # rather than pip compiling every module of every dependency first.
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    install = ["install", "-q", "--no-compile", str(ROOT)]
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), *install],
        check=True,
        cwd=base,
        env=_outside_environment(),
    )
    return env_dir / "bin"


def _run(bin_dir: Path, *args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    environment = _outside_environment()
    environment.update(env or {})
    result = subprocess.run(
        [str(bin_dir / "fivehundred"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout + result.stderr


@pytest.mark.slow
def test_the_installed_wheel_verifies_and_shows_the_bundled_corpus(
    installed: Path, tmp_path: Path
) -> None:
    count = sum(
        1
        for p in (ROOT / "scenarios").rglob("*.yaml")
        if "disputes" not in p.relative_to(ROOT).parts
    )
    out = _run(installed, "verify", cwd=tmp_path)
    assert f"verify: {count} passed, 0 failed" in out
    assert "NQGC" in _run(installed, "show", "NQGC", cwd=tmp_path)
    imported = subprocess.run(
        [str(installed / "python"), "-c", "import fivehundred, sys; print(fivehundred.__file__)"],
        cwd=tmp_path,
        env=_outside_environment(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(ROOT) not in imported and "site-packages" in imported


@pytest.mark.slow
def test_the_installed_wheel_reads_a_users_own_suite(installed: Path, tmp_path: Path) -> None:
    suite = tmp_path / "my-suite"
    (suite / "scenarios" / "auction").mkdir(parents=True)
    source = next((ROOT / "scenarios" / "auction").glob("*.yaml"))
    (suite / "scenarios" / "auction" / source.name).write_text(source.read_text("utf-8"))
    assert "verify: 1 passed" in _run(installed, "--suite", str(suite), "verify", cwd=tmp_path)
    assert "verify: 1 passed" in _run(
        installed, "verify", cwd=tmp_path, env={"FIVEHUNDRED_HOME": str(suite)}
    )
    assert "verify: 1 passed" in _run(installed, "verify", cwd=suite)
    # from a folder inside the suite, as git finds its repository
    assert "verify: 1 passed" in _run(installed, "verify", cwd=suite / "scenarios" / "auction")
    empty = tmp_path / "empty"
    empty.mkdir()
    result = subprocess.run(
        [str(installed / "fivehundred"), "--suite", str(empty), "verify"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "has no scenarios/ folder" in result.stderr and "Traceback" not in result.stderr
