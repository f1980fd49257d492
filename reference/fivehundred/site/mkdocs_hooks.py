"""mkdocs hooks that put the scenario corpus into the documentation site.

``mkdocs.yml`` names this file under ``hooks:``, so a plain ``mkdocs build`` does
everything: no generation step to forget, and no generated file ever written into
``site/`` (the pages exist only in the build).  mkdocs loads the file by path, not
as part of the package, hence the absolute imports.

The events, in the order mkdocs fires them:

``on_config``
    load the corpus (the scenarios next to ``mkdocs.yml``) and put the scenarios
    index under the ``Scenarios`` entry; the scenario pages stay out of the nav
    (``not_in_nav``), which lists them by area: a nav entry per scenario made every
    page of the site render hundreds of links, the largest cost of a build;
``on_files``
    add the scenarios index, one virtual page per scenario and a copy of the JSON
    Schemas, then read the rules pages to find every clause anchor and check the
    clauses against the citations;
``on_page_markdown``
    put each clause's worked examples under it, point links into the repository
    (``../schema/…``, written for readers on the forge) at the published copies, and
    fill the markers for the clause index and the scenario count.

Two languages (``mkdocs-static-i18n``, which builds the site once per language):
``on_files`` runs after the plugin's, on the files of the language being built (the
Russian page ``rules/the-deal.ru.md`` where there is one), and writes the generated
pages in that language (``fivehundred.site.translation``) at that language's addresses, with
the other language's page as their alternate, so the language switch of a scenario page
leads to the same scenario.  The caches below are kept per language.

Every problem (an invalid scenario file, a ruling with no clause, a citation of
an anchor nobody defines, a clause without a scenario) is logged as a warning, so
``mkdocs build --strict`` fails on it.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import jinja2
import jinja2.bccache
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import (
    Page,
    _ExtractAnchorsTreeprocessor,
    _ExtractTitleTreeprocessor,
    _RawHTMLPreprocessor,
    _RelativePathTreeprocessor,
)
from mkdocs.structure.toc import TableOfContents, get_toc

from fivehundred.scenarios import Scenario, load_corpus
from fivehundred.scenarios.loading.disputes import Dispute, load_disputes
from fivehundred.site.dispute_page import (
    DISPUTES_PAGE,
    add_profile_scenarios,
    dispute_problems,
    fill_disputes_page,
)
from fivehundred.site.dispute_translations import localised_disputes
from fivehundred.site.disputes import PROFILES_DIR, profile_targets
from fivehundred.site.engines import ThirdParty
from fivehundred.site.generator import (
    CLAUSE_ANCHORS,
    RENDER_CACHE,
    RULEBOOK,
    RULES_DIR,
    SCENARIOS_DIR,
    SCENARIOS_INDEX,
    SiteModel,
    anchored_headings,
    fill_markers,
    inject_examples,
    relative_link,
    rewrite_repository_links,
    rulebook_page,
    scenario_page,
    scenario_uri,
    scenarios_index,
)
from fivehundred.site.glossary_marks import first_mentions
from fivehundred.site.results import (
    RESULTS_DIR,
    RESULTS_MARKER,
    Report,
    load_engines,
    load_reports,
    results_markdown,
)
from fivehundred.site.table_drawing import STEPPER_CLASS
from fivehundred.site.terms import TERMS_MARKER, russian_terms, terms_table
from fivehundred.site.translation import (
    DEFAULT_LANGUAGE,
    base_uri,
    localise,
    localise_scenario_page,
    localise_tooltips,
)

markdown_module: Any = importlib.import_module("markdown")
"""Python-Markdown, which ships no type information."""

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
    disputes: ClassVar[list[Dispute]] = []
    reports: ClassVar[list[Report]] = []
    engines: ClassVar[list[ThirdParty]] = []
    model: ClassVar[SiteModel | None] = None
    published: ClassVar[dict[str, str]] = {}
    """Repository path → docs URI of the repository files copied into the site."""
    fingerprint: ClassVar[str] = ""
    """What, besides a page's own Markdown, its rendering depends on: the Markdown
    extensions and their settings, the URL style and the list of files (links)."""
    keys: ClassVar[dict[str, str]] = {}
    """Page ``src_uri`` → the cache key of its rendering in this build."""
    hits: ClassVar[dict[str, _Rendered]] = {}
    """Pages whose rendering this build takes from the cache."""
    indexed: ClassVar[set[str]] = set()
    """Search-index cache keys used by this build."""
    templated: ClassVar[dict[str, str]] = {}
    """Page ``src_uri`` → the cache key of its whole HTML file (theme template) in this build."""
    template_keys: ClassVar[set[str]] = set()
    """Template cache keys used by this build."""
    digests: ClassVar[dict[int, tuple[str, str]]] = {}
    """``id`` of a text → the text and its hash (``_digest``), for this build."""
    converter: ClassVar[Any] = None
    """The Markdown converter of this build's pages (``_render_reusing``)."""
    fragment_links: ClassVar[dict[str, dict[str, dict[str, str]]]] = {}
    """Page ``src_uri`` → the links of its blocks converted apart (``_convert_apart``)."""
    aside: ClassVar[dict[str, list[str]]] = {}
    """Page ``src_uri`` → the HTML blocks taken out of its Markdown before conversion."""
    site: ClassVar[str] = ""
    """What every page's template output depends on besides the page: the configuration
    file, the published address and the navigation with every title; set per build."""
    language: ClassVar[str] = DEFAULT_LANGUAGE
    """The language this build writes (the ``i18n`` plugin builds once per language)."""
    docs_dir: ClassVar[str] = ""
    """The docs folder's path in the repository (``site``), found once a build."""
    links_key: ClassVar[str] = ""
    """What the repository links of a page depend on besides its Markdown."""
    memo_keys: ClassVar[set[tuple[str, str]]] = set()
    """(cache name, key) of every text transformation this build used (``_memo``)."""


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    _State.language = _language(config)
    root = _repo_root(config) / "scenarios"
    corpus = load_corpus(root=root)  # unchanged files are not read again on a rebuild
    for diagnostic in corpus.diagnostics:
        log.warning(f"invalid scenario left out of the site: {diagnostic}")
    _State.scenarios = corpus.scenarios
    found = load_disputes(root / "disputes")
    for diagnostic in found.diagnostics:
        log.warning(f"invalid dispute record left out of the site: {diagnostic}")
    for problem in dispute_problems(found.records, corpus.scenarios):
        log.warning(f"dispute record: {problem}")
    _State.disputes = localised_disputes(found.records, _State.language)
    reports, problems = _reports(_repo_root(config) / RESULTS_DIR)
    if problems:  # a bad report stops every build, strict or not: its column would be a lie
        raise PluginError(
            "the results folder holds a file that is not a valid report:\n  "
            + "\n  ".join(problems)
        )
    _State.reports = reports
    engines, problems = load_engines(_repo_root(config), reports)
    if problems:  # a family that does not match its report would misreport the engine
        raise PluginError(
            "a third-party engine's files do not fit its report:\n  " + "\n  ".join(problems)
        )
    _State.engines = engines
    _cache_search(config)
    _State.published = {}
    _State.model = None
    _State.keys = {}
    _State.hits = {}
    _State.indexed = set()
    _State.templated = {}
    _State.template_keys = set()
    _State.aside = {}
    _State.fragment_links = {}
    _State.converter = None
    _State.digests = {}
    _State.site = ""
    _State.memo_keys = set()
    _State.docs_dir = ""
    nav = config.nav
    if isinstance(nav, list):
        for item in nav:
            if isinstance(item, dict) and isinstance(item.get(SCENARIOS_NAV_TITLE), list):
                item[SCENARIOS_NAV_TITLE] = [SCENARIOS_INDEX]
    return config


