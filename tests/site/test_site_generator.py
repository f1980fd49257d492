"""The site generator's text transformations, without building a site."""

from __future__ import annotations

import re
from pathlib import Path

from fivehundred.engine import SUIT_BIDS, Strain, get_profile
from fivehundred.scenarios import CallStep, PlayStep
from fivehundred.scenarios.format.rulings import RULINGS
from fivehundred.scenarios.loading.corpus import load_corpus
from fivehundred.site.generator import (
    CLAUSE_INDEX_MARKER,
    SiteModel,
    anchored_headings,
    card_html,
    fill_markers,
    hands_lines,
    inject_examples,
    rewrite_repository_links,
    rulebook_page,
    step_html,
)

DOCS = Path(__file__).resolve().parents[2] / "site"


def test_a_glossary_mark_stays_at_the_first_mention_in_each_clause() -> None:
    from fivehundred.site.glossary_marks import first_mentions

    kitty, nt = '<abbr title="The kitty">kitty</abbr>', '<abbr title="No trumps">NT</abbr>'
    html = (
        f"<h1>Page</h1><p>{kitty} and {kitty}, {nt}</p>"
        f'<h2 id="a">A</h2><p>{nt} then {nt} and {kitty}</p><h3>sub</h3><p>{kitty}</p>'
        f'<h2 id="b">B {kitty}</h2><p>{kitty}</p>'
    )
    assert first_mentions(html) == (
        f"<h1>Page</h1><p>{kitty} and kitty, {nt}</p>"
        f'<h2 id="a">A</h2><p>{nt} then NT and {kitty}</p><h3>sub</h3><p>kitty</p>'
        f'<h2 id="b">B {kitty}</h2><p>kitty</p>'
    )
    assert first_mentions(first_mentions(html)) == first_mentions(html)
    assert first_mentions("<p>no marks</p>") == "<p>no marks</p>"


def _model(page: str = "rules/all.md") -> tuple[SiteModel, str]:
    text = "# All\n\n" + "\n".join(
        f"## {r.number}. {r.title} {{#{r.slug}}}\n\nText of {r.slug}.\n" for r in RULINGS
    )
    text += "\n## Worked {#worked-example}\n\nThe example.\n"
    return SiteModel.build(load_corpus().scenarios, {page: text}), text


def test_headings_inside_code_fences_are_not_clauses() -> None:
    text = "## Real {#deck}\n\n```yaml\n## Fake {#trump-order}\n```\n\n### Also {#plain-order}\n"
    assert [(h.level, h.anchor) for h in anchored_headings(text)] == [
        (2, "deck"),
        (3, "plain-order"),
    ]


def test_a_complete_rules_text_has_no_problems() -> None:
    model, _ = _model()
    assert model.problems == []


def test_missing_clauses_and_wrong_numbers_are_reported() -> None:
    scenarios = load_corpus().scenarios
    model = SiteModel.build(scenarios, {"rules/x.md": "## 7. The deck {#deck}\n"})
    assert any("carries number 7" in p for p in model.problems)
    assert any("{#trump-order}" in p for p in model.problems)
    assert any("which no rules page defines" in p for p in model.problems)


def test_examples_go_at_the_end_of_the_clause_or_at_the_marker() -> None:
    model, text = _model()
    out = inject_examples(text, "rules/all.md", model)
    deck = out.index("Text of deck.")
    trump = out.index("{#trump-order}")
    cited = next(s for s in model.scenarios if s.rules[0] == "deck")
    assert deck < out.index(f"Example {cited.id} ·") < trump
    marked = text.replace("Text of deck.", "Before.\n\n<!-- examples -->\n\nAfter.")
    out = inject_examples(marked, "rules/all.md", model)
    assert out.index("Before.") < out.index(f"Example {cited.id} ·") < out.index("After.")
    assert "<!-- examples -->" not in out


def test_links_out_of_the_docs_point_at_published_copies_or_lose_the_link() -> None:
    text = "[a](../schema/a.json) [b](../adapters/x/) [c](other.md#k) [d](https://e.org/)"
    out = rewrite_repository_links(text, "protocol.md", "site", {"schema/a.json": "schema/a.json"})
    assert out == "[a](schema/a.json) b [c](other.md#k) [d](https://e.org/)"
    out = rewrite_repository_links(text, "protocol.md", "site", {}, "https://forge.example/p")
    assert "(https://forge.example/p/tree/HEAD/adapters/x)" in out


def test_markers_are_filled() -> None:
    model, _ = _model()
    out = fill_markers(f"x\n{CLAUSE_INDEX_MARKER}\n", "rules/all.md", model)
    assert "[1. The 43-card deck](all.md#deck)" in out


def test_cards_and_steps_read_as_at_the_terminal() -> None:
    assert card_html("10H") == '<span class="fh-card fh-red">10♥</span>'
    assert card_html("JK") == '<span class="fh-card fh-joker">Joker</span>'
    step = PlayStep("W", "JK", "D")
    assert step_html(step) == (
        'W leads <span class="fh-card fh-joker">Joker</span> naming '
        '<span class="fh-suit fh-red">♦</span>'
    )
    assert "bids <span" in step_html(CallStep("N", "7H"))
    assert step_html(CallStep("E", "MIS")) == "E bids misère"
    assert step_html(CallStep("E", "MIS"), "ru") == "E заказывает мизер"
    assert card_html("JK", "ru") == '<span class="fh-card fh-joker">Джокер</span>'


