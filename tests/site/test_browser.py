"""The built site in a real browser: Debian's Chromium, driven by Playwright for Python.

The site is built once (``mkdocs build --strict``) and served from 127.0.0.1 by an
``http.server`` thread; nothing is fetched from the network and no browser is
downloaded (Playwright only drives a Chromium that apt installed).  The browser is
Debian's ``chromium-headless-shell``: Chromium's own renderer, Blink, in the build made
for driving without a window, which is what Playwright itself runs for headless
Chromium.  Against the full ``chromium`` (used when the shell is missing, outside CI) it
starts in a tenth of the CPU and loads a page in about three quarters of it.

The checks are what a new reader tries first: the cards have red and black suits, the
navigation leads somewhere, search finds a rule, a scenario page shows its file and
links back to its clause, a phone (390 px) never scrolls sideways and shows every card
of a hand, the printable rulebook fits in 20 A4 pages, and a glossary term shows its
tooltip on hover; no page raises a script error.  Screenshots go to
``build/screenshots/``.

Marked ``slow``.  Outside CI it is skipped when Playwright or Chromium is missing; in CI
(``CI`` set, as ``.ci/run`` runs) a missing browser is a failure, never a silent skip.
Setup::

    apt-get install -y chromium-headless-shell
    pip install -e '.[browser]'
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import re
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import pytest

REPO = Path(__file__).resolve().parents[2]
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")
FULL_CHROMIUM = Path("/usr/bin/chromium")


def _chromium() -> Path:
    """``FIVEHUNDRED_CHROMIUM`` if set; else Debian's headless shell, which CI installs;
    else, outside CI only, the full browser."""
    if "FIVEHUNDRED_CHROMIUM" in os.environ:
        return Path(os.environ["FIVEHUNDRED_CHROMIUM"])
    if HEADLESS_SHELL.is_file() or os.environ.get("CI"):
        return HEADLESS_SHELL
    return FULL_CHROMIUM


CHROMIUM = _chromium()
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = REPO / "build" / "screenshots"
PHONE = {"width": 390, "height": 844}
MAX_PRINTED_PAGES = 20

pytestmark = pytest.mark.slow

if os.environ.get("CI"):
    assert CHROMIUM.is_file(), f"CI runs the browser test: no Chromium at {CHROMIUM}"
elif not CHROMIUM.is_file():
    pytest.skip(f"no Chromium at {CHROMIUM}", allow_module_level=True)


def _playwright() -> Any:
    """Playwright's API, imported when a browser test runs (not when the fast tier merely
    collects this module): in CI a missing Playwright fails, elsewhere it skips."""
    if os.environ.get("CI"):
        import playwright.sync_api

        return playwright.sync_api
    return pytest.importorskip("playwright.sync_api")


SEARCH_INDEX = "/search/search_index.json"
"""Material's search index, which every page load fetches and indexes in a worker: about
a third of a second of Chromium's CPU a load for 844 pages' text.  The server answers it
with an index of no pages (the real index's configuration, no documents), except while
the search test runs (:func:`searching`); no other test searches.  Refusing the request
instead is not the page a reader gets: Material's scripts stop at the failed fetch and
never set up the glossary's tooltips, among others (so it went unseen for a day; a
script error on any page now fails the test that loaded it, see :func:`_no_page_errors`)."""


class _SiteServer(ThreadingHTTPServer):
    def __init__(self, folder: Path) -> None:
        super().__init__(("127.0.0.1", 0), functools.partial(_SiteHandler, directory=str(folder)))
        self.full_index = (folder / SEARCH_INDEX.lstrip("/")).read_bytes()
        config = json.loads(self.full_index)["config"]
        self.empty_index = json.dumps({"config": config, "docs": []}).encode("utf-8")
        self.index = self.empty_index


class _SiteHandler(SimpleHTTPRequestHandler):
    server: _SiteServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if urlsplit(self.path).path != SEARCH_INDEX:
            super().do_GET()
            return
        body = self.server.index
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")  # which index depends on the test
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def site_server(built_site: Path) -> Iterator[_SiteServer]:
    server = _SiteServer(built_site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def base_url(site_server: _SiteServer) -> str:
    return f"http://127.0.0.1:{site_server.server_address[1]}/"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with _playwright().sync_playwright() as p:
        instance = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield instance
        finally:
            instance.close()


class _Tab(NamedTuple):
    page: Any
    errors: list[str]
    """Script errors the page raised since they were last checked."""


def _tab(browser: Any, **options: Any) -> Iterator[_Tab]:
    context = browser.new_context(**options)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        yield _Tab(page, errors)
    finally:
        context.close()


def _no_page_errors(tab: _Tab) -> None:
    """No page loaded since the last check raised a script error (an uncaught exception
    stops the rest of Material's set-up, which the tests would then not be looking at)."""
    errors = list(tab.errors)
    tab.errors.clear()
    assert not errors, f"script errors: {errors[:3]}"


# One tab per kind of screen for the whole module, each test starting with its own
# goto: a fresh context per test costs Chromium a page's start-up each, with nothing
# a test leaves behind that the next could read (print emulation is undone after it).
@pytest.fixture(scope="module")
def _desktop_tab(browser: Any) -> Iterator[_Tab]:
    yield from _tab(browser, viewport={"width": 1280, "height": 900})


@pytest.fixture(scope="module")
def _phone_tab(browser: Any) -> Iterator[_Tab]:
    yield from _tab(browser, viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)


@pytest.fixture
def page(_desktop_tab: _Tab) -> Iterator[Any]:
    yield _desktop_tab.page
    _desktop_tab.page.emulate_media(media="null")
    _no_page_errors(_desktop_tab)


@pytest.fixture
def searching(page: Any, site_server: _SiteServer) -> Iterator[Any]:
    """The desktop tab with the whole search index served, as to a reader."""
    site_server.index = site_server.full_index
    try:
        yield page
    finally:
        site_server.index = site_server.empty_index


def _is_red(rgb: str) -> bool:
    r, g, b = (int(x) for x in re.findall(r"\d+", rgb)[:3])
    return r > 150 and g < 100 and b < 100


RULE_PAGES = [
    "rules/deck-and-ranks/",
    "rules/the-deal/",
    "rules/the-auction/",
    "rules/kitty-and-start-of-play/",
    "rules/following-and-winning/",
    "rules/the-joker-without-trumps/",
    "rules/contract-values-and-scoring/",
    "rules/end-of-the-game/",
]
FIRST_RULE_PAGE = RULE_PAGES[0]
"""Where the suits' colours and a glossary tooltip are looked at: the deck's own page."""


_FADED_IN = """() => {
    const tip = document.querySelector('.md-tooltip2--active');
    return tip !== null && getComputedStyle(tip).opacity === '1';
  }"""


@pytest.fixture(scope="module")
def rule_survey(_desktop_tab: _Tab, base_url: str) -> dict[str, dict[str, Any]]:
    """Each rules page opened once on the desktop, with what the desktop checks of them
    read: where each clause heading starts, and on the first page the suits' colours and
    a glossary term's title and the tooltip shown when it is hovered.  One load a page,
    as :func:`phone_survey` does for the phone (three tests loaded the first page each)."""
    page = _desktop_tab.page
    survey: dict[str, dict[str, Any]] = {}
    for path in RULE_PAGES:
        page.goto(base_url + path)
        seen: dict[str, Any] = {
            "tops": page.eval_on_selector_all(
                "article h2[id]", "els => els.map(e => [e.id, e.getBoundingClientRect().top])"
            )
        }
        if path == FIRST_RULE_PAGE:
            seen["red"] = page.eval_on_selector_all(
                ".fh-suit.fh-red", "els => els.map(e => getComputedStyle(e).color)"
            )
            seen["black"] = page.eval_on_selector_all(
                ".fh-suit:not(.fh-red)", "els => els.map(e => getComputedStyle(e).color)"
            )
            seen["text"] = page.inner_text("article")
            page.screenshot(path=str(SHOTS / "rule-page.png"))
            abbr = page.locator("article abbr[title]", has_text="left bower").first
            seen["tooltips"] = abbr.count()
            if seen["tooltips"]:
                seen["title"] = abbr.get_attribute("title") or ""
                abbr.scroll_into_view_if_needed()
                abbr.hover()
                # Material's JavaScript turns the title into a tooltip of its own, which
                # fades in on hover
                shown = page.locator(".md-tooltip2--active .md-tooltip2__inner")
                try:
                    shown.wait_for(state="visible", timeout=10_000)
                    page.wait_for_function(_FADED_IN, timeout=10_000)
                    seen["tooltip"] = shown.inner_text()
                except _playwright().TimeoutError:
                    seen["tooltip"] = None  # the tooltip test says so; the others go on
                page.screenshot(path=str(SHOTS / "tooltip.png"))
        survey[path] = seen
    _no_page_errors(_desktop_tab)
    return survey


def test_rule_page_draws_red_and_black_suits(rule_survey: dict[str, dict[str, Any]]) -> None:
    seen = rule_survey[FIRST_RULE_PAGE]
    assert seen["red"] and all(_is_red(c) for c in seen["red"])
    assert seen["black"] and not any(_is_red(c) for c in seen["black"])
    assert "♠" in seen["text"] and "♥" in seen["text"]


def test_navigation_leads_from_home_to_a_rule(page: Any, base_url: str) -> None:
    page.goto(base_url)
    page.click("article a[href$='rules/the-auction/']")
    page.wait_for_url(re.compile(r".*/rules/the-auction/$"))
    assert page.locator("article h1").first.inner_text().startswith("The auction")
    page.locator(".md-footer__link--next").click()
    page.wait_for_url(re.compile(r".*/rules/kitty-and-start-of-play/$"))


def test_search_finds_the_left_bower(searching: Any, base_url: str) -> None:
    page = searching
    page.goto(base_url + "rules/")
    box = page.locator("input.md-search__input")
    box.click()
    box.fill("left bower")
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=20_000)
    text = page.locator(".md-search-result").inner_text().lower()
    assert "left bower" in text
    page.screenshot(path=str(SHOTS / "search.png"))
    links = page.eval_on_selector_all(
        ".md-search-result__link", "els => els.map(e => e.getAttribute('href'))"
    )
    assert any("rules/" in (href or "") for href in links), links


