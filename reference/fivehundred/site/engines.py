"""Third-party engines: their ``engine.json`` and ``deviations.yaml``, read and checked.

Each public engine the suite has an adapter for lives in ``adapters/third-party/<name>/``
with an ``engine.json`` (``schema/engine.schema.json``: the engine's repository and the
commit tested, the adapter's command, the variable that gives it a checkout, its
report under ``results/``) and a ``deviations.yaml`` (``schema/deviations.schema.json``:
the report's failures grouped into families, each said in one sentence).  The
conformance page shows, per engine, a headline, those families and its column of the
matrix; :func:`family_problems` keeps the families honest against the report: every
failed scenario in exactly one family, every family scenario failed.

Reading is all this module does; a file that is not what it should be is a problem
naming the file (with the line and column for YAML), never an exception.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..resources import describe_error, validator
from ..safety import FileRefused, JsonRefused, read_regular_file, strict_json
from ..scenarios.format.rulings import anchor_exists, unknown_anchor_message

__all__ = [
    "DEVIATIONS_FILE",
    "ENGINE_FILE",
    "THIRD_PARTY_DIR",
    "Engine",
    "EngineError",
    "Family",
    "ThirdParty",
    "family_problems",
    "load_third_party",
    "read_deviations",
    "read_engine",
]

THIRD_PARTY_DIR = "adapters/third-party"
ENGINE_FILE = "engine.json"
DEVIATIONS_FILE = "deviations.yaml"
MAX_FILE_BYTES = 4 * 1024 * 1024

FAILING = frozenset({"failed", "errored"})
"""The report statuses a family's scenarios may have: the engine answered wrongly, or
gave no usable answer (a crash of the engine is a deviation too)."""


class EngineError(ValueError):
    """An engine's file that cannot be used; the message names the file."""


@dataclass(frozen=True, slots=True)
class Engine:
    """An ``engine.json``."""

    name: str
    title: str
    repository: str
    commit: str
    language: str
    checkout_variable: str
    command: str
    system_packages: tuple[str, ...]
    report: str
    """The report's path from the repository's root (``results/<name>.json``)."""

    @property
    def short_commit(self) -> str:
        return self.commit[:7]

    @property
    def commit_url(self) -> str:
        return f"{self.repository.rstrip('/')}/tree/{self.commit}"


@dataclass(frozen=True, slots=True)
class Family:
    """One deviation: a sentence, and the scenarios that show it."""

    id: str
    sentence: str
    rulings: tuple[str, ...]
    examples: tuple[str, ...]
    scenarios: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ThirdParty:
    """An engine with its families (none when it has no ``deviations.yaml`` yet)."""

    engine: Engine
    families: tuple[Family, ...]
    deviations_file: str | None
    """The deviations file as messages name it, or ``None`` when there is none."""


def _schema_problem(document: Any, schema: str, file: str) -> str | None:
    errors = sorted(
        validator(schema).iter_errors(document), key=lambda e: [str(p) for p in e.absolute_path]
    )
    if not errors:
        return None
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    return f"{file}: {describe_error(errors[0])}{more} (schema/{schema})"


def read_engine(path: Path, file: str) -> Engine:
    """An ``engine.json``; :class:`EngineError` unless it is JSON following its schema."""
    try:
        document = strict_json(read_regular_file(path, MAX_FILE_BYTES), unique_keys=True)
    except FileRefused as error:
        raise EngineError(f"{file}: cannot be read: {error}") from None
    except json.JSONDecodeError as error:
        raise EngineError(f"{file}:{error.lineno}:{error.colno}: not JSON: {error.msg}") from None
    except (JsonRefused, UnicodeDecodeError) as error:
        raise EngineError(f"{file}: not JSON: {error}") from None
    problem = _schema_problem(document, "engine.schema.json", file)
    if problem is not None:
        raise EngineError(problem)
    return Engine(
        name=document["name"],
        title=document["title"],
        repository=document["repository"],
        commit=document["commit"],
        language=document["language"],
        checkout_variable=document["checkout_variable"],
        command=document["command"],
        system_packages=tuple(document["system_packages"]),
        report=document["report"],
    )