@event_priority(-110)  # after the i18n plugin has chosen this language's files
def on_files(files: Files, config: MkDocsConfig) -> Files:
    language = _State.language
    rule_pages = _pages_under(files, RULES_DIR)
    model = _State.model = _site_model(rule_pages, _pages_under(files, PROFILES_DIR))
    index = localise(scenarios_index(model), language)
    files.append(_generated(config, SCENARIOS_INDEX, index))
    order = [uri for uri in _nav_uris(config.nav) if uri in rule_pages]
    rulebook = rulebook_page([(uri, rule_pages[uri]) for uri in order])
    files.append(_generated(config, RULEBOOK, localise(rulebook, language)))
    _publish(files, config)
    _add_scenario_pages(files, config, model)
    _State.fingerprint = _fingerprint(files, config)
    i18n = _i18n(config)
    if i18n is not None:  # the sitemap lists the generated pages with their alternates
        i18n.i18n_files_per_language[language] = files.documentation_pages()
    return files


def _pages_under(files: Files, folder: str) -> dict[str, str]:
    """The Markdown of this language's pages under ``folder``, by the page they stand for."""
    return {
        base_uri(file.src_uri): file.content_string
        for file in files.documentation_pages()
        if file.src_uri.startswith(folder)
    }


def _site_model(rule_pages: dict[str, str], profile_pages: dict[str, str]) -> SiteModel:
    """The clauses of the rules pages and the profile pages' sections, checked against
    the corpus (each problem a warning), in this build's language."""
    headings = {
        uri: [(h.title, h.anchor) for h in anchored_headings(text)]
        for uri, text in profile_pages.items()
    }
    model = SiteModel.build(
        _State.scenarios, rule_pages, _State.disputes, profile_targets(profile_pages, headings)
    )
    model.language = _State.language  # the drawn tables' words
    for problem in model.problems:
        log.warning(problem)
    return model


