"""The generated disputes page (answers as tabs with their paired scenarios) and the
separation of rule sets: rules pages show only default-profile scenarios, profile pages
list their own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from fivehundred.scenarios import Scenario, load_corpus
from fivehundred.scenarios.derived.coverage import is_default_profile
from fivehundred.scenarios.format.rulings import RULINGS
from fivehundred.scenarios.loading.disputes import Dispute, load_disputes
from fivehundred.site.dispute_page import (
    PROFILE_SCENARIOS_MARKER,
    REST_MARKER,
    TABLE_MARKER,
    add_profile_scenarios,
    fill_disputes_page,
    profile_scenarios,
)
from fivehundred.site.generator import SiteModel, inject_examples

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "site"


@pytest.fixture(scope="module")
def corpus() -> list[Scenario]:
    return load_corpus().scenarios


@pytest.fixture(scope="module")
def records() -> list[Dispute]:
    return load_disputes(ROOT / "scenarios" / "disputes").records


@pytest.fixture(scope="module")
def model(corpus: list[Scenario]) -> SiteModel:
    text = "# All\n\n" + "\n".join(
        f"## {r.number}. {r.title} {{#{r.slug}}}\n\nText of {r.slug}.\n" for r in RULINGS
    )
    text += "\n## Worked {#worked-example}\n\nThe example.\n"
    return SiteModel.build(corpus, {"rules/all.md": text})


def _tabs(markdown: str, anchor: str) -> list[str]:
    start = markdown.index(f"{{#{anchor}}}")
    end = markdown.find("\n### ", start)
    return re.findall(r'^[ ]*=== "([^"]+)"$', markdown[start:end], re.M)


def test_the_page_places_every_record_once() -> None:
    page = (DOCS / "disputes.md").read_text(encoding="utf-8")
    placed = re.findall(r"<!-- fivehundred:dispute ([a-z0-9-]+) -->", page)
    ids = sorted(p.stem for p in (ROOT / "scenarios" / "disputes").glob("*.yaml"))
    assert sorted(placed) == ids
    assert TABLE_MARKER in page and REST_MARKER in page


def test_each_dispute_shows_its_answers_as_tabs_with_their_paired_scenarios(
    records: list[Dispute], corpus: list[Scenario], model: SiteModel
) -> None:
    page = (DOCS / "disputes.md").read_text(encoding="utf-8")
    out, problems = fill_disputes_page(page, records, corpus, model)
    assert problems == []
    assert "<!-- fivehundred:" not in out
    for record in records:
        assert _tabs(out, record.id)[0] == f"{record.answers[0].id} (default)"
        assert len(_tabs(out, record.id)) == len(record.answers)
    entry = out[out.index("{#misere-rank}") : out.index("{#misere-needs-seven}")]
    default, american = entry.split('=== "between-8s-and-8c"')
    assert "Example 2XMB · australian-4 ·" in default and "DGNN" not in default
    assert "Example DGNN · american-4 ·" in american
    assert "[the American rules with Nullo](sources/american-rules.md), Нулевая заявка" in american
    assert "[pagat.com, Five Hundred — variations](https://www.pagat.com/euchre/500.html)" in (
        american
    )
    assert "[`bid-order`](rules/all.md#bid-order)" in entry
    assert "34 shown by paired scenarios" in out
    assert "*no profile of the suite*" in out  # answers no profile carries still get a tab


def test_a_record_the_page_does_not_place_is_appended_and_a_stray_marker_reported(
    records: list[Dispute], corpus: list[Scenario], model: SiteModel
) -> None:
    page = "# D\n\n<!-- fivehundred:dispute misere-rank -->\n\n<!-- fivehundred:dispute nope -->\n"
    page += f"\n{REST_MARKER}\n"
    out, problems = fill_disputes_page(page, records, corpus, model)
    assert problems == ["disputes.md: no dispute record 'nope' for its marker"]
    assert "## Other disputes" in out
    assert out.index("{#misere-rank}") < out.index("## Other disputes") < out.index("{#all-pass}")


def test_rules_pages_take_only_default_profile_scenarios(
    corpus: list[Scenario], model: SiteModel
) -> None:
    others = [s for s in corpus if not is_default_profile(s)]
    assert len(others) >= 20
    cited = {c.scenario.id for cs in model.citations().values() for c in cs}
    assert cited and not cited & {s.id for s in others}
    page = (DOCS / "rules" / "the-auction.md").read_text(encoding="utf-8")
    real = SiteModel.build(corpus, {"rules/the-auction.md": page})
    out = inject_examples(page, "rules/the-auction.md", real)
    for scenario in others:
        assert f"[{scenario.id}]" not in out and f"Example {scenario.id} " not in out


def test_profile_pages_list_their_scenarios(corpus: list[Scenario]) -> None:
    american = profile_scenarios("profiles/american-4.md", corpus)
    assert {"DGNN", "SZQH", "PJQC"} <= {s.id for s in american}
    assert all(s.profile_name == "american-4" for s in american)
    variants = profile_scenarios("profiles/variants.md", corpus)
    assert {"YADY", "BSAZ"} <= {s.id for s in variants}
    assert all(s.variants and s.profile_name == "australian-4" for s in variants)
    page = (DOCS / "profiles" / "american-4.md").read_text(encoding="utf-8")
    out = add_profile_scenarios(page, "profiles/american-4.md", corpus, ["misere-rank"])
    assert "## Scenarios of this profile {#scenarios-of-this-profile}" in out
    assert "| [DGNN](../scenarios/DGNN.md) |" in out
    assert "[misere-rank](../disputes.md#misere-rank)" in out
    assert "2XMB" not in out.split("{#scenarios-of-this-profile}")[1]
    default = add_profile_scenarios("# A\n", "profiles/australian-4.md", corpus)
    assert "worked examples of the [rules](../rules/index.md)" in default
    marked = add_profile_scenarios(
        f"# T\n\n{PROFILE_SCENARIOS_MARKER}\n\n## After\n", "profiles/three-handed.md", corpus
    )
    assert marked.index("{#scenarios-of-this-profile}") < marked.index("## After")
    assert add_profile_scenarios("# I\n", "profiles/index.md", corpus) == "# I\n"


def test_mkdocs_enables_content_tabs() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    extensions = yaml.safe_load(config.split("markdown_extensions:")[1].split("\nnav:")[0])
    names = [e if isinstance(e, str) else next(iter(e)) for e in extensions]
    assert "pymdownx.tabbed" in names


def test_each_entry_opens_with_its_answers_side_by_side_and_folds_the_rest(
    records: list[Dispute], corpus: list[Scenario], model: SiteModel
) -> None:
    """For a player: the question and the answers with the rule sets taking each, then one
    folded box with the sources, the paired scenarios (drawn, not stepped) and the notes."""
    import dataclasses

    page = (DOCS / "disputes.md").read_text(encoding="utf-8")
    described = dataclasses.replace(model, profile_pages={"american-4": "profiles/american-4.md"})
    out, _ = fill_disputes_page(page, records, corpus, described)
    for record in records:
        start = out.index(f"{{#{record.id}}}")
        end = out.find("\n### ", start)
        entry = out[start : end if end > 0 else len(out)]
        fold = entry.index('??? fh-dispute-more "')
        answers = list(re.finditer(r'<div class="fh-answer(?: fh-default)?"', entry))
        assert len(answers) == len(record.answers)
        assert answers[-1].start() < fold
        assert entry.index(record.question) < entry.index('<div class="fh-answers"')
        assert "=== " not in entry[:fold] and "Example " not in entry[:fold]
        assert "fh-stepper" not in entry or "fh-controls" not in entry  # no stepper here
    entry = out[out.index("{#misere-rank}") : out.index("{#misere-needs-seven}")]
    assert "Taken by:</small> [`american-4`](profiles/american-4.md)" in entry
    # the contributors' notes and the table of records, folded at the end
    about = out[out.index("{#about-the-records}") :]
    assert "| dispute | question | status | paired scenarios |" in about
    assert "    | [" in about  # the table indented inside its folded box
