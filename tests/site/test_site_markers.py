"""Markers under the rule clauses, drawn from the dispute records (no site build)."""

from __future__ import annotations

import re
from pathlib import Path

from fivehundred.scenarios.format.rulings import RULINGS
from fivehundred.scenarios.loading.corpus import load_corpus
from fivehundred.scenarios.loading.disputes import Answer, Dispute, load_disputes
from fivehundred.site.disputes import differing, profile_target, profile_targets
from fivehundred.site.generator import (
    SiteModel,
    anchored_headings,
    clause_flags,
    inject_examples,
)
from fivehundred.site.translation import page_language

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "site"
DISPUTES = REPO / "scenarios" / "disputes"
PAGE = "rules/all.md"


def _rules_text() -> str:
    return "# All\n\n" + "\n".join(
        f"## {r.number}. {r.title} {{#{r.slug}}}\n\nText of {r.slug}.\n" for r in RULINGS
    )


def _dispute(
    id_: str, rulings: tuple[str, ...], *answers: tuple[str, ...], status: str = "open"
) -> Dispute:
    return Dispute(
        id=id_,
        title=f"Title of {id_}",
        question="Is this a question?",
        rulings=rulings,
        status=status,
        answers=tuple(
            Answer(f"answer-{n}", "An answer in a sentence.", (), profiles)
            for n, profiles in enumerate(answers)
        ),
        scenarios=(),
    )


TARGETS = {
    "american-4": "profiles/american-4.md",
    "three-handed": "profiles/three-handed.md",
    "misere-without-seven": "profiles/variants.md#misere-without-seven",
}


def _model(*disputes: Dispute) -> SiteModel:
    return SiteModel.build(load_corpus().scenarios, {PAGE: _rules_text()}, disputes, TARGETS)


def test_a_clause_no_dispute_touches_has_no_marker() -> None:
    model = _model(_dispute("x", ("bid-order",), ("australian-4",), ("american-4",)))
    assert clause_flags("deck", PAGE, model) == []
    out = inject_examples(_rules_text(), PAGE, model)
    assert out.count("fh-flags") == 1


def test_one_disputed_link_per_dispute_touching_the_clause() -> None:
    first = _dispute("first", ("bid-order", "deck"), ("australian-4",), ())
    second = _dispute("second", ("bid-order",), ("australian-4",), ())
    model = _model(first, second)
    flags = "\n".join(clause_flags("bid-order", PAGE, model))
    assert "disputed</span>" in flags
    assert re.findall(r"\]\(\.\./disputes\.md#(\w+)\)", flags) == ["first", "second"]
    assert "[Title of first](../disputes.md#first)" in flags
    # settled answers that no profile takes: disputed, but nothing differs
    assert "differs per profile" not in flags
    deck = "\n".join(clause_flags("deck", PAGE, model))
    assert re.findall(r"disputes\.md#(\w+)", deck) == ["first"]


def test_differs_names_each_other_profile_and_links_its_page_or_section() -> None:
    dispute = _dispute(
        "misere-needs-seven",
        ("misere-needs-seven",),
        ("australian-4",),
        ("australian-4+misere-without-seven", "american-4"),
        ("unknown-profile",),
    )
    flags = "\n".join(clause_flags("misere-needs-seven", PAGE, _model(dispute)))
    assert "differs per profile</span>" in flags
    differs = flags[flags.index("differs per profile") :]
    assert (
        "[`australian-4+misere-without-seven`](../profiles/variants.md#misere-without-seven "
        in differs
    )
    assert "[`american-4`](../profiles/american-4.md " in differs
    # a name no page describes links to the dispute instead
    assert "[`unknown-profile`](../disputes.md#misere-needs-seven " in differs
    # the default profile's own answer is never listed as a difference
    assert "[`australian-4`]" not in differs
    assert 'another answer in: Title of misere-needs-seven"' in differs


def test_a_profile_differing_in_two_disputes_is_named_once_with_both() -> None:
    a = _dispute("a", ("bid-order",), ("australian-4",), ("three-handed",))
    b = _dispute("b", ("bid-order",), ("australian-4", "american-4"), ("three-handed",))
    flags = "\n".join(clause_flags("bid-order", PAGE, _model(a, b)))
    assert flags.count("[`three-handed`]") == 1
    assert "another answer in: Title of a; Title of b" in flags
    assert "[`american-4`]" not in flags


def test_no_difference_is_drawn_when_the_default_takes_no_answer() -> None:
    dispute = _dispute("x", ("deck",), ("american-4",), ("three-handed",))
    assert differing(dispute) == ()
    flags = "\n".join(clause_flags("deck", PAGE, _model(dispute)))
    assert "disputed" in flags and "differs per profile" not in flags


def test_markers_come_right_under_the_clause_heading() -> None:
    model = _model(_dispute("x", ("bid-order",), ("australian-4",), ("american-4",)))
    out = inject_examples(_rules_text(), PAGE, model).splitlines()
    heading = next(i for i, line in enumerate(out) if line.endswith("{#bid-order}"))
    block = out[heading + 1 : heading + 4]
    assert block[0] == "" and block[1].startswith(
        '<details class="fh-flags" data-search-exclude markdown>'
    )
    assert block[2].startswith("<summary>") and block[2].count("\n") == 0
    text = out.index("Text of bid-order.")
    assert heading < text and any("disputed" in line for line in out[heading:text])


