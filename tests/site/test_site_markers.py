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


def test_every_toggle_of_the_registry_has_a_row_on_the_profiles_page() -> None:
    """The toggles table is written by hand; a toggle added to the engine without its row
    (or a row left for a toggle that no longer exists) is drift a reader cannot see."""
    from fivehundred.engine.profile import VARIANTS

    text = (DOCS / "profiles" / "index.md").read_text(encoding="utf-8")
    table = text[text.index("## The toggles") :].split("\n\n")[1]
    rows = {}
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = {p.strip("` ") for p in cells[1].split(",")}
    assert set(rows) == set(VARIANTS)
    for name, variant in VARIANTS.items():
        on = rows[name]
        if on != {"every American profile"}:
            assert on == set(variant.applies_to), name
