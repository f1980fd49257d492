"""pytest collection of scenario files: one test item per scenario, named by its id.

``python -m pytest`` then runs the unit tests and every scenario together, and
``pytest -k 7QK2`` runs one scenario.  A file that fails to load becomes a failing
item with its diagnostics rather than a collection error, so it never hides the
other scenarios.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .resources import scenarios_dir
from .scenarios import FileResult, load_file
from .scenarios.corpus import SCENARIO_SUFFIXES, is_dispute_record
from .scenarios.narration import step_text
from .verify.runner import ReferenceImplementation, judge
from .verify.verdict import Status


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    root = scenarios_dir().resolve()
    path = file_path.resolve()
    if (
        file_path.suffix in SCENARIO_SUFFIXES
        and root in path.parents
        and not is_dispute_record(path, root)
    ):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        result = load_file(self.path)
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
