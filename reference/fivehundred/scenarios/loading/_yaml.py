"""Safe YAML loading that remembers where every value came from.

Only PyYAML's safe loader is used (the C one when available), so a scenario can
never construct arbitrary objects or run code.  Besides the data, the loader keeps
the composed node tree, so that schema and lint errors can point at the exact spot
in the file (positions are found on demand).  Duplicate keys, which PyYAML would
silently collapse, are reported.

Hostile documents are refused before they are built: a first pass over the parser's
events bounds nesting depth and the number of nodes (an alias counts as a copy of
everything it names, so an alias bomb is stopped at once), and a scalar that is not a
JSON value (a date, ``!!binary``, ``!!set``, a non-string key, ``.nan``, an integer
too long to convert) is reported where it stands (see :func:`non_json_values`).

That first pass costs as much as composing, so an ordinary file skips it: a text of
at most :data:`_QUICK_CHARS` characters with no anchor or alias (no ``&`` or ``*``
anywhere), read by libyaml (whose parser refuses nesting beyond 1,000 levels, so
composing it is always safe), is composed at once and its node tree counted instead:
without aliases every event is one node, so the count and the depth are exactly those
of the event pass.  Whenever that count is over a limit, or composing fails, the event
pass runs after all and reports exactly what it always did (see
:func:`load_yaml_plain`).
"""

from __future__ import annotations

import datetime
import math
import re
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # PyYAML is imported when a text is first parsed: a cached corpus never is
    import yaml

from ...safety import MAX_INT_DIGITS, MAX_YAML_DEPTH, MAX_YAML_NODES
from ..format.diagnostics import DocPath, Mark, format_path

_INT_TAG = "tag:yaml.org,2002:int"


