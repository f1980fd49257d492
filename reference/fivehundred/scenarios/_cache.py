"""A cache of scenario documents that passed YAML and the schema, by their content.

PyYAML is most of the time of loading a corpus; a file whose text was already
checked is read back from a JSON copy instead (about a hundred times faster).  The
key is a hash of the text together with the suite version and the scenario schema,
so an edited file, a new schema or a new version of the suite is checked again from
the YAML.  Only documents that passed the schema are stored, and a cache that cannot
be read or written is simply not used.

An entry also says whether lint found the document clean, and under which code: the
fingerprint of this package's source.  Lint is a function of the document and the
code alone, so a clean verdict from the same code is reused (like ruff's cache);
after any change to the package, lint runs again and the entry is brought up to date.

Each entry carries a SHA-256 of its own key and body: a truncated, damaged or moved
entry is a miss, never a wrong document.  The cache holds data only (JSON, never
code), in the user's own folder, so it is trusted as far as the user's files are.

Dispute records are kept the same way, under their own schema.

The cache lives in ``$FIVEHUNDRED_CACHE`` (``off`` turns it off), else in
``$XDG_CACHE_HOME/fivehundred`` or ``~/.cache/fivehundred``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from .. import SUITE_VERSION
from ..resources import schema_dir
from ..safety import FileRefused, read_regular_file

CACHE_VARIABLE = "FIVEHUNDRED_CACHE"
SCENARIO_SCHEMA = "scenario.schema.json"
_FORMAT = b"sealed-1\0"
"""The layout of an entry (part of every key, so older layouts are never read)."""


class Entry(NamedTuple):
    """A stored document, and whether lint found it clean under this very code."""

    document: dict[str, Any]
    linted: bool


@cache
def _folder() -> Path | None:
    chosen = os.environ.get(CACHE_VARIABLE)
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "0", "off", "no") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "fivehundred" / "documents"


@cache
def _salt(schema_name: str) -> bytes:
    schema = (schema_dir() / schema_name).read_bytes()
    return _FORMAT + SUITE_VERSION.encode() + b"\0" + hashlib.sha256(schema).digest()


@cache
def code_fingerprint() -> str:
    """A hash of every source file of this package, with its path (a few milliseconds).

    Lint reads the engine, the model, the vocabularies and the rulings, all of which
    are code here; hashing the whole package rather than a chosen list means no
    module can be forgotten."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for folder, subfolders, files in sorted(os.walk(package)):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, package).encode() + b"\0")
                with open(path, "rb") as source:
                    digest.update(source.read())
    return digest.hexdigest()


def _key(text: str, schema_name: str) -> str | None:
    if _folder() is None:
        return None
    return hashlib.sha256(_salt(schema_name) + text.encode("utf-8", "surrogatepass")).hexdigest()


def _path(key: str) -> str:
    """The entry's file (a string: a ``Path`` per lookup is measurable over a corpus)."""
    return os.path.join(str(_folder()), key[:2], f"{key}.json")


def _seal(key: str, body: bytes) -> bytes:
    return hashlib.sha256(key.encode() + b"\0" + body).hexdigest().encode()


def lookup(text: str, schema_name: str = SCENARIO_SCHEMA) -> Entry | None:
    """The stored document of this text, checked against ``schema_name``, if any, and
    whether lint found it clean under this code.

    An entry whose seal does not match its key and body (damaged, cut short, copied
    from another key, or written by an older version) counts as a miss."""
    key = _key(text, schema_name)
    if key is None:
        return None
    try:
        seal, _, body = read_regular_file(_path(key)).partition(b"\n")
        if seal != _seal(key, body):
            return None
        stored = json.loads(body)
    except (FileRefused, ValueError):  # missing, a FIFO or a folder, too big, not JSON
        return None
    if not isinstance(stored, dict) or not isinstance(stored.get("document"), dict):
        return None
    return Entry(stored["document"], stored.get("linted") == code_fingerprint())


def store(
    text: str, document: Any, schema_name: str = SCENARIO_SCHEMA, *, linted: bool = False
) -> None:
    """Keep the document of a text that passed YAML and ``schema_name`` (atomically),
    saying whether lint found it clean under this code."""
    key = _key(text, schema_name)
    if key is None:
        return
    path = _path(key)
    stored = {"document": document, "linted": code_fingerprint() if linted else None}
    try:
        body = json.dumps(stored, ensure_ascii=False, allow_nan=False).encode("utf-8")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
    except (OSError, TypeError, ValueError):
        return
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(_seal(key, body) + b"\n" + body)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