def _search(page: Any, base_url: str, query: str) -> tuple[str, list[str]]:
    """The result count line and the pages found for a query."""
    page.goto(base_url + "rules/")
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    meta = page.locator(".md-search-result__meta")
    page.wait_for_function(
        "() => /\\d+ matching/.test(document.querySelector('.md-search-result__meta')"
        "?.innerText || '')",
        timeout=20_000,
    )
    links = page.eval_on_selector_all(
        ".md-search-result__item > .md-search-result__link",
        "els => els.map(e => e.getAttribute('href'))",
    )
    # the highlight parameter (?h=…) names the words matched, which differ by design
    pages = [re.sub(r"\?h=[^#]*", "", href or "") for href in links]
    return meta.inner_text().strip(), sorted(pages)


def test_search_ignores_accents(searching: Any, base_url: str) -> None:
    """Typed with or without its accent, misère finds the same pages, the clauses among
    them; the same for a word written without one (the accented form is not invented)."""
    plain = _search(searching, base_url, "misere")
    accented = _search(searching, base_url, "misère")
    searching.screenshot(path=str(SHOTS / "search-misere.png"))
    assert plain == accented
    assert any("rules/the-auction/" in href for href in plain[1]), plain
    assert _search(searching, base_url, "bower") == _search(searching, base_url, "bòwer")


