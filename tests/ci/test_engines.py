"""The third-party engines' settings as the nightly workflow reads them
(``.ci/engines.py``): every field checked before a shell or ``$GITHUB_ENV`` sees it, and a
report's numbers compared without its timings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ci_scripts import ROOT, ci_script

engines = ci_script("engines")

WALDO = {
    "name": "waldo",
    "title": "waldo/five_hundred (Ruby)",
    "repository": "https://github.com/waldo/five_hundred",
    "commit": "f360427cf24158904b3cdac4c5bed0e5a5f84aad",
    "language": "ruby",
    "checkout_variable": "FIVEHUNDRED_WALDO_PATH",
    "command": "ruby adapters/third-party/waldo/adapter.rb",
    "system_packages": ["ruby"],
    "report": "results/waldo.json",
}


def _root(tmp_path: Path, **changes: Any) -> Path:
    folder = tmp_path / "adapters" / "third-party" / "waldo"
    folder.mkdir(parents=True)
    (folder / "engine.json").write_text(json.dumps({**WALDO, **changes}), encoding="utf-8")
    return tmp_path


def test_an_engine_is_listed_and_its_settings_given_as_environment_lines(tmp_path: Path) -> None:
    (engine,) = engines.load(_root(tmp_path))
    assert engine["name"] == "waldo"
    assert engines.environment(engine) == [
        "ENGINE_REPOSITORY=https://github.com/waldo/five_hundred",
        "ENGINE_COMMIT=f360427cf24158904b3cdac4c5bed0e5a5f84aad",
        "ENGINE_CHECKOUT_VARIABLE=FIVEHUNDRED_WALDO_PATH",
        "ENGINE_COMMAND=ruby adapters/third-party/waldo/adapter.rb",
        "ENGINE_PACKAGES=ruby",
        "ENGINE_REPORT=results/waldo.json",
    ]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"commit": "f360427"}, "commit: expected 40 hexadecimal digits"),
        ({"command": "ruby a.rb\nEVIL=1"}, "command: expected a one-line string"),
        ({"name": "other"}, "name: expected the folder's name"),
        ({"repository": "git@github.com:x/y"}, "repository: expected an https:// address"),
        ({"checkout_variable": "PATH"}, "checkout_variable: expected FIVEHUNDRED_<NAME>_PATH"),
        ({"system_packages": ["ruby; curl x"]}, "system_packages: expected a list"),
        ({"report": "results/other.json"}, "report: expected 'results/waldo.json'"),
        ({"title": 3}, "title: expected a one-line string"),
    ],
)
def test_a_field_the_workflow_cannot_trust_is_refused_with_the_file(
    tmp_path: Path, changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(engines.EngineError, match=message) as caught:
        engines.load(_root(tmp_path, **changes))
    assert "adapters/third-party/waldo/engine.json" in str(caught.value)


def test_a_missing_field_and_broken_json_are_refused(tmp_path: Path) -> None:
    root = _root(tmp_path)
    path = root / "adapters" / "third-party" / "waldo" / "engine.json"
    path.write_text(json.dumps({k: v for k, v in WALDO.items() if k != "command"}))
    with pytest.raises(engines.EngineError, match="missing command"):
        engines.load(root)
    path.write_text("{")
    with pytest.raises(engines.EngineError, match="not readable JSON"):
        engines.load(root)


def test_the_repositorys_own_engines_are_valid() -> None:
    for engine in engines.load(ROOT):
        assert (ROOT / engine["report"]).parent == ROOT / "results"


def _report(statuses: dict[str, str], duration: float) -> dict[str, Any]:
    return {
        "suite": {"version": "1.5.0", "protocol": 1},
        "run": {"seconds": duration},
        "totals": {"passed": list(statuses.values()).count("passed")},
        "coverage": {"headline": "x"},
        "scenarios": [{"id": i, "status": s, "duration": duration} for i, s in statuses.items()],
    }


def test_numbers_change_with_a_status_and_not_with_the_timings(tmp_path: Path) -> None:
    old, same, moved = tmp_path / "old.json", tmp_path / "same.json", tmp_path / "moved.json"
    old.write_text(json.dumps(_report({"AAAA": "passed", "BBBB": "failed"}, 0.1)))
    same.write_text(json.dumps(_report({"AAAA": "passed", "BBBB": "failed"}, 0.7)))
    moved.write_text(json.dumps(_report({"AAAA": "failed", "BBBB": "passed"}, 0.1)))
    assert not engines.changed(old, same)
    assert engines.changed(old, moved)
    assert engines.changed(tmp_path / "absent.json", same)
    assert engines.main(["changed", str(old), str(same)]) == 0
    assert engines.main(["changed", str(old), str(moved)]) == 1
    assert engines.main(["env"]) == 2
