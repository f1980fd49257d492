"""Finding, loading and checking scenario files.

Each file goes through three gates in turn — safe YAML, the JSON Schema, semantic
lint — and then the corpus-wide checks (ids unique, never a retired id).  A file that
fails any gate is reported with its diagnostics and left out; the others carry on.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...resources import retired_ids_file, scenarios_dir
from ...safety import MAX_FOLDER_DEPTH, FileRefused, read_regular_file
from ..format.diagnostics import Diagnostic, DocPath, Positions, format_path
from ..format.model import Scenario
from . import _cache
from ._lint import lint_scenario
from ._schema import schema_errors
from ._yaml import SourceMap, YamlSourceError, load_yaml_plain, non_json_values
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
    try:  # the folder resolved, the name kept: a link is shown as itself
        full = path.absolute().parent.resolve() / path.name
        return str(full.relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # outside; or a link loop
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

    Dispute records (``disputes/`` folders, also when given themselves) are not
    scenarios and are left out; a file named explicitly is taken as it is.  Entries that are not
    regular files (a FIFO, a device, a dangling link) are listed too, so that loading
    reports each one; :func:`scan` also says which folders could not be searched.
    """
    return scan(paths)[0]


def scan(paths: Iterable[Path]) -> tuple[list[Path], list[Diagnostic]]:
    """:func:`find_files` and a diagnostic for each folder that could not be searched.

    The walk is iterative and never blocks: a symbolic link to a folder is followed
    once (a loop back to a folder already searched is reported), a folder deeper
    than :data:`~fivehundred.safety.MAX_FOLDER_DEPTH` below the path given is
    reported and not entered, and an unreadable folder is reported and skipped.
    """
    found: dict[Path, None] = {}
    problems: list[Diagnostic] = []
    for path in paths:
        if not path.is_dir():
            found[path] = None
            continue
        if path.absolute().name == DISPUTES_DIR:  # records, checked by validate on their own
            continue
        seen: set[tuple[int, int]] = set()
        pending: list[tuple[Path, int]] = [(path, 0)]
        while pending:
            folder, depth = pending.pop()
            try:
                info = folder.stat()
            except OSError as error:
                problems.append(_folder_problem(folder, f"cannot search: {_reason(error)}"))
                continue
            if (info.st_dev, info.st_ino) in seen:
                problems.append(
                    _folder_problem(folder, "a link back to a folder already searched; skipped")
                )
                continue
            seen.add((info.st_dev, info.st_ino))
            try:
                with os.scandir(folder) as entries:
                    listed = sorted(entries, key=lambda e: e.name)
            except OSError as error:
                problems.append(_folder_problem(folder, f"cannot search: {_reason(error)}"))
                continue
            for entry in listed:
                if _is_folder(entry):
                    child = Path(entry.path)
                    if entry.name == DISPUTES_DIR:
                        continue
                    if depth + 1 > MAX_FOLDER_DEPTH:
                        problems.append(
                            _folder_problem(
                                child,
                                f"more than {MAX_FOLDER_DEPTH} folders deep (the limit); "
                                "not searched",
                            )
                        )
                        continue
                    pending.append((child, depth + 1))
                elif entry.name.endswith(SCENARIO_SUFFIXES):
                    found[Path(entry.path)] = None
    # One file spelled two ways (relative and absolute, ``a/../a``) is read once, as first
    # named: read twice, it clashed with its own id.
    once: dict[str, Path] = {}
    for path in found:
        once.setdefault(os.path.abspath(path), path)
    return sorted(once.values(), key=lambda p: str(p)), problems


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """Whether the entry is a folder, or a link to one (only a link costs a ``stat``)."""
    try:
        return entry.is_dir()
    except OSError:  # a link loop: listed as a file and reported when read
        return False


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _folder_problem(folder: Path, message: str) -> Diagnostic:
    return Diagnostic(display_path(folder), 1, 1, "(folder)", message, "io")


def area_of(path: Path, root: Path, resolved_root: Path | None = None) -> str:
    """The area folder of ``path`` below ``root`` (``resolved_root``: the root resolved).

    A path spelled below the root (as every file a corpus finds is) is read as written,
    without a system call; any other is compared with the root once both are resolved."""
    try:
        parts = path.relative_to(root).parts
        if ".." in parts:
            raise ValueError(path)
    except ValueError:
        try:
            parts = path.resolve().relative_to(resolved_root or root.resolve()).parts
        except ValueError:
            return path.parent.name
    return parts[0] if len(parts) > 1 else ""


