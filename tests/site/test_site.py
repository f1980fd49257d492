"""The documentation site, built the way a maintainer builds it: ``mkdocs build --strict``.

Strict mode already fails on a broken link or anchor, an invalid scenario file, a
ruling without a clause and a clause without a scenario (the hook logs those as
warnings).  The tests below then check the promises the site makes to readers:
every clause anchor exists, every scenario is shown under each clause it cites and
has its own page, and the build writes nothing into ``site/``.  The site is built
once per session; it takes a few seconds.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from fivehundred.scenarios import DeckStart, PlayStart, Scenario
from fivehundred.scenarios.format.rulings import EXTRA_ANCHORS, RULINGS
from fivehundred.scenarios.loading.corpus import load_corpus

pytestmark = pytest.mark.slow  # starts processes or builds the site

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "site"
ANCHORS = [r.slug for r in RULINGS] + list(EXTRA_ANCHORS)


@pytest.fixture(scope="module")
def built(built_site: Path) -> Path:
    return built_site


@pytest.fixture(scope="module")
def scenarios() -> list[Scenario]:
    corpus = load_corpus()
    assert corpus.scenarios
    return corpus.scenarios


@pytest.fixture(scope="module")
def default_scenarios(scenarios: list[Scenario]) -> list[Scenario]:
    """The scenarios the rules pages show: the default profile without toggles."""
    from fivehundred.scenarios.derived.coverage import default_profile_only

    chosen = default_profile_only(scenarios)
    assert chosen and len(chosen) < len(scenarios)
    return chosen


def _rule_pages(built: Path) -> dict[str, str]:
    return {
        str(p.relative_to(built)): p.read_text(encoding="utf-8")
        for p in (built / "rules").rglob("index.html")
    }


def _clause_sections(built: Path) -> dict[str, str]:
    """Anchor → the HTML of its clause: from its heading to the next heading of its level."""
    sections: dict[str, str] = {}
    for text in _rule_pages(built).values():
        for match in re.finditer(r'<h(\d) id="([^"]+)"', text):
            level, anchor = match.group(1), match.group(2)
            end = text.find(f"<h{level} ", match.end())
            end = text.find("</article>", match.end()) if end == -1 else end
            sections[anchor] = text[match.start() : end]
    return sections


def test_every_ruling_anchor_is_a_clause_heading(built: Path) -> None:
    sections = _clause_sections(built)
    missing = [anchor for anchor in ANCHORS if anchor not in sections]
    assert not missing, f"clause anchors missing from the rules pages: {missing}"


def test_every_citation_is_a_worked_example_under_its_clause(
    built: Path, default_scenarios: list[Scenario]
) -> None:
    sections = _clause_sections(built)
    absent = [
        f"{s.id} under #{anchor}"
        for s in default_scenarios
        for anchor in s.rules
        if f'href="../../scenarios/{s.id}/"' not in sections.get(anchor, "")
    ]
    assert not absent, f"scenarios missing from the clauses they cite: {absent[:20]}"


def test_rules_come_first_one_example_open_the_rest_folded(
    built: Path, default_scenarios: list[Scenario]
) -> None:
    """Under each clause: at most one worked example open, written for that clause;
    every other example inside one folded box that says how many it holds."""
    scenarios = default_scenarios
    sections = _clause_sections(built)
    by_id = {s.id: s for s in scenarios}
    for anchor in ANCHORS:
        section = sections[anchor]
        opened = re.findall(
            r'<details class="example fh-example" open="open">\s*<summary>Example (\w{4})', section
        )
        assert len(opened) <= 1, f"#{anchor} shows {len(opened)} examples open"
        if opened:
            assert by_id[opened[0]].rules[0] == anchor, f"#{anchor} opens {opened[0]}"
            if 'class="fh-more"' in section:
                assert section.index(f"Example {opened[0]}") < section.index('class="fh-more"')
        cited = sum(1 for s in scenarios if anchor in s.rules)
        folded = cited - len(opened)
        if folded:
            more = re.search(r'<details class="fh-more">\s*<summary>(\d+) ', section)
            assert more is not None, f"#{anchor} has no folded box"
            assert int(more.group(1)) == folded, f"#{anchor} says {more.group(1)}, not {folded}"
    scenario = next(s for s in scenarios if len(s.rules) > 1)
    link = f'href="../../scenarios/{scenario.id}/"'
    assert link in sections[scenario.rules[1]]


def _drawn_start(page: str) -> str:
    """The start position drawn on a page (the later positions are templates after it)."""
    start = page.index('<div class="fh-stage">')
    return page[start : page.index("<template", start)]


def test_the_start_is_drawn_with_each_hand_at_its_seat(
    built: Path, scenarios: list[Scenario]
) -> None:
    scenario = next(s for s in scenarios if isinstance(s.setup, PlayStart) and "JK" in str(s.setup))
    assert isinstance(scenario.setup, PlayStart)
    text = (built / "scenarios" / scenario.id / "index.html").read_text(encoding="utf-8")
    stage = _drawn_start(text)
    assert stage.count('<span class="fh-hand">') == len(scenario.setup.hands)
    assert "fh-joker" in stage
    assert text.count('<template class="fh-frame">') == len(scenario.steps)


def test_deck_starts_show_the_hands_and_kitty_as_dealt(
    built: Path, default_scenarios: list[Scenario]
) -> None:
    from fivehundred.site.generator import dealt_hands

    scenario = next(s for s in default_scenarios if isinstance(s.setup, DeckStart))
    text = (built / "scenarios" / scenario.id / "index.html").read_text(encoding="utf-8")
    stage = _drawn_start(text)
    assert stage.count('<span class="fh-hand">') == 4
    kitty = re.search(r'<p class="fh-facts fh-kitty">(.*?)</p>', stage)
    assert kitty is not None and kitty.group(1).count('class="fh-card') == 3
    dealt = dealt_hands(scenario)
    assert sorted(len(cards) for cards in dealt.values()) == [3, 10, 10, 10, 10]


def test_the_rulebook_has_every_clause_and_no_example(built: Path) -> None:
    text = (built / "rulebook" / "index.html").read_text(encoding="utf-8")
    for anchor in ANCHORS:
        assert f'id="{anchor}"' in text, f"#{anchor} missing from the rulebook"
    assert "fh-example" not in text
    assert "Elsewhere (not this profile)" not in text
    assert "stylesheets/print.css" in text


def test_glossary_quick_reference_and_tooltips(built: Path) -> None:
    glossary = (built / "glossary" / "index.html").read_text(encoding="utf-8")
    assert "https://www.pagat.com/euchre/500.html" in glossary
    rules = (built / "rules" / "deck-and-ranks" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<abbr title="[^"]+">left bower</abbr>', rules)
    assert (built / "quick-reference" / "index.html").is_file()


def test_a_term_has_its_tooltip_once_in_each_clause(built: Path) -> None:
    """At its first mention in each clause, and only there (glossary_marks.py)."""
    for page in ("rules/the-auction", "rules/deck-and-ranks", "disputes", "scenarios"):
        text = (built / page / "index.html").read_text(encoding="utf-8")
        article = text[text.index("<article") : text.index("</article>")]
        clauses = re.split(r"(?=<h[12][\s>])", article)
        marked = [re.findall(r'<abbr title="([^"]*)">', clause) for clause in clauses]
        assert all(len(titles) == len(set(titles)) for titles in marked), page
        assert sum(len(titles) for titles in marked) >= 10, page
    auction = (built / "rules" / "the-auction" / "index.html").read_text(encoding="utf-8")
    clause = auction[auction.index('id="misere-needs-seven"') :]
    clause = clause[: clause.index("<h2", 1)]
    assert clause.count('<abbr title="') >= 1  # a later clause marks its terms again


def test_sitemap_and_canonical_links_use_the_site_url(built: Path) -> None:
    sitemap = (built / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://" in sitemap
    assert '<link rel="canonical" href="https://' in (built / "index.html").read_text("utf-8")


_TAG = re.compile(r"<(?!a[\s>])([a-zA-Z][\w:-]*)(\s[^>]*)>")
"""Any start tag but a link to follow (``<a>``), with its attributes."""
_FETCHED = re.compile(
    r"(?<![\w-])(?:src|href|srcset|poster|data|xlink:href)\s*=\s*[\"']?\s*((?:https?:)?//[^\"'\s>]+)",
    re.IGNORECASE,
)
"""An attribute that makes the browser fetch from an address with a host of its own."""
_CANONICAL = re.compile(r"\brel\s*=\s*[\"']?canonical\b", re.IGNORECASE)
_CSS_FETCHED = re.compile(r"(?:url\(\s*[\"']?|@import\s+[\"'])\s*((?:https?:)?//[^\"')\s]+)", re.I)


def test_no_page_fetches_anything_from_another_host(built: Path) -> None:
    """Stylesheets, scripts, fonts and images all come from the site itself: it reads the
    same offline and no third party learns who reads it (``theme.font: false``).  Read:
    every page but the scenario pages, every 40th of those (one generator writes them all
    from escaped text), and every stylesheet.  The canonical link names the published
    address, and is not fetched."""
    scenario_pages = sorted((built / "scenarios").glob("*/index.html"))
    pages = [p for p in built.rglob("*.html") if p.parent.parent != built / "scenarios"]
    fetched: dict[str, str] = {}
    for page in pages + scenario_pages[::40]:
        for tag in _TAG.finditer(page.read_text(encoding="utf-8")):
            if tag.group(1).lower() == "link" and _CANONICAL.search(tag.group(2)):
                continue
            for found in _FETCHED.finditer(tag.group(2)):
                fetched.setdefault(found.group(1), str(page.relative_to(built)))
    for sheet in built.rglob("*.css"):
        for found in _CSS_FETCHED.finditer(sheet.read_text(encoding="utf-8")):
            fetched.setdefault(found.group(1), str(sheet.relative_to(built)))
    assert len(pages) > 20 and len(scenario_pages) > 800
    assert fetched == {}


def test_every_scenario_has_its_page(built: Path, scenarios: list[Scenario]) -> None:
    for scenario in scenarios:
        page = built / "scenarios" / scenario.id / "index.html"
        assert page.is_file(), f"no page for {scenario.id}"
        text = page.read_text(encoding="utf-8")
        assert html.escape(scenario.title, quote=False) in text
        assert f"fivehundred verify --id {scenario.id}" in text
        assert f"fivehundred show {scenario.id}" in text
        for anchor in scenario.rules:
            assert f"#{anchor}" in text, f"{scenario.id} page does not link to #{anchor}"


def test_the_scenarios_index_lists_every_scenario_and_counts_clauses(
    built: Path, scenarios: list[Scenario]
) -> None:
    text = (built / "scenarios" / "index.html").read_text(encoding="utf-8")
    for scenario in scenarios:
        assert f'href="{scenario.id}/"' in text, f"{scenario.id} missing from the index"
    assert 'id="per-clause"' in text
    for anchor in ANCHORS:
        assert f"#{anchor}" in text


def test_home_page_states_the_current_scenario_count(
    built: Path, scenarios: list[Scenario]
) -> None:
    text = (built / "index.html").read_text(encoding="utf-8")
    assert f"conformance suite</strong> of {len(scenarios)} scenarios" in text


def test_cards_are_drawn_with_suit_symbols_and_red_suits(built: Path) -> None:
    text = (built / "rules" / "worked-example" / "index.html").read_text(encoding="utf-8")
    assert '<span class="fh-card fh-red">A♥</span>' in text
    assert (built / "stylesheets" / "cards.css").is_file()


def test_the_json_schemas_are_published(built: Path) -> None:
    for schema in (REPO / "schema").rglob("*.json"):
        assert (built / schema.relative_to(REPO)).is_file()


def test_search_previews_start_with_the_rule_not_its_markers(built: Path) -> None:
    """A clause's markers (disputed, differs per profile) and the clause list at the top
    of a rules page stay out of the search index."""
    import json

    docs = json.loads((built / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    from fivehundred.site.generator import CLAUSE_ANCHORS

    clauses = [d for d in docs if d["location"].partition("#")[2] in CLAUSE_ANCHORS]
    assert len(clauses) > 30
    marked = [d["location"] for d in clauses if "differs per profile" in d["text"].lower()]
    assert not marked, marked
    assert not [d["location"] for d in clauses if d["text"].lower().startswith("<p>disputed")]
    rules = [d for d in docs if d["location"].startswith("rules/")]
    page = next(d for d in rules if d["location"] == "rules/the-joker-without-trumps/")
    assert "Leading a suitless joker" not in page["text"]


def test_no_seed_in_navigation_or_headings_and_each_source_has_its_page(built: Path) -> None:
    """Players' words: the sources are named as a player knows them, each described on a
    page of its own; "seed" (the suite's word for a source document) stays out of the
    navigation and the headings."""
    pages = [p for p in built.rglob("index.html") if "scenarios" not in p.parts[-3:-1]]
    pages.append(next((built / "scenarios").glob("*/index.html")))
    found = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for tag in re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", text, re.S):
            if "seed" in re.sub(r"<[^>]+>", "", tag).lower():
                found.append(f"{page.relative_to(built)}: heading {tag[:60]}")
        for item in re.findall(r'<span class="md-ellipsis">(.*?)</span>', text, re.S):
            if "seed" in item.lower():
                found.append(f"{page.relative_to(built)}: navigation {item.strip()[:60]}")
    assert not found, found[:5]
    index = (built / "sources" / "index.html").read_text(encoding="utf-8")
    for name, page in (
        ("The Australian rules", "australian-rules"),
        ("The American rules with Nullo", "american-rules"),
        ("The three-handed game", "three-handed-game"),
        ("The Polish variations", "polish-variations"),
    ):
        assert f'href="{page}/">{name}</a>' in index
        assert "<h1" in (built / "sources" / page / "index.html").read_text(encoding="utf-8")


def test_drawings_reach_the_page_as_written(built: Path) -> None:
    """Every drawn table is set aside from Markdown and put back whole: never wrapped in a
    paragraph (invalid HTML the browser would split), never left as a placeholder."""
    pages = ["disputes", "rules/the-deal", "rules/the-auction", "scenarios/4EDJ"]
    pages += [f"ru/{name}" for name in pages]  # (a Russian page's source is the-deal.ru.md)
    for name in pages:
        text = (built / name / "index.html").read_text(encoding="utf-8")
        assert 'class="fh-stepper' in text, name
        assert '<p><div class="fh-stepper' not in text, name
        assert "<!--fh-raw-" not in text, name
    left = [
        str(page.relative_to(built))
        for page in built.rglob("index.html")
        if "<!--fh-raw-" in (text := page.read_text(encoding="utf-8")) or "<!--fh-table-" in text
    ]
    assert left == [], "pages with a generated block left as its placeholder"