def _publish(files: Files, config: MkDocsConfig) -> None:
    """The repository folders published as they are, and the reports for download."""
    repo = _repo_root(config)
    for folder in PUBLISHED_FOLDERS:
        for path in sorted((repo / folder).rglob("*")):
            if path.is_file():
                relative = path.relative_to(repo).as_posix()
                files.append(File.generated(config, relative, abs_src_path=str(path)))
                _State.published[relative] = relative
    for report in _State.reports:
        path = repo / report.file
        files.append(File.generated(config, report.file, abs_src_path=str(path)))
        _State.published[report.file] = report.file


def _add_scenario_pages(files: Files, config: MkDocsConfig, model: SiteModel) -> None:
    """One page per scenario in this build's language, kept while its file and the
    clauses it links to are the same."""
    pages = _cache("scenario-pages")
    clauses = repr((sorted(model.clause_pages.items()), sorted(model.clause_titles.items())))
    used: set[str] = set()
    for scenario in model.scenarios:
        source = _read(scenario.path)
        key = hashlib.sha256(
            "\0".join((clauses, str(scenario.path), source or scenario.id)).encode("utf-8")
        ).hexdigest()
        used.add(key)
        page = pages.get(key)
        if not isinstance(page, str):
            page = scenario_page(scenario, model, source)
            page = pages[key] = localise_scenario_page(page, _State.language)
        files.append(_generated(config, scenario_uri(scenario.id), page))
    for key in [k for k in pages if k not in used]:
        del pages[key]


# ---- the generated pages in each language -----------------------------------------------


@dataclass(frozen=True)
class _Alternate:
    """The other language's address of a generated page, as the i18n plugin's language
    switch and sitemap read an alternate file (``url``; no ``page``)."""

    url: str
    page: None = None


def _i18n(config: MkDocsConfig) -> Any:
    """The i18n plugin of this configuration, or None when the site has one language."""
    plugin = config.plugins.get("i18n")
    return plugin if hasattr(plugin, "current_language") else None


def _language(config: MkDocsConfig) -> str:
    plugin = _i18n(config)
    if plugin is None:
        return DEFAULT_LANGUAGE
    return str(plugin.current_language or plugin.default_language or DEFAULT_LANGUAGE)


def _generated(config: MkDocsConfig, uri: str, content: str) -> File:
    """A generated page at its address in this build's language (``ru/scenarios/…``
    for Russian), knowing its address in every other language for the language switch."""
    file = File.generated(config, uri, content=content)
    plugin = _i18n(config)
    if plugin is None:
        return file
    default = plugin.default_language
    english_dest = file.dest_uri
    language = _State.language
    if language != default:
        file.dest_uri = f"{language}/{english_dest}"
    alternates: dict[str, Any] = {}
    for other in plugin.build_languages:
        if other == language:
            alternates[other] = file
            continue
        dest = english_dest if other == default else f"{other}/{english_dest}"
        alternates[other] = _Alternate(_url(dest, config.use_directory_urls))
    file.alternates = alternates  # type: ignore[attr-defined]
    file.locale = language  # type: ignore[attr-defined]
    file.locale_alternate_of = language  # type: ignore[attr-defined]
    file.localization = None if language == default else language  # type: ignore[attr-defined]
    file.norm_src_uri = uri  # type: ignore[attr-defined]
    return file


