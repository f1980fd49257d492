"""Dispute records: points on which the sources disagree, and their paired scenarios.

A record (``scenarios/disputes/<id>.yaml``, ``schema/dispute.schema.json``) gives a
question, the answers the sources give, the profiles and toggles that take each answer,
and the ids of its *paired scenarios*: the same position run under profiles that take
different answers.  This module loads the records (safe YAML, then the schema) and checks
the pairs against the corpus:

* every listed id is a scenario of the corpus;
* each listed scenario runs under a profile (with its toggles) that one of the record's
  answers lists;
* the listed scenarios show at least :data:`PAIRED_MINIMUM` different answers;
* the scenarios tagged ``dispute-<id>`` and the ids listed are the same.

A profile in an answer's list is either a bare name (``american-4``), which covers that
profile with any toggles except a combination listed under another answer, or a name and
toggles joined by ``+`` (``australian-4+no-misere``), which the toggles must match exactly.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...engine import get_profile
from ...resources import scenarios_dir
from ..format.diagnostics import Diagnostic, DocPath
from ..format.model import Scenario
from ..format.rulings import anchor_exists, unknown_anchor_message
from . import _cache
from ._yaml import SourceMap
from .corpus import (
    DISPUTES_DIR,
    checked_document,
    display_path,
    load_corpus,
    located_diagnostic,
    read_text_file,
)

DISPUTE_SCHEMA = "dispute.schema.json"
SCENARIOS_DIR = "scenarios"
"""The folder a suite keeps its scenarios in; its ``disputes/`` holds the records."""

PAIRED_MINIMUM = 2
"""A dispute is paired when its scenarios show at least this many of its answers."""

TAG_PREFIX = "dispute-"
"""Paired scenarios carry the tag ``dispute-<record id>``."""


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer of a dispute: its slug, summary, sources and the profiles taking it."""

    id: str
    summary: str
    sources: tuple[Mapping[str, str], ...]
    profiles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Dispute:
    """One dispute record, validated against the schema."""

    id: str
    title: str
    question: str
    rulings: tuple[str, ...]
    status: str
    answers: tuple[Answer, ...]
    scenarios: tuple[str, ...]
    notes: str = ""
    path: Path | None = field(default=None, compare=False)
    source: SourceMap | None = field(default=None, compare=False, repr=False)
    """Where each part of the file is, for messages that point into the record."""

    @property
    def tag(self) -> str:
        """The tag its paired scenarios carry."""
        return TAG_PREFIX + self.id


@dataclass
class DisputeSet:
    """The records of a folder and what is wrong with the files."""

    records: list[Dispute]
    diagnostics: list[Diagnostic]

    def by_id(self) -> dict[str, Dispute]:
        return {d.id: d for d in self.records}


def disputes_dir(root: Path | None = None) -> Path:
    """The records' folder under a scenarios root (default: the suite's)."""
    return (root or scenarios_dir()) / DISPUTES_DIR


def _split(label: str) -> tuple[str, frozenset[str]]:
    name, *toggles = label.split("+")
    return name, frozenset(toggles)


def answer_for(dispute: Dispute, profile: str, variants: Iterable[str] = ()) -> Answer | None:
    """The answer that a profile with these toggles takes, or ``None`` when no answer
    lists it: an exact profile+toggles entry first, else a bare profile name."""
    wanted = (profile, frozenset(variants))
    for answer in dispute.answers:
        if any(_split(label) == wanted for label in answer.profiles):
            return answer
    for answer in dispute.answers:
        if profile in answer.profiles:
            return answer
    return None


def scenario_answer(dispute: Dispute, scenario: Scenario) -> Answer | None:
    """The answer of ``dispute`` that the scenario's profile and toggles take."""
    return answer_for(dispute, scenario.profile_name, scenario.variants)


def carried_answers(dispute: Dispute) -> list[Answer]:
    """The answers some profile or toggle of the suite takes."""
    return [a for a in dispute.answers if a.profiles]


def paired_by_answer(
    dispute: Dispute, scenarios: Mapping[str, Scenario]
) -> dict[str, list[Scenario]]:
    """Answer id → the listed scenarios that run under a profile taking it (listed order)."""
    out: dict[str, list[Scenario]] = {a.id: [] for a in dispute.answers}
    for scenario_id in dispute.scenarios:
        scenario = scenarios.get(scenario_id)
        if scenario is None:
            continue
        answer = scenario_answer(dispute, scenario)
        if answer is not None:
            out[answer.id].append(scenario)
    return out


