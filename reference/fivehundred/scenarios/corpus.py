"""Finding, loading and checking scenario files.

Each file goes through three gates in turn — safe YAML, the JSON Schema, semantic
lint — and then the corpus-wide checks (ids unique, never a retired id).  A file that
fails any gate is reported with its diagnostics and left out; the others carry on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..resources import retired_ids_file, scenarios_dir
from . import _cache
from ._lint import lint_scenario
from ._schema import schema_errors
from ._yaml import SourceMap, YamlSourceError, load_yaml
from .diagnostics import Diagnostic, DocPath, format_path
from .model import Scenario
from .parse import ModelError, scenario_from_document

SCENARIO_SUFFIXES = (".yaml", ".yml")
DISPUTES_DIR = "disputes"
"""Folder beside the areas that holds dispute records, not scenarios."""
ID_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
ID_PATTERN = re.compile(f"^[{ID_ALPHABET}]{{4}}$")


@dataclass
class FileResult:
    path: Path
    scenario: Scenario | None
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass
class Corpus:
    files: list[FileResult]

    @property
    def scenarios(self) -> list[Scenario]:
        return [f.scenario for f in self.files if f.scenario is not None]

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for f in self.files for d in f.diagnostics]

    @property
    def invalid_files(self) -> list[FileResult]:
        return [f for f in self.files if f.diagnostics]


def display_path(path: Path) -> str:
    """The path as the user would type it: relative to the working directory if inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def is_dispute_record(path: Path, root: Path) -> bool:
    """Whether ``path`` lies in a ``disputes/`` folder below ``root`` (not a scenario)."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return False
    return DISPUTES_DIR in parts[:-1]


def find_files(paths: Iterable[Path]) -> list[Path]:
    """Scenario files under each path (a file is taken as it is), sorted, no duplicates.

    Dispute records (``disputes/`` folders) are not scenarios and are left out of a
    folder's files; a file named explicitly is taken as it is.
    """
    found: dict[Path, None] = {}
    for path in paths:
        if path.is_dir():
            for suffix in SCENARIO_SUFFIXES:
                for file in sorted(path.rglob(f"*{suffix}")):
                    if not is_dispute_record(file, path):
                        found[file] = None
        else:
            found[path] = None
    return sorted(found, key=lambda p: str(p))


def area_of(path: Path, root: Path) -> str:
    try:
        parts = path.resolve().relative_to(root.resolve()).parts
    except ValueError:
        return path.parent.name
    return parts[0] if len(parts) > 1 else ""


def _diag(
    path: Path,
    source: SourceMap | None,
    where: DocPath,
    message: str,
    kind: str,
    at_key: bool = False,
) -> Diagnostic:
    mark = (source.key(where) if at_key else source.value(where)) if source else None
    return Diagnostic(
        display_path(path),
        mark.line if mark else 1,
        mark.column if mark else 1,
        format_path(where),
        message,
        kind,
    )


def _in_order(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return sorted(diagnostics, key=lambda d: (d.line, d.column))


def load_file(path: Path, root: Path | None = None) -> FileResult:
    """Load one scenario file through YAML, schema and lint."""
    root = root or scenarios_dir()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return FileResult(path, None, [_diag(path, None, (), f"cannot read file: {error}", "io")])
    document = _cache.lookup(text)
    if document is not None:
        return _checked(path, root, document, SourceMap(text=text))
    try:
        document, source = load_yaml(text)
    except YamlSourceError as error:
        return FileResult(
            path,
            None,
            [
                Diagnostic(
                    display_path(path),
                    error.mark.line,
                    error.mark.column,
                    format_path(error.path),
                    error.message,
                    "yaml",
                )
            ],
        )
    if not isinstance(document, dict):
        found = type(document).__name__
        return FileResult(
            path,
            None,
            [
                _diag(
                    path,
                    source,
                    (),
                    f"expected a mapping with id, title, rules, …; found a {found}",
                    "schema",
                )
            ],
        )
    problems = schema_errors(document)
    if problems:
        return FileResult(
            path,
            None,
            _in_order(
                [
                    _diag(path, source, where, message, "schema", at_key)
                    for where, message, at_key in problems
                ]
            ),
        )
    _cache.store(text, document)
    return _checked(path, root, document, source)


def _checked(path: Path, root: Path, document: Any, source: SourceMap) -> FileResult:
    """A document that passed the schema, parsed into the model and linted."""
    try:
        scenario = scenario_from_document(document, path, area_of(path, root), source)
    except ModelError as error:
        where = tuple(error.where.split("."))
        return FileResult(path, None, [_diag(path, source, where, error.message, "lint")])
    lint = lint_scenario(scenario)
    if lint:
        return FileResult(
            path,
            None,
            _in_order([_diag(path, source, where, message, "lint") for where, message in lint]),
        )
    return FileResult(path, scenario)


def read_retired_ids(path: Path | None = None) -> set[str]:
    path = path or retired_ids_file()
    if not path.exists():
        return set()
    ids = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        token = line.split("#", 1)[0].strip()
        if token:
            ids.add(token)
    return ids


_LOADED: dict[tuple[str, int, int, str, str], FileResult] = {}
"""Files already loaded in this process, by path, modification time, size, root and working
folder: a second load of an unchanged file (the test suite, ``mkdocs serve``) is free."""


def load_file_once(path: Path, root: Path) -> FileResult:
    """:func:`load_file`, reusing this process's result while the file is unchanged."""
    try:
        stat = path.stat()
    except OSError:
        return load_file(path, root)
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, str(root), str(Path.cwd()))
    loaded = _LOADED.get(key)
    if loaded is None:
        loaded = _LOADED[key] = load_file(path, root)
    return replace(loaded, diagnostics=list(loaded.diagnostics))


def load_corpus(paths: Iterable[Path] | None = None, root: Path | None = None) -> Corpus:
    """Load every scenario under ``paths`` (default: the bundled scenarios)."""
    root = root or scenarios_dir()
    files = [load_file_once(p, root) for p in find_files(list(paths) if paths else [root])]
    retired = read_retired_ids()
    first_seen: dict[str, FileResult] = {}
    for result in files:
        scenario = result.scenario
        if scenario is None:
            continue
        where: DocPath = ("id",)
        if scenario.id in retired:
            result.diagnostics.append(
                _diag(
                    result.path,
                    scenario.source,
                    where,
                    f"id {scenario.id} is retired and may never be used again; "
                    "mint a new one with `fivehundred new`",
                    "corpus",
                )
            )
        other = first_seen.get(scenario.id)
        if other is not None:
            result.diagnostics.append(
                _diag(
                    result.path,
                    scenario.source,
                    where,
                    f"id {scenario.id} is already used by {display_path(other.path)}",
                    "corpus",
                )
            )
        else:
            first_seen[scenario.id] = result
        if result.diagnostics:
            result.scenario = None
    return Corpus(files)
