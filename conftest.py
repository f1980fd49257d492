"""Project-wide pytest settings: the bundled scenarios' own items belong to the slow tier.

``python -m pytest`` collects every file of ``scenarios/`` as a test item (the
``fivehundred`` pytest plugin), which is how a user runs one scenario by its id.  The
fast tier (``-m "not slow"``) leaves those 800-odd items out because it already runs
every bundled scenario against the reference in one test,
``tests/mutation/test_scenarios_kill.py``, at a fraction of the cost of an item each.
With exactly that marker expression the folder is not even collected (the items
would all be deselected); with any other, its items are collected and marked ``slow``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from fivehundred.pytest_plugin import ScenarioItem

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    # (pytest never asks about a folder named on its command line or in testpaths, so
    # each entry below it is answered)
    if config.getoption("markexpr") == "not slow" and SCENARIOS in collection_path.parents:
        return True
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if isinstance(item, ScenarioItem):
            item.add_marker(pytest.mark.slow)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Leave what collection built (modules, items, the loaded corpus) out of the cyclic
    garbage collector's later passes: it lives as long as the session, and every full
    pass walked all of it again.  Nothing the tests make is frozen.  The young generation is
    then collected after 7,000 allocations instead of 700: the tests make many short-lived
    objects (models, reports, hypothesis examples).  What each saved, timed with
    ``gc.callbacks``, is on the site's benchmarks page."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(7000, 10, 10)


@pytest.fixture(scope="module")
def adapter_memo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A folder where the test adapters (``tests/protocol/adapters/_common.py``) keep the
    reference's answers for the module's tests, through ``ADAPTER_MEMO``: an adapter whose
    every answer is there never imports the reference, most of its start-up."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ADAPTER_MEMO", str(tmp_path_factory.mktemp("memo")))
        yield