def answers_shown(dispute: Dispute, scenarios: Mapping[str, Scenario]) -> int:
    """How many different answers the listed scenarios show."""
    return sum(1 for shown in paired_by_answer(dispute, scenarios).values() if shown)


def located_pair_problems(
    dispute: Dispute, scenarios: Sequence[Scenario], invalid: int = 0
) -> list[tuple[DocPath, str]]:
    """What is wrong with the record's paired scenarios, each with where in the record
    it is (the listed id, or the list); empty when the record lists none (see
    :func:`is_paired` for whether it should).  ``invalid``: how many scenario files
    beside could not be read (a listed id may be in one of them)."""
    by_id = {s.id: s for s in scenarios}
    problems: list[tuple[DocPath, str]] = []
    for index, scenario_id in enumerate(dispute.scenarios):
        where: DocPath = ("scenarios", index)
        scenario = by_id.get(scenario_id)
        if scenario is None:
            maybe = f" (or is in one of the {invalid} invalid scenario files)" if invalid else ""
            problems.append((where, f"scenario {scenario_id} does not exist{maybe}"))
            continue
        if scenario_answer(dispute, scenario) is None:
            listed = sorted({p for a in dispute.answers for p in a.profiles})
            problems.append(
                (
                    where,
                    f"scenario {scenario_id} runs under {scenario.profile_label}, which no "
                    f"answer lists (answers list: {', '.join(listed) or 'none'})",
                )
            )
        if dispute.tag not in scenario.tags:
            problems.append((where, f"scenario {scenario_id} lacks the tag {dispute.tag}"))
    tagged = [s.id for s in scenarios if dispute.tag in s.tags]
    for scenario_id in tagged:
        if scenario_id not in dispute.scenarios:
            problems.append(
                (
                    ("scenarios",),
                    f"scenario {scenario_id} has the tag {dispute.tag} but the record does "
                    "not list it",
                )
            )
    if dispute.scenarios and answers_shown(dispute, by_id) < PAIRED_MINIMUM:
        problems.append(
            (
                ("scenarios",),
                f"the listed scenarios show fewer than {PAIRED_MINIMUM} answers; a pair runs "
                "the same position under profiles of different answers",
            )
        )
    return problems


def pair_problems(dispute: Dispute, scenarios: Sequence[Scenario]) -> list[str]:
    """:func:`located_pair_problems` as sentences that name the record."""
    return [f"{dispute.id}: {message}" for _, message in located_pair_problems(dispute, scenarios)]


def is_paired(dispute: Dispute, scenarios: Sequence[Scenario]) -> bool:
    """Whether the listed scenarios show at least two answers."""
    return answers_shown(dispute, {s.id: s for s in scenarios}) >= PAIRED_MINIMUM


def tagged_scenarios(dispute_id: str, scenarios: Iterable[Scenario]) -> list[Scenario]:
    """The scenarios carrying the tag of ``dispute_id``."""
    tag = TAG_PREFIX + dispute_id
    return [s for s in scenarios if tag in s.tags]


# ---- loading ------------------------------------------------------------------------


def _answer(data: Mapping[str, Any]) -> Answer:
    return Answer(
        id=data["id"],
        summary=" ".join(str(data["summary"]).split()),
        sources=tuple(dict(s) for s in data["sources"]),
        profiles=tuple(data["profiles"]),
    )


def dispute_from_document(
    document: Mapping[str, Any], path: Path | None = None, source: SourceMap | None = None
) -> Dispute:
    """A record from a document the schema accepted."""
    return Dispute(
        id=document["id"],
        title=document["title"],
        question=" ".join(str(document["question"]).split()),
        rulings=tuple(document["rulings"]),
        status=document["status"],
        answers=tuple(_answer(a) for a in document["answers"]),
        scenarios=tuple(document["scenarios"]),
        notes=str(document.get("notes") or ""),
        path=path,
        source=source,
    )