def _url(dest_uri: str, directory_urls: bool) -> str:
    """The address mkdocs gives a file written at ``dest_uri``."""
    if directory_urls and dest_uri.endswith("index.html"):
        folder = dest_uri[: -len("index.html")]
        return folder or "./"
    return dest_uri


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    model = _State.model
    if model is None:
        return markdown
    uri = base_uri(page.file.src_uri)
    if uri.startswith(RULES_DIR):
        text = markdown
        parts = (text, uri, _examples_signature(uri, model))
        markdown = _memo("examples", parts, lambda: inject_examples(text, uri, model))
    if not _State.docs_dir:  # (the same for every page of a build)
        _State.docs_dir = Path(config.docs_dir).resolve().relative_to(_repo_root(config)).as_posix()
        _State.links_key = repr((sorted(_State.published.items()), config.repo_url or ""))
    docs_dir = _State.docs_dir
    markdown = _memo(
        "links",
        (markdown, uri, docs_dir, _State.links_key),
        lambda: rewrite_repository_links(
            markdown, uri, docs_dir, _State.published, config.repo_url
        ),
    )
    markdown = fill_markers(markdown, uri, model)
    markdown = _dispute_content(markdown, uri, model)
    if RESULTS_MARKER in markdown:
        markdown = markdown.replace(RESULTS_MARKER, _results(uri, model))
    if TERMS_MARKER in markdown:  # the Russian glossary's table of fixed words
        markdown = markdown.replace(TERMS_MARKER, terms_table(russian_terms()))
    if not uri.startswith(SCENARIOS_DIR) or uri == SCENARIOS_INDEX:  # (those come localised)
        markdown = _localised(markdown)
    markdown = _from_cache(markdown, page)
    if uri not in _State.hits:
        scenario_page = uri.startswith(SCENARIOS_DIR) and uri != SCENARIOS_INDEX
        # (kept under the source's own name, ``the-deal.ru.md``, as on_page_content asks)
        markdown = _set_aside(markdown, page.file.src_uri, every_block=scenario_page)
        if uri == SCENARIOS_INDEX:
            markdown = _convert_apart(markdown, _TABLE, page, config, files)
        elif uri.startswith(RULES_DIR):
            markdown = _convert_apart(markdown, _BOX, page, config, files)
    return markdown


# ---- raw HTML set aside: the scenario pages' tables and files skip the Markdown parser ----
#
# A scenario page is mostly HTML blocks the generator writes (the hands, the steps table,
# the commands, the file).  Markdown passes an HTML block through untouched, but parses it
# with Python's HTML parser first, which was the largest part of converting those pages.
# Each such block is replaced by a one-line comment before conversion and put back, as
# it was, in the converted page, so the HTML is the same as if Markdown had passed it on.

_RAW_BLOCK = re.compile(
    r'^<(p|table|pre|details) class="(?:fh-hands|fh-steps|fh-commands|note fh-source)">'
    r".*?</\1>$",
    re.MULTILINE | re.DOTALL,
)


def _localised(markdown: str) -> str:
    """The page with the generator's phrases in this build's language (a rules page carries
    every example of its clauses: translating it is not free)."""
    if _State.language == DEFAULT_LANGUAGE:
        return markdown
    return _memo("localised", (markdown,), lambda: localise(markdown, _State.language))


def _examples_signature(uri: str, model: SiteModel) -> str:
    """What the examples and markers under a rules page's clauses are made of: every
    scenario citing one of its clauses (as a whole: an open example draws it), the
    disputes touching them, and where every clause and rule set is described."""
    cited = model.citations()
    anchors = sorted(a for a, page in model.clause_pages.items() if page == uri)
    return repr(
        (
            sorted(model.clause_pages.items()),
            sorted(model.clause_titles.items()),
            sorted(model.profile_pages.items()),
            [
                (
                    anchor,
                    [(c.primary, repr(c.scenario)) for c in cited.get(anchor, [])],
                    [repr(d) for d in model.disputes.get(anchor, [])],
                )
                for anchor in anchors
            ],
        )
    )


def _memo(name: str, parts: tuple[str, ...], compute: Callable[[], str]) -> str:
    """``compute()``, kept across rebuilds under a hash of the ``parts`` it depends on (the
    first the page's text); what a build does not use is dropped at its end
    (``on_post_build``)."""
    text = parts[0]
    digest = _digest(text)
    key = hashlib.sha256("\0".join((digest, *parts[1:])).encode("utf-8")).hexdigest()
    _State.memo_keys.add((name, key))
    cache = _cache(name)
    hit = cache.get(key)
    if not isinstance(hit, str):
        hit = cache[key] = compute()
    if hit is not text and hit == text:  # (most pages: nothing to change) the same hash
        _State.digests[id(hit)] = (hit, digest)
    return hit


def _digest(text: str) -> str:
    """The hash of a page's text, taken once a build however many steps key on it: a
    scenario page's text is tens of kilobytes, and every page is keyed on twice."""
    known = _State.digests.get(id(text))
    if known is not None and known[0] is text:
        return known[1]
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    _State.digests[id(text)] = (text, digest)
    return digest


