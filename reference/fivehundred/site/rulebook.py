"""The printable rulebook: every rules page on one page, without examples or boxes,
generated from the same sources as the rules pages so the two never drift.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from .page_model import (
    _ANY_HEADING,
    _INLINE_LINK,
    _SCHEME,
    _fence_mask,
    relative_link,
)

RULEBOOK = "rulebook.md"
"""The generated page with every clause of the rules on one page and no examples."""


RULEBOOK_SKIP = "<!-- rulebook:skip -->"


RULEBOOK_END_SKIP = "<!-- rulebook:end-skip -->"
"""Markers a rules page may put around text that belongs on the site only (how to read
the examples, the clause index): the rulebook leaves out what lies between them."""


_FOLDED = re.compile(r"^\?\?\?\+?[ \t]")


_MARKER_LINE = re.compile(r"^[ \t]*<!--.*-->[ \t]*$")


def rulebook_page(pages: Sequence[tuple[str, str]]) -> str:
    """Every rules page (``src_uri``, Markdown), in reading order, as one printable page.

    Generated from the same sources as the rules pages, so the two never drift: each
    page's title becomes a section (anchored ``#page-<name>``), the clause headings
    keep their permanent anchors, links between rules pages become links within the
    page, and what is not rule text is left out: folded boxes (background and other
    rule sets), generated-content markers and any text between the skip markers.
    Worked examples are added only to the rules pages, never here.
    """
    inside = {uri for uri, _ in pages}
    out = [
        "---",
        "search:",
        "  exclude: true",
        "---",
        "",
        "# The rulebook {#rulebook}",
        "",
        "Every clause of the rules on one page, without the worked examples and the background",
        "boxes, for reading straight through or printing. The clause numbers and anchors are",
        "those of the [rules pages](rules/index.md), and this page is generated from them. For a",
        "single sheet, see the [quick reference](quick-reference.md).",
        "{: .fh-rulebook-note }",
        "",
    ]
    for uri, markdown in pages:
        out += _rulebook_section(uri, markdown, inside)
    return "\n".join(out) + "\n"


def _page_anchor(uri: str) -> str:
    stem = posixpath.splitext(posixpath.basename(uri))[0]
    if stem == "index":
        stem = posixpath.basename(posixpath.dirname(uri)) or "index"
    return "page-" + stem


def _rulebook_section(uri: str, markdown: str, inside: set[str]) -> list[str]:
    lines = markdown.splitlines()
    fenced = _fence_mask(lines)
    kept: list[str] = []
    skipping = False
    folded = False
    for line, in_fence in zip(lines, fenced, strict=True):
        stripped = line.strip()
        if not in_fence and stripped == RULEBOOK_SKIP:
            skipping = True
            continue
        if not in_fence and stripped == RULEBOOK_END_SKIP:
            skipping = False
            continue
        if skipping:
            continue
        if folded:
            if not stripped or line.startswith(("    ", "\t")):
                continue
            folded = False
        if not in_fence and _FOLDED.match(line):
            folded = True
            continue
        if not in_fence and _MARKER_LINE.match(line):
            continue
        if not in_fence:
            heading = _ANY_HEADING.match(line)
            if heading:
                line = _demote(line, uri)
            line = _rulebook_links(line, uri, inside)
        kept.append(line)
    out: list[str] = []
    for line in kept:  # no runs of blank lines where boxes were taken out
        if not line.strip() and out and not out[-1].strip():
            continue
        out.append(line)
    return [*out, ""]


def _demote(line: str, uri: str) -> str:
    hashes, _, rest = line.partition(" ")
    if len(hashes) == 1 and "{" not in rest:
        rest = f"{rest.strip()} {{#{_page_anchor(uri)}}}"
    return "#" * min(len(hashes) + 1, 6) + " " + rest


def _rulebook_links(line: str, uri: str, inside: set[str]) -> str:
    def replace(match: re.Match[str]) -> str:
        text, target = match.group(1), match.group(2)
        if _SCHEME.match(target) or target.startswith("/"):
            return match.group(0)
        path, _, fragment = target.partition("#")
        if not path:
            return f"{text}(#{fragment})"
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(uri), path))
        if resolved in inside:
            return f"{text}(#{fragment or _page_anchor(resolved)})"
        anchor = f"#{fragment}" if fragment else ""
        return f"{text}({relative_link(RULEBOOK, resolved)}{anchor})"

    return _INLINE_LINK.sub(replace, line)
