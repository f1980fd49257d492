"""The drawn table and its stepper: positions from the reference, seats where they sit,
every word from the labels table."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from fivehundred.engine import Code
from fivehundred.scenarios import Scenario
from fivehundred.scenarios.loading.corpus import load_corpus
from fivehundred.site.generator import drawn_steps, scenario_page, setup_markdown
from fivehundred.site.labels import LABELS, label, reason, seat_name
from fivehundred.site.table_drawing import table_html
from fivehundred.site.table_states import frames

STEPPER_JS = Path(__file__).resolve().parents[2] / "site" / "javascripts" / "stepper.js"


@cache
def _scenario(scenario_id: str) -> Scenario:
    return next(s for s in load_corpus().scenarios if s.id == scenario_id)


def _box(drawing: str, place: int) -> str:
    """The seat box at ``place`` (0 = North) of one drawn position."""
    match = re.search(rf'<div class="fh-box fh-at{place}[ "].*?</span></div>', drawing)
    assert match, f"no seat at place {place}"
    return match.group(0)


def test_the_start_of_a_play_scenario_puts_each_hand_at_its_seat() -> None:
    scenario = _scenario("4EDJ")  # N A♠, E 4♥, S 5♠, W 6♠; N declares 6♠ and leads
    start = frames(scenario)[0]
    assert start.index is None and start.outcome == "start"
    drawing = table_html(start.position, scenario.profile_name)
    assert 'aria-label="North, declarer, to act, 1 card"' in _box(drawing, 0)
    assert ">A♠<" in _box(drawing, 0)
    assert ">4♥<" in _box(drawing, 1) and "fh-red" in _box(drawing, 1)
    assert ">5♠<" in _box(drawing, 2)
    assert "West" in _box(drawing, 3) and "dealer" in _box(drawing, 3)
    assert "contract" in drawing and re.search(r"NS 6</span> · <span[^>]*>EW 3", drawing)


def test_stepping_moves_each_card_to_the_trick_and_gives_the_trick_to_its_winner() -> None:
    found = frames(_scenario("4EDJ"))
    assert len(found) == len(_scenario("4EDJ").steps) + 1
    first = found[1].position
    assert first.hands["N"] == () and first.trick == (("N", "AS"),) and first.moved == "AS"
    assert first.trick_winner is None
    complete = found[4].position
    assert [seat for seat, _ in complete.trick] == ["N", "E", "S", "W"]
    assert complete.trick_winner == "N"
    assert complete.tricks == {"NS": 7, "EW": 3}
    assert complete.phase == "over"
    refused = found[6]
    assert (refused.outcome, refused.code) == ("rejected", "deal-over")
    assert found[5].outcome == "check" and found[5].position == complete


def test_the_stepper_has_one_template_per_step_and_says_why_a_step_is_refused() -> None:
    scenario = _scenario("4EDJ")
    block = drawn_steps(scenario)
    assert "\n" not in block  # one line: the hooks set it aside from Markdown
    assert block.count('<template class="fh-frame">') == len(scenario.steps)
    assert block.count('<div class="fh-stage">') == 1
    assert '<div class="fh-controls" hidden>' in block  # shown by the script only
    assert reason("deal-over") in block
    assert f"<strong>{label('step.start')}</strong>" in block
    assert 'data-status="Step {number} of 7"' in block


def test_six_seats_sit_round_the_table_and_the_trick_goes_round_to_south() -> None:
    scenario = _scenario("3RPQ")
    found = frames(scenario)
    drawing = table_html(found[0].position, scenario.profile_name)
    assert 'class="fh-table fh-n6"' in drawing
    assert [seat_name(s) for s in ("P5", "P6")] == ["Fifth player", "Sixth player"]
    assert "Fifth player" in _box(drawing, 4) and "Sixth player" in _box(drawing, 5)
    last = found[-2].position  # after South's ace, before the final check
    assert [s for s, _ in last.trick] == ["W", "P5", "P6", "N", "E", "S"]
    assert last.trick_winner == "S"
    refused = next(f for f in found if f.outcome == "rejected")
    assert refused.code == "not-your-turn"
    assert refused.position.trick == (("W", "2C"), ("P5", "5C"))


def test_a_deal_from_a_deck_draws_the_dealt_hands_and_the_kitty() -> None:
    scenario = next(
        s for s in load_corpus().scenarios if s.setup.kind == "deck" and s.profile is None
    )
    start = frames(scenario)[0].position
    assert sum(len(h) for h in start.hands.values()) + len(start.kitty) == 43
    assert len(start.kitty) == 3
    lines = setup_markdown(scenario, drawn=True)
    assert any('<div class="fh-stepper"' in line for line in lines)
    assert not any('class="fh-hand"><span class="fh-seat">' in line for line in lines)


def test_a_scenario_page_carries_its_stepper_tied_to_its_steps_table() -> None:
    from fivehundred.site.generator import SiteModel

    scenario = _scenario("4EDJ")
    page = scenario_page(scenario, SiteModel([scenario]))
    assert 'data-rows="table.fh-steps"' in page
    assert page.index('class="fh-stepper"') < page.index('<table class="fh-steps">')


def test_every_language_has_every_label_and_every_code_a_reason() -> None:
    english = set(LABELS["en"])
    for language, table in LABELS.items():
        assert set(table) == english, f"{language} lacks {sorted(english - set(table))}"
    for code in Code:
        assert reason(code.value) != code.value, f"no player's reason for {code.value}"


def test_the_stepper_script_writes_no_word_of_its_own() -> None:
    """Its words come from the page (the labels table), so a translation needs no script."""
    script = STEPPER_JS.read_text(encoding="utf-8")
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", script, flags=re.DOTALL)
    strings = re.findall(r'"([^"]*)"', code)
    not_words = {"use strict", "tbody tr"}  # a directive and a CSS selector
    words = [s for s in strings if " " in s.strip() and s not in not_words]
    assert not words, f"English in the script: {words}"


def test_every_label_is_used_by_the_site() -> None:
    """The table holds the words the site shows, no more: a key nobody asks for would be
    translated for nothing."""
    site = Path(__file__).resolve().parents[2] / "reference" / "fivehundred" / "site"
    code = "".join(
        p.read_text(encoding="utf-8") for p in site.glob("*.py") if p.name != "labels.py"
    )
    families = ("seat.", "reason.", "source.", "card.", "phase.", "rules.")  # computed keys
    unused = [
        key
        for key in LABELS["en"]
        if not key.startswith(families) and f'"{key}"' not in code and f"'{key}'" not in code
    ]
    assert not unused, unused


def test_a_thrown_in_deal_and_the_end_of_the_game_are_said() -> None:
    over = [
        f
        for s in load_corpus().scenarios
        if s.profile is None
        for f in frames(s)
        if f.position.game_over
    ]
    assert over and label("table.game-over") in table_html(over[0].position, "australian-4")
    thrown = [
        f.position
        for s in load_corpus().scenarios
        if s.profile is None and "auction-end" in s.rules
        for f in frames(s)
        if f.position.phase == "over" and f.position.contract is None
    ]
    assert thrown and label("table.thrown-in") in table_html(thrown[0], "australian-4")
