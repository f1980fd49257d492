"""The killing suite of the mutation run: every bundled scenario against the reference.

The mutation run (``benchmarks/mutation.sh``, configured in ``[tool.mutmut]`` of
``pyproject.toml``) runs only this file, so a mutant of the engine is killed by the
scenarios alone, never by the unit tests of ``tests/engine``.  It is also an ordinary
test: it fails when any bundled scenario does not pass on the reference.

The package is imported inside the test, not at the top of the file, so that the engine's
import-time work (its tables and the default profile) is part of the test: mutmut then
counts it as covered, and a fresh process (``process_isolation = "forkserver"``)
runs a mutant of it.  The complete deals and games are loaded and run first, before the
rest of the corpus is even loaded: they exercise most of the engine, so a killed mutant
usually fails within a few scenarios and the run does not pay for loading (and linting)
the other files first.  The whole corpus is then loaded (the files already loaded are
reused) and must load without a diagnostic, and every other scenario must pass.
"""

from __future__ import annotations

from typing import Any

_FIRST_AREAS = ("full-deals", "game")


def _scenarios(areas: tuple[str, ...] = ()) -> list[Any]:
    """The bundled scenarios of ``areas`` (all of them when empty), in the corpus's order.

    Only the whole corpus is held to loading without a diagnostic: checks across files
    (ids, dispute pairs) need every file.
    """
    from fivehundred.resources import scenarios_dir
    from fivehundred.scenarios import load_corpus

    root = scenarios_dir()
    corpus = load_corpus([root / area for area in areas] or None, root)
    if not areas:
        problems = [str(d) for d in corpus.diagnostics]
        assert not problems, "the bundled corpus does not load:\n" + "\n".join(problems[:10])
    return list(corpus.scenarios)


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
    first = _scenarios(_FIRST_AREAS)
    assert first, "no complete deals or games were found"
    failure = _first_failure(first)
    assert failure is None, failure
    ran = {scenario.id for scenario in first}
    rest = [s for s in _scenarios() if s.id not in ran]
    assert len(ran) + len(rest) >= 700
    failure = _first_failure(rest)
    assert failure is None, failure