def test_a_scenario_page_shows_its_file_and_links_back(page: Any, base_url: str) -> None:
    page.goto(base_url + "scenarios/")
    first = page.locator("article table a[href$='/']").first
    scenario_id = first.inner_text().strip()
    first.click()
    page.wait_for_url(re.compile(rf".*/scenarios/{scenario_id}/$"))
    page.locator("summary", has_text="The scenario file").click()
    code = page.locator("details pre").last
    assert code.is_visible()
    assert f"id: {scenario_id}" in code.inner_text()
    link = page.locator("article a[href*='/rules/']").first
    href = link.get_attribute("href") or ""
    assert "#" in href
    link.click()
    anchor = href.split("#", 1)[1]
    page.wait_for_url(re.compile(rf".*#{re.escape(anchor)}$"))
    assert page.locator(f"[id='{anchor}']").is_visible()
    page.screenshot(path=str(SHOTS / "scenario-clause.png"))


def test_a_disputed_clause_shows_its_markers_and_they_lead_somewhere(
    page: Any, base_url: str
) -> None:
    page.goto(base_url + "rules/the-auction/")
    flags = page.locator("[id='misere-needs-seven'] + .fh-flags")
    assert flags.is_visible()
    disputed = flags.locator(".fh-disputed")
    differs = flags.locator(".fh-differs")
    assert disputed.is_visible() and differs.is_visible()
    assert disputed.inner_text().strip().lower() == "disputed"
    assert differs.inner_text().strip().lower() == "differs per profile"
    page.screenshot(path=str(SHOTS / "disputed-clause.png"))
    # folded, the markers take one line; unfolded, they show their links
    assert flags.locator("summary").bounding_box()["height"] < 2 * 16
    flags.locator("summary").click()
    # a toggle named under "differs per profile" leads to its section of the variants page
    flags.locator("a", has_text="australian-4+misere-without-seven").click()
    page.wait_for_url(re.compile(r".*/profiles/variants/#misere-without-seven$"))
    assert page.locator("[id='misere-without-seven']").is_visible()
    page.go_back()
    # the dispute link leads to the dispute's entry on the disputes page
    if not flags.evaluate("e => e.open"):
        flags.locator("summary").click()
    link = flags.locator("a[href*='disputes/#misere-needs-seven']")
    assert link.count() == 1
    link.click()
    page.wait_for_url(re.compile(r".*/disputes/#misere-needs-seven$"))
    entry = page.locator("[id='misere-needs-seven']")
    assert entry.is_visible()
    assert "misère" in entry.inner_text().lower()


