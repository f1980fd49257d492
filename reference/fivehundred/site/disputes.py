"""The dispute records (``scenarios/disputes/*.yaml``) as the site reads them.

A dispute record names the rulings it touches and, for each answer the sources
give, the profiles and toggles of the suite that take it.  The site draws two
markers under a rule clause from that alone, so nothing is maintained twice:

* **disputed**: one link per dispute whose ``rulings`` list the clause;
* **differs per profile**: the profiles and toggles that take another answer than
  the default profile's, each linked to its rule-set page, with the dispute.

Reading a record is the only file access here; everything else is pure.  A file
that cannot be read, is not YAML or does not follow ``schema/dispute.schema.json``
is a problem naming the file, never an exception.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..engine import DEFAULT_PROFILE
from ..resources import describe_error, validator
from ..safety import FileRefused, read_regular_file

DISPUTE_SCHEMA = "dispute.schema.json"

DISPUTES_PAGE = "disputes.md"
"""The docs page with one entry per dispute, anchored by the dispute's id."""

PROFILES_DIR = "profiles/"
"""Rule-set pages: ``profiles/<profile>.md``, and the toggles on ``profiles/variants.md``."""

VARIANTS_PAGE = PROFILES_DIR + "variants.md"


@dataclass(frozen=True, slots=True)
class Answer:
    id: str
    summary: str
    profiles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Dispute:
    id: str
    title: str
    status: str
    rulings: tuple[str, ...]
    answers: tuple[Answer, ...]
    file: str = ""
    """Where the record was read, for messages."""

    def default_answer(self) -> Answer | None:
        """The answer the default profile takes (it lists the bare profile name)."""
        for answer in self.answers:
            if DEFAULT_PROFILE.name in answer.profiles:
                return answer
        return None

    def differing(self) -> tuple[str, ...]:
        """Profiles and toggles that take another answer than the default profile's,
        in the order the record lists them; none when the default takes no answer."""
        default = self.default_answer()
        if default is None:
            return ()
        seen: dict[str, None] = {}
        for answer in self.answers:
            if answer is not default:
                for profile in answer.profiles:
                    seen.setdefault(profile, None)
        return tuple(seen)


def dispute_from_document(document: Mapping[str, Any], file: str = "") -> Dispute:
    """A record already checked against the schema."""
    return Dispute(
        id=str(document["id"]),
        title=str(document["title"]),
        status=str(document["status"]),
        rulings=tuple(str(r) for r in document["rulings"]),
        answers=tuple(
            Answer(str(a["id"]), str(a["summary"]), tuple(str(p) for p in a["profiles"]))
            for a in document["answers"]
        ),
        file=file,
    )


def load_disputes(folder: Path, shown_as: str = "") -> tuple[list[Dispute], list[str]]:
    """Every ``*.yaml`` record in ``folder`` (by name), and one problem per bad file.

    ``shown_as`` is how messages name the folder (``scenarios/disputes``)."""
    disputes: list[Dispute] = []
    problems: list[str] = []
    if not folder.is_dir():
        return disputes, problems
    check = validator(DISPUTE_SCHEMA)
    for path in sorted(folder.iterdir()):
        if path.suffix not in (".yaml", ".yml"):
            continue
        name = f"{shown_as}/{path.name}" if shown_as else str(path)
        try:
            document = yaml.load(read_regular_file(path), Loader=yaml.CSafeLoader)
        except FileRefused as error:
            problems.append(f"{name}: dispute record not read: {error}")
            continue
        except yaml.YAMLError as error:
            where = getattr(error, "problem_mark", None)
            at = f":{where.line + 1}:{where.column + 1}" if where is not None else ""
            reason = getattr(error, "problem", None) or "not valid YAML"
            problems.append(f"{name}{at}: dispute record is not valid YAML: {reason}")
            continue
        errors = sorted(
            check.iter_errors(document), key=lambda e: [str(p) for p in e.absolute_path]
        )
        if errors:
            for problem in errors[:5]:
                problems.append(
                    f"{name}: dispute record does not follow schema/{DISPUTE_SCHEMA}: "
                    f"{describe_error(problem)}"
                )
            continue
        if document["id"] != path.stem:
            problems.append(
                f"{name}: dispute id '{document['id']}' differs from the file name "
                f"'{path.stem}' (the id is the file name without .yaml)"
            )
            continue
        disputes.append(dispute_from_document(document, name))
    return disputes, problems


def disputes_by_clause(disputes: Iterable[Dispute]) -> dict[str, list[Dispute]]:
    """Clause anchor → the disputes that touch it, in the order given."""
    out: dict[str, list[Dispute]] = {}
    for dispute in disputes:
        for slug in dispute.rulings:
            out.setdefault(slug, []).append(dispute)
    return out


_TOKEN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def profile_targets(
    profile_pages: Mapping[str, str], headings: Mapping[str, Sequence[tuple[str, str]]]
) -> dict[str, str]:
    """Where a profile or toggle name is described: name → ``uri`` or ``uri#anchor``.

    ``profile_pages`` maps docs URIs under ``profiles/`` to their Markdown (only the
    names matter); ``headings`` maps a page to its anchored headings as (title,
    anchor).  A profile's page is ``profiles/<name>.md``; a toggle is found in a
    heading of the variants page that names it (``## defender-cap-490 and
    defender-cap-480 {#defender-cap}``)."""
    targets: dict[str, str] = {}
    for uri in profile_pages:
        if uri.startswith(PROFILES_DIR) and uri.count("/") == 1:
            name = uri[len(PROFILES_DIR) : -len(".md")]
            if name not in ("index", "variants"):
                targets[name] = uri
    for title, anchor in headings.get(VARIANTS_PAGE, ()):
        for token in _TOKEN.findall(title):
            if "-" in token and token not in targets:
                targets[token] = f"{VARIANTS_PAGE}#{anchor}"
    return targets


def profile_target(name: str, targets: Mapping[str, str]) -> str | None:
    """The page of ``profile+toggle+…``: the (last) toggle's section when the variants
    page describes it, else the profile's page."""
    base, *toggles = name.split("+")
    for toggle in reversed(toggles):
        if toggle in targets:
            return targets[toggle]
    return targets.get(base)


__all__ = [
    "DISPUTES_PAGE",
    "Answer",
    "Dispute",
    "dispute_from_document",
    "disputes_by_clause",
    "load_disputes",
    "profile_target",
    "profile_targets",
]
