"""Expectations files: an implementer's list of scenarios known not to pass yet.

Like test262's expectation lists or a WPT metadata file, the file lets a partial
implementation run the suite in CI and fail only on *changes*: a scenario that
fails as listed is an expected failure, and one that starts passing is an
unexpected pass, so the file is updated when the implementation improves.  The
file belongs to the implementer; the suite only reads it (schema:
``schema/expectations.schema.json``) and can write a fresh one from a run.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from ..resources import describe_error, validator
from ..safety import (
    FileRefused,
    JsonRefused,
    atomic_write_text,
    clean_name,
    clean_text,
    read_regular_file,
    strict_json,
)
from .verdict import Status

__all__ = [
    "STATUS_OF",
    "Expectation",
    "ExpectationsError",
    "Listed",
    "dump_expectations",
    "load_expectations",
]


class Listed(StrEnum):
    """How an expectations file lists a scenario: the keywords of its ``status``."""

    FAIL = "fail"
    ERROR = "error"
    SKIP = "skip"


STATUS_OF = {Listed.FAIL: Status.FAILED, Listed.ERROR: Status.ERRORED, Listed.SKIP: Status.SKIPPED}
"""The status a scenario listed with each keyword is expected to end with."""
KEYWORD_OF = {status: keyword for keyword, status in STATUS_OF.items()}


class ExpectationsError(Exception):
    """The expectations file cannot be read or does not follow its schema."""


@dataclass(frozen=True)
class Expectation:
    """What the implementer says about one scenario."""

    status: Listed
    reason: str
    link: str | None = None
    step: int | None = None
    """For ``fail``: the step (counted from 1) where the first mismatch is, if recorded."""
    check: str | None = None
    """For ``fail``: what the first mismatch is about (an observation key or the action)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Listed(self.status))  # "fail" reads as Listed.FAIL

    @property
    def expected_status(self) -> Status:
        return STATUS_OF[self.status]

    def as_json(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"status": self.status.value, "reason": self.reason}
        if self.link is not None:
            entry["link"] = self.link
        if self.step is not None:
            entry["step"] = self.step
            entry["check"] = self.check
        return entry


def _parse(path: Path, text: str) -> Any:
    """The document, through the same bounded loaders as scenarios and replies."""
    from ..scenarios.loading._yaml import YamlSourceError, load_yaml, non_json_values

    if path.suffix.lower() == ".json":
        try:
            return strict_json(text, unique_keys=True)  # a key said twice, as in YAML
        except json.JSONDecodeError as error:
            raise ExpectationsError(
                f"{path}:{error.lineno}:{error.colno}: not valid JSON: {error.msg}"
            ) from None
        except JsonRefused as error:
            raise ExpectationsError(f"{path}: not strict JSON: {error}") from None
    if not text.strip() or all(
        not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()
    ):
        return None  # an empty file (or only comments) lists nothing
    try:
        document, source = load_yaml(text)
    except YamlSourceError as error:
        mark = error.mark
        raise ExpectationsError(f"{path}:{mark.line}:{mark.column}: {error.message}") from None
    foreign = non_json_values(document)
    if foreign:
        where, message = foreign[0]
        mark = source.value(where)
        shown = ".".join(str(p) for p in where) or "(top level)"
        raise ExpectationsError(f"{path}:{mark.line}:{mark.column}: {shown}: {message}")
    return document


def load_expectations(path: Path) -> dict[str, Expectation]:
    """Read a YAML or JSON (by the ``.json`` suffix) expectations file."""
    try:
        text = read_regular_file(path).decode("utf-8")
    except FileRefused as error:
        raise ExpectationsError(f"cannot read expectations file {path}: {error}") from None
    except UnicodeDecodeError as error:
        raise ExpectationsError(
            f"cannot read expectations file {path}: not UTF-8 text ({error.reason})"
        ) from None
    document = _parse(path, text)
    if document is None:  # an empty file lists nothing
        return {}
    problems = sorted(
        validator("expectations.schema.json").iter_errors(document),
        key=lambda e: [str(p) for p in e.absolute_path],
    )
    if problems:
        lines = [f"  {describe_error(e)}" for e in problems]
        raise ExpectationsError(
            f"{path} is not a valid expectations file "
            "(schema/expectations.schema.json):\n" + "\n".join(lines)
        )
    return {
        scenario_id: Expectation(
            Listed(entry["status"]),
            entry["reason"],
            entry.get("link"),
            entry.get("step"),
            entry.get("check"),
        )
        for scenario_id, entry in document.items()
    }


_HEADER = """\
# Expected results for `fivehundred verify --expectations {name}`.
# Keyed by scenario id; status is fail, error or skip (schema/expectations.schema.json).
# Written by `fivehundred verify --write-expectations`; edit reasons and links freely.
"""


def _entry_map(entry: Expectation) -> Any:
    from ruamel.yaml.comments import CommentedMap

    node = CommentedMap(entry.as_json())
    node.fa.set_flow_style()
    return node


def _round_trip(items: Mapping[str, Expectation], base: str | None, name: str) -> str:
    """YAML for ``items``, keeping ``base``'s comments, reasons, links and layout.

    Entries whose status did not change keep their node (and the comments around
    it); their fields are updated in place.  New entries go in id order, one per line.
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap

    yaml_rt = YAML()
    yaml_rt.width = 4096  # never fold a reason
    yaml_rt.indent(mapping=2, sequence=4, offset=2)
    document = None if base is None else yaml_rt.load(base)
    fresh = not isinstance(document, CommentedMap)
    if fresh:
        document = CommentedMap()
    assert isinstance(document, CommentedMap)
    for key in [k for k in document if k not in items]:
        del document[key]
    for key in sorted(items):
        wanted = items[key].as_json()
        node = document.get(key)
        if isinstance(node, CommentedMap):
            for field_name in [k for k in node if k not in wanted]:
                del node[field_name]
            for field_name, value in wanted.items():
                if node.get(field_name) != value:
                    node[field_name] = value
            continue
        position = sum(1 for k in document if str(k) < key)
        document.insert(position, key, _entry_map(items[key]))
    stream = io.StringIO()
    if document:
        yaml_rt.dump(document, stream)
    else:
        stream.write("{}\n")
    text = stream.getvalue()
    return _HEADER.format(name=clean_name(name)) + text if fresh else text  # one comment line


def dump_expectations(
    expectations: Mapping[str, Expectation] | Iterable[tuple[str, Expectation]],
    path: Path,
    *,
    force: bool = False,
    base: str | None = None,
) -> None:
    """Write an expectations file (JSON for ``.json``, YAML otherwise), sorted by id.

    A YAML file is written over ``base`` (the text of the file it replaces, when
    given) with a round-trip YAML library, so comments and hand-edited reasons and
    links survive a rewrite.  Raises :class:`FileExistsError` rather than overwrite
    a file without ``force``: the file is the implementer's, often hand-edited.
    """
    items = dict(expectations.items() if isinstance(expectations, Mapping) else expectations)
    items = {
        key: replace(
            entry,
            reason=clean_text(entry.reason),
            link=None if entry.link is None else clean_text(entry.link),
        )
        for key, entry in items.items()
    }
    if path.suffix.lower() == ".json":
        document = {key: items[key].as_json() for key in sorted(items)}
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    else:
        text = _round_trip(items, base, path.name)
    atomic_write_text(path, text, exclusive=not force)
