"""The site's model of the rules text: where each clause is, which scenarios cite it, and
where each page lives.

The rules pages under ``site/rules/`` are written by hand; a heading that carries a
ruling's slug as ``{#slug}`` is that ruling's clause.  :class:`SiteModel` finds every
clause, checks the rules text against the corpus (a ruling without a clause, a citation
of an anchor nobody defines, a clause without a scenario) and answers which scenarios
cite a clause; the other site modules only read it.  Also here: the Markdown syntax
every module reads (headings, fences, inline links) and the pages' addresses.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..scenarios import (
    Scenario,
)
from ..scenarios.derived.coverage import default_profile_only
from ..scenarios.format.rulings import BY_SLUG, EXTRA_ANCHORS, RULINGS
from ..scenarios.loading.disputes import Dispute
from .card_markup import _escape
from .disputes import disputes_by_clause
from .labels import DEFAULT_LANGUAGE

RULES_DIR = "rules/"
"""Pages under this folder of the docs are the rules text; only they define clauses."""


SCENARIOS_DIR = "scenarios/"
"""Folder of the generated scenario pages (virtual: never written into the docs)."""


SCENARIOS_INDEX = SCENARIOS_DIR + "index.md"


CLAUSE_ANCHORS: tuple[str, ...] = (*(r.slug for r in RULINGS), *EXTRA_ANCHORS)
"""Every anchor a scenario may cite: the rulings' slugs and the extra anchors."""


AREA_TITLES: dict[str, str] = {
    "deck": "Deck and ranks",
    "deal": "The deal",
    "auction": "The auction",
    "kitty": "The kitty and the start of play",
    "play": "Following suit and winning tricks",
    "joker": "The joker without trumps",
    "misere": "Misère and open misère",
    "scoring": "Scoring",
    "game": "End of the game",
    "full-deals": "Whole deals",
}
"""Display names and order of the scenario areas (the folders under ``scenarios/``);
an area not listed comes after these, by name, so a new folder needs no code change."""


_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*\{([^}]*)\}[ \t]*#*[ \t]*$")


_ANY_HEADING = re.compile(r"^(#{1,6})[ \t]")


_ID_IN_ATTRS = re.compile(r"(?:^|\s)#([A-Za-z0-9_-]+)")


_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")


_NUMBER = re.compile(r"^(\d+)\.\s")


@dataclass(frozen=True, slots=True)
class Heading:
    """A Markdown heading that carries an explicit ``{#anchor}``."""

    level: int
    title: str
    anchor: str
    line: int
    """Index of the heading's line in the page."""


def _fence_mask(lines: Sequence[str]) -> list[bool]:
    """For each line, whether it is inside (or delimits) a fenced code block.

    A ``# comment`` in a YAML or shell block is not a heading; scanning without
    this would invent clauses out of code.
    """
    inside: str | None = None
    mask: list[bool] = []
    for line in lines:
        match = _FENCE.match(line)
        if inside is None and match:
            inside = match.group(1)[0] * len(match.group(1))
            mask.append(True)
        elif inside is not None:
            mask.append(True)
            if line.strip().startswith(inside) and not line.strip().strip(inside[0]):
                inside = None
        else:
            mask.append(False)
    return mask


def anchored_headings(markdown: str) -> list[Heading]:
    """Headings written as ``## Title {#anchor}`` (attr_list syntax), in page order."""
    lines = markdown.splitlines()
    found: list[Heading] = []
    for index, (line, fenced) in enumerate(zip(lines, _fence_mask(lines), strict=True)):
        if fenced:
            continue
        match = _HEADING.match(line)
        if not match:
            continue
        anchor = _ID_IN_ATTRS.search(match.group(3))
        if anchor:
            found.append(Heading(len(match.group(1)), match.group(2), anchor.group(1), index))
    return found


@dataclass(frozen=True, slots=True)
class Citation:
    """A scenario citing a clause; ``primary`` when the clause comes first in its ``rules``."""

    scenario: Scenario
    primary: bool


