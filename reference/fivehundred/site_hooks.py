"""mkdocs hooks that put the scenario corpus into the documentation site.

``mkdocs.yml`` names this file under ``hooks:``, so a plain ``mkdocs build`` does
everything: no generation step to forget, and no generated file ever written into
``site/`` (the pages exist only in the build).  mkdocs loads the file by path, not
as part of the package, hence the absolute imports.

The events, in the order mkdocs fires them:

``on_config``
    load the corpus (the scenarios next to ``mkdocs.yml``) and add a nav section
    per area under the ``Scenarios`` entry;
``on_files``
    add the scenarios index, one virtual page per scenario and a copy of the JSON
    Schemas, then read the rules pages to find every clause anchor and check the
    clauses against the citations;
``on_page_markdown``
    put each clause's worked examples under it, point links into the repository
    (``../schema/…``, written for readers on the forge) at the published copies, and
    fill the markers for the clause index and the scenario count.

Every problem (an invalid scenario file, a ruling with no clause, a citation of
an anchor nobody defines, a clause without a scenario) is logged as a warning, so
``mkdocs build --strict`` fails on it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import ClassVar

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from fivehundred.corpus import load_corpus
from fivehundred.scenario import Scenario
from fivehundred.site_generator import (
    RULEBOOK,
    RULES_DIR,
    SCENARIOS_INDEX,
    SiteModel,
    fill_markers,
    inject_examples,
    rewrite_repository_links,
    rulebook_page,
    scenario_nav,
    scenario_page,
    scenario_uri,
    scenarios_index,
)

log = logging.getLogger("mkdocs.plugins.fivehundred")
"""Under ``mkdocs.`` so that strict mode counts its warnings."""

SCENARIOS_NAV_TITLE = "Scenarios"

PUBLISHED_FOLDERS = ("schema",)
"""Repository folders copied into the site as they are, so the JSON Schemas have stable
URLs and the pages that link to them (``../schema/…`` on the forge) link to the copies."""


class _State:
    """What one build has learnt; reset by ``on_config`` so ``mkdocs serve`` rebuilds
    from fresh files every time."""

    scenarios: ClassVar[list[Scenario]] = []
    model: ClassVar[SiteModel | None] = None
    published: ClassVar[dict[str, str]] = {}
    """Repository path → docs URI of the repository files copied into the site."""


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    root = _repo_root(config) / "scenarios"
    corpus = load_corpus(root=root)
    for diagnostic in corpus.diagnostics:
        log.warning(f"invalid scenario left out of the site: {diagnostic}")
    _State.scenarios = corpus.scenarios
    snippets = config.mdx_configs.get("pymdownx.snippets")
    if isinstance(snippets, dict):
        snippets["base_path"] = [str(Path(config.docs_dir).resolve())]
    _State.published = {}
    _State.model = None
    nav = config.nav
    if isinstance(nav, list):
        for item in nav:
            if isinstance(item, dict) and isinstance(item.get(SCENARIOS_NAV_TITLE), list):
                item[SCENARIOS_NAV_TITLE] = [SCENARIOS_INDEX, *scenario_nav(corpus.scenarios)]
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    rule_pages = {
        file.src_uri: file.content_string
        for file in files.documentation_pages()
        if file.src_uri.startswith(RULES_DIR)
    }
    model = SiteModel.build(_State.scenarios, rule_pages)
    for problem in model.problems:
        log.warning(problem)
    _State.model = model
    files.append(File.generated(config, SCENARIOS_INDEX, content=scenarios_index(model)))
    order = [uri for uri in _nav_uris(config.nav) if uri in rule_pages]
    rulebook = rulebook_page([(uri, rule_pages[uri]) for uri in order])
    files.append(File.generated(config, RULEBOOK, content=rulebook))
    repo = _repo_root(config)
    for folder in PUBLISHED_FOLDERS:
        for path in sorted((repo / folder).rglob("*")):
            if path.is_file():
                relative = path.relative_to(repo).as_posix()
                files.append(File.generated(config, relative, abs_src_path=str(path)))
                _State.published[relative] = relative
    for scenario in model.scenarios:
        source = _read(scenario.path)
        page = scenario_page(scenario, model, source)
        files.append(File.generated(config, scenario_uri(scenario.id), content=page))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    model = _State.model
    if model is None:
        return markdown
    uri = page.file.src_uri
    if uri.startswith(RULES_DIR):
        markdown = inject_examples(markdown, uri, model)
    docs_dir = Path(config.docs_dir).resolve().relative_to(_repo_root(config)).as_posix()
    markdown = rewrite_repository_links(markdown, uri, docs_dir, _State.published, config.repo_url)
    return fill_markers(markdown, uri, model)


def _nav_uris(nav: object) -> list[str]:
    """The pages of a nav tree (as ``mkdocs.yml`` writes it), in reading order."""
    if isinstance(nav, str):
        return [nav] if nav.endswith(".md") else []
    if isinstance(nav, dict):
        return [uri for value in nav.values() for uri in _nav_uris(value)]
    if isinstance(nav, list):
        return [uri for item in nav for uri in _nav_uris(item)]
    return []


def _repo_root(config: MkDocsConfig) -> Path:
    """The folder of ``mkdocs.yml``: the repository root."""
    return Path(config.config_file_path).resolve().parent


def _read(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


__all__ = ["on_config", "on_files", "on_page_markdown"]
