"""The corpus's strength: every named misreading of the clean-room implementation is
caught by the scenarios at every capability level it can be caught at.

``adapters/independent-js/catchers.json`` (written by ``catch-misreadings.js
--write-catchers``) names, for each misreading, the weakest capability level that catches
it and the scenarios that do.  Caught with neither legal lists nor rejection codes
(``both``) means caught at every level, since each stronger level checks the same answers
and more; a misreading that changes only which code refuses an action can be caught only
where codes are compared (``no-legal``), and the list of those is fixed here.  This test
re-runs each misreading on its catchers, so a scenario edited or removed so that it no
longer catches its misreading fails here, as does a new misreading with no catcher.

One adapter process tries many misreadings: ``--misreadings-for`` gives each scenario the
misreading it should catch, so the misreadings whose catchers do not overlap share a
run (a round); a process per misreading cost more than the runs themselves.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from fivehundred.cli import main
from protocol_helpers import ROOT

pytestmark = pytest.mark.slow  # starts a process per misreading

ADAPTER = ROOT / "adapters" / "independent-js"
CATCHERS = ADAPTER / "catchers.json"
LEVEL_FLAGS = {"both": ["--no-legal", "--no-codes"], "no-legal": ["--no-legal"]}
CODE_ONLY = {"turn-checked-before-passed", "finished-deal-wrong-phase"}
"""Misreadings that only change which code refuses an action (both codes exist in the
default profile): no scenario can tell them apart when codes are not compared."""


def _node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("Node.js is required for the independent implementation: install nodejs")
    return found


def _misreadings() -> list[str]:
    script = "console.log(JSON.stringify(require('./misreadings').LIST.map((m) => m[0])))"
    done = subprocess.run(
        [_node(), "-e", script], cwd=ADAPTER, capture_output=True, text=True, check=True
    )
    names: list[str] = json.loads(done.stdout)
    return names


def _catchers() -> dict[str, dict[str, object] | None]:
    table: dict[str, dict[str, object] | None] = json.loads(CATCHERS.read_text("utf-8"))
    return table


def test_every_misreading_has_catchers_at_the_weakest_level_it_allows() -> None:
    names, table = _misreadings(), _catchers()
    assert len(names) >= 30
    assert sorted(table) == sorted(names)
    for name in names:
        entry = table[name]
        assert entry is not None, f"{name} is caught by no scenario"
        expected = "no-legal" if name in CODE_ONLY else "both"
        assert entry["level"] == expected, name
        assert entry["ids"], name


def _checked_ids(entry: dict[str, object]) -> list[str]:
    raw_ids = entry["ids"]
    assert isinstance(raw_ids, list)
    return [str(i) for i in raw_ids][:8]  # a few catchers suffice; all would be slower


def _verify_args(impl: str, ids: list[str]) -> list[str]:
    args = ["verify", "--impl", impl, "--format", "json"]
    for scenario_id in ids:
        args += ["--id", scenario_id]
    return args


def _rounds(level: str) -> list[dict[str, str]]:
    """The misreadings caught at ``level`` in rounds: each round maps every checked catcher
    of its misreadings to that misreading, and no scenario serves two in one round."""
    rounds: list[dict[str, str]] = []
    for name, entry in sorted(_catchers().items()):
        if entry is None or entry["level"] != level:
            continue
        ids = _checked_ids(entry)
        free = next((r for r in rounds if not set(ids) & r.keys()), None)
        if free is None:
            free = {}
            rounds.append(free)
        free.update(dict.fromkeys(ids, name))
    return rounds


BYSTANDER = ""
"""The key of the scenarios run with no misreading beside each round (see below)."""


@pytest.fixture(scope="module")
def statuses(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """For each misreading, the status of each of its checked catchers with it on; under
    ``BYSTANDER``, a scenario of another round run in each round with none on, which must
    pass: a misreading that stayed on after its scenario would fail it."""
    found: dict[str, dict[str, str]] = {}
    folder = tmp_path_factory.mktemp("misreadings")
    for level, flags in LEVEL_FLAGS.items():
        rounds = _rounds(level)
        everyone = sorted({i for r in rounds for i in r})
        for number, assignment in enumerate(rounds):
            table = folder / f"{level}-{number}.json"
            table.write_text(json.dumps({i: [name] for i, name in assignment.items()}))
            impl = shlex.join(
                [_node(), str(ADAPTER / "adapter.js"), "--misreadings-for", str(table), *flags]
            )
            ids = sorted(assignment) + [i for i in everyone if i not in assignment][:1]
            report = json.loads(CliRunner().invoke(main, _verify_args(impl, ids)).stdout)
            for scenario in report["scenarios"]:
                name = assignment.get(scenario["id"], BYSTANDER)
                found.setdefault(name, {})[scenario["id"]] = scenario["status"]
    return found


def test_a_scenario_run_beside_the_misreadings_with_none_on_passes(
    statuses: dict[str, dict[str, str]],
) -> None:
    bystanders = statuses.get(BYSTANDER, {})
    assert bystanders  # the rounds at level "both" leave some scenario out of each round
    assert set(bystanders.values()) == {"passed"}, bystanders


@pytest.mark.parametrize("name", sorted(_catchers()))
def test_the_catchers_still_catch_the_misreading(
    name: str, statuses: dict[str, dict[str, str]]
) -> None:
    entry = _catchers()[name]
    assert entry is not None
    ids = _checked_ids(entry)
    got = statuses.get(name, {})
    assert sorted(got) == sorted(ids), f"{name}: not every catcher ran: {got}"
    missed = sorted(i for i, status in got.items() if status not in ("failed", "errored"))
    assert not missed, f"{name} is no longer caught at level {entry['level']} by {missed}"


def test_rounds_give_each_scenario_one_misreading_and_hold_every_catcher() -> None:
    for level in LEVEL_FLAGS:
        rounds = _rounds(level)
        expected = {
            (name, i)
            for name, entry in _catchers().items()
            if entry is not None and entry["level"] == level
            for i in _checked_ids(entry)
        }
        assert {(name, i) for r in rounds for i, name in r.items()} == expected
        assert sum(len(r) for r in rounds) == len(expected)  # no scenario twice in a round


@pytest.mark.parametrize("level", sorted(LEVEL_FLAGS))
def test_the_catchers_pass_with_no_misreading(level: str) -> None:
    """The scenarios checked above pass with every misreading off, at the level they were
    checked at: they catch the misreading, not something else.  One run per level covers
    every misreading's catchers at once."""
    ids = sorted(
        {
            scenario_id
            for entry in _catchers().values()
            if entry is not None and entry["level"] == level
            for scenario_id in _checked_ids(entry)
        }
    )
    assert ids
    clean = shlex.join([_node(), str(ADAPTER / "adapter.js")]) + " " + " ".join(LEVEL_FLAGS[level])
    result = CliRunner().invoke(main, _verify_args(clean, ids))
    report = json.loads(result.stdout)
    assert sorted(s["id"] for s in report["scenarios"]) == ids  # every one of them ran
    assert result.exit_code == 0, [s for s in report["scenarios"] if s["status"] != "passed"]


@pytest.mark.parametrize(
    ("table", "says"),
    [
        (None, "no such file"),
        ("not json", "not valid JSON"),
        ('{"7MDY": "lead-rotates"}', 'expected {"scenario id": ["misreading", ...], ...}'),
        ('{"7MDY": ["lead-rotate"]}', 'unknown misreading "lead-rotate"'),
    ],
)
def test_a_bad_table_stops_the_adapter_with_a_readable_message(
    table: str | None, says: str, tmp_path: Path
) -> None:
    path = tmp_path / "table.json"
    if table is not None:
        path.write_text(table)
    done = subprocess.run(
        [_node(), str(ADAPTER / "adapter.js"), "--misreadings-for", str(path)],
        input="",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert says in done.stderr and "    at " not in done.stderr  # no stack trace


def test_a_table_does_not_go_with_misreadings_for_every_scenario(tmp_path: Path) -> None:
    table = tmp_path / "table.json"
    table.write_text('{"7MDY": ["lead-rotates"]}')
    done = subprocess.run(
        [_node(), str(ADAPTER / "adapter.js"), "--misreading", "kitty-size-2",
         f"--misreadings-for={table}"],
        input="",
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "cannot go with --misreading" in done.stderr