def located_diagnostic(
    path: Path,
    source: Positions | None,
    where: DocPath,
    message: str,
    kind: str,
    at_key: bool = False,
) -> Diagnostic:
    """A problem at ``where`` in a scenario or dispute record, at the line and column of its
    value (or of its key, ``at_key``) when the file's source map has it, else at the top."""
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


def read_text_file(path: Path) -> tuple[str | None, list[Diagnostic]]:
    """The text of a file from outside (a scenario file, a dispute record), or why not:
    a regular file within the size limit (:func:`~fivehundred.safety.read_regular_file`)
    holding UTF-8 text."""
    try:
        return read_regular_file(path).decode("utf-8"), []
    except FileRefused as error:
        return None, [located_diagnostic(path, None, (), str(error), "io")]
    except UnicodeDecodeError as error:
        message = f"cannot read file: not UTF-8 text ({error.reason} at byte {error.start})"
        return None, [located_diagnostic(path, None, (), message, "io")]


def checked_document(
    path: Path, text: str, schema_name: str, expected: str
) -> tuple[Any, SourceMap | None, list[Diagnostic]]:
    """The one way a YAML file from outside becomes a document: safe YAML within the
    limits, a mapping (``expected`` names its first keys), JSON values only (an unquoted
    date, ``.nan``, a set: each reported where it is), no decimal number, then the JSON
    Schema ``schema_name``.  Returns the document and its source map, or the problems."""
    try:
        document, source, plain = load_yaml_plain(text)
    except YamlSourceError as error:
        mark = error.mark
        where = format_path(error.path)
        return (
            None,
            None,
            [Diagnostic(display_path(path), mark.line, mark.column, where, error.message, "yaml")],
        )
    if not isinstance(document, dict):
        found = type(document).__name__
        message = f"expected a mapping with {expected}, …; found a {found}"
        return None, source, [located_diagnostic(path, source, (), message, "schema")]
    foreign = [] if plain else non_json_values(document) + _decimals(document)
    if foreign:
        problems = [
            located_diagnostic(path, source, where, message, "schema") for where, message in foreign
        ]
        return None, source, _in_order(problems)
    errors = schema_errors(document, schema_name)
    if errors:
        problems = [
            located_diagnostic(path, source, where, message, "schema", at_key)
            for where, message, at_key in errors
        ]
        return None, source, _in_order(problems)
    return document, source, []


def load_file(
    path: Path, root: Path | None = None, *, resolved_root: Path | None = None
) -> FileResult:
    """Load one scenario file through YAML, schema and lint.

    ``resolved_root`` is the root already resolved (a corpus resolves its root
    once, not once per file)."""
    root = root or scenarios_dir()
    text, problems = read_text_file(path)
    if text is None:
        return FileResult(path, None, problems)
    cached = _cache.lookup(text)
    if cached is not None:
        try:
            return _checked(
                path,
                root,
                cached.document,
                SourceMap(text=text),
                resolved_root,
                lint=not cached.lint_clean,
            )
        except Exception:  # an entry that reads back as no checked document: use the YAML
            pass
    document, found, problems = checked_document(
        path, text, _cache.SCENARIO_SCHEMA, "id, title, rules"
    )
    if document is None or found is None:
        return FileResult(path, None, problems)
    source = found
    result = _checked(path, root, document, source, resolved_root)
    _cache.store(text, document, lint_clean=result.scenario is not None)
    if result.scenario is not None:
        source.release()
    return result


def _checked(
    path: Path,
    root: Path,
    document: Any,
    source: SourceMap,
    resolved_root: Path | None,
    *,
    lint: bool = True,
) -> FileResult:
    """A document that passed the schema, parsed into the model and linted (unless the
    cache says lint already found this document clean under this code)."""
    try:
        area = area_of(path, root, resolved_root)
        scenario = scenario_from_document(document, path, area, source)
    except ModelError as error:
        where = tuple(error.where.split("."))
        return FileResult(
            path, None, [located_diagnostic(path, source, where, error.message, "lint")]
        )
    problems = lint_scenario(scenario) if lint else []
    if problems:
        return FileResult(
            path,
            None,
            _in_order(
                [
                    located_diagnostic(path, source, where, message, "lint")
                    for where, message in problems
                ]
            ),
        )
    return FileResult(path, scenario)