def test_a_clause_is_one_tap_from_the_top_of_its_page_on_a_phone(
    _phone_tab: _Tab, base_url: str
) -> None:
    """The joker page's question "can the joker lead in no trumps?": its clause is a tap
    on the list under the page's title, within the first screen."""
    phone = _phone_tab.page
    phone.goto(base_url + "rules/the-joker-without-trumps/")
    link = phone.locator(".fh-clauses a[href='#joker-lead']")
    assert link.is_visible()
    assert link.bounding_box()["y"] < PHONE["height"]
    link.click()
    phone.wait_for_url(re.compile(r".*#joker-lead$"))
    top = phone.locator("[id='joker-lead']").bounding_box()
    assert top is not None and 0 <= top["y"] < PHONE["height"] / 2
    # markers under a heading take one line at most before the clause's first sentence
    heights = phone.eval_on_selector_all(
        "details.fh-flags > summary", "els => els.map(e => e.getBoundingClientRect().height)"
    )
    assert heights and max(heights) <= 1.8 * 16, heights
    _no_page_errors(_phone_tab)


def test_the_conformance_page_shows_a_column_per_report(page: Any, base_url: str) -> None:
    page.goto(base_url + "conformance/")
    header = page.locator(".fh-results table thead").inner_text()
    assert "fivehundred-reference" in header and "independent-js" in header
    assert page.locator(".fh-results table tbody tr").count() >= 34
    first = page.locator("article a[href$='reference.json']").first
    href = first.get_attribute("href") or ""
    response = page.request.get(base_url + "conformance/" + href)
    assert response.ok and response.json()["implementation"]["name"] == "fivehundred-reference"


def test_every_column_of_the_conformance_matrix_is_in_view_at_1280_px(
    page: Any, base_url: str
) -> None:
    """The desktop tab is 1280 px wide: every report's column of the matrix is within
    the page's view, none cut off behind the table's edge or needing a sideways scroll."""
    page.goto(base_url + "conformance/")
    outside = page.evaluate(
        """() => {
        const table = document.querySelector('.fh-results table');
        let box = table.parentElement;  // the nearest box that clips or scrolls it
        while (box && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
        const edge = Math.min(window.innerWidth, box ? box.getBoundingClientRect().right : 1e9);
        return [...table.querySelectorAll('thead th')]
          .filter(th => th.getBoundingClientRect().right > edge + 1)
          .map(th => th.innerText);
      }"""
    )
    assert outside == []
    page.locator(".fh-results").screenshot(path=str(SHOTS / "conformance-matrix-1280.png"))


