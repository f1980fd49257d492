"""What the site puts under each rule clause: its worked examples, its dispute markers,
and the page's list of clauses.

The site follows the CommonMark spec's pattern: a worked example lives in the prose of
the clause it illustrates, and the same example is a test.  Under each clause come the
scenarios that cite its slug: at most one short one open, the others folded, each with
the sentence it proves and a link to its page (rules first, tests under them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..scenarios import (
    AuctionStart,
    PlayStart,
    Scenario,
)
from ..scenarios.loading.disputes import Dispute
from . import disputes as _disputes
from .card_markup import _escape
from .disputes import DISPUTES_PAGE, profile_target
from .page_model import (
    _ANY_HEADING,
    Citation,
    Heading,
    SiteModel,
    _fence_mask,
    _indent,
    anchored_headings,
    relative_link,
    scenario_uri,
)
from .scenario_parts import (
    setup_markdown,
    steps_table,
)

EXAMPLES_MARKER = "<!-- examples -->"
"""Optional marker inside a clause: its examples go there instead of at its end."""


def _quoted_title(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


INLINE_EXAMPLE_MAX_STEPS = 8
"""A clause shows one worked example open under its text only when a scenario written
for it is this short; every other example is folded."""


def example_block(
    scenario: Scenario,
    anchor: str,
    primary: bool,
    page_uri: str,
    model: SiteModel,
    *,
    open_: bool | None = None,
    stepped: bool = True,
) -> list[str]:
    """One scenario as a worked example under a clause: a collapsible box, open when it is
    the clause's inline example (``open_``; by default a primary citation) and folded
    otherwise.  Its start is drawn, with the stepper unless ``stepped`` is false (the
    scenario's page has it)."""
    is_open = primary if open_ is None else open_
    marker = "???+" if is_open else "???"
    title = _quoted_title(f"Example {scenario.id} · {scenario.title}")
    others = [model.clause_link(a, page_uri) for a in scenario.rules if a != anchor]
    body = [f"**Asserts:** {scenario.assertion.strip()}", ""]
    body += setup_markdown(scenario, drawn=True, stepped=stepped, language=model.language)
    body += steps_table(scenario, model.language)
    body.append("")
    footer = f"[Scenario page]({relative_link(page_uri, scenario_uri(scenario.id))})"
    footer += f" · `fivehundred verify --id {scenario.id}`"
    if others:
        footer += " · also illustrates " + ", ".join(others)
    body.append(footer)
    return [f"{marker} example fh-example {title}", "", *_indent(body), ""]


def inline_example(cited: Sequence[Citation]) -> Citation | None:
    """The one example a clause shows open under its text: the shortest scenario written
    for the clause (fewest steps, then fewest cards on the table), if it is short enough."""
    candidates = [c for c in cited if c.primary]
    if not candidates:
        return None
    best = min(candidates, key=lambda c: (len(c.scenario.steps), _setup_size(c.scenario)))
    return best if len(best.scenario.steps) <= INLINE_EXAMPLE_MAX_STEPS else None


def _setup_size(scenario: Scenario) -> int:
    setup = scenario.setup
    if isinstance(setup, AuctionStart | PlayStart):
        return sum(len(h) for h in setup.hands.values())
    return 0


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def example_line(scenario: Scenario, anchor: str, page_uri: str, model: SiteModel) -> str:
    """One worked example in a clause's folded list: its id and title linking to its
    page (the setup, the steps and the file), and the one sentence it proves."""
    link = relative_link(page_uri, scenario_uri(scenario.id))
    others = [model.clause_link(a, page_uri) for a in scenario.rules if a != anchor]
    also = f" <small>Also illustrates {', '.join(others)}.</small>" if others else ""
    assertion = " ".join(scenario.assertion.split())
    return f"- **Example [{scenario.id}]({link}) · {_escape(scenario.title)}.** {assertion}{also}"


def examples_for(anchor: str, page_uri: str, model: SiteModel) -> list[str]:
    """The worked examples of one clause, rules first: at most one short example open
    under the clause, then one folded box that says how many others there are and
    lists each with what it proves, linking to its page.

    The full examples live on the scenario pages; repeating every one of them under
    each clause it cites made the rules pages long to read, to print and to build."""
    cited = model.citations().get(anchor, [])
    if not cited:
        return ["*No scenario illustrates this clause yet.*", ""]
    shown = inline_example(cited)
    rest = [c for c in cited if c is not shown]
    lines: list[str] = []
    if shown is not None:
        lines += example_block(shown.scenario, anchor, True, page_uri, model, open_=True)
    if rest:
        more = "more worked example" if shown is not None else "worked example"
        first = sum(1 for c in rest if c.primary)
        detail = f"{first} written for this clause, {len(rest) - first} touching it"
        title = _quoted_title(f"{_plural(len(rest), more)} ({detail})")
        body = [example_line(c.scenario, anchor, page_uri, model) for c in rest]
        lines += [f"??? fh-more {title}", "", *_indent(body), ""]
    return lines


FLAGS_CLASS = "fh-flags"
"""CSS class of the block of markers under a clause heading (disputed, differs)."""


def _link_title(text: str) -> str:
    return text.replace('"', "'").replace("\n", " ")


def clause_flags(anchor: str, page_uri: str, model: SiteModel) -> list[str]:
    """The markers under a clause heading, from the dispute records alone.

    **disputed**, with one link per dispute touching the clause, to its entry on the
    disputes page; **differs per profile**, naming every profile or toggle that takes
    another answer than the default profile in one of those disputes, each linked to
    the page or section that describes it (or to the dispute when none does), its
    hover title naming the disputes.  Nothing for a clause no record touches."""
    touching = model.disputes.get(anchor, [])
    if not touching:
        return []
    page = relative_link(page_uri, DISPUTES_PAGE)
    links = [f"[{_escape(d.title)}]({page}#{d.id})" for d in touching]
    count = "a dispute" if len(touching) == 1 else f"{len(touching)} disputes"
    differing: dict[str, list[Dispute]] = {}
    for dispute in touching:
        for profile in _disputes.differing(dispute):
            differing.setdefault(profile, []).append(dispute)
    # One line folded (the markers, a summary), so the clause's first sentence comes right
    # under its heading on a phone; the links unfold.  Left out of the search index, so a
    # clause's search preview starts with the rule, not with its markers.
    summary = f'<span class="fh-flag fh-disputed" title="{count} about this clause">disputed</span>'
    if differing:
        summary += ' <span class="fh-flag fh-differs">differs per profile</span>'
    lines = [
        f'<details class="{FLAGS_CLASS}" data-search-exclude markdown>',
        f"<summary>{summary} <small>{count}</small></summary>",
        "",
        "**Disputed:** " + " · ".join(links),
    ]
    if differing:
        names = []
        for profile, disputes in differing.items():
            target = profile_target(profile, model.profile_pages)
            if target is None:
                href = f"{page}#{disputes[0].id}"
            else:
                path, hash_, fragment = target.partition("#")
                href = relative_link(page_uri, path) + hash_ + fragment
            why = _link_title("another answer in: " + "; ".join(d.title for d in disputes))
            names.append(f'[`{profile}`]({href} "{why}")')
        lines += ["", "**Differs in:** " + ", ".join(names)]
    return [*lines, "", "</details>", ""]


def inject_examples(markdown: str, page_uri: str, model: SiteModel) -> str:
    """The rules page with each clause followed by its worked examples.

    A clause runs from its heading to the next heading of the same or a higher
    level; its examples go at its end, or at an ``<!-- examples -->`` marker
    inside it, so the prose can keep a closing note after them.
    """
    lines = markdown.splitlines()
    fenced = _fence_mask(lines)
    headings = [
        h for h in anchored_headings(markdown) if model.clause_pages.get(h.anchor) == page_uri
    ]
    insert_at: dict[int, str] = {}
    flags_after: dict[int, list[str]] = {}
    for heading in headings:
        flags = clause_flags(heading.anchor, page_uri, model)
        if flags:
            flags_after[heading.line] = ["", *flags]
        end = len(lines)
        for index in range(heading.line + 1, len(lines)):
            match = _ANY_HEADING.match(lines[index])
            if match and not fenced[index] and len(match.group(1)) <= heading.level:
                end = index
                break
        target = end
        for index in range(heading.line + 1, end):
            if lines[index].strip() == EXAMPLES_MARKER:
                target = index
                break
        insert_at[target] = heading.anchor
    contents: dict[int, list[str]] = {}
    if len(headings) > 1:
        title = next(
            (i for i, line in enumerate(lines) if line.startswith("# ") and not fenced[i]), None
        )
        at = headings[0].line if title is None else title + 1
        contents[at] = ["", *clause_contents(headings)]
    out: list[str] = []
    for index in range(len(lines) + 1):
        out += contents.get(index, [])
        if index in insert_at:
            out += ["", *examples_for(insert_at[index], page_uri, model)]
        if index < len(lines) and lines[index].strip() != EXAMPLES_MARKER:
            out.append(lines[index])
        out += flags_after.get(index, [])
    return "\n".join(out) + "\n"


CONTENTS_CLASS = "fh-clauses"


def clause_contents(headings: Sequence[Heading]) -> list[str]:
    """The page's clauses as a list of links, put before the first of them: on a phone the
    table of contents is two taps away in the menu, so this makes every clause one tap from
    the top of its page (the stylesheet hides it where the contents are beside the page,
    and in print).  Out of the search index: it repeats the headings."""
    links = "".join(
        f'<li><a href="#{h.anchor}">{_escape(_MD_MARKS.sub("", h.title))}</a></li>'
        for h in headings
    )
    return [f'<nav class="{CONTENTS_CLASS}" data-search-exclude><ul>{links}</ul></nav>', ""]


_MD_MARKS = re.compile(r"[*_`]")