_DRAWN_BLOCK = re.compile(
    r'^([ \t]*)(<div class="' + STEPPER_CLASS + r'[ "].*</div>)[ \t]*$', re.MULTILINE
)
"""A drawn table with its stepper (one line, as ``table_drawing`` writes it), at the top
level of a scenario page or indented in a worked example on any page: set aside so that
Markdown neither wraps it in a paragraph nor parses its thousands of tags."""


def _set_aside(markdown: str, uri: str, *, every_block: bool) -> str:
    blocks = _State.aside.setdefault(uri, [])

    def stash(match: re.Match[str]) -> str:
        blocks.append(match.group(0))
        return f"<!--fh-raw-{len(blocks) - 1}-->"

    def stash_drawing(match: re.Match[str]) -> str:
        blocks.append(match.group(2))
        return f"{match.group(1)}<!--fh-raw-{len(blocks) - 1}-->"

    if STEPPER_CLASS in markdown:
        markdown = _DRAWN_BLOCK.sub(stash_drawing, markdown)
    if every_block:
        markdown = _RAW_BLOCK.sub(stash, markdown)
    if not blocks:
        del _State.aside[uri]
    return markdown


# ---- generated blocks converted one by one -----------------------------------------------
#
# The scenarios index lists every scenario in one table per area, and a rules page shows
# its clauses' worked examples in boxes; editing a scenario's title changes the index and
# the page of every clause it illustrates, and converting those pages whole was most of a
# rebuild.  Each table of the index, and each box of a rules page, is converted on its
# own (the page's Markdown extensions, links resolved as mkdocs resolves them on this
# page) and kept under a hash of its text, so a rebuild converts only the blocks that
# changed; the page is converted with a placeholder where each block was.

_TABLE = re.compile(r"^\|.*\n(?:\|.*(?:\n|$))*", re.MULTILINE)
"""A table at the top level of a page: lines that start with ``|``, one after another."""

_BOX = re.compile(
    r"^\?\?\?\+? (?:fh-more|example fh-example) .*\n(?:(?:[ \t]*\n)*[ \t]+\S.*(?:\n|$))*",
    re.MULTILINE,
)
"""A box of worked examples the generator puts under a clause (``??? fh-more``, ``???+
example fh-example``) and its indented body, up to its last indented line (the blank
lines after it stay in the page); boxes written by hand are converted with their page."""


@dataclass(frozen=True)
class _Fragment:
    html: str
    links: dict[str, dict[str, str]]
    """Linked page ``src_uri`` → {anchor: original link}, as ``_Rendered.links``."""


def _convert_apart(
    markdown: str, blocks_of: re.Pattern[str], page: Page, config: MkDocsConfig, files: Files
) -> str:
    uri = page.file.src_uri
    blocks = _State.aside.setdefault(uri, [])
    cache = _cache("fragments")
    links: dict[str, dict[str, str]] = {}

    def convert(match: re.Match[str]) -> str:
        text = match.group(0)
        key = hashlib.sha256("\0".join((_State.fingerprint, uri, text)).encode("utf-8")).hexdigest()
        _State.memo_keys.add(("fragments", key))
        fragment = cache.get(key)
        if not isinstance(fragment, _Fragment):
            fragment = cache[key] = _convert_fragment(text, page, config, files)
        for target, anchors in fragment.links.items():
            links.setdefault(target, {}).update(anchors)
        blocks.append(fragment.html)
        ending = "\n" if text.endswith("\n") else ""
        return f"<!--fh-table-{len(blocks) - 1}-->{ending}"

    markdown = blocks_of.sub(convert, markdown)
    _State.fragment_links[uri] = links
    if not blocks:
        del _State.aside[uri]
    return markdown


def _convert_fragment(text: str, page: Page, config: MkDocsConfig, files: Files) -> _Fragment:
    """``text`` converted as ``Page.render`` converts a page (its extensions, and mkdocs'
    own link resolution for this page, which also records the links for validation)."""
    md = markdown_module.Markdown(
        extensions=config.markdown_extensions, extension_configs=config.mdx_configs or {}
    )
    resolver = _RelativePathTreeprocessor(page.file, files, config)
    resolver._register(md)
    html = md.convert(text)
    return _Fragment(html, {f.src_uri: dict(a) for f, a in resolver.links_to_anchors.items()})


def _put_back(html: str, uri: str) -> str:
    blocks = _State.aside.pop(uri, None)
    if not blocks:
        return html
    for index, block in enumerate(blocks):  # the blocks converted apart first: they may
        table = f"<!--fh-table-{index}-->"  # hold raw blocks' places
        if table in html:  # Markdown ends a block with one newline, an HTML block with two
            html = html.replace(table + "\n", block, 1).replace(table, block, 1)
    for index, block in enumerate(blocks):
        html = html.replace(f"<!--fh-raw-{index}-->", block, 1)
    return html


