"""A cache of scenario documents that passed YAML and the schema, by their content.

PyYAML is most of the time of loading a corpus; a file whose text was already
checked is read back from a JSON copy instead, far quicker (the figures: the benchmarks
page of the site).  The
key is a hash of the text together with the suite version and the scenario schema,
so an edited file, a new schema or a new version of the suite is checked again from
the YAML.  Only documents that passed the schema are stored, and a cache that cannot
be read or written is simply not used.

An entry is believed only under the code that checked it (:func:`checked_by`, a hash
of this package's source and of the versions of PyYAML, jsonschema and jsonschema-rs).
Each code keeps its entries in a folder of its own, so two checkouts or installs of
different code sharing one cache do not overwrite each other's entries on every run;
the folders of the few most recently used codes are kept and older ones removed: only
folders the suite made, which hold its marker file, so a ``code-*`` folder of the user's
own in ``$FIVEHUNDRED_CACHE`` is never touched.  An
entry also says whether lint found the document clean; lint is a function of the
document and that code alone, so a clean verdict is reused (as ruff and mypy reuse
theirs).

Each entry carries a SHA-256 of its own key and body: a truncated, damaged or moved
entry is a miss, never a wrong document, and an entry that does not read back as a
scenario is a miss too.  The seal is not a signature: whoever can write to the cache
folder can forge an entry, as they could edit the scenario files themselves, so the
folder must not be shared with anyone less trusted than the files are (a CI cache
restored from other people's branches: set ``FIVEHUNDRED_CACHE=off`` there).  The
cache holds data only (JSON, never code).

Dispute records are kept the same way, under their own schema.

The cache lives in ``$FIVEHUNDRED_CACHE`` (``off`` turns it off), else in
``$XDG_CACHE_HOME/fivehundred/checked`` or ``~/.cache/fivehundred/checked``.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from ... import SUITE_VERSION
from ...resources import schema_dir
from ...safety import FileRefused, read_regular_file

CACHE_VARIABLE = "FIVEHUNDRED_CACHE"
SCENARIO_SCHEMA = "scenario.schema.json"
_FORMAT = b"sealed-2\0"
"""The layout of an entry (part of every key, so older layouts are never read)."""


class Entry(NamedTuple):
    """A stored document, checked by this very code, and whether lint found it clean."""

    document: dict[str, Any]
    lint_clean: bool


_CODE_FOLDER = "code-"
"""The prefix of a code's folder (followed by :func:`checked_by`)."""
MARKER = ".fivehundred-cache"
"""A file the suite writes into each code's folder it makes, holding :data:`_MARK`.
``$FIVEHUNDRED_CACHE`` may name a folder holding the user's own things, ``code-*``
folders among them: pruning removes only a folder named as a code's that holds this
file, never anything else."""
_MARK = b"fivehundred scenario cache: a code's checked documents; safe to delete\n"
KEEP_CODES = 4
"""How many codes' folders are kept: a few checkouts or branches in use side by side."""


@cache
def _folder() -> Path | None:
    chosen = os.environ.get(CACHE_VARIABLE)
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "0", "off", "no") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError):  # no home folder at all: no cache, not a crash
            return None
    return Path(base) / "fivehundred" / "checked"


@cache
def _salt(schema_name: str) -> bytes:
    schema = (schema_dir() / schema_name).read_bytes()
    return _FORMAT + SUITE_VERSION.encode() + b"\0" + hashlib.sha256(schema).digest()


_CHECKERS = {"yaml": "pyyaml", "jsonschema": "jsonschema", "jsonschema_rs": "jsonschema_rs"}
"""The libraries whose version decides what passes (module → distribution name)."""


@cache
def checked_by() -> str:
    """A hash of every source file of this package, with its path, and of the installed
    versions of the libraries that check a file (a few milliseconds).

    Hashing the whole package rather than a chosen list of modules means no module the
    YAML reader, the schema check, the model or lint depends on can be forgotten.  The
    versions are read from the names of the distributions' metadata folders: importing
    the libraries, or ``importlib.metadata``, would cost more than the cache saves."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for folder, subfolders, files in os.walk(package):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, package).encode() + b"\0")
                with open(path, "rb") as source:
                    digest.update(source.read())
    for version in _checker_versions():
        digest.update(version.encode() + b"\0")
    return digest.hexdigest()


def _checker_versions() -> list[str]:
    """``name-version`` of each checking library, from its ``*.dist-info`` folder's name."""
    found = []
    for module, distribution in sorted(_CHECKERS.items()):
        spec = importlib.util.find_spec(module)
        origin = spec.origin if spec is not None else None
        if origin is None:
            found.append(f"{distribution}-?")
            continue
        folder = os.path.dirname(os.path.dirname(origin))
        with contextlib.suppress(OSError):
            for entry in os.listdir(folder):
                name, _, rest = entry.partition("-")
                normal = name.lower().replace("-", "_").replace(".", "_")
                if normal == distribution and rest.endswith(".dist-info"):
                    found.append(f"{distribution}-{rest.removesuffix('.dist-info')}")
    return sorted(found)