def _told(step: object) -> str:
    """A step as ``fivehundred show`` tells it (``narration.step_parts``), in plain text."""
    from fivehundred.scenarios.derived.narration import (
        CallPart,
        CardPart,
        CardsPart,
        SuitPart,
        step_parts,
    )

    out = []
    for part in step_parts(step):  # type: ignore[arg-type]
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, CardPart | CallPart):
            out.append(f"[{part.token}]")
        elif isinstance(part, SuitPart):
            out.append(f"[{part.letter}]")
        elif isinstance(part, CardsPart):
            out.append(f"[{' '.join(sorted(part.tokens))}]")
    return "".join(out)


def test_the_site_tells_every_step_of_the_corpus_in_the_terminal_s_words() -> None:
    """The site's English sentences (``say.*`` labels) are narration's, for every step
    kind the corpus holds: the terminal and the site never tell one step two ways."""
    from fivehundred.scenarios import ActionStep, DealResultStep, DealStep
    from fivehundred.site import scenario_parts

    def token(kind: str):  # type: ignore[no-untyped-def]
        return lambda t, *args, **kwargs: f"[{t}]"

    def tokens(cards, *args, **kwargs):  # type: ignore[no-untyped-def]
        return f"[{' '.join(sorted(cards))}]"

    originals = {n: getattr(scenario_parts, n) for n in ("card_html", "call_html", "suit_html")}
    originals["cards_html"] = scenario_parts.cards_html
    kinds: set[str] = set()
    try:
        for name in ("card_html", "call_html", "suit_html"):
            setattr(scenario_parts, name, token(name))
        scenario_parts.cards_html = tokens  # type: ignore[assignment]
        for scenario in load_corpus().scenarios:
            for step in scenario.steps:
                if isinstance(step, ActionStep | DealStep | DealResultStep):
                    kinds.add(type(step).__name__)
                    assert step_html(step) == _told(step), scenario.id
    finally:
        for name, function in originals.items():
            setattr(scenario_parts, name, function)
    assert len(kinds) >= 7, kinds


def _cells(line: str) -> list[str]:
    cells = line.strip().strip("|").split("|")
    return [re.sub(r"<[^>]+>|\*\*", "", c).strip() for c in cells]


def test_the_ladder_written_in_the_rules_is_the_engine_s() -> None:
    """The hand-written ladder with values must say what the engine does."""
    text = (DOCS / "rules" / "the-auction.md").read_text(encoding="utf-8")
    block = text[text.index('"The ladder with values') :].split("\n\n")[0]
    written: dict[int, tuple[str, int]] = {}
    for line in block.splitlines()[3:]:
        cells = _cells(line)
        for start in (0, 4):
            if len(cells) > start + 2 and cells[start].isdigit():
                written[int(cells[start])] = (cells[start + 1].lower(), int(cells[start + 2]))
    profile = get_profile(None)
    expected = {
        i + 1: (bid.display.lower(), profile.bid_values[bid])
        for i, bid in enumerate(profile.bid_order)
    }
    assert written == expected


def test_the_avondale_table_written_in_the_rules_is_the_engine_s() -> None:
    text = (DOCS / "rules" / "contract-values-and-scoring.md").read_text(encoding="utf-8")
    profile = get_profile(None)
    rows = [_cells(line) for line in text.splitlines() if re.match(r"\| \*\*\d+\*\* \|", line)]
    assert len(rows) == 5
    for cells in rows:
        level = int(cells[0])
        for strain, value in zip(Strain, cells[1:], strict=True):
            assert int(value) == profile.bid_values[SUIT_BIDS[(level, strain)]]


def test_the_rulebook_is_the_rules_pages_without_boxes_or_examples() -> None:
    pages = [
        (
            "rules/a.md",
            "# Page A\n\nIntro.\n\n<!-- rulebook:skip -->\n## Site only\n\nGone.\n"
            "<!-- rulebook:end-skip -->\n## 1. One {#deck}\n\nSee [two](b.md#trump-order), "
            "[B](b.md), [here](#deck) and [the protocol](../protocol.md).\n\n"
            '??? info "Elsewhere"\n    Folded.\n\n    More folded.\n\nKept.\n\n'
            '!!! tip "In practice"\n    Kept too.\n',
        ),
        ("rules/b.md", "# Page B\n\n## 2. Two {#trump-order}\n\n<!-- examples -->\nText.\n"),
    ]
    out = rulebook_page(pages)
    assert "## Page A {#page-a}" in out and "## Page B {#page-b}" in out
    assert "### 1. One {#deck}" in out and "### 2. Two {#trump-order}" in out
    assert "[two](#trump-order)" in out and "[B](#page-b)" in out and "[here](#deck)" in out
    assert "[the protocol](protocol.md)" in out
    assert "Folded" not in out and "Gone" not in out and "Site only" not in out
    assert "Kept." in out and "Kept too." in out and "<!--" not in out


def test_hands_are_one_line_per_seat_grouped_by_suit() -> None:
    lines = hands_lines({"W": ["JK", "4D", "5D", "AS"], "kitty": ["6C"]}, {"W": "dealer"})
    assert len(lines) == 3 and lines[-1] == "{: .fh-hands }"
    west = lines[0]
    assert west.index("A♠") < west.index("5♦") < west.index("4♦") < west.index("Joker")
    assert west.count('class="fh-srun"') == 3 and "<small>dealer</small>" in west


def test_the_quick_reference_values_are_the_engine_s() -> None:
    text = (DOCS / "quick-reference.md").read_text(encoding="utf-8")
    profile = get_profile(None)
    rows = [_cells(line) for line in text.splitlines() if re.match(r"\| \*\*\d+\*\* \|", line)]
    assert len(rows) == 5
    for cells in rows:
        level = int(cells[0])
        for strain, value in zip(Strain, cells[1:], strict=True):
            assert int(value) == profile.bid_values[SUIT_BIDS[(level, strain)]]
