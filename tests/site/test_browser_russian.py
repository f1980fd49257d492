"""The Russian edition in a real browser: the language switch, search and print.

What a Russian reader does first: switch a rules page and a scenario page to Russian
and back (the switch must land on the same page, not on the home page), search for
"мизер" and land on the misère clauses, and print the Russian rulebook (at most 20 A4
pages) and the quick reference (one page).  The browser, the server and the tabs are
those of ``test_browser.py`` (same Chromium, same rules for skipping and for CI); its
fixtures are imported here so the two files share one way of driving the browser.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_browser import (  # the fixtures, shared with the English browser test
    MAX_PRINTED_PAGES,
    SHOTS,
    _desktop_tab,
    _printed_pages,
    base_url,
    browser,
    page,
    searching,
    site_server,
)

pytestmark = pytest.mark.slow

__all__ = ["_desktop_tab", "base_url", "browser", "page", "searching", "site_server"]


def _switch(page: Any, language: str) -> None:
    """Choose ``language`` in the header's language menu, as a reader does (hover, click)."""
    page.locator(".md-header__option .md-select").first.hover()
    link = page.locator(f".md-select__link[hreflang='{language}']").first
    link.wait_for(state="visible", timeout=10_000)
    link.click()


def test_a_rules_page_switches_to_russian_and_back(page: Any, base_url: str) -> None:
    page.goto(base_url + "rules/the-auction/")
    _switch(page, "ru")
    page.wait_for_url(re.compile(r".*/ru/rules/the-auction/$"))
    assert page.locator("article h1").first.inner_text().startswith("Торговля")
    # the clause keeps its number and its anchor in Russian
    heading = page.locator("[id='misere-needs-seven']")
    assert heading.inner_text().startswith("11. Мизер")
    assert page.locator("html").get_attribute("lang") == "ru"
    page.screenshot(path=str(SHOTS / "ru-rule-page.png"))
    _switch(page, "en")
    page.wait_for_url(re.compile(r".*127\.0\.0\.1:\d+/rules/the-auction/$"))
    assert page.locator("article h1").first.inner_text().startswith("The auction")


def test_a_scenario_page_switches_to_russian(page: Any, base_url: str) -> None:
    page.goto(base_url + "scenarios/")
    first = page.locator("article table a[href$='/']").first
    scenario_id = first.inner_text().strip()
    first.click()
    page.wait_for_url(re.compile(rf".*/scenarios/{scenario_id}/$"))
    _switch(page, "ru")
    page.wait_for_url(re.compile(rf".*/ru/scenarios/{scenario_id}/$"))
    article = page.locator("article").inner_text()
    assert "Начальная позиция" in article
    assert "Ходы и ожидаемый результат" in article
    assert "английский текст набора" in article  # the page says which text stays English
    # its clause links lead into the Russian rules
    link = page.locator("article a[href*='/rules/']").first
    link.click()
    page.wait_for_url(re.compile(r".*/ru/rules/.*#.+$"))
    page.screenshot(path=str(SHOTS / "ru-scenario-clause.png"))


def test_search_finds_the_misere_clauses_in_russian(searching: Any, base_url: str) -> None:
    page = searching
    page.goto(base_url + "ru/rules/")
    box = page.locator("input.md-search__input")
    box.click()
    box.fill("мизер")
    page.locator(".md-search-result__item").first.wait_for(timeout=20_000)
    text = page.locator(".md-search-result").inner_text().lower()
    assert "мизер" in text
    page.screenshot(path=str(SHOTS / "ru-search.png"))
    links = page.eval_on_selector_all(
        ".md-search-result__link", "els => els.map(e => e.getAttribute('href') || '')"
    )
    clauses = [h for h in links if "/ru/rules/" in h and "#" in h]
    assert any(h.endswith("#misere-needs-seven") for h in clauses), links


def test_the_russian_rulebook_and_quick_reference_print(page: Any, base_url: str) -> None:
    pages = _printed_pages(page, base_url + "ru/rulebook/", "ru-rulebook.pdf")
    sheet = _printed_pages(page, base_url + "ru/quick-reference/", "ru-quick-reference.pdf")
    (SHOTS / "ru-printed-pages.txt").write_text(
        f"rulebook\t{pages}\nquick-reference\t{sheet}\n", encoding="utf-8"
    )
    assert 0 < pages <= MAX_PRINTED_PAGES, f"the Russian rulebook prints on {pages} pages"
    assert sheet == 1, f"the Russian quick reference prints on {sheet} pages"