def _key(text: str, schema_name: str) -> str | None:
    if _folder() is None:
        return None
    return hashlib.sha256(_salt(schema_name) + text.encode("utf-8", "surrogatepass")).hexdigest()


@cache
def _code_folder() -> str:
    """This code's folder of entries (a string: a ``Path`` per lookup is measurable over a
    corpus)."""
    return os.path.join(str(_folder()), _CODE_FOLDER + checked_by())


def _path(key: str) -> str:
    """The entry's file."""
    return os.path.join(_code_folder(), key[:2], f"{key}.json")


@cache
def _mark_used() -> None:
    """Refresh this code's folder's time, once a process, so pruning keeps it."""
    with contextlib.suppress(OSError):
        os.utime(_code_folder())


def _prune(root: str, keep: int = KEEP_CODES) -> None:
    """Remove the folders of all but the ``keep`` most recently used codes.

    Run when a code's folder is made, so at most once per code; "used" is the folder's
    modification time, which every process that reads or stores an entry refreshes.
    Only folders named as a code's are touched; one that vanishes or resists meanwhile
    is left alone (a process still using it just misses)."""
    import shutil  # here, not at the top: it imports bz2 and lzma, which a warm start skips

    try:
        with os.scandir(root) as entries:
            folders = [
                (e.stat(follow_symlinks=False).st_mtime, e.path)
                for e in entries
                if e.name.startswith(_CODE_FOLDER) and e.is_dir(follow_symlinks=False)
            ]
    except OSError:
        return
    folders = [(used, path) for used, path in folders if _is_ours(path)]
    folders.sort(reverse=True)
    for _, path in folders[keep:]:
        shutil.rmtree(path, ignore_errors=True)
    if os.environ.get(CACHE_VARIABLE) is None:
        # An older layout of our own default folder kept one flat folder for every code;
        # nothing reads it any more.
        shutil.rmtree(os.path.join(os.path.dirname(root), "documents"), ignore_errors=True)


def _is_ours(folder: str) -> bool:
    """Whether ``folder`` holds the marker the suite writes into each code's folder."""
    try:
        return read_regular_file(os.path.join(folder, MARKER), limit=len(_MARK)) == _MARK
    except FileRefused:
        return False


def _make_code_folder(folder: str) -> None:
    """Make this code's folder with its marker, then prune the old ones."""
    os.makedirs(folder, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    marker = os.open(os.path.join(folder, MARKER), flags, 0o666)  # never through a link
    try:
        os.write(marker, _MARK)
    finally:
        os.close(marker)
    _prune(os.path.dirname(folder))


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
    except (FileRefused, ValueError, RecursionError):  # missing, odd, too big or deep, not JSON
        return None
    if (
        not isinstance(stored, dict)
        or stored.get("checked_by") != checked_by()
        or not isinstance(stored.get("document"), dict)
    ):
        return None
    _mark_used()
    return Entry(stored["document"], stored.get("lint_clean") is True)


def store(
    text: str, document: Any, schema_name: str = SCENARIO_SCHEMA, *, lint_clean: bool = False
) -> None:
    """Keep the document of a text that passed YAML and ``schema_name`` (atomically),
    saying which code checked it and whether lint found it clean."""
    import tempfile  # here, not at the top: only a miss stores

    key = _key(text, schema_name)
    if key is None:
        return
    path = _path(key)
    stored = {"document": document, "checked_by": checked_by(), "lint_clean": lint_clean}
    try:
        body = json.dumps(stored, ensure_ascii=False, allow_nan=False).encode("utf-8")
        code_folder = _code_folder()
        if not os.path.isdir(code_folder):
            _make_code_folder(code_folder)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
    except (OSError, TypeError, ValueError):
        return
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(_seal(key, body) + b"\n" + body)
        os.replace(temporary, path)
        _mark_used()
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
