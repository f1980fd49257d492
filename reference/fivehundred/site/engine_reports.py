"""Regenerating a third-party engine's report from a checkout, and checking them all.

``python -m fivehundred.site.results --engine NAME --checkout DIR`` runs the engine's
adapter (``adapters/third-party/NAME/engine.json`` says how) against the user's checkout
and writes the report its column of the conformance page is made from;
``--check`` (in :mod:`.results`) checks every report and every engine's deviation families
without running anything.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from .engines import ENGINE_FILE, THIRD_PARTY_DIR, Engine, EngineError, read_engine

__all__ = ["regenerate_engine"]


def regenerate_engine(
    root: Path, name: str, checkout: Path, problems_now: Callable[[], list[str]]
) -> int:
    """Run a third-party engine's adapter against a checkout of the engine and write its
    report where its ``engine.json`` says; then check its deviation families against the
    new report.  The exit status is verify's (0 conformant, 1 not, 3 broken adapter), or
    1 when the families no longer fit the report, 2 when it cannot start.

    ``engine.json`` gives everything: ``command`` (the adapter, run from the repository's
    root), ``checkout_variable`` (set to the checkout's path), ``commit`` (the checkout
    must be at it), ``system_packages`` (named when the command's program is missing) and
    ``report`` (where the report goes).  ``problems_now`` reads the reports and the
    engines' files again and says what does not fit."""
    from ..scenarios.format.diagnostics import did_you_mean

    place = root / THIRD_PARTY_DIR / name
    shown = f"{THIRD_PARTY_DIR}/{name}/{ENGINE_FILE}"
    engines = sorted(p.parent.name for p in (root / THIRD_PARTY_DIR).glob(f"*/{ENGINE_FILE}"))
    if name not in engines:  # a folder of adapters/third-party/, never a path elsewhere
        print(
            f"no engine {name!r}: no folder of {THIRD_PARTY_DIR}/ by that name holds an "
            f"{ENGINE_FILE}{did_you_mean(name, engines)} "
            f"(engines: {', '.join(engines) or 'none'})",
            file=sys.stderr,
        )
        return 2
    try:
        engine = read_engine(place / ENGINE_FILE, shown)
    except EngineError as error:
        print(error, file=sys.stderr)
        return 2
    problem = _checkout_problem(engine, checkout)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    argv = shlex.split(engine.command)
    if not argv or shutil.which(argv[0]) is None:
        packages = " ".join(engine.system_packages) or "(none listed)"
        print(
            f"{shown}: the adapter's program {argv[0] if argv else ''!r} is not installed; "
            f"the engine needs the Debian packages: {packages} "
            f"(apt-get install {packages})",
            file=sys.stderr,
        )
        return 2
    args = ["verify", "--impl", engine.command, "--format", "json", "-o", engine.report]
    environment = {**os.environ, engine.checkout_variable: str(checkout.resolve())}
    print(
        f"{engine.checkout_variable}={shlex.quote(str(checkout.resolve()))} fivehundred "
        + " ".join(shlex.quote(a) for a in args),
        flush=True,
    )
    code = subprocess.run(
        [sys.executable, "-m", "fivehundred", *args], cwd=root, env=environment, check=False
    ).returncode
    if code not in (0, 1):
        print(f"{engine.report}: the run ended with status {code}", file=sys.stderr)
        return code
    mine = [p for p in problems_now() if engine.report in p or f"/{name}/" in p]
    for problem in mine:
        print(f"to update: {problem}", file=sys.stderr)
    return max(code, 1 if mine else 0)


def _checkout_problem(engine: Engine, checkout: Path) -> str | None:
    """Why ``checkout`` is not the engine at its pinned commit, if it is not."""
    fetch = (
        f"git clone {engine.repository} {shlex.quote(str(checkout))} && "
        f"git -C {shlex.quote(str(checkout))} checkout {engine.commit}"
    )
    if not checkout.is_dir():
        return f"{checkout} is not a folder; fetch the engine first: {fetch}"
    try:
        done = subprocess.run(
            ["git", "-C", str(checkout), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"cannot ask git which commit {checkout} is at ({error})"
    head = done.stdout.strip()
    if done.returncode != 0:
        return f"{checkout} is not a git checkout of {engine.repository}; fetch it: {fetch}"
    if head != engine.commit:
        return (
            f"{checkout} is at commit {head[:12]}, but {engine.name}'s report is of commit "
            f"{engine.commit[:12]}: git -C {shlex.quote(str(checkout))} checkout "
            f"{engine.commit} (or, to test another commit, change commit in its engine.json)"
        )
    return None
