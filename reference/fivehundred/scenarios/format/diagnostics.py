"""Diagnostics: what is wrong with an input file, and exactly where.

Every problem a user can cause is reported as a :class:`Diagnostic` naming the file,
line and column, the path inside the document, what was found and what was expected,
never as a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

PathPart = str | int
DocPath = tuple[PathPart, ...]


@dataclass(frozen=True, slots=True)
class Mark:
    """A line and column of an input file, both counted from 1."""

    line: int
    column: int


class Positions(Protocol):
    """Where the values of a loaded document are: what a scenario keeps of the file it
    came from (the loading's YAML source map is one), so the format can point at a step
    without knowing how the file was read."""

    def value(self, path: DocPath) -> Mark:
        """The position of the value at ``path`` (or of its nearest ancestor)."""
        ...

    def key(self, path: DocPath) -> Mark:
        """The position of the key of the mapping entry at ``path`` (else of its value)."""
        ...


def close_matches(
    word: str, choices: Iterable[str], *, n: int = 3, cutoff: float = 0.6
) -> list[str]:
    """The choices closest to a mistyped word, best first.

    difflib is imported here, when something is already wrong: it costs every command's
    start-up a few milliseconds otherwise."""
    import difflib

    return difflib.get_close_matches(word, sorted(set(choices)), n=n, cutoff=cutoff)


def did_you_mean(word: str, choices: Iterable[str], *, cutoff: float = 0.6) -> str:
    """``"; did you mean A or B?"`` with the choices closest to a mistyped word, or ``""``."""
    close = close_matches(word, choices, cutoff=cutoff)
    return f"; did you mean {' or '.join(close)}?" if close else ""


def format_path(path: Sequence[object]) -> str:
    """``("steps", 3, "call")`` → ``steps[3].call``; the empty path is ``(document)``.

    A path may hold any key YAML allows, not only text (``null``, ``true``, a number, a
    date): a document that is not a scenario at all still gets its located message."""
    out = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        else:
            name = _key_text(part)
            out += f".{name}" if out else name
    return out or "(document)"


def _key_text(key: object) -> str:
    """A mapping key as a YAML file writes it."""
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key) if key != "" else '""'


@dataclass(frozen=True, slots=True)
class Diagnostic:
    file: str
    line: int
    column: int
    path: str
    message: str
    kind: str
    """Which check found it: ``yaml``, ``schema``, ``lint`` or ``corpus``."""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.path}: {self.message} [{self.kind}]"

    def as_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "path": self.path,
            "message": self.message,
            "kind": self.kind,
        }