def _results(uri: str, model: SiteModel) -> str:
    rows = [(anchor, model.clause_link(anchor, uri)) for anchor in CLAUSE_ANCHORS]
    links = {r.file: relative_link(uri, r.file) for r in _State.reports}
    return results_markdown(
        _State.reports,
        model.scenarios,
        rows,
        links,
        _State.engines,
        lambda scenario_id: relative_link(uri, scenario_uri(scenario_id)),
    )


def _dispute_content(markdown: str, uri: str, model: SiteModel) -> str:
    """The generated parts of the disputes page and of the profile pages."""
    if uri == DISPUTES_PAGE:
        markdown, problems = fill_disputes_page(markdown, _State.disputes, model.scenarios, model)
        for problem in problems:
            log.warning(problem)
    ids = [d.id for d in _State.disputes]
    return add_profile_scenarios(markdown, uri, model.scenarios, ids)


# ---- rendering cache: a rebuild converts only the pages whose Markdown changed ------------
#
# ``mkdocs serve`` rebuilds the whole site after any edit.  Converting Markdown is most of a
# build, and an edit to one scenario changes the Markdown of a handful of pages (its own,
# and the rules pages showing it), so each page's rendering is kept, keyed by a hash of its
# final Markdown and of what else the conversion depends on (``_fingerprint``), and reused
# when the key comes round again.  A cached page is handed to mkdocs as empty Markdown and
# its HTML, table of contents, title and anchors are put back in ``on_page_content``.
# A fresh process (``mkdocs build``, CI) starts with an empty cache and renders everything,
# so every link warning is reported there.


@dataclass(frozen=True)
class _Rendered:
    html: str
    toc: TableOfContents
    title: str | None
    anchors: frozenset[str]
    links: dict[str, dict[str, str]]
    """Linked page ``src_uri`` → {anchor: original link}, for mkdocs' anchor validation."""


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
"""Object addresses in a repr: they differ from one configuration load to the next."""


def _fingerprint(files: Files, config: MkDocsConfig) -> str:
    digest = hashlib.sha256()
    parts = [
        repr(config.markdown_extensions),
        _ADDRESS.sub("", repr(sorted((k, repr(v)) for k, v in (config.mdx_configs or {}).items()))),
        str(config.use_directory_urls),
        *sorted(f.src_uri for f in files),
    ]
    for part in parts:
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()


def _from_cache(markdown: str, page: Page) -> str:
    uri = page.file.src_uri
    parts = (_State.fingerprint, uri, _digest(markdown))
    key = hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()
    _State.keys[uri] = key
    hit = _cache("pages").get(key)
    if isinstance(hit, _Rendered):
        _State.hits[uri] = hit

        def render(config: MkDocsConfig, files: Files) -> None:
            _restore(page, hit, files)

        # This page only: mkdocs calls page.render next; with the rendering in hand there
        # is no Markdown converter to set up and nothing to convert.
        page.render = render  # type: ignore[method-assign]
    else:

        def convert(config: MkDocsConfig, files: Files) -> None:
            _render_reusing(page, config, files)

        page.render = convert  # type: ignore[method-assign]
    return markdown


def _render_reusing(page: Page, config: MkDocsConfig, files: Files) -> None:
    """``Page.render``, with one Markdown converter for the whole build, reset between
    pages, instead of a new one per page: setting up a converter with every extension
    cost more than converting most pages.  mkdocs' own per-page parts (anchors, links,
    title, raw HTML ids) are new for each page, registered under their usual names."""
    md = _State.converter
    if md is None:
        md = _State.converter = markdown_module.Markdown(
            extensions=config.markdown_extensions, extension_configs=config.mdx_configs or {}
        )
    md.reset()
    raw_html = _RawHTMLPreprocessor()
    raw_html._register(md)
    anchors = _ExtractAnchorsTreeprocessor(page.file, files, config)
    anchors._register(md)
    links = _RelativePathTreeprocessor(page.file, files, config)
    links._register(md)
    title = _ExtractTitleTreeprocessor()
    title._register(md)
    page.content = md.convert(page.markdown)
    page.toc = get_toc(getattr(md, "toc_tokens", []))
    page._title_from_render = title.title
    page.present_anchor_ids = anchors.present_anchor_ids | raw_html.present_anchor_ids
    if logging.getLogger("mkdocs.structure.pages").getEffectiveLevel() > logging.DEBUG:
        page.links_to_anchors = links.links_to_anchors


