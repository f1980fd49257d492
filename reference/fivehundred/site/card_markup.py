"""Cards, suits and calls as HTML: the one way every page of the site draws them.

The scenario pages, the worked examples, the drawn table and the disputes page all
show a card as a ``<span class="fh-card">`` with its suit symbol, red suits and the
joker marked by a class the stylesheet colours, so a card looks the same wherever it
appears and the browser test can find it.  The few words among them (the joker,
``pass``, ``misère``, ``none``) come from :mod:`.labels` in the page's language, so a
page is written in its language from the start and never translated afterwards.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Sequence

from ..engine import NotationError, card_token, parse_bid, parse_card
from ..engine.cards import card_display, card_suit, sort_key
from ..scenarios.derived.narration import suit_runs, suit_symbol
from .labels import DEFAULT_LANGUAGE, label

_RED = frozenset({"D", "H"})


def _escape(text: str) -> str:
    return html.escape(text, quote=False)


@functools.cache
def card_html(token: str, language: str = DEFAULT_LANGUAGE) -> str:
    """One card with its suit symbol; red suits and the joker get a CSS class (kept per
    token: a site draws the same 53 cards hundreds of thousands of times)."""
    try:
        card = parse_card(token)
    except NotationError:
        return f"<code>{_escape(token)}</code>"
    suit = card_suit(card)
    if suit is None:
        return f'<span class="fh-card fh-joker">{label("card.joker", language)}</span>'
    colour = " fh-red" if suit.letter in _RED else ""
    return f'<span class="fh-card{colour}">{_escape(card_display(card))}</span>'


def none_html(language: str = DEFAULT_LANGUAGE) -> str:
    """What an empty list of cards or suits reads as."""
    return f"<em>{label('value.none', language)}</em>"


def cards_html(
    tokens: Sequence[str],
    *,
    group: bool = True,
    in_order: bool = False,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """Cards in display order (by suit, high first), or ``in_order`` as given (a deck)."""
    if not tokens:
        return none_html(language)
    try:
        cards = [parse_card(t) for t in tokens]
    except NotationError:
        return " ".join(card_html(t, language) for t in tokens)
    if not in_order:
        cards.sort(key=sort_key)
    runs = suit_runs(cards) if group else [cards]
    return " &ensp;".join(" ".join(card_html(card_token(c), language) for c in run) for run in runs)


def suit_html(letter: str) -> str:
    colour = " fh-red" if letter in _RED else ""
    return f'<span class="fh-suit{colour}">{suit_symbol(letter)}</span>'


def call_html(token: str, language: str = DEFAULT_LANGUAGE) -> str:
    """A call or contract: ``7♥`` with a red heart, ``misère``, ``open misère``, ``pass``."""
    if token == "PASS":
        return label("call.pass", language)
    try:
        bid = parse_bid(token)
    except NotationError:
        return f"<code>{_escape(token)}</code>"
    if bid.strain is None:
        return label("call.open-misere" if token == "OMIS" else "call.misere", language)
    letter = bid.strain.token
    if letter == "NT":
        return f'<span class="fh-bid">{bid.level}NT</span>'
    colour = " fh-red" if letter in _RED else ""
    return f'<span class="fh-bid{colour}">{bid.level}{suit_symbol(letter)}</span>'


def hand_html(tokens: Sequence[str], language: str = DEFAULT_LANGUAGE) -> str:
    """A hand in display order, each suit a run (``<span class="fh-srun">``)."""
    if not tokens:
        return none_html(language)
    try:
        cards = sorted((parse_card(t) for t in tokens), key=sort_key)
    except NotationError:
        return " ".join(card_html(t, language) for t in tokens)
    return " ".join(
        '<span class="fh-srun">'
        + " ".join(card_html(card_token(c), language) for c in run)
        + "</span>"
        for run in suit_runs(cards)
    )