def test_a_dispute_naming_an_unknown_ruling_is_a_problem() -> None:
    model = _model(_dispute("x", ("no-such-ruling",), ("australian-4",), ()))
    assert any("'no-such-ruling'" in p and "dispute 'x'" in p for p in model.problems)


def test_toggles_are_found_in_the_variants_headings() -> None:
    pages = {
        f"profiles/{name}.md": ""
        for name in ("index", "variants", "australian-4", "american-4", "american-2")
    }
    text = (DOCS / "profiles" / "variants.md").read_text(encoding="utf-8")
    headings = {"profiles/variants.md": [(h.title, h.anchor) for h in anchored_headings(text)]}
    targets = profile_targets(list(pages), headings)
    assert targets["american-4"] == "profiles/american-4.md"
    assert "index" not in targets and "variants" not in targets
    assert targets["defender-cap-480"] == "profiles/variants.md#defender-cap"
    assert targets["no-misere"] == "profiles/variants.md#no-misere"
    assert profile_target("australian-4+no-misere", targets) == "profiles/variants.md#no-misere"
    assert profile_target("american-2+deck-24", targets) == "profiles/american-2.md"
    assert profile_target("nobody", targets) is None


def test_every_clause_a_real_record_touches_gets_a_marker() -> None:
    found = load_disputes(DISPUTES)
    assert found.diagnostics == []
    disputes = found.records
    assert len(disputes) == len(list(DISPUTES.glob("*.yaml")))
    rule_pages = {
        f"rules/{p.name}": p.read_text(encoding="utf-8")
        for p in (DOCS / "rules").glob("*.md")
        if page_language(p.name) == "en"  # the English pages (the Russian ones: *.ru.md)
    }
    model = SiteModel.build(load_corpus().scenarios, rule_pages, disputes, TARGETS)
    assert model.problems == []
    touched = {slug for d in disputes for slug in d.rulings}
    assert touched
    for uri, text in rule_pages.items():
        out = inject_examples(text, uri, model)
        for slug in touched:
            if model.clause_pages.get(slug) == uri:
                for dispute in model.disputes[slug]:
                    assert f"../disputes.md#{dispute.id})" in out, (slug, dispute.id)


def _rows(table: list[str]) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split(" | ")] for line in table[2:]]


def test_the_profile_pages_show_the_generated_tables_not_hand_written_ones() -> None:
    """Every profile page (both languages) carries the marker of its rule-set table, and
    the profiles index the marker of the toggles table with no hand-written toggle row left
    beside it: a table written by hand is one that drifts."""
    from fivehundred.engine import PROFILE_NAMES, VARIANTS
    from fivehundred.site.rule_set_tables import RULE_SET_MARKER, TOGGLES_MARKER

    for name in PROFILE_NAMES:
        for suffix in (".md", ".ru.md"):
            text = (DOCS / "profiles" / f"{name}{suffix}").read_text(encoding="utf-8")
            assert text.count(RULE_SET_MARKER) == 1, f"{name}{suffix}"
    for suffix in (".md", ".ru.md"):
        text = (DOCS / "profiles" / f"index{suffix}").read_text(encoding="utf-8")
        assert text.count(TOGGLES_MARKER) == 1
        assert not [v for v in VARIANTS if f"| `{v}` |" in text], suffix


def test_the_toggles_table_has_a_row_for_each_toggle_of_the_registry() -> None:
    from fivehundred.engine import VARIANTS
    from fivehundred.site.rule_set_tables import toggle_changes, toggles_table

    records = load_disputes().records
    for language in ("en", "ru"):
        rows = _rows(toggles_table(records, "profiles/index.md", language))
        assert [r[0].strip("`") for r in rows] == list(VARIANTS)
        for row, variant in zip(rows, VARIANTS.values(), strict=True):
            assert row[1] == ", ".join(f"`{p}`" for p in variant.applies_to)
            assert row[2], f"{variant.name} changes no rule point"
            assert row[4] != "—", f"{variant.name}: no dispute names it"
    assert toggle_changes(VARIANTS["no-slam-bonus"]) == ["scoring.slam_value"]
    assert "scoring.defender_cap" in toggle_changes(VARIANTS["defender-cap-490"])


def test_a_profile_table_says_every_rule_point_and_marks_the_differences() -> None:
    from fivehundred.engine import DEFAULT_PROFILE, get_profile, rule_points
    from fivehundred.site.rule_set_tables import WORDS, rule_set_table

    assert set(WORDS) == set(rule_points())
    rows = _rows(rule_set_table(get_profile("american-4"), "en"))
    assert len(rows) == len(rule_points())
    by_rule = {row[1]: row for row in rows}
    assert by_rule["procedure"][2:] == [
        "one call each",
        "round and round until all but one have passed; a pass is final",
        "**differs**",
    ]
    assert by_rule["players"][2:] == ["4", "4", "same"]
    default = _rows(rule_set_table(DEFAULT_PROFILE, "en"))
    assert all(len(row) == 3 for row in default)


def test_the_russian_tables_use_the_glossarys_words() -> None:
    from fivehundred.engine import PROFILE_NAMES, get_profile
    from fivehundred.site.rule_set_tables import rule_set_table, toggles_table
    from fivehundred.site.terms import forbidden_uses, russian_terms

    text = "\n".join(toggles_table(load_disputes().records, "profiles/index.md", "ru"))
    for name in PROFILE_NAMES:
        text += "\n".join(rule_set_table(get_profile(name), "ru"))
    assert forbidden_uses(text, russian_terms()) == []
    assert "misère" not in text and "the joker" not in text  # no English left
