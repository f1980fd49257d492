"""The rule clauses scenarios cite: the 34 rulings of the default profile.

Each has a permanent slug (the anchor scenarios list under ``rules`` and the rules
text uses); numbers may be reordered one day, slugs never change.
"""

from __future__ import annotations

from dataclasses import dataclass

from .diagnostics import did_you_mean


@dataclass(frozen=True, slots=True)
class Ruling:
    number: int
    slug: str
    title: str
    area: str


_TABLE = """\
1 deck Deck and ranks|The 43-card deck
2 trump-order Deck and ranks|Trump order and the bowers
3 plain-order Deck and ranks|Plain-suit order
4 no-trump-ranks Deck and ranks|Ranks without trumps
5 dealer-rotation Deal|The dealer and rotation
6 deal-packets Deal|Dealing in packets
7 kitty-hidden Deal|The kitty stays hidden
8 first-call Auction|Who calls first
9 bid-order Auction|The order of bids
10 bid-must-outrank Auction|A bid must outrank the highest so far
11 misere-needs-seven Auction|Misère needs a seven
12 open-misere-any-time Auction|Open misère at any time
13 pass-is-final Auction|A pass is final
14 auction-end Auction|The end of the auction and the throw-in
15 kitty-exchange Kitty and the start of play|The kitty exchange
16 misere-partner-out Kitty and the start of play|The misère partner sits out
17 opening-lead Kitty and the start of play|The opening lead
18 open-misere-exposure Kitty and the start of play|Open misère exposure
19 follow-suit Following suit and winning tricks|Following suit
20 trick-winner Following suit and winning tricks|Who wins a trick
21 joker-nomination The joker without trumps|Nominating the joker's suit
22 nominated-joker The joker without trumps|A nominated joker
23 suitless-joker The joker without trumps|A suitless joker
24 suitless-joker-following The joker without trumps|Following with a suitless joker
25 joker-lead The joker without trumps|Leading a suitless joker
26 joker-lead-all-suits-led The joker without trumps|The joker lead once every suit is led
27 misere-joker The joker without trumps|The joker in a misère
28 contract-values Contract values|The Avondale table
29 deal-score Scoring a deal|Scoring a suit or no-trump contract
30 misere-score Scoring a deal|Scoring a misère
31 end-check End of the game|When the end is checked
32 win-on-own-contract End of the game|Winning on your own contract
33 lose-at-minus-500 End of the game|Losing at minus 500
34 no-ties End of the game|No ties
"""


def _parse() -> tuple[Ruling, ...]:
    rulings = []
    for line in _TABLE.splitlines():
        head, title = line.split("|")
        number, slug, area = head.split(" ", 2)
        rulings.append(Ruling(int(number), slug, title, area))
    return tuple(rulings)


RULINGS: tuple[Ruling, ...] = _parse()
BY_SLUG: dict[str, Ruling] = {r.slug: r for r in RULINGS}
EXTRA_ANCHORS: dict[str, str] = {"worked-example": "The seed's worked example"}
"""Anchors that are not numbered rulings but that scenarios may cite."""


def anchor_exists(slug: str) -> bool:
    return slug in BY_SLUG or slug in EXTRA_ANCHORS


def unknown_anchor_message(slug: str) -> str:
    """What to say of a cited anchor that does not exist: the nearest ones, if any."""
    hint = did_you_mean(slug, [*BY_SLUG, *EXTRA_ANCHORS])
    return f"no rule anchor {slug!r}{hint} (see `fivehundred rules`)"


def anchor_title(slug: str) -> str:
    ruling = BY_SLUG.get(slug)
    if ruling is not None:
        return f"{ruling.number}. {ruling.title}"
    return EXTRA_ANCHORS.get(slug, slug)
