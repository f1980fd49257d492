"""The scenario content of the documentation site, generated from the corpus.

The rules text under ``site/rules/`` is written by hand; everything that comes from the
scenarios is generated at build time, so the site can never show an example that the
suite does not run, or miss one that it does.  The package's modules are grouped by what
they are for:

* :mod:`.page_model`: the rules text's clauses, the citations, the pages' addresses;
* :mod:`.scenario_parts`: a scenario's values, steps, setup and drawn table;
* :mod:`.worked_examples`: the examples and markers under each clause;
* :mod:`.scenario_pages`: the scenario pages and the scenarios index;
* :mod:`.rulebook`: the printable rulebook;
* this module: the generated-content markers a hand-written page may hold, the links
  from a page into the rest of the repository, and the names the site hook uses (every
  public name the module had before the split, so code importing them from here works).

None of them touches the file system or mkdocs, so they are cheap to test and to reuse;
``mkdocs_hooks`` wires them into ``mkdocs build``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

from .card_markup import card_html
from .page_model import (
    _INLINE_LINK,
    _SCHEME,
    AREA_TITLES,
    CLAUSE_ANCHORS,
    RULES_DIR,
    SCENARIOS_DIR,
    SCENARIOS_INDEX,
    Citation,
    Heading,
    SiteModel,
    _fence_mask,
    anchored_headings,
    area_title,
    relative_link,
    scenario_uri,
)
from .rule_set_tables import fill_rule_set_markers
from .rulebook import (
    RULEBOOK,
    RULEBOOK_END_SKIP,
    RULEBOOK_SKIP,
    rulebook_page,
)
from .scenario_pages import (
    clause_index,
    scenario_page,
    scenarios_index,
)
from .scenario_parts import (
    action_html,
    dealt_hands,
    deck_html,
    drawn_steps,
    hands_lines,
    setup_markdown,
    step_html,
    step_rows,
    steps_table,
    steps_table_html,
    trick_html,
    value_html,
)
from .worked_examples import (
    CONTENTS_CLASS,
    EXAMPLES_MARKER,
    FLAGS_CLASS,
    INLINE_EXAMPLE_MAX_STEPS,
    clause_contents,
    clause_flags,
    example_block,
    example_line,
    examples_for,
    inject_examples,
    inline_example,
)

CLAUSE_INDEX_MARKER = "<!-- fivehundred:clause-index -->"
"""Replaced, on any page, by the table of every clause, its page and its scenario counts."""


SCENARIO_COUNT_MARKER = "<!-- fivehundred:scenario-count -->"
"""Replaced, on any page, by the number of scenarios, so no page states a stale count."""


RENDER_CACHE: dict[str, Any] = {}
"""Storage the site hooks keep across the rebuilds of one process (``mkdocs serve``):
mkdocs loads the hooks file afresh for every rebuild, while this package stays imported.
The hooks key each page's rendering by a hash of its final Markdown."""


def rewrite_repository_links(
    markdown: str,
    page_uri: str,
    docs_dir: str,
    published: Mapping[str, str],
    repo_url: str | None = None,
) -> str:
    """Make links from a page into the rest of the repository work on the site.

    Pages under ``site/`` are also read on the forge, where a link such as
    ``../schema/run.schema.json`` is right; mkdocs cannot resolve it, because it
    leaves the docs folder.  Such a link is pointed at the copy the site publishes
    (``published`` maps repository paths to docs URIs), else at the repository
    on ``repo_url`` when one is configured, else reduced to its text, so the page
    never carries a dead link.  ``docs_dir`` is the docs folder's path in the
    repository (``site``).
    """
    lines = markdown.splitlines(keepends=True)
    fenced = _fence_mask([line.rstrip("\n") for line in lines])

    def replace(match: re.Match[str]) -> str:
        text, target = match.group(1), match.group(2)
        if _SCHEME.match(target) or target.startswith(("#", "/")):
            return match.group(0)
        path, _, fragment = target.partition("#")
        inside = posixpath.normpath(posixpath.join(posixpath.dirname(page_uri), path))
        if not inside.startswith("../") and inside != "..":
            return match.group(0)
        repo_path = posixpath.normpath(posixpath.join(docs_dir, posixpath.dirname(page_uri), path))
        anchor = f"#{fragment}" if fragment else ""
        if repo_path in published:
            return f"{text}({relative_link(page_uri, published[repo_path])}{anchor})"
        if repo_url:
            kind = "tree" if path.endswith("/") else "blob"
            return f"{text}({repo_url.rstrip('/')}/{kind}/HEAD/{repo_path}{anchor})"
        return text[1:-1]

    return "".join(
        line if fenced[index] else _INLINE_LINK.sub(replace, line)
        for index, line in enumerate(lines)
    )


def fill_markers(markdown: str, page_uri: str, model: SiteModel) -> str:
    """Replace the generated-content markers a hand-written page may contain."""
    if CLAUSE_INDEX_MARKER in markdown:
        table = "\n".join(clause_index(page_uri, model))
        markdown = markdown.replace(CLAUSE_INDEX_MARKER, table)
    markdown = fill_rule_set_markers(markdown, page_uri, model.language)
    return markdown.replace(SCENARIO_COUNT_MARKER, str(len(model.scenarios)))


__all__ = [
    "AREA_TITLES",
    "CLAUSE_ANCHORS",
    "CLAUSE_INDEX_MARKER",
    "CONTENTS_CLASS",
    "EXAMPLES_MARKER",
    "FLAGS_CLASS",
    "INLINE_EXAMPLE_MAX_STEPS",
    "RENDER_CACHE",
    "RULEBOOK",
    "RULEBOOK_END_SKIP",
    "RULEBOOK_SKIP",
    "RULES_DIR",
    "SCENARIOS_DIR",
    "SCENARIOS_INDEX",
    "SCENARIO_COUNT_MARKER",
    "Citation",
    "Heading",
    "SiteModel",
    "action_html",
    "anchored_headings",
    "area_title",
    "card_html",
    "clause_contents",
    "clause_flags",
    "clause_index",
    "dealt_hands",
    "deck_html",
    "drawn_steps",
    "example_block",
    "example_line",
    "examples_for",
    "fill_markers",
    "hands_lines",
    "inject_examples",
    "inline_example",
    "relative_link",
    "rewrite_repository_links",
    "rulebook_page",
    "scenario_page",
    "scenario_uri",
    "scenarios_index",
    "setup_markdown",
    "step_html",
    "step_rows",
    "steps_table",
    "steps_table_html",
    "trick_html",
    "value_html",
]
