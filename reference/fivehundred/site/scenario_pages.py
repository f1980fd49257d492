"""The pages generated whole: one page per scenario, named by its permanent id (the hands,
every step, the commands that run it and the file), and the index of scenarios by area
with how many scenarios cite each clause.
"""

from __future__ import annotations

from ..scenarios import (
    Scenario,
)
from ..scenarios.format.rulings import BY_SLUG
from .card_markup import _escape
from .page_model import (
    CLAUSE_ANCHORS,
    SCENARIOS_INDEX,
    SiteModel,
    _indent,
    area_title,
    relative_link,
    scenario_uri,
)
from .scenario_parts import (
    setup_markdown,
    steps_table_html,
)


def scenario_page(scenario: Scenario, model: SiteModel, source: str | None = None) -> str:
    """The full page of one scenario: what it asserts and why, the clauses it
    illustrates (linking back into the rules), the setup, the steps with what must
    be observed, the commands that run it, and the file itself."""
    uri = scenario_uri(scenario.id)
    index = relative_link(uri, SCENARIOS_INDEX)
    # Searches land on the rules: a scenario page repeats the words of the clauses it
    # tests, and hundreds of them made the index slow to build and to download.  Ids and
    # titles stay searchable on the scenarios index, what each proves on the rules pages.
    lines = ["---", "search:", "  exclude: true", "---", ""]
    lines += [f"# {scenario.id} · {_escape(scenario.title)}", ""]
    lines += [
        '!!! abstract "Asserts"',
        "",
        *_indent([scenario.assertion.strip()]),
        "",
    ]
    meta = [f"**Area** [{area_title(scenario.area)}]({index}#{_area_anchor(scenario.area)})"]
    meta.append(f"**Profile** `{scenario.profile_name}`")
    if scenario.tags:
        meta.append("**Tags** " + " ".join(f"`{t}`" for t in scenario.tags))
    lines += [" · ".join(meta), "", "## Rules it illustrates", ""]
    for position, anchor in enumerate(scenario.rules):
        role = " (primary)" if position == 0 else ""
        lines.append(f"- {model.clause_link(anchor, uri)}{role}")
    lines.append("")
    if scenario.explanation.strip():
        lines += ["## Why", "", scenario.explanation.strip(), ""]
    drawn = setup_markdown(scenario, raw_html=True, drawn=True, language=model.language)
    lines += ["## Setup", "", *drawn]
    lines += ["## Steps and expected results", "", steps_table_html(scenario, model.language), ""]
    lines += [
        "Each action is accepted unless it says *refused*, with the rejection code an",
        "implementation must give; a *check* compares only the observations listed.",
        "",
        "## Run it",
        "",
        '<pre class="fh-commands"><code>'
        + _escape(
            f"fivehundred verify --id {scenario.id}   # against the reference\n"
            f"fivehundred show {scenario.id}          # read it at the terminal\n"
            f"fivehundred verify --id {scenario.id} --impl 'YOUR ADAPTER'"
        )
        + "</code></pre>",
        "",
    ]
    if source is not None:
        # An HTML block, not a fenced block: Markdown passes it through untouched, where
        # highlighting every file cost more build time than all the rest of the page.
        where = _escape(_repo_path(scenario))
        text = _escape(source.rstrip("\n"))
        lines += [
            f'<details class="note fh-source"><summary>The scenario file: {where}</summary>'
            f'<pre><code class="language-yaml">{text}</code></pre></details>',
            "",
        ]
    return "\n".join(lines)


def _repo_path(scenario: Scenario) -> str:
    if scenario.path is None:
        return f"{scenario.id}.yaml"
    parts = scenario.path.parts
    if "scenarios" in parts:
        start = len(parts) - 1 - parts[::-1].index("scenarios")
        return "/".join(parts[start:])
    return scenario.path.name


def _area_anchor(area: str) -> str:
    return "area-" + (area or "other")


def clause_index(page_uri: str, model: SiteModel) -> list[str]:
    """Every clause with its page and how many scenarios cite it (first / in all)."""
    cited = model.citations()
    lines = [
        "| # | clause | scenarios citing it first | in all |",
        "|--:|---|--:|--:|",
    ]
    for anchor in CLAUSE_ANCHORS:
        ruling = BY_SLUG.get(anchor)
        number = str(ruling.number) if ruling else ""
        citations = cited.get(anchor, [])
        first = sum(1 for c in citations if c.primary)
        link = model.clause_link(anchor, page_uri)
        lines.append(
            f"| {number} | {link} <small>`{anchor}`</small> | {first} | {len(citations)} |"
        )
    return lines


def scenarios_index(model: SiteModel) -> str:
    """The scenarios page: every scenario by area, and the per-clause counts."""
    areas: dict[str, list[Scenario]] = {}
    for scenario in model.scenarios:
        areas.setdefault(scenario.area, []).append(scenario)
    lines = [
        "# Scenarios",
        "",
        f"The suite has **{len(model.scenarios)} scenarios** in {len(areas)} areas. Each is a",
        "small, exact ruling that runs as a test: a starting position, a few actions, and what",
        "must be observed. Every scenario also appears as a worked example under each rule",
        "clause it cites, and has its own page under a permanent id.",
        "The format is described in [The scenario format](../scenario-format.md).",
        "",
        "```console",
        "fivehundred verify                # every scenario against the reference",
        "fivehundred verify --rule misere-needs-seven",
        "fivehundred verify --area joker",
        "```",
        "",
    ]
    for area, scenarios in areas.items():
        lines += [f"## {area_title(area)} {{#{_area_anchor(area)}}}", ""]
        lines += [f"{len(scenarios)} scenarios in `scenarios/{area}/`.", ""]
        lines += ["| id | title | rules it illustrates |", "|---|---|---|"]
        for scenario in scenarios:
            link = f"[{scenario.id}]({relative_link(SCENARIOS_INDEX, scenario_uri(scenario.id))})"
            rules = ", ".join(_short_clause_link(a, model, SCENARIOS_INDEX) for a in scenario.rules)
            lines.append(f"| {link} | {_escape(scenario.title)} | {rules} |")
        lines.append("")
    lines += ["## Scenarios per rule clause {#per-clause}", ""]
    lines += clause_index(SCENARIOS_INDEX, model)
    lines.append("")
    return "\n".join(lines)


def _short_clause_link(anchor: str, model: SiteModel, from_uri: str) -> str:
    page = model.clause_pages.get(anchor)
    if page is None:
        return f"`{anchor}`"
    return f"[`{anchor}`]({relative_link(from_uri, page)}#{anchor})"
