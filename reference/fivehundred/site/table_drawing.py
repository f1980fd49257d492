"""A position drawn as a card table, and the stepper that shows one position per step.

The drawing is HTML laid out by the stylesheet (``site/stylesheets/cards.css``, the
``fh-table`` rules): the seats around the table as they sit, North at the top and play
going clockwise, each hand as cards in suit runs, and in the middle the contract, the
trick with its leader (and its winner once complete), the tricks taken and the kitty.
Everything in it is text in reading order with the seats labelled (``role="group"``
and an ``aria-label`` each), so a screen reader reads the position as a hand record.

The stepper is one block: the controls (hidden until the page's script shows them),
the start position, and every later position in an inert ``<template>``.  The
positions come from the reference engine (:mod:`.table_states`); the script only
swaps one for the next, so a page without JavaScript reads as a drawing of the start
followed by the steps table.  Every word comes from :mod:`.labels`.

Each block is written on one line, so the hooks can set it aside before Markdown
and put it back after (``mkdocs_hooks``), as they do for the other generated HTML.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from .card_markup import call_html, card_html, hand_html, suit_html
from .labels import DEFAULT_LANGUAGE, label, seat_name
from .table_states import Frame, Position

STEPPER_CLASS = "fh-stepper"
"""The class of a stepper block; the hooks and the script find the blocks by it."""

_SEAT_COUNTS = (2, 3, 4, 5, 6)


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def _kitty_word(profile_name: str, language: str) -> str:
    """The American sources call the kitty the widow."""
    return label("table.widow" if profile_name.startswith("american") else "table.kitty", language)


def _seat_roles(position: Position, seat: str, language: str) -> list[str]:
    roles = []
    if seat == position.dealer:
        roles.append(label("role.dealer", language))
    if seat == position.declarer:
        roles.append(label("role.declarer", language))
    if seat in position.sitting_out:
        roles.append(label("role.sits-out", language))
    return roles


def _call_note(position: Position, seat: str, language: str) -> str:
    call = position.calls.get(seat)
    if call is None:
        return ""
    if call == "PASS":
        return label("role.passed", language)
    key = "role.high-bid" if seat == position.high_bidder else "role.bid"
    return label(key, language, call=call_html(call, language))


def _seat_box(position: Position, place: int, language: str) -> str:
    seat = position.seats[place]
    name = seat_name(seat, language)
    roles = _seat_roles(position, seat, language)
    cards = position.hands.get(seat, ())
    classes = [f"fh-box fh-at{place}"]
    if seat == position.to_act:
        classes.append("fh-acting")
        roles.append(label("role.to-act", language))
    if seat in position.sitting_out:
        classes.append("fh-out")
    count_key = "table.card-count-one" if len(cards) == 1 else "table.card-count"
    count = label(count_key, language, count=str(len(cards)))
    spoken = ", ".join([name, *roles, count])
    who = f"<strong>{html.escape(name)}</strong>"
    if roles:
        who += " <small>" + html.escape(" · ".join(roles)) + "</small>"
    note = _call_note(position, seat, language)
    if note:
        who += f' <span class="fh-call">{note}</span>'
    hand = (
        hand_html(list(cards), language)
        if cards
        else f"<em>{label('table.no-cards', language)}</em>"
    )
    if seat == position.declarer and position.exposed:
        hand += f' <small class="fh-note">{label("table.exposed", language)}</small>'
    extra = ""
    if seat == position.declarer and position.discards:
        words = label("table.discards", language)
        discards = hand_html(list(position.discards), language)
        extra = f'<span class="fh-aside"><small>{words}</small> {discards}</span>'
    return (
        f'<div class="{" ".join(classes)}" role="group" aria-label="{_attr(spoken)}">'
        f'<span class="fh-who">{who}</span><span class="fh-hand">{hand}</span>{extra}</div>'
    )


def _trick(position: Position, language: str) -> str:
    places = {seat: index for index, seat in enumerate(position.seats)}
    label_text = label("table.trick", language)
    if not position.trick:
        empty = label("table.trick-empty", language)
        return (
            f'<div class="fh-trick fh-empty" aria-label="{_attr(label_text)}">'
            f"<small>{empty}</small></div>"
        )
    plays = []
    for order, (seat, card) in enumerate(position.trick):
        classes = [f"fh-play fh-at{places.get(seat, 0)}"]
        notes = []
        if order == 0:
            classes.append("fh-lead")
            notes.append(label("table.led", language))
        if seat == position.trick_winner:
            classes.append("fh-win")
            notes.append(label("table.won", language))
        if card == position.moved and order == len(position.trick) - 1:
            classes.append("fh-moved")
        small = f" <small>{' · '.join(notes)}</small>" if notes else ""
        plays.append(
            f'<span class="{" ".join(classes)}"><small class="fh-from">{html.escape(seat)}</small> '
            f"{card_html(card, language)}{small}</span>"
        )
    size = _size_class(len(position.seats))
    return (
        f'<div class="fh-trick {size}" role="group" aria-label="{_attr(label_text)}">'
        + "".join(plays)
        + "</div>"
    )


def _size_class(seats: int) -> str:
    return f"fh-n{seats if seats in _SEAT_COUNTS else 4}"


def _facts(position: Position, language: str) -> list[str]:
    facts = []
    if position.contract is not None and position.declarer is not None:
        facts.append(
            label(
                "table.contract",
                language,
                call=call_html(position.contract, language),
                seat=position.declarer,
            )
        )
    elif position.phase == "auction":
        facts.append(label("table.no-contract", language))
    if position.nominated:
        facts.append(label("table.nominated", language, suit=suit_html(position.nominated)))
    if position.phase == "over" and position.contract is None and not any(position.tricks.values()):
        facts.append(label("table.thrown-in", language))
    if position.phase == "none":
        facts.append(label("table.between-deals", language))
    if position.game_over:
        facts.append(f"<strong>{label('table.game-over', language)}</strong>")
    return facts


def _sides(values: Mapping[str, int]) -> str:
    """Tricks or scores per side, each side kept on one line."""
    return " · ".join(
        f'<span class="fh-side">{html.escape(str(k))} {v}</span>' for k, v in values.items()
    )


def table_html(position: Position, profile_name: str, language: str = DEFAULT_LANGUAGE) -> str:
    """One position as a card table, on one line of HTML."""
    kitty = _kitty_word(profile_name, language)
    size = _size_class(len(position.seats))
    boxes = "".join(_seat_box(position, place, language) for place in range(len(position.seats)))
    middle = []
    facts = _facts(position, language)
    if facts:
        middle.append(f'<p class="fh-facts">{" · ".join(facts)}</p>')
    if position.phase in ("play", "over") or position.trick:
        middle.append(_trick(position, language))
        if position.trick_winner is not None:
            won = label("table.won-by", language, seat=seat_name(position.trick_winner, language))
            middle.append(f'<p class="fh-facts fh-won">{html.escape(won)}</p>')
    if position.tricks and position.phase in ("play", "over"):
        words = label("table.tricks", language)
        middle.append(f'<p class="fh-facts"><small>{words}</small> {_sides(position.tricks)}</p>')
    if position.kitty:
        words = label("table.kitty-face-down", language, name=kitty)
        middle.append(
            f'<p class="fh-facts fh-kitty"><small>{html.escape(words)}</small> '
            f"{hand_html(list(position.kitty), language)}</p>"
        )
    if position.phase in ("none", "over") or any(position.scores.values()):
        words = label("table.scores", language)
        middle.append(f'<p class="fh-facts"><small>{words}</small> {_sides(position.scores)}</p>')
    title = label("table.label", language)
    return (
        f'<div class="fh-table {size}" role="group" aria-label="{_attr(title)}">{boxes}'
        f'<div class="fh-mid">{"".join(middle)}</div></div>'
    )


def stepper_html(
    frames: Sequence[Frame],
    captions: Sequence[str],
    profile_name: str,
    language: str = DEFAULT_LANGUAGE,
    rows: str | None = None,
) -> str:
    """The start drawn, each later position in a template, and the controls; one line.

    ``captions`` are one per frame (HTML): what the step did and how it went.  ``rows``
    is a CSS selector of the page's steps table, whose row the script marks as current."""
    if not frames:
        return ""
    if len(frames) == 1:  # nothing to step through: the start alone, no controls
        drawing = table_html(frames[0].position, profile_name, language)
        return (
            f'<div class="{STEPPER_CLASS} fh-still"><div class="fh-stage">'
            f'<div class="fh-caption">{captions[0]}</div>{drawing}</div></div>'
        )
    total = str(len(frames) - 1)
    status_key = "step.start-status-one" if total == "1" else "step.start-status"
    status = label(status_key, language, total=total)
    attrs = (
        f'class="{STEPPER_CLASS}" role="group" tabindex="0" '
        f'data-status="{_attr(label("step.status", language, number="{number}", total=total))}" '
        f'data-start="{_attr(status)}" aria-label="{_attr(label("step.help", language))}"'
    )
    if rows:
        attrs += f' data-rows="{_attr(rows)}"'
    controls = (
        '<div class="fh-controls" hidden>'
        '<button type="button" class="md-button fh-prev">'
        f"{label('step.previous', language)}</button>"
        f'<span class="fh-status">{html.escape(status)}</span>'
        '<button type="button" class="md-button fh-next">'
        f"{label('step.next', language)}</button>"
        '<span class="fh-sr fh-said" aria-live="polite"></span>'
        "</div>"
    )
    stages = []
    for frame, caption in zip(frames, captions, strict=True):
        drawing = table_html(frame.position, profile_name, language)
        body = f'<div class="fh-caption">{caption}</div>{drawing}'
        if frame.index is None:
            stages.append(f'<div class="fh-stage">{body}</div>')
        else:
            stages.append(f'<template class="fh-frame">{body}</template>')
    return f"<div {attrs}>{controls}{''.join(stages)}</div>"
