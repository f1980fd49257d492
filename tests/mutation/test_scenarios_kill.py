"""The killing suite of the mutation run: every bundled scenario against the reference.

The mutation run (``benchmarks/mutation.sh``, configured in ``[tool.mutmut]`` of
``pyproject.toml``) runs only this file, so a mutant of the engine is killed by the
scenarios alone, never by the unit tests of ``tests/engine``.  It is also an ordinary
test: it fails when any bundled scenario does not pass on the reference.

The package is imported inside the test, not at the top of the file, so that the engine's
import-time work (its tables and the default profile) is part of the test: mutmut then
counts it as covered, and a fresh process (``process_isolation = "forkserver"``)
runs a mutant of it.  The complete deals and games come first because
they exercise most of the engine, so a killed mutant usually fails within a few scenarios.
"""

from __future__ import annotations

from typing import Any

_FIRST_AREAS = ("full-deals", "game")


def _bundled_scenarios() -> list[Any]:
    from fivehundred.scenarios import load_corpus

    corpus = load_corpus()
    problems = [str(d) for d in corpus.diagnostics]
    assert not problems, "the bundled corpus does not load:\n" + "\n".join(problems[:10])
    scenarios = corpus.scenarios
    first = [s for area in _FIRST_AREAS for s in scenarios if s.area == area]
    return first + [s for s in scenarios if s.area not in _FIRST_AREAS]


def _first_failure(scenarios: list[Any]) -> str | None:
    """The first scenario the reference does not pass, with what went wrong."""
    from fivehundred.verify.runner import ReferenceImplementation, judge
    from fivehundred.verify.verdict import Status

    reference = ReferenceImplementation()
    for scenario in scenarios:
        verdict = judge(scenario, reference.run(scenario))
        if verdict.status is not Status.PASSED:
            return f"{scenario.id} {scenario.title}: {verdict.status.value} {verdict}"
    return None


def test_every_bundled_scenario_passes_on_the_reference() -> None:
    scenarios = _bundled_scenarios()
    assert len(scenarios) >= 500
    failure = _first_failure(scenarios)
    assert failure is None, failure
