"""Finding scenarios from what a person typed: ids in any case, paths, and helpful misses.

Ids are case-insensitive (``7qk2`` is ``7QK2``); an unknown id is answered with the
closest ids that exist, and a filter that matches nothing lists the areas, tags or
rules that would match something.  Every miss is a :class:`click.UsageError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import click

from ..scenarios import Corpus, Scenario
from ..scenarios.format.diagnostics import did_you_mean
from ..verify.runner import Selection

__all__ = [
    "find_scenario",
    "no_match_message",
    "normalise_selection",
    "selected",
    "unknown_ids_message",
]


def unknown_ids_message(unknown: Sequence[str], corpus: Corpus) -> str:
    """The miss, the closest ids, and the suite folder searched when the scenarios came
    from it (a command run from the wrong folder finds another suite: this says which)."""
    from ..resources import scenarios_dir
    from ..scenarios.loading.corpus import display_path

    known = [s.id for s in corpus.scenarios]
    hints = "".join(did_you_mean(i.upper(), known, cutoff=0.5) for i in unknown[:1])
    folder = scenarios_dir()
    paths = [s.path for s in corpus.scenarios]
    within = all(p is not None and p.is_relative_to(folder) for p in paths)  # none: it too
    where = f" in {display_path(folder)}" if within else ""
    return f"no scenario with id {', '.join(unknown)}{where}{hints}"


def normalise_selection(selection: Selection) -> Selection:
    """Ids in upper case, so ``--id 7qk2`` selects ``7QK2``."""
    return replace(selection, ids=tuple(i.upper() for i in selection.ids))


def no_match_message(corpus: Corpus, selection: Selection) -> str:
    """Why a filter matched nothing, with the values that would have matched."""
    parts = ["no scenario matches the filters"]
    for asked, values, name in (
        (selection.areas, {s.area for s in corpus.scenarios}, "areas"),
        (selection.tags, {t for s in corpus.scenarios for t in s.tags}, "tags"),
        (selection.rules, {r for s in corpus.scenarios for r in s.rules}, "rules"),
        (selection.profiles, {s.profile_name for s in corpus.scenarios}, "profiles"),
        (selection.variants, {v for s in corpus.scenarios for v in s.variants}, "variants"),
    ):
        missing = [a for a in asked if a not in values]
        if missing:
            parts.append(
                f"unknown {name[:-1]} {', '.join(missing)}; valid {name}: "
                + ", ".join(sorted(values))
            )
    return "\n".join(parts)


def selected(corpus: Corpus, selection: Selection, *, none_with_invalid: bool) -> list[Scenario]:
    """The scenarios ``selection`` picks (ids in any case); an id that is no scenario, or a
    filter that picks nothing, is a usage error.  With ``none_with_invalid`` picking nothing
    is allowed when some file was invalid (the command reports the files instead)."""
    selection = normalise_selection(selection)
    known = {s.id for s in corpus.scenarios}
    unknown = [i for i in selection.ids if i not in known]
    if unknown:
        raise click.UsageError(unknown_ids_message(unknown, corpus))
    chosen = selection.apply(corpus.scenarios)
    if not chosen and not (none_with_invalid and corpus.invalid_files):
        raise click.UsageError(no_match_message(corpus, selection))
    return chosen


def find_scenario(corpus: Corpus, text: str) -> Scenario | None:
    """The scenario with id ``text`` (any case), or the one in the file ``text`` names."""
    wanted = text.upper()
    for scenario in corpus.scenarios:
        if scenario.id == wanted:
            return scenario
    path = Path(text)
    if path.suffix in (".yaml", ".yml") and path.exists():
        resolved = path.resolve()
        for scenario in corpus.scenarios:
            if scenario.path is not None and scenario.path.resolve() == resolved:
                return scenario
    return None
