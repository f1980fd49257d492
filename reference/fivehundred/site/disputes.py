"""What the rule clauses show of the dispute records (``scenarios/disputes/*.yaml``).

A dispute record names the rulings it touches and, for each answer the sources
give, the profiles and toggles of the suite that take it.  The site draws two
markers under a rule clause from that alone, so nothing is maintained twice:

* **disputed**: one link per dispute whose ``rulings`` list the clause;
* **differs per profile**: the profiles and toggles that take another answer than
  the default profile's, each linked to its rule-set page, with the dispute.

The records are read by :mod:`fivehundred.scenarios.loading.disputes`; this module is pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from ..engine import DEFAULT_PROFILE
from ..scenarios.loading.disputes import Answer, Dispute

DISPUTES_PAGE = "disputes.md"
"""The docs page with one entry per dispute, anchored by the dispute's id."""

PROFILES_DIR = "profiles/"
"""Rule-set pages: ``profiles/<profile>.md``, and the toggles on ``profiles/variants.md``."""

VARIANTS_PAGE = PROFILES_DIR + "variants.md"


def default_answer(dispute: Dispute) -> Answer | None:
    """The answer the default profile takes (it lists the bare profile name)."""
    for answer in dispute.answers:
        if DEFAULT_PROFILE.name in answer.profiles:
            return answer
    return None


def differing(dispute: Dispute) -> tuple[str, ...]:
    """Profiles and toggles that take another answer than the default profile's, in the
    order the record lists them; none when the default profile takes no answer."""
    default = default_answer(dispute)
    if default is None:
        return ()
    seen: dict[str, None] = {}
    for answer in dispute.answers:
        if answer is not default:
            for profile in answer.profiles:
                seen.setdefault(profile, None)
    return tuple(seen)


def disputes_by_clause(disputes: Iterable[Dispute]) -> dict[str, list[Dispute]]:
    """Clause anchor → the disputes that touch it, in the order given."""
    out: dict[str, list[Dispute]] = {}
    for dispute in disputes:
        for slug in dispute.rulings:
            out.setdefault(slug, []).append(dispute)
    return out


_TOKEN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def profile_targets(
    profile_pages: Iterable[str], headings: Mapping[str, Sequence[tuple[str, str]]]
) -> dict[str, str]:
    """Where a profile or toggle name is described: name → ``uri`` or ``uri#anchor``.

    ``profile_pages`` are docs URIs under ``profiles/``; ``headings`` maps a page to
    its anchored headings as (title, anchor).  A profile's page is
    ``profiles/<name>.md``; a toggle is found in a heading of the variants page that
    names it (``## defender-cap-490 and defender-cap-480 {#defender-cap}``)."""
    targets: dict[str, str] = {}
    for uri in profile_pages:
        if uri.startswith(PROFILES_DIR) and uri.count("/") == 1 and uri.endswith(".md"):
            name = uri[len(PROFILES_DIR) : -len(".md")]
            if name not in ("index", "variants"):
                targets[name] = uri
    for title, anchor in headings.get(VARIANTS_PAGE, ()):
        for token in _TOKEN.findall(title):
            if "-" in token and token not in targets:
                targets[token] = f"{VARIANTS_PAGE}#{anchor}"
    return targets


def profile_target(name: str, targets: Mapping[str, str]) -> str | None:
    """The page of ``profile+toggle+…``: the (last) toggle's section when the variants
    page describes it, else the profile's page."""
    base, *toggles = name.split("+")
    for toggle in reversed(toggles):
        if toggle in targets:
            return targets[toggle]
    return targets.get(base)


__all__ = [
    "DISPUTES_PAGE",
    "default_answer",
    "differing",
    "disputes_by_clause",
    "profile_target",
    "profile_targets",
]
