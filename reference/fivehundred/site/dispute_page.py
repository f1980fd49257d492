"""The disputes page and the profile pages' scenario lists, generated from the records.

``site/disputes.md`` is written by hand around markers that the build fills:

* ``<!-- fivehundred:disputes-table -->``: the counts and a table of every record;
* ``<!-- fivehundred:dispute ID -->``: the entry of one record, where the page places it:
  the question, the status, the rulings it touches, then the answers side by side as
  content tabs (pymdownx.tabbed), each with its summary, the profiles that take it, its
  sources and its paired scenarios rendered as worked examples, and the notes;
* ``<!-- fivehundred:disputes-rest -->``: the records the page places nowhere else, so a
  new record (``fivehundred new --dispute``) appears without editing the page.

The rules pages show only scenarios of the default profile; the scenarios of every other
rule set are listed on their profile's page (``site/profiles/<name>.md``, toggles of the
default on ``variants.md``) in a generated section at the ``<!-- fivehundred:profile-
scenarios -->`` marker, or at the end of the page.

Plain Markdown from data, like :mod:`.scenario_pages`: no file system, no mkdocs.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence

from ..engine import DEFAULT_PROFILE
from ..scenarios import Scenario
from ..scenarios.derived.coverage import is_default_profile
from ..scenarios.loading.disputes import (
    TAG_PREFIX,
    Answer,
    Dispute,
    is_paired,
    pair_problems,
    paired_by_answer,
)
from .card_markup import _escape
from .disputes import profile_target
from .labels import label
from .page_model import SiteModel, _indent, relative_link, scenario_uri
from .worked_examples import example_block

DISPUTES_PAGE = "disputes.md"
TABLE_MARKER = "<!-- fivehundred:disputes-table -->"
REST_MARKER = "<!-- fivehundred:disputes-rest -->"
_TABLE_LINE = re.compile(r"^([ \t]*)" + re.escape(TABLE_MARKER) + r"[ \t]*$", re.M)
_ENTRY_MARKER = re.compile(r"^<!-- fivehundred:dispute ([a-z0-9-]+) -->[ \t]*$", re.M)

PROFILES_DIR = "profiles/"
VARIANTS_STEM = "variants"
PROFILE_SCENARIOS_MARKER = "<!-- fivehundred:profile-scenarios -->"
PROFILE_SCENARIOS_ANCHOR = "scenarios-of-this-profile"


# ---- the disputes page ---------------------------------------------------------------


def dispute_problems(records: Sequence[Dispute], scenarios: Sequence[Scenario]) -> list[str]:
    """What the build reports about the records: every problem of their paired scenarios."""
    return [problem for record in records for problem in pair_problems(record, scenarios)]


def _url(url: str) -> str:
    return url.replace("(", "%28").replace(")", "%29").replace(" ", "%20")


SOURCE_PAGES = {
    "000": "sources/australian-rules.md",
    "002": "sources/american-rules.md",
    "003": "sources/three-handed-game.md",
    "004": "sources/polish-variations.md",
}
"""The page describing each source document, by its seed number."""


def source_markdown(source: Mapping[str, str], page_uri: str = DISPUTES_PAGE) -> str:
    """One source as a player knows it (``the American rules with Nullo, section``, linked
    to the page describing it) or a link to the publication, with its note."""
    if "seed" in source:
        number = source["seed"][:3]
        page = SOURCE_PAGES.get(number)
        name = label(f"source.{number}") if page else f"seed {number}"
        named = f"[{name}]({relative_link(page_uri, page)})" if page else name
        text = f"{named}, {_escape(source['section'])}"
    else:
        text = f"[{_escape(source['title'])}]({_url(source['url'])})"
    note = source.get("note")
    return f"{text} <small>({_escape(note)})</small>" if note else text


def _rulings(record: Dispute, model: SiteModel, page_uri: str) -> str:
    links = []
    for slug in record.rulings:
        page = model.clause_pages.get(slug)
        target = f"{relative_link(page_uri, page)}#{slug}" if page else None
        links.append(f"[`{slug}`]({target})" if target else f"`{slug}`")
    return ", ".join(links)


def answer_tab(
    answer: Answer,
    shown: Sequence[Scenario],
    model: SiteModel,
    page_uri: str,
    *,
    default: bool,
) -> list[str]:
    """One answer as a content tab: summary, profiles, sources, paired scenarios."""
    label = answer.id + (" (default)" if default else "")
    profiles = ", ".join(f"`{p}`" for p in answer.profiles) or "*no profile of the suite*"
    body = [
        f"**{_escape(answer.summary)}**",
        "",
        f"*Profiles:* {profiles}",
        "",
        "*Sources:* " + "; ".join(source_markdown(s, page_uri) for s in answer.sources) + ".",
        "",
    ]
    if shown:
        noun = "scenario" if len(shown) == 1 else "scenarios"
        body += [f"*Paired {noun}* (run under `{shown[0].profile_label}`):", ""]
        for scenario in shown:
            block = example_block(scenario, "", False, page_uri, model, open_=True, stepped=False)
            block[0] = block[0].replace(
                f"Example {scenario.id} · ", f"Example {scenario.id} · {scenario.profile_label} · "
            )
            body += block
    elif answer.profiles:
        body += ["*No paired scenario shows this answer yet.*", ""]
    return [f'=== "{label}"', "", *_indent(body), ""]


ANSWERS_CLASS = "fh-answers"
MORE_CLASS = "fh-dispute-more"
"""The folded box of an entry: what a contributor checks (sources, worked examples, notes)."""


def _rule_sets(answer: Answer, model: SiteModel, page_uri: str) -> str:
    """The rule sets taking an answer, each linked to the page describing it."""
    if not answer.profiles:
        return "*none of the suite's rule sets*"
    names = []
    for profile in answer.profiles:
        target = profile_target(profile, model.profile_pages)
        if target is None:
            names.append(f"`{profile}`")
            continue
        path, hash_, fragment = target.partition("#")
        names.append(f"[`{profile}`]({relative_link(page_uri, path)}{hash_}{fragment})")
    return ", ".join(names)


def answers_side_by_side(record: Dispute, model: SiteModel, page_uri: str) -> list[str]:
    """The answers of a dispute next to each other (stacked on a phone), each with the rule
    sets that take it; the first is the default profile's."""
    lines = [f'<div class="{ANSWERS_CLASS}" markdown>', ""]
    for index, answer in enumerate(record.answers):
        kind = "fh-answer fh-default" if index == 0 else "fh-answer"
        lines += [
            f'<div class="{kind}" markdown>',
            "",
            f"**{_escape(answer.summary)}**",
            "",
            f"<small>Taken by:</small> {_rule_sets(answer, model, page_uri)}",
            "",
            "</div>",
            "",
        ]
    return [*lines, "</div>", ""]


