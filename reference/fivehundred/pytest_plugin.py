"""pytest collection of scenario files: one test item per scenario, named by its id.

Installed as a pytest plugin (the ``pytest11`` entry point), it collects nothing
until a project names its scenario folders in its pytest configuration::

    [tool.pytest.ini_options]
    fivehundred_scenarios = ["scenarios"]

``python -m pytest`` then runs the unit tests and every scenario together, and
``pytest -k NQGC`` runs one scenario.  A file that fails to load becomes a failing
item with its diagnostics rather than a collection error, so it never hides the
other scenarios.  Only pytest imports this module; the package never does.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .scenarios import FileResult
from .scenarios.derived.narration import step_text
from .scenarios.loading.corpus import SCENARIO_SUFFIXES, is_dispute_record, load_file_once
from .verify.runner import ReferenceImplementation, judge
from .verify.verdict import Status

INI_NAME = "fivehundred_scenarios"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(INI_NAME, "folders of Five Hundred scenarios to collect as tests", "paths")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix not in SCENARIO_SUFFIXES:
        return None
    path = file_path.resolve()
    for folder in parent.config.getini(INI_NAME):
        root = Path(folder).resolve()
        if root in path.parents and not is_dispute_record(path, root):
            return ScenarioFile.from_parent(parent, path=file_path)
    return None


def _scenarios_root(path: Path, config: pytest.Config) -> Path | None:
    resolved = path.resolve()
    for folder in config.getini(INI_NAME):
        root = Path(folder).resolve()
        if root in resolved.parents:
            return root
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        root = _scenarios_root(self.path, self.config) or self.path.parent
        result = load_file_once(self.path, root)
        name = result.scenario.id if result.scenario is not None else self.path.stem
        yield ScenarioItem.from_parent(self, name=name, result=result)


class ScenarioFailure(Exception):
    pass


class ScenarioItem(pytest.Item):
    def __init__(self, *, result: FileResult, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.result = result
        scenario = result.scenario
        if scenario is not None:
            self.add_marker(pytest.mark.scenario)
            self.user_properties.append(("area", scenario.area))

    def runtest(self) -> None:
        if self.result.diagnostics:
            raise ScenarioFailure("\n".join(str(d) for d in self.result.diagnostics))
        scenario = self.result.scenario
        assert scenario is not None
        verdict = judge(scenario, ReferenceImplementation().run(scenario))
        if verdict.status is not Status.PASSED:
            lines = [f"{scenario.id} {scenario.title}: {verdict.status.value}"]
            for m in verdict.mismatches:
                lines.append(
                    f"  step {m.number} ({step_text(scenario.steps[m.step])}): {m.what} "
                    f"{m.describe()}"
                )
            if verdict.message:
                lines.append(f"  {verdict.message}")
            raise ScenarioFailure("\n".join(lines))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        scenario = self.result.scenario
        label = f"scenario {self.name}" + (f" ({scenario.area})" if scenario else "")
        return self.path, 0, label