DRAWN = "scenarios/4EDJ/"
"""A short scenario drawn and stepped through: N A♠, E 4♥, S 5♠, W 6♠ at the last trick of
6♠ by North; the four cards are played, North wins, and a call after it is refused."""

DRAWN_FULL_DEAL = "scenarios/275K/"
"""A whole deal from the deck: 62 steps, every hand of ten cards drawn on a phone."""


def _seat_cards(stepper: Any, place: int) -> list[str]:
    return [
        t.strip()
        for t in stepper.locator(f".fh-stage .fh-at{place} .fh-hand .fh-card").all_inner_texts()
    ]


def test_a_scenario_page_draws_the_table_and_steps_through_it(page: Any, base_url: str) -> None:
    page.goto(base_url + DRAWN)
    stepper = page.locator(".fh-stepper").first
    stage = stepper.locator(".fh-stage")
    # the seats as they sit, each with its hand
    assert (stage.locator(".fh-at0").get_attribute("aria-label") or "").startswith("North")
    assert (stage.locator(".fh-at3").get_attribute("aria-label") or "").startswith("West")
    assert [_seat_cards(stepper, p) for p in range(4)] == [["A♠"], ["4♥"], ["5♠"], ["6♠"]]
    north, west = stage.locator(".fh-at0").bounding_box(), stage.locator(".fh-at3").bounding_box()
    east, south = stage.locator(".fh-at1").bounding_box(), stage.locator(".fh-at2").bounding_box()
    assert north["y"] < west["y"] < south["y"] and west["x"] < north["x"] < east["x"]
    assert stage.locator(".fh-play").count() == 0
    status = stepper.locator(".fh-status")
    assert stepper.locator(".fh-next").is_visible() and stepper.locator(".fh-prev").is_disabled()
    page.screenshot(path=str(SHOTS / "drawn-start.png"))
    # a card moves from the hand to the trick
    stepper.locator(".fh-next").click()
    assert _seat_cards(stepper, 0) == []
    assert stage.locator(".fh-play").all_inner_texts()[0].split()[:2] == ["N", "A♠"]
    assert "fh-lead" in (stage.locator(".fh-play").first.get_attribute("class") or "")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert status.inner_text().strip() == "Step 4 of 7"
    said = stepper.locator(".fh-said").text_content() or ""  # what a screen reader hears
    assert said.startswith("Step 4 of 7.") and "W plays 6♠" in said and "accepted" in said
    # the completed trick goes to its winner
    assert stage.locator(".fh-play").count() == 4
    assert stage.locator(".fh-play.fh-win .fh-from").inner_text().strip() == "N"
    assert "NS 7" in stage.inner_text()
    assert page.locator("table.fh-steps tbody tr").nth(3).get_attribute("class") == "fh-current"
    page.screenshot(path=str(SHOTS / "drawn-trick-won.png"))
    # a refused action shows its reason; a checkpoint what it checks
    page.keyboard.press("End")
    assert status.inner_text().strip() == "Step 7 of 7"
    assert stepper.locator(".fh-next").is_disabled()
    assert "check" in stage.locator(".fh-caption").inner_text()
    assert "scores" in stage.locator(".fh-caption .fh-checks").inner_text()
    page.keyboard.press("ArrowLeft")
    caption = stage.locator(".fh-caption").inner_text()
    assert "refused" in caption and "deal-over" in caption and "why:" in caption
    page.keyboard.press("Home")
    assert [_seat_cards(stepper, p) for p in range(4)] == [["A♠"], ["4♥"], ["5♠"], ["6♠"]]


_ENTRY_HEIGHTS = """() => [...document.querySelectorAll('article h3[id]')].map(h => {
    let end = h.nextElementSibling;  // the entry runs to its folded box, included
    while (end && !(end.tagName === 'DETAILS')) end = end.nextElementSibling;
    const bottom = end ? end.getBoundingClientRect().bottom : h.getBoundingClientRect().bottom;
    return [h.id, bottom - h.getBoundingClientRect().top];
  })"""