@dataclass
class SiteModel:
    """Everything the generated pages need: the scenarios and where each clause lives."""

    scenarios: list[Scenario]
    clause_pages: dict[str, str] = field(default_factory=dict)
    """Clause anchor → ``src_uri`` of the rules page that defines it."""
    clause_titles: dict[str, str] = field(default_factory=dict)
    """Clause anchor → its heading text as written in the rules."""
    problems: list[str] = field(default_factory=list)
    """What is wrong with the rules text or the citations; the build reports each."""
    disputes: dict[str, list[Dispute]] = field(default_factory=dict)
    """Clause anchor → the dispute records whose ``rulings`` list it."""
    profile_pages: dict[str, str] = field(default_factory=dict)
    """Profile or toggle name → the docs page (``uri`` or ``uri#anchor``) describing it."""
    language: str = DEFAULT_LANGUAGE
    """The language the drawn tables of its pages are labelled in (the site hook sets it
    for each language it builds; :mod:`.labels`)."""
    _citations: dict[str, list[Citation]] | None = field(default=None, repr=False)

    @classmethod
    def build(
        cls,
        scenarios: Iterable[Scenario],
        rule_pages: Mapping[str, str],
        disputes: Iterable[Dispute] = (),
        profile_pages: Mapping[str, str] | None = None,
    ) -> SiteModel:
        """Scan the rules pages (``src_uri`` → Markdown) and check them against the corpus.

        Problems are collected, not raised, so that one build reports all of them:
        a ruling without a clause, an anchor defined twice, a heading number that
        disagrees with the ruling's, a scenario citing an anchor no page defines, a
        clause no scenario illustrates, a dispute record naming a ruling no page defines.
        ``disputes`` give the markers under the clauses (:func:`clause_flags`);
        ``profile_pages`` says where each profile and toggle is described.
        """
        model = cls(sorted(scenarios, key=_scenario_order))
        model.disputes = disputes_by_clause(disputes)
        model.profile_pages = dict(profile_pages or {})
        for uri in sorted(rule_pages):
            for heading in anchored_headings(rule_pages[uri]):
                if heading.anchor not in CLAUSE_ANCHORS:
                    continue
                if heading.anchor in model.clause_pages:
                    model.problems.append(
                        f"{uri}: clause anchor #{heading.anchor} is already defined in "
                        f"{model.clause_pages[heading.anchor]}"
                    )
                    continue
                model.clause_pages[heading.anchor] = uri
                model.clause_titles[heading.anchor] = heading.title
                ruling = BY_SLUG.get(heading.anchor)
                number = _NUMBER.match(heading.title)
                if ruling is not None and number and int(number.group(1)) != ruling.number:
                    model.problems.append(
                        f"{uri}: heading '{heading.title}' carries number {number.group(1)} "
                        f"but #{heading.anchor} is ruling {ruling.number}"
                    )
        for anchor in CLAUSE_ANCHORS:
            if anchor not in model.clause_pages:
                model.problems.append(f"no rules page has a clause heading {{#{anchor}}}")
        cited = model.citations()
        for scenario in model.scenarios:
            for anchor in scenario.rules:
                if anchor not in model.clause_pages:
                    model.problems.append(
                        f"scenario {scenario.id} cites #{anchor}, which no rules page defines"
                    )
        for anchor in CLAUSE_ANCHORS:
            if anchor in model.clause_pages and not cited.get(anchor):
                model.problems.append(f"clause #{anchor} has no scenario illustrating it")
        for anchor, touching in model.disputes.items():
            if anchor not in model.clause_pages:
                for dispute in touching:
                    model.problems.append(
                        f"{_record_name(dispute)}: dispute '{dispute.id}' lists ruling "
                        f"'{anchor}', which no rules page defines"
                    )
        return model

    def citations(self) -> dict[str, list[Citation]]:
        """Anchor → the scenarios citing it: primary citations first, then the rest,
        each group in area order."""
        if self._citations is not None:
            return self._citations
        out: dict[str, list[Citation]] = {}
        # The rules pages describe the default profile: other rule sets' scenarios are
        # never examples of its clauses (they are listed on their profile's page).
        default = default_profile_only(self.scenarios)
        for primary in (True, False):
            for scenario in default:
                for position, anchor in enumerate(scenario.rules):
                    if (position == 0) == primary:
                        out.setdefault(anchor, []).append(Citation(scenario, primary))
        self._citations = out
        return out

    def clause_link(self, anchor: str, from_uri: str) -> str:
        """A Markdown link to a clause, from the page ``from_uri``."""
        title = self.clause_titles.get(anchor, anchor)
        page = self.clause_pages.get(anchor)
        if page is None:
            return f"`{anchor}`"
        return f"[{_escape(title)}]({relative_link(from_uri, page)}#{anchor})"


def _area_rank(area: str) -> tuple[int, str]:
    order = list(AREA_TITLES)
    return (order.index(area), area) if area in order else (len(order), area)


def _scenario_order(scenario: Scenario) -> tuple[tuple[int, str], str]:
    path = str(scenario.path) if scenario.path is not None else scenario.title
    return (_area_rank(scenario.area), path)


def _record_name(dispute: Dispute) -> str:
    if dispute.path is None:
        return dispute.id
    return "scenarios/disputes/" + dispute.path.name


def area_title(area: str) -> str:
    return AREA_TITLES.get(area) or (area.replace("-", " ").capitalize() or "Other")


def scenario_uri(scenario_id: str) -> str:
    """The page of a scenario: its permanent id, so its URL never changes."""
    return f"{SCENARIOS_DIR}{scenario_id}.md"


@functools.cache
def relative_link(from_uri: str, to_uri: str) -> str:
    """Path from one docs page to another, as mkdocs resolves Markdown links (kept: the
    scenarios index alone asks for thousands on every build)."""
    return posixpath.relpath(to_uri, posixpath.dirname(from_uri) or ".")


def _indent(lines: Iterable[str], by: str = "    ") -> list[str]:
    return [by + line if line else "" for line in lines]


_INLINE_LINK = re.compile(r"(\[(?:[^\[\]]|\[[^\[\]]*\])*\])\(([^()\s]+)\)")


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