def _restore(page: Page, hit: _Rendered, files: Files) -> None:
    page.content = hit.html
    page.toc = hit.toc
    page._title_from_render = hit.title
    page.present_anchor_ids = set(hit.anchors)
    links = {}
    for src, anchors in hit.links.items():
        target = files.src_uris.get(src)  # (the exact source: no i18n lookup by language)
        if target is not None:
            links[target] = dict(anchors)
    page.links_to_anchors = links


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    uri = page.file.src_uri
    if _State.hits.pop(uri, None) is not None:  # the cached rendering has had all this
        return html
    fragment_links = _State.fragment_links.pop(uri, None)
    if fragment_links:  # validated with the page's own links
        anchors = page.links_to_anchors if page.links_to_anchors is not None else {}
        for src, found in fragment_links.items():
            target = files.src_uris.get(src)
            if target is not None:
                anchors.setdefault(target, {}).update(found)
        page.links_to_anchors = anchors
    html = first_mentions(_put_back(html, uri))
    html = localise_tooltips(html, _State.language)
    key = _State.keys.get(uri)
    if key is None:
        return html
    _cache("pages")[key] = _Rendered(
        html=html,
        toc=page.toc,
        title=page._title_from_render,
        anchors=frozenset(page.present_anchor_ids or ()),
        links={f.src_uri: dict(a) for f, a in (page.links_to_anchors or {}).items()},
    )
    return html


class _Bytecode(jinja2.BytecodeCache):
    """Compiled theme templates kept across rebuilds (keyed by jinja by name and source
    checksum): mkdocs makes a new template environment for every build."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = _cache("jinja").get(bucket.key)
        if isinstance(code, bytes):
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        _cache("jinja")[bucket.key] = bucket.bytecode_to_string()


def on_env(env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
    env.bytecode_cache = _Bytecode()
    get_template = env.get_template

    def cached_template(name: Any, *args: Any, **kwargs: Any) -> Any:
        return _CachedTemplate(get_template(name, *args, **kwargs))

    env.get_template = cached_template  # type: ignore[method-assign]
    return env


# ---- template cache: a rebuild re-renders the theme only around pages that changed ------
#
# Rendering the theme's template (navigation, header, footer) around each page is the
# largest part of a rebuild once the Markdown is cached.  A page's whole HTML file depends
# on its rendering (``_State.keys``), its own address, its neighbours, the navigation with
# every title in it and the configuration; when none of these changed since the last
# build, the file from that build is written again.  A fresh process renders everything.


class _CachedTemplate:
    def __init__(self, template: jinja2.Template) -> None:
        self._template = template

    def render(self, context: Any) -> str:
        page = context.get("page") if isinstance(context, dict) else None
        key = None
        if isinstance(page, Page):
            key = _State.templated.get(page.file.src_uri)
        if key is None:
            return self._template.render(context)
        key = hashlib.sha256(f"{key}\0{self._template.name}".encode()).hexdigest()
        _State.template_keys.add(key)
        cache = _cache("templates")
        hit = cache.get(key)
        if isinstance(hit, str):
            return hit
        output = self._template.render(context)
        cache[key] = output
        return output

    def __getattr__(self, name: str) -> Any:
        return getattr(self._template, name)


def on_page_context(context: Any, page: Page, config: MkDocsConfig, nav: Navigation) -> Any:
    rendered = _State.keys.get(page.file.src_uri)
    if rendered is None:
        return context
    if not _State.site:
        _State.site = _site_signature(config, nav)
    neighbours = [
        (p.title, getattr(p, "url", None)) if p is not None else None
        for p in (page.previous_page, page.next_page, page.parent)
    ]
    parts = (
        _State.site,
        rendered,
        page.url,
        page.canonical_url or "",
        page.edit_url or "",
        page.title or "",
        repr(page.meta),
        repr(neighbours),
        repr(config.extra.get("alternate")),  # the language switch's link from this page
    )
    _State.templated[page.file.src_uri] = hashlib.sha256(
        "\0".join(parts).encode("utf-8")
    ).hexdigest()
    return context


def _site_signature(config: MkDocsConfig, nav: Navigation) -> str:
    def walk(items: Any) -> Any:
        return [
            (type(item).__name__, item.title, getattr(item, "url", None), walk(item.children))
            if getattr(item, "children", None)
            else (type(item).__name__, item.title, getattr(item, "url", None))
            for item in items
        ]

    try:
        source = Path(config.config_file_path).read_bytes()
    except OSError:
        source = b""
    digest = hashlib.sha256(source)
    for part in (
        _State.fingerprint,
        config.site_url or "",
        config.repo_url or "",
        repr(config.extra),
        repr(walk(nav.items)),
    ):
        digest.update(b"\0" + part.encode("utf-8"))
    return digest.hexdigest()


def on_post_build(config: MkDocsConfig) -> None:
    """Forget what this build did not use, so the caches never grow."""
    _State.digests = {}
    used = set(_State.keys.values())
    pages = _cache("pages")
    for key in [k for k in pages if k not in used]:
        del pages[key]
    search = _cache("search")
    for key in [k for k in search if k not in _State.indexed]:
        del search[key]
    templates = _cache("templates")
    for key in [k for k in templates if k not in _State.template_keys]:
        del templates[key]
    for name in ("localised", "links", "fragments", "examples"):
        memo = _cache(name)
        for key in [k for k in memo if (name, k) not in _State.memo_keys]:
            del memo[key]


def _cache(name: str) -> dict[Any, Any]:
    """One named part of the cache kept across rebuilds, for this build's language (the
    default language's under the plain name, another's prefixed: ``ru:pages``)."""
    if _State.language != DEFAULT_LANGUAGE:
        name = f"{_State.language}:{name}"
    part = RENDER_CACHE.setdefault(name, {})
    assert isinstance(part, dict)
    return part


def _cache_search(config: MkDocsConfig) -> None:
    """Let the search plugin reuse a page's index entries while the page's HTML is the
    same: indexing parses every page's HTML and is the largest part of a rebuild."""
    for plugin in config.plugins.values():
        index = getattr(plugin, "search_index", None)
        original = getattr(index, "add_entry_from_context", None)
        entries = getattr(index, "entries", None)
        if index is None or not callable(original) or not isinstance(entries, list):
            continue
        _skip_absent_attributes(config, plugin)

        def add_entry(page: Page, _add: Any = original, _entries: list[Any] = entries) -> None:
            meta = page.meta.get("search")
            if isinstance(meta, dict) and meta.get("exclude"):
                return  # (the plugin indexes nothing of it)
            rendered = _State.keys.get(page.file.src_uri)  # the page's HTML follows from it
            content = (page.content or "") if rendered is None else rendered
            parts = (page.url, repr(meta), page.title or "", content)
            key = hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()
            _State.indexed.add(key)
            search = _cache("search")
            hit = search.get(key)
            if hit is not None:
                _entries.extend(hit)
                return
            before = len(_entries)
            _add(page)
            search[key] = _entries[before:]

        index.add_entry_from_context = add_entry