def test_each_dispute_fits_a_phone_screen_or_two(_phone_tab: _Tab, base_url: str) -> None:
    phone = _phone_tab.page
    phone.goto(base_url + "disputes/")
    heights = dict(phone.evaluate(_ENTRY_HEIGHTS))
    assert len(heights) >= 30
    tall = {k: int(v) for k, v in heights.items() if v > 2 * PHONE["height"]}
    assert not tall, tall
    (SHOTS / "phone-dispute-heights.txt").write_text(
        "\n".join(f"{k}\t{int(v)}" for k, v in heights.items()) + "\n", encoding="utf-8"
    )
    _no_page_errors(_phone_tab)


def test_a_worked_example_under_a_clause_steps_through_too(page: Any, base_url: str) -> None:
    """On a rules page, each open example has its own stepper; the arrow keys step the one
    that has the focus."""
    page.goto(base_url + "rules/following-and-winning/")
    steppers = page.locator("details.fh-example[open] .fh-stepper:not(.fh-still)")
    assert steppers.count() >= 1
    first = steppers.first
    status = first.locator(".fh-status")
    before = first.locator(".fh-stage").inner_html()
    first.locator(".fh-next").click()
    assert status.inner_text().startswith("Step 1 of ")
    assert first.locator(".fh-stage").inner_html() != before
    page.keyboard.press("ArrowLeft")  # the focus is on the button inside this stepper
    assert status.inner_text().startswith("Start")


def test_a_whole_deal_is_drawn_on_a_phone_and_reads_without_javascript(
    browser: Any, base_url: str
) -> None:
    for tab in _tab(browser, viewport=PHONE, device_scale_factor=2, java_script_enabled=False):
        tab.page.goto(base_url + DRAWN_FULL_DEAL)
        stepper = tab.page.locator(".fh-stepper").first
        assert not stepper.locator(".fh-controls").is_visible()
        assert [len(_seat_cards(stepper, p)) for p in range(4)] == [10, 10, 10, 10]
        assert tab.page.locator("table.fh-steps tbody tr").count() == 62
        heads = tab.page.eval_on_selector_all(  # each header on one line
            "table.fh-steps th",
            "els => els.map(e => e.getBoundingClientRect().height"
            " / parseFloat(getComputedStyle(e).lineHeight))",
        )
        assert heads and max(heads) < 1.9, heads
        box = stepper.bounding_box()  # (Material's header alone is wider without its script)
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert tab.page.evaluate(_HIDDEN_CARDS) == []
        stepper.screenshot(path=str(SHOTS / "drawn-phone-no-js.png"))


PHONE_PAGES = [
    "",
    "conformance/",
    "profiles/",
    "rules/",
    "rules/deck-and-ranks/",
    "rules/the-deal/",
    "rules/the-auction/",
    "rules/the-joker-without-trumps/",
    "rules/contract-values-and-scoring/",
    "rulebook/",
    "quick-reference/",
    "glossary/",
    "scenarios/",
    DRAWN_FULL_DEAL,
    "scenario-format/",
    "protocol/",
    "write-your-adapter/",
    "limits/",
    "disputes/",
]

_HIDDEN_CARDS = """() => {
    const out = [];
    for (const card of document.querySelectorAll('.fh-hand .fh-card')) {
      // a tab not chosen (the disputes page's answers) is shown by choosing it
      if (card.offsetParent === null && card.closest('.tabbed-block')) continue;
      const r = card.getBoundingClientRect();
      if (r.width === 0 || r.left < 0 || r.right > window.innerWidth) {
        out.push(card.closest('.fh-hand').innerText);
        continue;
      }
      // not clipped by a scrolling or hidden-overflow ancestor
      for (let e = card.parentElement; e; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.overflowX !== 'visible') {
          const b = e.getBoundingClientRect();
          if (r.left < b.left - 1 || r.right > b.right + 1) {
            out.push(card.closest('.fh-hand').innerText);
          }
          break;
        }
      }
    }
    return out;
  }"""


