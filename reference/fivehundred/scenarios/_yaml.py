"""Safe YAML loading that remembers where every value came from.

Only PyYAML's safe loader is used (the C one when available), so a scenario can
never construct arbitrary objects or run code.  Besides the data, the loader keeps
the line and column of every mapping key and value, so that schema and lint errors
can point at the exact spot in the file.  Duplicate keys, which PyYAML would
silently collapse, are reported.

Hostile documents are refused before they are built: a first pass over the parser's
events bounds nesting depth and the number of nodes (an alias counts as a copy of
everything it names, so an alias bomb is stopped at once), and a scalar that is not a
JSON value (a date, ``!!binary``, ``!!set``, a non-string key, ``.nan``, an integer
too long to convert) is reported where it stands (see :func:`non_json_values`).
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..safety import MAX_INT_DIGITS, MAX_YAML_DEPTH, MAX_YAML_NODES
from .diagnostics import DocPath, format_path

_INT_TAG = "tag:yaml.org,2002:int"

_Loader: type[yaml.SafeLoader | yaml.CSafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""PyYAML's safe loader; the C one when PyYAML was built with libyaml."""


@dataclass(frozen=True, slots=True)
class Mark:
    line: int
    column: int


class YamlSourceError(Exception):
    def __init__(self, message: str, mark: Mark, path: DocPath = ()) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark
        self.path = path


@dataclass
class SourceMap:
    """Positions of values (and of mapping keys) by their path in the document."""

    values: dict[DocPath, Mark] = field(default_factory=dict)
    keys: dict[DocPath, Mark] = field(default_factory=dict)

    def value(self, path: DocPath) -> Mark:
        """Position of the value at ``path``, or of its nearest ancestor that has one."""
        for cut in range(len(path), -1, -1):
            mark = self.values.get(path[:cut])
            if mark is not None:
                return mark
        return Mark(1, 1)

    def key(self, path: DocPath) -> Mark:
        return self.keys.get(path) or self.value(path)


def _mark(node: yaml.Node) -> Mark:
    return Mark(node.start_mark.line + 1, node.start_mark.column + 1)


def _walk(node: yaml.Node, path: DocPath, source: SourceMap) -> None:
    source.values[path] = _mark(node)
    if isinstance(node, yaml.MappingNode):
        seen: dict[object, Mark] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlSourceError("a mapping key must be a plain scalar", _mark(key_node), path)
            key = key_node.value
            if key in seen:
                first = seen[key]
                raise YamlSourceError(
                    f"duplicate key {key!r} (first at line {first.line}, column {first.column})",
                    _mark(key_node),
                    path,
                )
            seen[key] = _mark(key_node)
            source.keys[(*path, key)] = _mark(key_node)
            _walk(value_node, (*path, key), source)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, (*path, i), source)
    elif node.tag == _INT_TAG and len(node.value) > MAX_INT_DIGITS:
        raise YamlSourceError(
            f"an integer of {len(node.value):,} characters; the limit is {MAX_INT_DIGITS:,} digits",
            _mark(node),
            path,
        )


def _event_mark(event: yaml.Event) -> Mark:
    mark = event.start_mark
    return Mark(mark.line + 1, mark.column + 1) if mark else Mark(1, 1)


def _check_size(text: str) -> None:
    """Refuse a document nesting too deeply or too large once aliases are expanded.

    One pass over the parser's events, without building anything: each anchor's
    subtree size is recorded, and an alias adds the size of what it names.
    """
    nodes = 0
    depth = 0
    open_anchors: list[tuple[str | None, int]] = []
    sizes: dict[str, int] = {}
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.AliasEvent):
            nodes += sizes.get(event.anchor or "", 1)
        elif isinstance(event, yaml.ScalarEvent):
            nodes += 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.CollectionStartEvent):
            nodes += 1
            depth += 1
            if depth > MAX_YAML_DEPTH:
                raise YamlSourceError(
                    f"lists and mappings nest deeper than {MAX_YAML_DEPTH} levels (the limit)",
                    _event_mark(event),
                )
            open_anchors.append((event.anchor, nodes))
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
            anchor, start = open_anchors.pop()
            if anchor:
                sizes[anchor] = nodes - start + 1
        else:
            continue
        if nodes > MAX_YAML_NODES:
            raise YamlSourceError(
                f"the document has more than {MAX_YAML_NODES:,} values once aliases are "
                "expanded (the limit; an alias counts as a copy of what it names)",
                _event_mark(event),
            )


_NOT_JSON: tuple[tuple[type, str], ...] = (
    (datetime.datetime, "a timestamp"),
    (datetime.date, "a date"),
    (bytes, "binary data (!!binary)"),
    (set, "a set (!!set)"),
    (frozenset, "a set"),
    (tuple, "pairs (!!omap or !!pairs)"),
)


def _not_json(value: Any) -> str | None:
    for kind, name in _NOT_JSON:
        if isinstance(value, kind):
            return name
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value} (not a JSON number)"
    if value is None or isinstance(value, str | int | float | list | dict):
        return None
    return f"a {type(value).__name__}"


def non_json_values(document: Any) -> list[tuple[DocPath, str]]:
    """Every value in a loaded document that JSON cannot hold, with its path.

    YAML can express dates, binary data, sets, ``.nan`` and mappings with non-string
    keys; a scenario is JSON data written in YAML, so each is reported (quote a date
    to mean text).  Shared subtrees (aliases) are visited once.
    """
    problems: list[tuple[DocPath, str]] = []
    seen: set[int] = set()
    stack: list[tuple[Any, DocPath]] = [(document, ())]
    while stack:
        value, path = stack.pop()
        problem = _not_json(value)
        if problem is not None:
            problems.append(
                (path, f"found {problem}, which is not a JSON value; quote it if you mean text")
            )
            continue
        if isinstance(value, dict | list):
            if id(value) in seen:
                continue
            seen.add(id(value))
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    shown = "null" if key is None else f"{_not_json(key) or repr(key)}"
                    problems.append(
                        ((*path, str(key)), f"a key must be text; found {shown} (quote it)")
                    )
                    continue
                stack.append((item, (*path, key)))
        elif isinstance(value, list):
            stack.extend((item, (*path, i)) for i, item in enumerate(value))
    return sorted(problems, key=lambda p: [str(x) for x in p[0]])


def load_yaml(text: str) -> tuple[Any, SourceMap]:
    """Parse one YAML document safely; return the data and where each part came from."""
    try:
        _check_size(text)
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                raise YamlSourceError("the file is empty; expected a scenario mapping", Mark(1, 1))
            source = SourceMap()
            _walk(node, (), source)
            data = loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = Mark(mark.line + 1, mark.column + 1) if mark else Mark(1, 1)
        problem = error.problem or "invalid YAML"
        context = f" ({error.context})" if error.context else ""
        raise YamlSourceError(f"not valid YAML: {problem}{context}", where) from None
    except yaml.YAMLError as error:
        raise YamlSourceError(f"not valid YAML: {error}", Mark(1, 1)) from None
    except (ValueError, OverflowError, RecursionError) as error:  # a value PyYAML cannot build
        raise YamlSourceError(f"not valid YAML: {error}", Mark(1, 1)) from None
    return data, source


__all__ = [
    "Mark",
    "SourceMap",
    "YamlSourceError",
    "format_path",
    "load_yaml",
    "non_json_values",
]