def _skip_absent_attributes(config: MkDocsConfig, search: Any) -> None:
    """The search plugin's page event indexes the page and then strips its
    ``data-search-…="…"`` attributes by a regular expression over the whole page, the
    largest cost of a rebuild once the rest is cached; on a page without any (every
    scenario page) the stripping changes nothing and is left out."""
    events = config.plugins.events.get("page_context", [])
    for position, method in enumerate(events):
        if getattr(method, "__self__", None) is not search:
            continue

        def context_event(
            context: Any,
            *,
            page: Page,
            config: MkDocsConfig,
            nav: Navigation,
            _event: Any = method,
            _plugin: Any = search,
        ) -> Any:
            if "data-search-" in (page.content or "") or not _plugin.config.enabled:
                return _event(context, page=page, config=config, nav=nav)
            _plugin.search_index.add_entry_from_context(page)
            return None

        context_event.mkdocs_priority = getattr(method, "mkdocs_priority", 0)  # type: ignore[attr-defined]
        events[position] = context_event


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


def _reports(folder: Path) -> tuple[list[Report], list[str]]:
    """``load_reports`` of the folder, kept while its files hold the same bytes: checking
    every report against its schema again on each rebuild (and for each language) cost
    more than the rest of reading the configuration."""
    digest = hashlib.sha256(str(folder).encode("utf-8"))
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            digest.update(b"\0" + path.name.encode("utf-8") + b"\0")
            if path.is_file():
                digest.update(path.read_bytes())
    key = digest.hexdigest()
    kept = RENDER_CACHE.get("reports")
    if isinstance(kept, tuple) and kept[0] == key:
        return list(kept[1]), list(kept[2])
    reports, problems = load_reports(folder)
    RENDER_CACHE["reports"] = (key, tuple(reports), tuple(problems))
    return reports, problems


def _read(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


__all__ = [
    "on_config",
    "on_env",
    "on_files",
    "on_page_content",
    "on_page_context",
    "on_page_markdown",
    "on_post_build",
]
