"""A cache of scenario documents that passed YAML and the schema, by their content.

PyYAML is most of the time of loading a corpus; a file whose text was already
checked is read back from a JSON copy instead (about a hundred times faster).  The
key is a hash of the text together with the suite version and the scenario schema,
so an edited file, a new schema or a new version of the suite is checked again from
the YAML.  Lint still runs on every load; only valid documents are stored, and a
cache that cannot be read or written is simply not used.

The cache lives in ``$FIVEHUNDRED_CACHE`` (``off`` turns it off), else in
``$XDG_CACHE_HOME/fivehundred`` or ``~/.cache/fivehundred``.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from .. import SUITE_VERSION
from ..resources import schema_dir
from ._schema import surely_valid

CACHE_VARIABLE = "FIVEHUNDRED_CACHE"


@cache
def _folder() -> Path | None:
    chosen = os.environ.get(CACHE_VARIABLE)
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "0", "off", "no") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "fivehundred" / "documents"


@cache
def _salt() -> bytes:
    schema = (schema_dir() / "scenario.schema.json").read_bytes()
    return SUITE_VERSION.encode() + b"\0" + hashlib.sha256(schema).digest()


def _path(text: str) -> Path | None:
    folder = _folder()
    if folder is None:
        return None
    key = hashlib.sha256(_salt() + text.encode("utf-8", "surrogatepass")).hexdigest()
    return folder / key[:2] / f"{key}.json"


def lookup(text: str) -> Any | None:
    """The checked document of this text, if it was stored before.

    What is read back is checked against the schema again (jsonschema-rs, microseconds),
    so a damaged or tampered cache entry is never trusted: it counts as a miss."""
    path = _path(text)
    if path is None:
        return None
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) and surely_valid(document) else None


def store(text: str, document: Any) -> None:
    """Keep the document of a text that passed YAML and the schema (atomically)."""
    path = _path(text)
    if path is None:
        return
    try:
        data = json.dumps(document, ensure_ascii=False, allow_nan=False)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    except (OSError, TypeError, ValueError):
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(data)
        os.replace(temporary, path)
    except OSError:
        Path(temporary).unlink(missing_ok=True)