_HIDDEN_COLUMNS = """() => {
    const out = [];
    for (const box of document.querySelectorAll('article *')) {
      const s = getComputedStyle(box);
      if (!['auto', 'scroll', 'hidden'].includes(s.overflowX)) continue;
      const table = box.tagName === 'TABLE' ? box : box.querySelector('table');
      if (!table || box.scrollWidth <= box.clientWidth + 1) continue;
      const edge = Math.min(box.getBoundingClientRect().right, window.innerWidth);
      const hidden = [...table.querySelectorAll('th, td')].filter(
        c => c.getBoundingClientRect().right > edge + 1);
      if (!hidden.length) continue;
      // the cue: a shadow drawn behind a see-through table (cards.css)
      const shadow = s.backgroundImage.includes('gradient');
      const clear = getComputedStyle(table).backgroundColor === 'rgba(0, 0, 0, 0)';
      out.push({head: table.querySelector('th, td').innerText.trim(), cue: shadow && clear,
                id: (table.closest('[id]') || {}).id || ''});
    }
    return out;
  }"""

_WHOLE = """(selectors) => selectors.map(selector => {
    const table = document.querySelector(selector);
    if (!table) return [selector, 'missing'];
    const r = table.getBoundingClientRect();
    const cells = [...table.querySelectorAll('th, td')];
    const out = cells.filter(c => c.getBoundingClientRect().right > window.innerWidth);
    return [selector, out.length ? 'cut' : (r.width > 0 ? 'whole' : 'hidden')];
  })"""

RULE_TABLES = {
    "rules/contract-values-and-scoring/": [
        "#contract-values ~ .md-typeset__scrollwrap table",
    ],
    "rules/the-auction/": ["#bid-order ~ .fh-ladder"],
    "rules/deck-and-ranks/": ["#trump-order ~ .md-typeset__scrollwrap table"],
    "quick-reference/": ["#qr-ladder ~ .md-typeset__scrollwrap table"],
}
"""The tables a player looks things up in, shown whole on a phone: the Avondale table,
the bid ladder (the auction's and the quick reference's) and the trump order."""


@pytest.fixture(scope="module")
def phone_survey(_phone_tab: _Tab, base_url: str) -> dict[str, dict[str, Any]]:
    """Each phone page opened once, every folded box unfolded, with what the phone tests
    check: the page's width, and the cards of its hands out of sight and counted.  (A page
    load is most of a browser test's cost; the two tests used to load five pages twice.)"""
    phone = _phone_tab.page
    survey = {}
    for path in PHONE_PAGES:
        phone.goto(base_url + path)
        _open_all_details(phone)
        survey[path] = {
            "width": phone.evaluate("document.documentElement.scrollWidth"),
            "hidden": phone.evaluate(_HIDDEN_CARDS),
            "cards": phone.locator(".fh-hand .fh-card").count(),
            "columns": phone.evaluate(_HIDDEN_COLUMNS),
        }
        if path in RULE_TABLES:
            survey[path]["whole"] = phone.evaluate(_WHOLE, RULE_TABLES[path])
        if path == "rules/the-auction/":
            phone.screenshot(path=str(SHOTS / "phone-auction.png"))
        if path == "rules/the-joker-without-trumps/":
            phone.locator("[id='joker-nomination']").scroll_into_view_if_needed()
            phone.screenshot(path=str(SHOTS / "phone-joker-hands.png"))
    _no_page_errors(_phone_tab)
    return survey


def _open_all_details(page: Any) -> None:
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")


def test_no_page_scrolls_sideways_on_a_phone(phone_survey: dict[str, dict[str, Any]]) -> None:
    wide = [f"/{p}: {s['width']}px" for p, s in phone_survey.items() if s["width"] > PHONE["width"]]
    assert not wide, f"pages wider than {PHONE['width']}px: {wide}"