@cache
def _loader() -> type[yaml.SafeLoader | yaml.CSafeLoader]:
    """PyYAML's safe loader; the C one when PyYAML was built with libyaml.

    libyaml asks the loader's resolver for the tag of every plain scalar; the answer
    depends on the text alone (the safe loader has no path resolvers), and a scenario
    repeats the same few values (seats, cards, phases), so answers are remembered."""
    import yaml

    base: type[yaml.SafeLoader | yaml.CSafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    if base.yaml_path_resolvers:  # pragma: no cover - never for the safe loaders
        return base
    tags: dict[tuple[type[yaml.Node], str | None, object], str] = {}

    class Loader(base):  # type: ignore[valid-type, misc]
        def resolve(self, kind: type[yaml.Node], value: str | None, implicit: object) -> str:
            key = (kind, value, implicit)
            tag = tags.get(key)
            if tag is None:
                tag = super().resolve(kind, value, implicit)
                if len(tags) < _REMEMBERED_TAGS:
                    tags[key] = tag
            return tag

    return Loader


_REMEMBERED_TAGS = 100_000


def _libyaml() -> bool:
    """Whether the loader is libyaml's, which bounds nesting while parsing."""
    import yaml

    return issubclass(_loader(), getattr(yaml, "CSafeLoader", ()))


class YamlSourceError(Exception):
    def __init__(self, message: str, mark: Mark, path: DocPath = ()) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark
        self.path = path


class SourceMap:
    """Positions of values (and of mapping keys) by their path in the document.

    It keeps the composed YAML node tree and finds a position only when one is asked
    for (a diagnostic, a failure report): most files never need one, and walking every
    node up front cost more than validating them.
    """

    def __init__(self, root: yaml.Node | None = None, text: str | None = None) -> None:
        self._root = root
        self._text = text
        """Composed on first use when only the text is known (a document from the cache)."""

    def release(self) -> None:
        """Let go of the node tree when the text is known: it is composed again only if
        a position is ever asked for.  A loaded corpus then holds no node trees, which
        the garbage collector would otherwise walk again and again."""
        if self._root is not None and self._text is not None:
            self._root = None

    def _descend(self, path: DocPath) -> tuple[list[yaml.Node], yaml.Node | None]:
        """The nodes along ``path`` as far as it goes, and the key node of its last step."""
        import yaml

        if self._root is None and self._text is not None:
            loader = _loader()(self._text)
            try:
                self._root = loader.get_single_node()
            except yaml.YAMLError:
                pass
            finally:
                loader.dispose()
            self._text = None
        node = self._root
        nodes: list[yaml.Node] = [] if node is None else [node]
        key_node: yaml.Node | None = None
        for part in path:
            if node is None:
                break
            child: yaml.Node | None = None
            key_node = None
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if isinstance(k, yaml.ScalarNode) and k.value == part:
                        child, key_node = v, k
            elif (
                isinstance(node, yaml.SequenceNode)
                and isinstance(part, int)
                and 0 <= part < len(node.value)
            ):
                child = node.value[part]
            if child is None:
                return nodes, None
            node = child
            nodes.append(node)
        return nodes, key_node

    def value(self, path: DocPath) -> Mark:
        """Position of the value at ``path``, or of its nearest ancestor that has one."""
        nodes, _ = self._descend(path)
        return _mark(nodes[-1]) if nodes else Mark(1, 1)

    def key(self, path: DocPath) -> Mark:
        """Position of the key of the mapping entry at ``path`` (else of its value)."""
        nodes, key_node = self._descend(path)
        if key_node is not None and len(nodes) == len(path) + 1:
            return _mark(key_node)
        return _mark(nodes[-1]) if nodes else Mark(1, 1)


def _mark(node: yaml.Node) -> Mark:
    return Mark(node.start_mark.line + 1, node.start_mark.column + 1)


def _check_keys(root: yaml.Node) -> None:
    """Refuse duplicate and non-scalar mapping keys, which PyYAML would let through.

    Iterative, and each node is visited once even when aliases share it.
    """
    import yaml

    stack: list[tuple[yaml.Node, DocPath]] = [(root, ())]
    seen: set[int] = set()
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            first: dict[object, yaml.Node] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise YamlSourceError(
                        "a mapping key must be a plain scalar", _mark(key_node), path
                    )
                key = key_node.value
                if key in first:
                    where = _mark(first[key])
                    raise YamlSourceError(
                        f"duplicate key {key!r} (first at line {where.line}, "
                        f"column {where.column})",
                        _mark(key_node),
                        path,
                    )
                first[key] = key_node
                stack.append((value_node, (*path, key)))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, (*path, i)) for i, item in enumerate(node.value))
        elif node.tag == _INT_TAG and len(node.value) > MAX_INT_DIGITS:
            raise YamlSourceError(
                f"an integer of {len(node.value):,} characters; the limit is "
                f"{MAX_INT_DIGITS:,} digits",
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
    import yaml

    nodes = 0
    depth = 0
    open_anchors: list[tuple[str | None, int]] = []
    sizes: dict[str, int] = {}
    unfinished: set[str] = set()
    """Anchors of lists and mappings still open: an alias to one would contain itself."""
    for event in yaml.parse(text, Loader=_loader()):
        if isinstance(event, yaml.AliasEvent):
            if event.anchor in unfinished:
                raise YamlSourceError(
                    f"the alias *{event.anchor} stands for the list or mapping it is inside, "
                    "which would then contain itself; expected an alias to a finished value",
                    _event_mark(event),
                )
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
            if event.anchor:
                unfinished.add(event.anchor)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
            anchor, start = open_anchors.pop()
            if anchor:
                sizes[anchor] = nodes - start + 1
                unfinished.discard(anchor)
        else:
            continue
        if nodes > MAX_YAML_NODES:
            raise YamlSourceError(
                f"the document has more than {MAX_YAML_NODES:,} values once aliases are "
                "expanded (the limit; an alias counts as a copy of what it names)",
                _event_mark(event),
            )


_QUICK_CHARS = 256 * 1024
"""Texts up to this size without anchors or aliases are composed before being counted."""


def _within_limits(root: yaml.Node) -> bool:
    """Whether a tree composed without aliases keeps to the depth and size limits.

    Each node is one parser event, and a collection at depth ``d`` (the root at 1) is
    where the event pass would have counted ``d`` open collections."""
    import yaml

    nodes = 0
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if isinstance(node, yaml.MappingNode):
            if depth > MAX_YAML_DEPTH:
                return False
            for key, value in node.value:
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))
        elif isinstance(node, yaml.SequenceNode):
            if depth > MAX_YAML_DEPTH:
                return False
            stack.extend((item, depth + 1) for item in node.value)
    return nodes <= MAX_YAML_NODES


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


class _NotPlain(Exception):
    """A node :func:`_plain` leaves to PyYAML's constructor and the full checks."""


_STR_TAG = "tag:yaml.org,2002:str"
_NULL_TAG = "tag:yaml.org,2002:null"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_MAP_TAG = "tag:yaml.org,2002:map"
_PLAIN_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)\Z")
"""An integer PyYAML reads as plain decimal (no ``_``, base prefix, octal or ``:``)."""


def _plain(root: yaml.Node) -> Any:
    """The data of a tree made only of plain JSON values, built directly.

    Text, plain decimal integers, booleans, nulls, lists and mappings with distinct
    text keys are built exactly as PyYAML's safe constructor builds them, a good deal
    faster.  Anything else — another tag, a duplicate or non-text key, an integer too
    long, nesting or size over the limits — raises :class:`_NotPlain`, and the caller
    takes the full road (limits, keys, PyYAML's constructor, then the JSON checks),
    which reports it exactly as before.  A plain tree passes every one of those checks.
    """
    import yaml

    bool_values: dict[str, bool] = yaml.constructor.SafeConstructor.bool_values
    count = 0
    scalar, sequence, mapping = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode

    def build(node: yaml.Node, depth: int) -> Any:
        nonlocal count
        count += 1
        kind = node.__class__
        tag = node.tag
        if kind is scalar:
            value = node.value
            if tag == _STR_TAG:
                return value
            if tag == _INT_TAG:
                if len(value) <= MAX_INT_DIGITS and _PLAIN_INT.match(value):
                    return int(value)
            elif tag == _NULL_TAG:
                return None
            elif tag == _BOOL_TAG:
                truth = bool_values.get(value.lower())
                if truth is not None:
                    return truth
            raise _NotPlain
        if depth > MAX_YAML_DEPTH:
            raise _NotPlain
        if kind is sequence and tag == _SEQ_TAG:
            return [build(item, depth + 1) for item in node.value]
        if kind is mapping and tag == _MAP_TAG:
            data: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if key_node.__class__ is not scalar or key_node.tag != _STR_TAG:
                    raise _NotPlain
                key = key_node.value
                if key in data:
                    raise _NotPlain
                count += 1
                data[key] = build(value_node, depth + 1)
            return data
        raise _NotPlain

    data = build(root, 1)
    if count > MAX_YAML_NODES:
        raise _NotPlain
    return data