def load_dispute_file(path: Path) -> tuple[Dispute | None, list[Diagnostic]]:
    """One record, read as a scenario file is (:func:`~.corpus.read_text_file`, then
    :func:`~.corpus.checked_document`: safe YAML, JSON values only, the schema), and its
    id against its file name."""
    text, problems = read_text_file(path)
    if text is None:
        return None, problems
    cached = _cache.lookup(text, DISPUTE_SCHEMA)
    if cached is not None:
        try:
            return _checked(path, cached.document, SourceMap(text=text))
        except Exception:  # an entry that reads back as no checked record: use the YAML
            pass
    document, source, problems = checked_document(path, text, DISPUTE_SCHEMA, "id, title")
    if document is None or source is None:
        return None, problems
    _cache.store(text, document, DISPUTE_SCHEMA)
    return _checked(path, document, source)


def _checked(
    path: Path, document: Any, source: SourceMap
) -> tuple[Dispute | None, list[Diagnostic]]:
    """A record that passed the schema: its id against its file name, no answer twice."""
    problems: list[Diagnostic] = []
    if document["id"] != path.stem:
        problems.append(
            located_diagnostic(
                path, source, ("id",), f"the id must be the file name: {path.stem}", "lint"
            )
        )
    for index, slug in enumerate(document["rulings"]):
        if not anchor_exists(slug):
            where: DocPath = ("rulings", index)
            problems.append(
                located_diagnostic(path, source, where, unknown_anchor_message(slug), "lint")
            )
    answers = [a["id"] for a in document["answers"]]
    for index, answer_id in enumerate(answers):
        if answer_id in answers[:index]:
            problems.append(
                located_diagnostic(
                    path, source, ("answers", index, "id"), f"answer {answer_id} twice", "lint"
                )
            )
        for label_index, label in enumerate(document["answers"][index]["profiles"]):
            wrong = profile_label_problem(label)
            if wrong is not None:
                where = ("answers", index, "profiles", label_index)
                problems.append(located_diagnostic(path, source, where, wrong, "lint"))
    if problems:
        return None, problems
    return dispute_from_document(document, path, source), []


def profile_label_problem(label: str) -> str | None:
    """What is wrong with an answer's profile label (``name`` or ``name+toggle+…``), the
    engine's own words; ``None`` when the engine knows that profile with those toggles."""
    name, toggles = _split(label)
    try:
        get_profile(name, toggles)
    except KeyError as error:
        return f"{label}: {error.args[0]}"
    except ValueError as error:
        return f"{label}: {error}"
    return None


def load_disputes(folder: Path | None = None) -> DisputeSet:
    """Every record of ``folder`` (default: the suite's ``scenarios/disputes``), by id."""
    folder = folder or disputes_dir()
    records: list[Dispute] = []
    diagnostics: list[Diagnostic] = []
    if not folder.is_dir():
        problem = _not_a_folder(folder)
        return DisputeSet(records, [problem] if problem else [])
    files, problem = _yaml_files(folder)
    diagnostics += [problem] if problem else []
    for path in files:
        record, problems = load_dispute_file(path)
        diagnostics += problems
        if record is not None:
            records.append(record)
    return DisputeSet(sorted(records, key=lambda d: d.id), diagnostics)


def is_record_file(path: Path) -> bool:
    """Whether ``path`` names a dispute record: a file in a ``disputes`` folder (also
    when typed from inside that folder, as ``x.yaml``)."""
    return path.absolute().parent.name == DISPUTES_DIR and not path.is_dir()


def _not_a_folder(folder: Path) -> Diagnostic | None:
    """A problem when something that is not a folder stands where the records' folder
    belongs (a file, a link to nothing or to itself): its records would otherwise go
    unchecked with 0 problems reported.  ``None`` when nothing is there."""
    if not os.path.lexists(folder):
        return None
    try:
        os.stat(folder)
        what = "it is not a folder"
    except OSError as error:
        what = f"it cannot be followed: {error.strerror or error}"
    message = f"the dispute records' folder cannot be searched: {what}"
    return Diagnostic(display_path(folder), 1, 1, "(folder)", message, "io")