def dispute_entry(
    record: Dispute, scenarios: Sequence[Scenario], model: SiteModel, page_uri: str
) -> list[str]:
    """One record: heading (anchored by its id), the question, the answers side by side
    with the rule sets taking each; then, folded, the status, the rulings, each answer's
    sources and paired scenarios as tabs, and the notes."""
    by_id = {s.id: s for s in scenarios}
    shown = paired_by_answer(record, by_id)
    facts = [f"**Status:** {record.status}", f"**id:** `{record.id}`"]
    if record.rulings:
        facts.append(f"**rulings:** {_rulings(record, model, page_uri)}")
    count = len(record.scenarios)
    facts.append(f"**paired scenarios:** {count}" if count else "**paired scenarios:** none yet")
    lines = [
        f"### {_escape(record.title)} {{#{record.id}}}",
        "",
        f"{_escape(record.question)}",
        "{: .fh-question }",
        "",
        *answers_side_by_side(record, model, page_uri),
    ]
    more = [" · ".join(facts), ""]
    for index, answer in enumerate(record.answers):
        more += answer_tab(answer, shown[answer.id], model, page_uri, default=index == 0)
    if record.notes.strip():
        more += ["**Notes.**", "", *record.notes.strip().splitlines(), ""]
    title = "Sources and worked examples" if count else "Sources"
    return [*lines, f'??? {MORE_CLASS} "{title}"', "", *_indent(more), ""]


def disputes_table(
    records: Sequence[Dispute], order: Sequence[str], scenarios: Sequence[Scenario]
) -> list[str]:
    """The counts and one row per record, in the page's order."""
    by_id = {r.id: r for r in records}
    ordered = [by_id[i] for i in order if i in by_id]
    ordered += [r for r in records if r.id not in order]
    open_count = sum(1 for r in records if r.status == "open")
    paired = sum(1 for r in records if is_paired(r, scenarios))
    lines = [
        f"{len(records)} disputes: {open_count} open, {len(records) - open_count} settled; "
        f"{paired} shown by paired scenarios.",
        "",
        "| dispute | question | status | paired scenarios |",
        "|---|---|---|--:|",
    ]
    for r in ordered:
        lines.append(
            f"| [{_escape(r.title)}](#{r.id}) | {_escape(r.question)} | {r.status} | "
            f"{len(r.scenarios)} |"
        )
    return lines


def fill_disputes_page(
    markdown: str,
    records: Sequence[Dispute],
    scenarios: Sequence[Scenario],
    model: SiteModel,
    page_uri: str = DISPUTES_PAGE,
) -> tuple[str, list[str]]:
    """The disputes page with its markers filled, and the problems found (a marker naming
    no record, a record placed twice)."""
    by_id = {r.id: r for r in records}
    placed = _ENTRY_MARKER.findall(markdown)
    problems = [
        f"{page_uri}: no dispute record {i!r} for its marker" for i in placed if i not in by_id
    ]
    problems += [
        f"{page_uri}: dispute {i!r} placed twice" for i in set(placed) if placed.count(i) > 1
    ]

    def entry(match: re.Match[str]) -> str:
        record = by_id.get(match.group(1))
        if record is None:
            return ""
        return "\n".join(dispute_entry(record, scenarios, model, page_uri))

    markdown = _ENTRY_MARKER.sub(entry, markdown)
    if TABLE_MARKER in markdown:
        table = disputes_table(records, placed, scenarios)

        def indented(match: re.Match[str]) -> str:  # the marker may sit in a folded box
            return "\n".join(match.group(1) + line if line else "" for line in table)

        markdown = _TABLE_LINE.sub(indented, markdown)
    rest = [r for r in records if r.id not in placed]
    rest_lines = ["## Other disputes", ""] if rest and placed else []
    rest_lines += [line for r in rest for line in dispute_entry(r, scenarios, model, page_uri)]
    rest_text = "\n".join(rest_lines)
    if REST_MARKER in markdown:
        markdown = markdown.replace(REST_MARKER, rest_text)
    elif rest:
        markdown = markdown.rstrip("\n") + "\n\n" + rest_text
    return markdown, problems


