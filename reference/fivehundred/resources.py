"""Where the suite's data lives: the JSON Schemas and the scenarios.

Two kinds of data, found two ways:

* **The schemas and the bundled corpus** ship inside the package (a wheel carries
  them under ``fivehundred/_data/``, copied there at build time from the
  repository's ``schema/`` and ``scenarios/``).  In a source checkout (an editable
  install) there is no ``_data`` folder and the repository folders are used directly.
* **The suite a command works on** — whose ``scenarios/`` it reads — is the first of:
  the ``--suite DIR`` option (:func:`use_suite`), the ``FIVEHUNDRED_HOME``
  environment variable, the nearest of the current folder and its parents that holds
  a ``scenarios/`` folder (so a command run from ``scenarios/misere`` works on that
  suite, as git finds its repository), and last the bundled corpus.  A folder named
  explicitly that holds no ``scenarios/`` is an error (:class:`SuiteError`), never a
  silent fallback.

Schemas are loaded once and validated offline: every schema is registered by its
``$id``, so the relative ``$ref``s between them resolve without a network.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jsonschema
    import referencing
    from jsonschema.exceptions import ValidationError

__all__ = [
    "SuiteError",
    "bundled_root",
    "chosen_suite",
    "describe_error",
    "fast_validator",
    "load_schema",
    "registry",
    "retired_ids_file",
    "scenarios_dir",
    "schema_dir",
    "suite_root",
    "use_suite",
    "validator",
]

HOME_VARIABLE = "FIVEHUNDRED_HOME"
_PACKAGE = Path(__file__).resolve().parent


class SuiteError(Exception):
    """The folder named as the suite holds no ``scenarios/`` folder."""


@cache
def bundled_root() -> Path:
    """The folder holding ``schema/`` and ``scenarios/`` as shipped with this package."""
    packaged = _PACKAGE / "_data"
    if (packaged / "schema").is_dir():
        return packaged
    return _PACKAGE.parents[1]  # a source checkout: reference/fivehundred -> the repository


_chosen: Path | None = None


def use_suite(folder: Path | None) -> None:
    """Make ``folder`` the suite for the rest of this process (the ``--suite`` option)."""
    global _chosen
    _chosen = folder


def chosen_suite() -> Path | None:
    """The folder given with ``--suite`` in this process, if any (a command printed for
    the user to run again must name it too)."""
    return _chosen


def _checked(folder: Path, named_by: str) -> Path:
    if not (folder / "scenarios").is_dir():
        raise SuiteError(
            f"{named_by} names {folder}, which has no scenarios/ folder; "
            "a suite folder holds scenarios/<area>/*.yaml"
        )
    return folder


def suite_root() -> Path:
    """The suite folder commands work on (see the module docstring for the order)."""
    if _chosen is not None:
        return _checked(_chosen, "--suite")
    override = os.environ.get(HOME_VARIABLE)
    if override:
        return _checked(Path(override), HOME_VARIABLE)
    here = Path.cwd()
    for folder in (here, *here.parents):
        if _holds_scenarios(folder):
            return folder
    return bundled_root()


def _holds_scenarios(folder: Path) -> bool:
    """Whether ``folder`` holds a suite's ``scenarios/`` (a Python package of that name,
    such as this package's own ``fivehundred/scenarios``, is not one)."""
    found = folder / "scenarios"
    return found.is_dir() and not (found / "__init__.py").exists()


def schema_dir() -> Path:
    """The JSON Schemas shipped with this package (never a user's copy)."""
    return bundled_root() / "schema"


def scenarios_dir() -> Path:
    return suite_root() / "scenarios"


def retired_ids_file() -> Path:
    return scenarios_dir() / "retired-ids.txt"


# ---- the JSON Schemas --------------------------------------------------------------


@cache
def load_schema(relative: str) -> dict[str, Any]:
    """One schema by its path under ``schema/``, e.g. ``protocol/run.schema.json``."""
    with (schema_dir() / relative).open(encoding="utf-8") as handle:
        schema: dict[str, Any] = json.load(handle)
    return schema


@cache
def registry() -> referencing.Registry[Any]:
    """Every schema under ``schema/`` by its ``$id``."""
    import referencing

    root = schema_dir()
    resources = []
    for path in sorted(root.rglob("*.schema.json")):
        document = load_schema(path.relative_to(root).as_posix())
        resources.append((document["$id"], referencing.Resource.from_contents(document)))
    return referencing.Registry().with_resources(resources)


@cache
def validator(relative: str) -> jsonschema.Draft202012Validator:
    """A checked draft 2020-12 validator for one schema, resolving refs offline."""
    import jsonschema

    document = load_schema(relative)
    jsonschema.Draft202012Validator.check_schema(document)
    return jsonschema.Draft202012Validator(document, registry=registry())


@cache
def fast_validator(relative: str) -> Any:
    """The same schema compiled by jsonschema-rs: it answers "valid or not" much faster
    than :func:`validator`, which is kept for located error messages."""
    import jsonschema_rs

    root = schema_dir()
    resources = [
        (document["$id"], document)
        for document in (
            load_schema(path.relative_to(root).as_posix())
            for path in sorted(root.rglob("*.schema.json"))
        )
    ]
    return jsonschema_rs.validator_for(
        load_schema(relative), registry=jsonschema_rs.Registry(resources)
    )


def describe_error(error: ValidationError) -> str:
    """``path: message`` with the path written as a reader would (``steps[2].seat``)."""
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return f"{path.lstrip('.') or '(top level)'}: {error.message}"
