"""Safe YAML loading that remembers where every value came from.

Only PyYAML's safe loader is used (the C one when available), so a scenario can
never construct arbitrary objects or run code.  Besides the data, the loader keeps
the line and column of every mapping key and value, so that schema and lint errors
can point at the exact spot in the file.  Duplicate keys, which PyYAML would
silently collapse, are reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from .diagnostics import DocPath, format_path

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


def load_yaml(text: str) -> tuple[Any, SourceMap]:
    """Parse one YAML document safely; return the data and where each part came from."""
    try:
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
    return data, source


__all__ = ["Mark", "SourceMap", "YamlSourceError", "format_path", "load_yaml"]
