"""JSON Schema validation of scenario documents, with errors placed in the source.

jsonschema reports an error at a path in the data; the source map turns that path
into a line and column.  Errors under ``anyOf`` (a step can be one of four kinds)
are narrowed to the kind the step evidently means, so the user reads "unknown card"
rather than "is not valid under any of the given schemas".
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # jsonschema is imported only when a document is invalid
    from jsonschema.exceptions import ValidationError

from ...engine import NotationError, parse_card
from ...resources import fast_validator, validator
from ..format.diagnostics import DocPath, close_matches, did_you_mean
from ..format.vocabulary import STEP_KINDS

_STEP_KINDS = {kind.key: i for i, kind in enumerate(k for k in STEP_KINDS if k.in_file)}
"""The key that marks each kind of step → its branch in the schema's ``step`` anyOf."""


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The most specific errors behind ``error``, choosing the branch the author meant.

    A step's kind is told by its keys (``seat``, ``expect``, …); any other ``anyOf``
    keeps the branches that got past the type check (a list given where a list or
    ``ordered`` is allowed is judged as a list).
    """
    if error.validator in ("anyOf", "oneOf") and error.context:
        value = error.instance
        branch: int | None = None
        if isinstance(value, dict):
            branch = next((i for key, i in _STEP_KINDS.items() if key in value), None)
            if branch is None:  # no kind key: a mistyped one (``sate``) still tells the kind
                branch = next((_STEP_KINDS[k] for k in _misspelt_kinds(value)), None)
        if branch is not None:
            candidates = [e for e in error.context if e.schema_path[0] == branch]
        else:
            candidates = [
                e
                for e in error.context
                if not (e.validator in ("type", "const") and not e.relative_path)
            ]
        if candidates:
            for sub in candidates:
                yield from _leaves(sub)
            return
    yield error


def _misspelt_kinds(step: dict[Any, Any]) -> list[str]:
    """The step-kind keys closest to the step's own keys (none when nothing is close)."""
    return [
        close
        for key in step
        if isinstance(key, str)
        for close in close_matches(key, _STEP_KINDS, n=1)
    ]


def _describe(error: ValidationError) -> tuple[DocPath, str, bool]:
    """(path, message, points-at-key) for one leaf error."""
    path: DocPath = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    validator = error.validator
    if validator == "additionalProperties" and isinstance(error.instance, dict):
        return _unknown_key(error.instance, schema, path)
    if validator == "required":
        return path, f"{error.message}", False
    if error.schema is False:
        return path, "this key does not belong with this kind of setup or step", True
    expected = schema.get("description")
    if validator == "pattern" and str(expected).startswith("A card"):
        try:
            parse_card(error.instance)
        except NotationError as notation:
            return path, str(notation), False
    if validator in ("enum", "pattern", "const", "type", "anyOf"):
        return path, f"found {_found(error.instance)}{_expected_hint(error, schema)}", False
    return path, f"{error.message}", False


def _unknown_key(
    instance: dict[Any, Any], schema: dict[str, Any], path: DocPath
) -> tuple[DocPath, str, bool]:
    """A key the schema does not allow, pointed at, with the allowed ones and a likely one."""
    allowed = sorted(schema.get("properties", {}))
    extra = [k for k in instance if k not in schema.get("properties", {})]
    key = extra[0] if extra else "?"
    hint = did_you_mean(key, allowed) if isinstance(key, str) else ""
    return (
        (*path, key),
        f"unknown key {key!r}{hint}; expected one of: {', '.join(allowed)}",
        True,
    )


def _found(instance: Any) -> str:
    """The offending value as JSON, cut short when long."""
    found = json.dumps(instance, ensure_ascii=False)
    return found[:57] + "..." if len(found) > 60 else found


def _expected_hint(error: ValidationError, schema: dict[str, Any]) -> str:
    """What was expected: the schema's description, else its pattern or its choices, with a
    close choice first when a word was mistyped."""
    expected = schema.get("description")
    validator = error.validator
    hint = f"; expected {expected[0].lower()}{expected[1:]}" if expected else ""
    if not hint and validator == "pattern":  # an item with no description of its own
        hint = f"; expected text matching {schema.get('pattern')}"
    elif not hint and validator == "enum":
        hint = "; expected one of: " + ", ".join(map(str, schema.get("enum", [])))
    if validator == "enum" and isinstance(error.instance, str):
        words = [str(value) for value in schema.get("enum", [])]
        hint = did_you_mean(error.instance, words) + hint
    return hint


def surely_valid(document: Any, schema_name: str = "scenario.schema.json") -> bool:
    """True when the fast validator accepts ``document``; anything else (invalid, or a
    value it cannot take, such as a YAML date) goes to the located check."""
    try:
        return bool(fast_validator(schema_name).is_valid(document))
    except Exception:  # a value that is not JSON: let the full check describe it
        return False


def schema_errors(
    document: Any, schema_name: str = "scenario.schema.json"
) -> list[tuple[DocPath, str, bool]]:
    """Every schema violation as (path, message, points-at-key), in document order.

    Most documents are valid, and the compiled jsonschema-rs validator says so much faster
    than jsonschema; only a document it refuses is walked with
    jsonschema, whose errors carry the paths that become line and column.
    """
    if surely_valid(document, schema_name):
        return []
    out: list[tuple[DocPath, str, bool]] = []
    seen: set[tuple[DocPath, str]] = set()
    for error in validator(schema_name).iter_errors(document):
        for leaf in _leaves(error):
            path, message, at_key = _describe(leaf)
            if (path, message) not in seen:
                seen.add((path, message))
                out.append((path, message, at_key))
    return out
