"""The published JSON Schemas, loaded once and validated against offline.

Every schema under ``schema/`` is registered by its ``$id``, so the relative
``$ref``s between them (a run message refers to the scenario format's cards and
seats) resolve without a network.  Code checks data against these files — not
against a copy of their rules — so the schemas implementers read are the ones
enforced.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jsonschema
import referencing
from jsonschema.exceptions import ValidationError

from .paths import schema_dir

__all__ = ["describe_error", "load_schema", "registry", "validator"]


@cache
def load_schema(relative: str) -> dict[str, Any]:
    """One schema by its path under ``schema/``, e.g. ``protocol/run.schema.json``."""
    with (schema_dir() / relative).open(encoding="utf-8") as handle:
        schema: dict[str, Any] = json.load(handle)
    return schema


@cache
def registry() -> referencing.Registry[Any]:
    """Every schema under ``schema/`` by its ``$id``."""
    root = schema_dir()
    resources = []
    for path in sorted(root.rglob("*.schema.json")):
        document = load_schema(path.relative_to(root).as_posix())
        resources.append((document["$id"], referencing.Resource.from_contents(document)))
    return referencing.Registry().with_resources(resources)


@cache
def validator(relative: str) -> jsonschema.Draft202012Validator:
    """A checked draft 2020-12 validator for one schema, resolving refs offline."""
    document = load_schema(relative)
    jsonschema.Draft202012Validator.check_schema(document)
    return jsonschema.Draft202012Validator(document, registry=registry())


def describe_error(error: ValidationError) -> str:
    """``path: message`` with the path written as a reader would (``steps[2].seat``)."""
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return f"{path.lstrip('.') or '(top level)'}: {error.message}"