def _real(path: Path) -> Path:
    """Where ``path`` really is, to read each file once; a link that cannot be followed
    (a loop) stands for itself, and reading it reports why."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # Python 3.11 says "Symlink loop" as a RuntimeError
        return path.absolute()


def _yaml_files(folder: Path) -> tuple[list[Path], Diagnostic | None]:
    """The ``*.yaml`` files of a records folder, or why it cannot be searched."""
    try:
        with os.scandir(folder) as entries:
            names = sorted(e.name for e in entries if e.name.endswith(".yaml"))
    except OSError as error:
        why = error.strerror or str(error)
        return [], Diagnostic(display_path(folder), 1, 1, "(folder)", f"cannot search: {why}", "io")
    return [folder / name for name in names], None


def _record_groups(
    paths: Sequence[Path] | None,
) -> tuple[list[tuple[Path, list[Path], bool]], list[Diagnostic]]:
    """The records of what ``validate`` was given, by folder, each with whether the
    scenarios beside them were given too: ``disputes/`` inside a given folder (the
    suite's scenarios by default), a ``disputes`` folder given by itself, or record files
    given by themselves.  A record given twice is read once."""
    roots = [scenarios_dir()] if paths is None else list(paths)
    groups: dict[Path, tuple[dict[Path, Path], bool]] = {}
    problems: list[Diagnostic] = []
    for root in roots:
        if is_record_file(root):
            folder, files, beside = root.absolute().parent, [root], False
        elif root.is_dir() and root.absolute().name == DISPUTES_DIR:
            folder, beside = root.absolute(), False
            files, problem = _yaml_files(root)
            problems += [problem] if problem else []
        elif (root / DISPUTES_DIR).is_dir():
            folder, beside = (root / DISPUTES_DIR).absolute(), True
            files, problem = _yaml_files(root / DISPUTES_DIR)
            problems += [problem] if problem else []
        else:
            problem = _not_a_folder(root / DISPUTES_DIR) if root.is_dir() else None
            problems += [problem] if problem else []
            continue
        known, given_beside = groups.get(_real(folder), ({}, False))
        for path in files:  # keyed by where the file really is: each read once
            known.setdefault(_real(path), path)
        groups[_real(folder)] = (known, given_beside or beside)
    found = [(folder, list(files.values()), beside) for folder, (files, beside) in groups.items()]
    return found, problems


@dataclass
class DisputeCheck:
    """What ``validate`` found in the dispute records it was given."""

    records: int
    """How many record files were read."""
    problems: list[Diagnostic]
    unpaired_folders: list[Path]
    """Records folders whose pairs could not be checked: no scenarios beside them."""


def check_disputes(paths: Sequence[Path] | None, scenarios: Sequence[Scenario]) -> DisputeCheck:
    """The dispute records of what ``validate`` checks, and their problems: each file's
    schema and lint, then each record's paired scenarios.  Those are checked against
    ``scenarios`` when the scenarios beside the records were given too, else against
    the suite the records belong to: the scenarios of the ``scenarios/`` folder that
    holds their ``disputes/`` (the suite's own are already loaded).  Records in any other
    folder get their schema and lint, and the folder is named as unpaired."""
    count = 0
    groups, problems = _record_groups(paths)
    unpaired: list[Path] = []
    for folder, files, with_scenarios in groups:
        count += len(files)
        beside: Sequence[Scenario] | None = scenarios if with_scenarios else None
        invalid = 0
        if beside is None and folder.parent.name == SCENARIOS_DIR:
            own = folder.parent.resolve() == scenarios_dir().resolve()
            suite = load_corpus() if own else load_corpus([folder.parent], root=folder.parent)
            beside, invalid = suite.scenarios, len(suite.invalid_files)
        if beside is None and files:
            unpaired.append(folder)
        for path in files:
            record, found = load_dispute_file(path)
            problems += found
            if record is None or beside is None:
                continue
            for where, message in located_pair_problems(record, beside, invalid):
                problems.append(located_diagnostic(path, record.source, where, message, "lint"))
    return DisputeCheck(count, problems, unpaired)


__all__ = [
    "DISPUTE_SCHEMA",
    "PAIRED_MINIMUM",
    "TAG_PREFIX",
    "Answer",
    "Dispute",
    "DisputeCheck",
    "DisputeSet",
    "answer_for",
    "answers_shown",
    "carried_answers",
    "check_disputes",
    "dispute_from_document",
    "disputes_dir",
    "is_paired",
    "is_record_file",
    "load_dispute_file",
    "load_disputes",
    "located_pair_problems",
    "pair_problems",
    "paired_by_answer",
    "profile_label_problem",
    "scenario_answer",
    "tagged_scenarios",
]