def read_deviations(path: Path, file: str) -> tuple[str, tuple[Family, ...]]:
    """A ``deviations.yaml``: the engine it names and its families; :class:`EngineError`
    (with the line and column) unless it is safe YAML following its schema, with each
    family's examples among its scenarios and no id twice."""
    from ..scenarios import YamlSourceError, load_yaml

    try:
        text = read_regular_file(path, MAX_FILE_BYTES).decode("utf-8")
    except FileRefused as error:
        raise EngineError(f"{file}: cannot be read: {error}") from None
    except UnicodeDecodeError as error:
        raise EngineError(f"{file}: not UTF-8 text: {error.reason}") from None
    try:
        document, source = load_yaml(text)
    except YamlSourceError as error:
        raise EngineError(
            f"{file}:{error.mark.line}:{error.mark.column}: {error.message}"
        ) from None
    errors = sorted(
        validator("deviations.schema.json").iter_errors(document),
        key=lambda e: [str(p) for p in e.absolute_path],
    )
    if errors:
        mark = source.value(tuple(errors[0].absolute_path))
        more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
        raise EngineError(
            f"{file}:{mark.line}:{mark.column}: {describe_error(errors[0])}{more} "
            "(schema/deviations.schema.json)"
        )
    families = tuple(
        Family(
            id=item["id"],
            sentence=" ".join(item["sentence"].split()),
            rulings=tuple(item["rulings"]),
            examples=tuple(item["examples"]),
            scenarios=tuple(item["scenarios"]),
        )
        for item in document["families"]
    )
    seen: set[str] = set()
    for index, family in enumerate(families):
        if family.id in seen:
            mark = source.value(("families", index, "id"))
            raise EngineError(f"{file}:{mark.line}:{mark.column}: family {family.id} twice")
        seen.add(family.id)
        for number, slug in enumerate(family.rulings):
            if not anchor_exists(slug):
                mark = source.value(("families", index, "rulings", number))
                raise EngineError(
                    f"{file}:{mark.line}:{mark.column}: family {family.id}: "
                    f"{unknown_anchor_message(slug)}"
                )
        outside = [i for i in family.examples if i not in family.scenarios]
        if outside:
            mark = source.value(("families", index, "examples"))
            raise EngineError(
                f"{file}:{mark.line}:{mark.column}: family {family.id}: the examples "
                f"{', '.join(outside)} are not among its scenarios"
            )
    return str(document["engine"]), families


def load_third_party(root: Path) -> tuple[list[ThirdParty], list[str]]:
    """Every engine under ``root/adapters/third-party/`` that has an ``engine.json``
    (sorted by name), and one problem per file that cannot be used."""
    folder = root / THIRD_PARTY_DIR
    engines: list[ThirdParty] = []
    problems: list[str] = []
    if not folder.is_dir():
        return engines, problems
    for place in sorted(p for p in folder.iterdir() if p.is_dir()):
        shown = f"{THIRD_PARTY_DIR}/{place.name}"
        if not (place / ENGINE_FILE).exists():
            continue  # an adapter still being written: nothing to show yet
        try:
            engine = read_engine(place / ENGINE_FILE, f"{shown}/{ENGINE_FILE}")
        except EngineError as error:
            problems.append(str(error))
            continue
        if engine.name != place.name:
            problems.append(
                f"{shown}/{ENGINE_FILE}: name is {engine.name!r}; it must be the folder's "
                f"name, {place.name!r}"
            )
            continue
        families: tuple[Family, ...] = ()
        deviations = None
        if (place / DEVIATIONS_FILE).exists():
            deviations = f"{shown}/{DEVIATIONS_FILE}"
            try:
                named, families = read_deviations(place / DEVIATIONS_FILE, deviations)
            except EngineError as error:
                problems.append(str(error))
                continue
            if named != engine.name:
                problems.append(f"{deviations}: engine is {named!r}; expected {engine.name!r}")
                continue
        engines.append(ThirdParty(engine, families, deviations))
    return engines, problems


def family_problems(
    third_party: ThirdParty, statuses: Mapping[str, str], report_file: str
) -> list[str]:
    """Where the families and the report disagree: a failed scenario in no family or in
    two, a family scenario that did not fail (or is not in the report).

    ``statuses`` maps each scenario id of the report to its status.  An errored
    scenario may belong to a family (a crash of the engine) but need not."""
    where = third_party.deviations_file or (
        f"{THIRD_PARTY_DIR}/{third_party.engine.name}/{DEVIATIONS_FILE}"
    )
    problems: list[str] = []
    owner: dict[str, str] = {}
    for family in third_party.families:
        for scenario_id in family.scenarios:
            if scenario_id in owner:
                problems.append(
                    f"{where}: {scenario_id} is in two families, {owner[scenario_id]} and "
                    f"{family.id}; a failure belongs to exactly one"
                )
                continue
            owner[scenario_id] = family.id
            status = statuses.get(scenario_id)
            if status is None:
                problems.append(
                    f"{where}: family {family.id} lists {scenario_id}, which {report_file} "
                    "does not have"
                )
            elif status not in FAILING:
                problems.append(
                    f"{where}: family {family.id} lists {scenario_id}, which {status} in "
                    f"{report_file}"
                )
    unowned = sorted(i for i, status in statuses.items() if status == "failed" and i not in owner)
    if unowned:
        shown = ", ".join(unowned[:10]) + (
            f" and {len(unowned) - 10} more" if len(unowned) > 10 else ""
        )
        problems.append(
            f"{where}: {len(unowned)} scenarios failed in {report_file} but are in no family: "
            f"{shown}"
        )
    return problems


def family_sentence(family: Family, links: Sequence[str]) -> str:
    """``The dealer never rotates: 44 scenarios, e.g. A, B.`` (``links`` are the
    examples, already written as the page wants them)."""
    sentence = family.sentence.rstrip(".!")
    count = len(family.scenarios)
    noun = "scenario" if count == 1 else "scenarios"
    example = ", e.g. " + ", ".join(links) if links else ""
    return f"{sentence}: {count} {noun}{example}."
