"""The Russian edition, without building the site: complete, faithful to the English
clause for clause, in the glossary's words, and with no half-translated page.

* every page a player reads (home, rules, glossary, quick reference, disputes, rule
  sets) has its Russian page beside it (``page.ru.md``);
* a Russian rules page has the same clause headings, numbers and anchors as the English
  one, and every anchor of an English page exists in its Russian page;
* the Russian pages use the words ``terms_ru.yaml`` fixes, never a listed synonym, and
  the glossary lists every fixed word;
* no Russian page written by hand holds an English sentence, and a generated Russian
  scenario page or worked example holds English only in the scenario's own text (title,
  assertion, explanation, step notes), ids, codes and card notation;
* every dispute record has its Russian title, question and answers.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from fivehundred.scenarios.loading.corpus import load_corpus
from fivehundred.scenarios.loading.disputes import load_disputes
from fivehundred.site.dispute_translations import translation_problems
from fivehundred.site.generator import (
    CLAUSE_ANCHORS,
    SiteModel,
    anchored_headings,
    examples_for,
    scenario_page,
    scenarios_index,
)
from fivehundred.site.terms import forbidden_pattern, forbidden_uses, russian_terms
from fivehundred.site.translation import (
    TOOLTIPS,
    base_uri,
    localise,
    localise_scenario_page,
    localise_tooltips,
    translated_uri,
)
from markdown.extensions.toc import slugify

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "site"

PLAYER_PAGES = sorted(
    [
        "index.md",
        "glossary.md",
        "quick-reference.md",
        "disputes.md",
        *(p.relative_to(DOCS).as_posix() for p in (DOCS / "rules").glob("*.md")),
        *(p.relative_to(DOCS).as_posix() for p in (DOCS / "profiles").glob("*.md")),
        *(p.relative_to(DOCS).as_posix() for p in (DOCS / "sources").glob("*.md")),
    ]
)
"""Every English page a player reads; the others (protocol, scenario format, fuzzing,
versioning, limits, conformance, adapters) are for implementers and stay English."""
PLAYER_PAGES = [p for p in PLAYER_PAGES if p == base_uri(p)]

_WORD = r"[A-Za-z]{2,}(?:['’-][A-Za-z0-9]+)*"
_ENGLISH_RUN = re.compile(rf"(?<![\w-]){_WORD}(?:[ ,;:|]+{_WORD}){{3,}}")
"""Four Latin words in a row (of two letters or more, so not ranks such as ``A K Q J``):
an English sentence or a piece of one."""

# What a Russian page may write in Latin letters: notation and names, not sentences.
_NOT_PROSE = [
    re.compile(r"```.*?```", re.DOTALL),  # code blocks
    re.compile(r"`[^`\n]*`"),  # code spans
    re.compile(r"<code>.*?</code>"),  # code elements (observation keys, rejection codes)
    re.compile(r"\]\([^)\s]*\)"),  # link targets
    re.compile(r"\{[#:.][^}\n]*\}"),  # attribute lists and anchors
    re.compile(r"<[^>\n]*>"),  # HTML tags
    re.compile(r"<!--.*?-->", re.DOTALL),  # markers
    re.compile(r"https?://\S+"),  # addresses
]

NAMES = {
    "pagat.com",
    "Five Hundred",
    "double nullo",
    "widow",
    "Hoyle",
    "Avondale",
    "Euchre",
    "YAML",
    "Python",
}
"""Names written in Latin letters on the Russian pages (publications, the American word
for the kitty quoted as such, the file format)."""


_GLOSSARY_ENGLISH = re.compile(r"^([^\s:].*?)\(([A-Za-z ,()]+)\)$", re.MULTILINE)
"""A glossary term followed by its English name in brackets, as the glossary gives it."""


def _prose(text: str) -> str:
    text = _GLOSSARY_ENGLISH.sub(r"\1", text)
    for pattern in _NOT_PROSE:
        text = pattern.sub(" ", text)
    for name in NAMES:
        text = text.replace(name, " ")
    return text


def _unquoted(text: str) -> str:
    """The page's own words: prose without the sources' section titles, which the pages
    cite in «» as the sources spell them (terms_ru.yaml says so)."""
    return re.sub(r"«[^»]*»", " ", _prose(text))


def _english_runs(text: str) -> list[str]:
    return _ENGLISH_RUN.findall(_prose(text))


def _russian(uri: str) -> Path:
    return DOCS / translated_uri(uri, "ru")


def test_every_page_a_player_reads_has_its_russian_page() -> None:
    assert "rules/the-joker-without-trumps.md" in PLAYER_PAGES  # the list is the real one
    missing = [uri for uri in PLAYER_PAGES if not _russian(uri).is_file()]
    assert not missing, f"English pages with no Russian page beside them: {missing}"


@pytest.mark.parametrize("uri", [p for p in PLAYER_PAGES if p.startswith("rules/")])
def test_a_russian_rules_page_keeps_every_clause_number_and_anchor(uri: str) -> None:
    english = (DOCS / uri).read_text(encoding="utf-8")
    russian = _russian(uri).read_text(encoding="utf-8")

    def clauses(text: str) -> list[tuple[int, str, str]]:
        return [
            (h.level, h.anchor, (re.match(r"\d+\.", h.title) or re.match("", "")).group(0))
            for h in anchored_headings(text)
            if h.anchor in CLAUSE_ANCHORS
        ]

    assert clauses(russian) == clauses(english)


@pytest.mark.parametrize("uri", PLAYER_PAGES)
def test_every_anchor_of_an_english_page_is_in_its_russian_page(uri: str) -> None:
    if not _russian(uri).is_file():
        pytest.skip("no Russian page (the completeness test reports it)")
    english = (DOCS / uri).read_text(encoding="utf-8")
    russian = _russian(uri).read_text(encoding="utf-8")
    anchors = set(re.findall(r"\{#([A-Za-z0-9_-]+)\}", english))
    heading_slugs = {
        slugify(m.group(1), "-")
        for m in re.finditer(r"^#{2,6} ([^{\n]+?)\s*$", english, re.MULTILINE)
    }
    markers = set(re.findall(r"<!--\s*(?:fivehundred|rulebook):[^>]*-->", english))
    assert anchors <= set(re.findall(r"\{#([A-Za-z0-9_-]+)\}", russian))
    # a heading with no explicit anchor gets its English slug in Russian, so links hold
    assert heading_slugs <= set(re.findall(r"\{#([A-Za-z0-9_-]+)\}", russian)) | anchors
    assert markers <= set(re.findall(r"<!--\s*(?:fivehundred|rulebook):[^>]*-->", russian))


@pytest.mark.parametrize("uri", PLAYER_PAGES)
def test_a_russian_page_holds_no_english_sentence(uri: str) -> None:
    path = _russian(uri)
    if not path.is_file():
        pytest.skip("no Russian page (the completeness test reports it)")
    runs = _english_runs(path.read_text(encoding="utf-8"))
    assert not runs, f"{path.relative_to(REPO)}: English left in: {runs[:5]}"


def test_the_english_sentence_check_finds_english() -> None:
    assert _english_runs("Заказчик берёт прикуп. The declarer picks up the kitty.")
    assert not _english_runs("Карта `AS`, заказ 7NT, свод `australian-4`, [пункт](a.md#deck).")


def test_the_russian_pages_use_the_glossary_words() -> None:
    terms = russian_terms()
    found = {
        path.relative_to(DOCS).as_posix(): uses
        for path in sorted(DOCS.rglob("*.ru.md"))
        if (uses := forbidden_uses(_unquoted(path.read_text(encoding="utf-8")), terms))
    }
    assert not found, f"synonyms the glossary does not use: {found}"


def test_the_glossary_check_finds_a_forbidden_synonym() -> None:
    terms = russian_terms()
    assert forbidden_uses("Заказчик берёт вдовушку и сносит три карты.", terms)
    assert forbidden_uses("Это был последний кон.", terms)
    assert not forbidden_uses("Контракт выполнен, конец партии.", terms)  # not «кон»
    assert forbidden_pattern("бланк*").search("бланковый")


def test_the_glossary_lists_every_fixed_word() -> None:
    glossary = (DOCS / "glossary.ru.md").read_text(encoding="utf-8")
    assert "<!-- fivehundred:terms-ru -->" in glossary  # the table of fixed words
    terms = russian_terms()
    assert len(terms) >= 25
    for term in terms:
        assert term.russian and term.english
        for word in term.russian.split(", "):
            assert word.split()[0].lower()[:5] in glossary.lower(), word


def test_every_dispute_record_has_its_russian_text() -> None:
    records = load_disputes(REPO / "scenarios" / "disputes").records
    assert records
    assert translation_problems(records, "ru") == []


@pytest.fixture(scope="module")
def russian_model() -> SiteModel:
    rule_pages = {
        uri: _russian(uri).read_text(encoding="utf-8")
        for uri in PLAYER_PAGES
        if uri.startswith("rules/")
    }
    model = SiteModel.build(load_corpus().scenarios, rule_pages)
    model.language = "ru"  # the drawn tables in Russian, as the Russian build draws them
    assert not [p for p in model.problems if "no rules page" in p]
    return model


_SCENARIO_TEXT = re.compile(
    r'^!!! abstract "Утверждение"\n(?:\n|    .*\n)*'  # the assertion box
    r"|^## Почему так\n.*?(?=^## )"  # the explanation
    r"|<br><small>.*?</small>"  # a step's note
    r"|<details class=\"note fh-source\">.*?</details>"  # the file
    r'|<pre class="fh-commands">.*?</pre>',  # the commands
    re.MULTILINE | re.DOTALL,
)


def _generated_english(markdown: str, scenario_texts: list[str]) -> list[str]:
    text = _SCENARIO_TEXT.sub(" ", markdown)
    for own in scenario_texts:
        text = text.replace(own, " ")
    return [run for run in _english_runs(text) if not re.fullmatch(r"[A-Z0-9 ·]+", run)]


def _own_texts(scenario: object) -> list[str]:
    import html

    texts = [getattr(scenario, "title", ""), getattr(scenario, "assertion", "")]
    texts += [html.escape(t, quote=False) for t in texts]
    texts.append(" ".join(getattr(scenario, "assertion", "").split()))
    return sorted((t.strip() for t in texts if t.strip()), key=len, reverse=True)


def test_every_russian_scenario_page_is_russian_outside_the_scenario_text(
    russian_model: SiteModel,
) -> None:
    """Every scenario of the corpus (all step kinds, setups and checkpoints) as its
    Russian page: what the generator wrote is all Russian."""
    leftovers = {}
    for scenario in russian_model.scenarios:
        page = localise_scenario_page(scenario_page(scenario, russian_model), "ru")
        english = _generated_english(page.split("\n", 1)[1], _own_texts(scenario))
        if english:
            leftovers[scenario.id] = english[:3]
    assert not leftovers, f"generator English on Russian scenario pages: {leftovers}"


def test_every_russian_worked_example_is_russian_outside_the_scenario_text(
    russian_model: SiteModel,
) -> None:
    leftovers = {}
    for anchor, page in russian_model.clause_pages.items():
        block = localise("\n".join(examples_for(anchor, page, russian_model)), "ru")
        texts = [
            t for c in russian_model.citations().get(anchor, []) for t in _own_texts(c.scenario)
        ]
        english = _generated_english(block, sorted(texts, key=len, reverse=True))
        if english:
            leftovers[anchor] = english[:3]
    assert not leftovers, f"generator English in Russian worked examples: {leftovers}"


def test_the_russian_scenarios_index_is_russian(russian_model: SiteModel) -> None:
    index = localise(scenarios_index(russian_model), "ru")
    # every row but a scenario's: id, title (the suite's English), clause anchors
    generated = "\n".join(line for line in index.splitlines() if not line.startswith("| ["))
    assert _generated_english(generated, []) == []
    assert index.startswith("# Сценарии")


def test_localise_passes_over_the_drawn_tables_and_translates_around_them(
    russian_model: SiteModel,
) -> None:
    """A drawn table is written in the page's language and may hold the scenario's own
    English (a note in a caption): localise leaves its line as it is, and still translates
    the generator's phrases before and after it."""
    from fivehundred.site.generator import drawn_steps

    scenario = next(s for s in russian_model.scenarios if drawn_steps(s, "ru"))
    drawing = drawn_steps(scenario, "ru")
    # a phrase localise translates wherever it stands, put inside the drawing and around it
    phrase = "[Scenario page](x.md)"
    assert "</div></div>" in drawing
    planted = drawing.replace("</div></div>", f"<p>{phrase}</p></div></div>", 1)
    page = "\n".join([phrase, "", planted, "", phrase])
    out = localise(page, "ru").split("\n")
    assert out[0] == out[4] == "[Страница сценария](x.md)"
    assert out[2] == planted
    assert localise(planted, "ru") == planted
    assert localise(f"{planted}\n{phrase}\n", "ru") == f"{planted}\n[Страница сценария](x.md)\n"


def test_every_hover_definition_has_its_russian_text() -> None:
    """The glossary's hover definitions (mkdocs.yml, abbr) are English; a Russian page
    shows each in Russian."""

    class _Loader(yaml.SafeLoader):
        pass

    _Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    abbr = next(
        e["abbr"] for e in config["markdown_extensions"] if isinstance(e, dict) and "abbr" in e
    )
    assert set(abbr["glossary"]) == set(TOOLTIPS["ru"])
    html = '<p><abbr title="No trumps: a contract without a trump suit">NT</abbr></p>'
    assert localise_tooltips(html, "ru") == (
        f'<p><abbr title="{TOOLTIPS["ru"]["NT"]}">NT</abbr></p>'
    )
    assert localise_tooltips(localise_tooltips(html, "ru"), "ru") == localise_tooltips(html, "ru")
    assert localise_tooltips(html, "en") == html
