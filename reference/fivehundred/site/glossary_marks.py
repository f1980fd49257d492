"""The glossary's tooltips at a term's first mention in each clause, not at every mention.

The ``abbr`` extension marks every whole-word occurrence of a glossary term (``mkdocs.yml``,
``glossary:``): about 400 on the auction page and 650 on the disputes page, each drawn
with a dotted underline and each given a tooltip by Material's JavaScript when the page
loads.  That was a third of a phone's CPU for loading a rules page, and the underlines
made every "kitty" and "NT" look like a link.  A reader who meets a term has its
definition at hand where the term first comes up in the clause (a section under an
``h1`` or ``h2`` heading, the unit a link to the rules leads to); later mentions in the
same clause are plain text.
"""

from __future__ import annotations

import re

_SECTION = re.compile(r"(?=<h[12][\s>])")
_ABBR = re.compile(r'<abbr title="([^"]*)">(.*?)</abbr>', re.DOTALL)


def first_mentions(html: str) -> str:
    """``html`` with each ``<abbr>`` kept only at the first mention of its definition in
    each clause; the others become their plain text."""
    if "<abbr" not in html:
        return html
    return "".join(_first_in_section(section) for section in _SECTION.split(html))


def _first_in_section(section: str) -> str:
    seen: set[str] = set()

    def keep_first(match: re.Match[str]) -> str:
        title = match.group(1)
        if title in seen:
            return match.group(2)
        seen.add(title)
        return match.group(0)

    return _ABBR.sub(keep_first, section)