def load_yaml(text: str) -> tuple[Any, SourceMap]:
    """Parse one YAML document safely; return the data and where each part came from."""
    data, source, _ = load_yaml_plain(text)
    return data, source


_INDENTATION_PROBLEMS = (
    "mapping values are not allowed",
    "did not find expected key",
    "expected <block end>",
    "did not find expected '-' indicator",
)
"""PyYAML's words for what is most often a line indented too far or not far enough."""
_COLON_IN_VALUE = re.compile(
    r"^\s*(- )?[\w-]+: [^'\"\[{|>].*:( |$)"  # key: value: more, or key: value:
    r"|^\s+[^\s:#'\"-][^:]* [^:]*: "  # prose carried on to the next line: words: more
)
"""A line whose plain (unquoted) value holds ``: `` or ends with ``:``."""
_COLON_HINT = "; a value that holds ': ' must be quoted, as in title: \"Spades: a red jack\""
_INDENTATION_HINT = (
    "; this is most often indentation: check this line and the one above it against the "
    "lines they belong with"
)


def load_yaml_plain(text: str) -> tuple[Any, SourceMap, bool]:
    """:func:`load_yaml`, and whether the data is plain JSON: text keys, no decimal
    number, nothing :func:`non_json_values` would report (so it need not be asked)."""
    import yaml

    loader_class = _loader()
    try:
        loader = loader_class(text)
        try:
            return _load_with(loader, text)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        raise _located_error(error, text) from None
    except yaml.YAMLError as error:
        raise YamlSourceError(f"not valid YAML: {error}", Mark(1, 1)) from None
    except (ValueError, OverflowError, RecursionError) as error:  # a value PyYAML cannot build
        raise YamlSourceError(f"not valid YAML: {error}", Mark(1, 1)) from None


def _load_with(
    loader: yaml.SafeLoader | yaml.CSafeLoader, text: str
) -> tuple[Any, SourceMap, bool]:
    """Compose and build the one document, the quick way where the text allows it."""
    # only libyaml bounds nesting while parsing; the pure-Python composer recurses
    quick = _libyaml() and len(text) <= _QUICK_CHARS and "&" not in text and "*" not in text
    node = _single_node(loader, text, quick)
    if node is None:
        raise YamlSourceError("the file is empty; expected a scenario mapping", Mark(1, 1))
    if quick:
        try:
            return _plain(node), SourceMap(node, text), True
        except _NotPlain:
            pass
        if not _within_limits(node):
            _check_size(text)  # raises, at the very event where the limit is crossed
    _check_keys(node)
    source = SourceMap(node, text)
    return loader.construct_document(node), source, False


def _single_node(
    loader: yaml.SafeLoader | yaml.CSafeLoader, text: str, quick: bool
) -> yaml.Node | None:
    """The document's node tree; the limits are checked first unless libyaml bounds them."""
    import yaml

    if not quick:
        _check_size(text)
        return loader.get_single_node()
    try:
        return loader.get_single_node()
    except (yaml.YAMLError, ValueError, OverflowError, RecursionError):
        _check_size(text)  # a limit crossed before the error is reported first
        raise


def _located_error(error: yaml.MarkedYAMLError, text: str) -> YamlSourceError:
    """PyYAML's error at its line and column, with a hint for the usual causes."""
    mark = error.problem_mark or error.context_mark
    where = Mark(mark.line + 1, mark.column + 1) if mark else Mark(1, 1)
    problem = error.problem or "invalid YAML"
    context = f" ({error.context})" if error.context else ""
    hint = _INDENTATION_HINT if problem.startswith(_INDENTATION_PROBLEMS) else ""
    lines = text.splitlines()
    line = lines[where.line - 1] if mark and 0 < where.line <= len(lines) else ""
    if problem.startswith("mapping values") and _COLON_IN_VALUE.match(line):
        hint = _COLON_HINT
    return YamlSourceError(f"not valid YAML: {problem}{context}{hint}", where)


__all__ = [
    "Mark",
    "SourceMap",
    "YamlSourceError",
    "format_path",
    "load_yaml",
    "load_yaml_plain",
    "non_json_values",
]