def test_every_card_of_a_hand_is_visible_on_a_phone(
    phone_survey: dict[str, dict[str, Any]],
) -> None:
    hidden = {p: s["hidden"][:3] for p, s in phone_survey.items() if s["hidden"]}
    assert not hidden, f"cards out of sight: {hidden}"
    # the pages made of hands still show them (the other pages are checked all the same)
    dealt = ("rules/the-deal/", "rules/the-joker-without-trumps/")
    assert sum(phone_survey[p]["cards"] for p in dealt) > 100


def test_no_table_hides_columns_without_a_cue_on_a_phone(
    phone_survey: dict[str, dict[str, Any]],
) -> None:
    uncued = {p: [c for c in s["columns"] if not c["cue"]] for p, s in phone_survey.items()}
    assert not any(uncued.values()), f"columns out of sight with no cue: {uncued}"
    report = [
        f"/{p}\t{c['head']}\t{c['id']}" for p, s in phone_survey.items() for c in s["columns"]
    ]
    (SHOTS / "phone-scrolling-tables.txt").write_text("\n".join(report) + "\n", encoding="utf-8")


def test_the_rule_tables_show_whole_on_a_phone(phone_survey: dict[str, dict[str, Any]]) -> None:
    seen = {p: phone_survey[p]["whole"] for p in RULE_TABLES}
    assert all(state == "whole" for found in seen.values() for _, state in found), seen


def _printed_pages(page: Any, path: str, name: str) -> int:
    page.goto(path)
    page.emulate_media(media="print")
    pdf: bytes = page.pdf(format="A4", print_background=False)
    (SHOTS / name).write_bytes(pdf)
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) or max(
        (int(n) for n in re.findall(rb"/Count\s+(\d+)", pdf)), default=0
    )


def test_the_rulebook_prints_on_at_most_20_pages(page: Any, base_url: str) -> None:
    pages = _printed_pages(page, base_url + "rulebook/", "rulebook.pdf")
    assert 0 < pages <= MAX_PRINTED_PAGES, f"the rulebook prints on {pages} pages"
    disputes = _printed_pages(page, base_url + "disputes/", "disputes.pdf")
    page.emulate_media(media="null")
    sheet = _printed_pages(page, base_url + "quick-reference/", "quick-reference.pdf")
    (SHOTS / "printed-pages.txt").write_text(
        f"rulebook\t{pages}\nquick-reference\t{sheet}\ndisputes\t{disputes}\n",
        encoding="utf-8",
    )
    assert 0 < disputes <= MAX_PRINTED_PAGES, f"the disputes page prints on {disputes} pages"
    assert sheet == 1, f"the quick reference prints on {sheet} pages"
    # every column of the bid ladder on the sheet (the page is still emulating print)
    columns = page.eval_on_selector_all(
        "#qr-ladder ~ .md-typeset__scrollwrap thead th",
        """els => els.map(e => {
            const r = e.getBoundingClientRect(), box = e.closest('.md-typeset__scrollwrap');
            return r.width > 0 && r.right <= box.getBoundingClientRect().right + 1
              && box.scrollWidth <= box.clientWidth + 1;
        })""",
    )
    assert columns == [True] * 6, columns


def test_glossary_terms_have_tooltips(rule_survey: dict[str, dict[str, Any]]) -> None:
    seen = rule_survey[FIRST_RULE_PAGE]
    assert seen["tooltips"] == 1
    assert "jack" in seen["title"].lower()
    assert seen["tooltip"] is not None, "hovering the term showed no tooltip within 10 s"
    assert seen["tooltip"].strip() == seen["title"].strip()


def test_clauses_are_about_a_screen_apart(rule_survey: dict[str, dict[str, Any]]) -> None:
    """With the examples as the site folds them, the distance from one clause heading to
    the next (text, one open example, the folded box) stays within two screens; the
    figures are written to build/screenshots/clause-gaps.txt."""
    report = []
    worst = 0
    for path in RULE_PAGES:
        for (anchor, top), (_, following) in itertools.pairwise(rule_survey[path]["tops"]):
            gap = int(following - top)
            worst = max(worst, gap)
            report.append(f"{path}#{anchor}\t{gap}")
    (SHOTS / "clause-gaps.txt").write_text("\n".join(report) + "\n", encoding="utf-8")
    assert worst <= 2 * 900, f"a clause runs {worst}px before the next one"