def _decimals(document: object) -> list[tuple[DocPath, str]]:
    """Every decimal number: no value in a scenario is one, and ``7.0`` is not the integer 7.

    JSON Schema counts ``7.0`` as an integer; the suite does not, so the author learns
    here rather than from the reference at run time.
    """
    out: list[tuple[DocPath, str]] = []
    stack: list[tuple[object, DocPath]] = [(document, ())]
    seen: set[int] = set()
    while stack:
        value, where = stack.pop()
        if isinstance(value, float) and math.isfinite(value):
            out.append(
                (
                    where,
                    f"found the decimal number {value!r}; numbers in a scenario are "
                    "whole numbers (write it without a decimal point)",
                )
            )
        elif isinstance(value, dict | list) and id(value) not in seen:
            seen.add(id(value))
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((item, (*where, key)) for key, item in items)
    return out


def _ids_in_the_rest_of_the_suite(
    given: list[Path], root: Path, resolved_root: Path
) -> dict[str, FileResult]:
    """The ids of the suite's files that were not given, when some given file is inside
    the suite (a file elsewhere belongs to another suite, and is not compared)."""

    def resolved(path: Path) -> Path | None:
        try:
            return path.resolve()
        except (OSError, RuntimeError):
            return None

    mine = {resolved(p) for p in given}
    if not any(p is not None and p.is_relative_to(resolved_root) for p in mine):
        return {}
    ids: dict[str, FileResult] = {}
    for path in scan([root])[0]:
        if resolved(path) in mine:
            continue
        result = load_file_once(path, root, resolved_root)
        if result.scenario is not None:
            ids.setdefault(result.scenario.id, result)
    return ids


def read_retired_ids(path: Path | None = None) -> set[str]:
    path = path or retired_ids_file()
    if not path.exists():
        return set()
    try:
        text = read_regular_file(path).decode("utf-8", errors="replace")
    except FileRefused:
        return set()
    ids = set()
    for line in text.splitlines():
        token = line.split("#", 1)[0].strip()
        if token:
            ids.add(token)
    return ids


_LOADED: dict[tuple[str, int, int, int, int, str, str], FileResult] = {}
"""Files already loaded in this process, by the path as given, the file it names (device,
inode, modification time, size), the root and the working folder: a second load of an
unchanged file (the test suite, ``mkdocs serve``) is free."""


def load_file_once(path: Path, root: Path, resolved_root: Path | None = None) -> FileResult:
    """:func:`load_file`, reusing this process's result while the file is unchanged.

    ``resolved_root`` is ``root`` resolved, when the caller already knows it.  A reload
    costs a ``stat`` and a ``getcwd``, nothing more."""
    try:
        info = os.stat(path)
        key = (
            str(path),
            info.st_dev,
            info.st_ino,
            info.st_mtime_ns,
            info.st_size,
            str(root),
            os.getcwd(),
        )
        loaded = _LOADED.get(key)
    except OSError:  # a dangling link or a loop: load_file reports it
        return load_file(path, root)
    if loaded is None:
        loaded = _LOADED[key] = load_file(path, root, resolved_root=resolved_root)
    return FileResult(loaded.path, loaded.scenario, list(loaded.diagnostics))


def load_corpus(
    paths: Iterable[Path] | None = None, root: Path | None = None, *, suite_ids: bool = False
) -> Corpus:
    """Load every scenario under ``paths`` (default: the suite's scenarios).

    With ``suite_ids``, files given inside the suite's folder are also checked against the
    ids of the rest of it, so a copied file validated by itself is told its id is taken.
    """
    root = root or scenarios_dir()
    found, folder_problems = scan(list(paths) if paths else [root])
    try:
        resolved_root: Path | None = root.resolve()
    except (OSError, RuntimeError):
        resolved_root = None
    files = [load_file_once(p, root, resolved_root) for p in found]
    for problem in folder_problems:
        files.append(FileResult(Path(problem.file), None, [problem]))
    retired = read_retired_ids()
    first_seen: dict[str, FileResult] = {}
    if suite_ids and paths and resolved_root is not None:
        first_seen = _ids_in_the_rest_of_the_suite(found, root, resolved_root)
    for result in files:
        scenario = result.scenario
        if scenario is None:
            continue
        where: DocPath = ("id",)
        if scenario.id in retired:
            result.diagnostics.append(
                located_diagnostic(
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
                located_diagnostic(
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