# ---- the profile pages -----------------------------------------------------------------


def _page_profile(page_uri: str) -> str | None:
    if not page_uri.startswith(PROFILES_DIR):
        return None
    stem = posixpath.splitext(posixpath.basename(page_uri))[0]
    return None if stem == "index" else stem


def profile_scenarios(page_uri: str, scenarios: Sequence[Scenario]) -> list[Scenario]:
    """The scenarios a profile page lists: its profile's (with any toggles); on the
    variants page, the default profile's with toggles; none on the default's own page."""
    stem = _page_profile(page_uri)
    if stem is None or stem == DEFAULT_PROFILE.name:
        return []
    if stem == VARIANTS_STEM:
        return [s for s in scenarios if s.profile_name == DEFAULT_PROFILE.name and s.variants]
    return [s for s in scenarios if s.profile_name == stem]


def profile_scenarios_section(
    page_uri: str, scenarios: Sequence[Scenario], dispute_ids: Sequence[str] = ()
) -> list[str]:
    """The generated section of a profile page: a table of its scenarios with their
    toggles and the disputes they pair, linking to each scenario's page."""
    stem = _page_profile(page_uri)
    if stem is None:
        return []
    heading = f"## Scenarios of this profile {{#{PROFILE_SCENARIOS_ANCHOR}}}"
    if stem == DEFAULT_PROFILE.name:
        count = sum(1 for s in scenarios if is_default_profile(s))
        rules = relative_link(page_uri, "rules/index.md")
        variants = relative_link(page_uri, f"{PROFILES_DIR}{VARIANTS_STEM}.md")
        return [
            heading,
            "",
            f"The {count} scenarios of the default profile are the worked examples of the "
            f"[rules]({rules}); those with toggles are listed on "
            f"[the variant toggles' page]({variants}#{PROFILE_SCENARIOS_ANCHOR}).",
            "",
        ]
    chosen = profile_scenarios(page_uri, scenarios)
    if stem == VARIANTS_STEM:
        heading = f"## Scenarios of the toggles {{#{PROFILE_SCENARIOS_ANCHOR}}}"
    lines = [heading, ""]
    if not chosen:
        return [*lines, "*No scenario of this rule set yet.*", ""]
    known = set(dispute_ids)
    disputes = relative_link(page_uri, DISPUTES_PAGE)
    lines += [
        f"{len(chosen)} scenarios run under this rule set. They are not examples of the rules "
        "pages, which describe the default profile.",
        "",
        "| id | title | toggles | disputes |",
        "|---|---|---|---|",
    ]
    for s in chosen:
        link = f"[{s.id}]({relative_link(page_uri, scenario_uri(s.id))})"
        toggles = ", ".join(f"`{v}`" for v in s.variants) or "—"
        tags = [t[len(TAG_PREFIX) :] for t in s.tags if t.startswith(TAG_PREFIX)]
        named = ", ".join(f"[{d}]({disputes}#{d})" if d in known else f"`{d}`" for d in tags)
        lines.append(f"| {link} | {_escape(s.title)} | {toggles} | {named or '—'} |")
    lines.append("")
    return lines


def add_profile_scenarios(
    markdown: str, page_uri: str, scenarios: Sequence[Scenario], dispute_ids: Sequence[str] = ()
) -> str:
    """A profile page with its generated scenarios section at the marker, else at the end."""
    section = profile_scenarios_section(page_uri, scenarios, dispute_ids)
    if not section:
        return markdown
    text = "\n".join(section)
    if PROFILE_SCENARIOS_MARKER in markdown:
        return markdown.replace(PROFILE_SCENARIOS_MARKER, text)
    return markdown.rstrip("\n") + "\n\n" + text + "\n"


__all__ = [
    "DISPUTES_PAGE",
    "PROFILE_SCENARIOS_ANCHOR",
    "PROFILE_SCENARIOS_MARKER",
    "REST_MARKER",
    "TABLE_MARKER",
    "add_profile_scenarios",
    "answer_tab",
    "dispute_entry",
    "dispute_problems",
    "disputes_table",
    "fill_disputes_page",
    "profile_scenarios",
    "profile_scenarios_section",
    "source_markdown",
]
