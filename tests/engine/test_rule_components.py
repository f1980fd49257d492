"""The rule components a profile is made of: each decides its family's rules, toggles
replace or adjust one, and profiles that share a rule share an equal component."""

from __future__ import annotations

import dataclasses

import pytest
from fivehundred.engine import (
    DEFAULT_PROFILE,
    PASS,
    VARIANTS,
    Seat,
    Suit,
    get_profile,
    parse_bid,
    rule_points,
    rule_value,
)
from fivehundred.engine.cards import ALL_SUITS_MASK, SUITS
from fivehundred.engine.rejections import Code
from fivehundred.engine.rules import (
    COMPONENTS,
    Auction,
    GameEnd,
    JokerRules,
    Ladder,
    Next,
    Pack,
    Table,
)


def test_rule_points_are_the_components_fields() -> None:
    points = rule_points()
    assert points[0] == "table.seats" and "table.seat_names" not in points
    assert {p.split(".")[0] for p in points} == set(COMPONENTS)
    assert rule_value(DEFAULT_PROFILE, "ladder.misere_needs") == parse_bid("7S")
    assert rule_value(get_profile("american-4"), "auction.procedure") == "one-round"


def test_profiles_that_share_a_rule_share_an_equal_component() -> None:
    american, three = get_profile("american-3"), get_profile("three-handed")
    assert american.joker == three.joker and american.pack == three.pack
    assert american.auction != three.auction and american.ladder != three.ladder
    assert get_profile("american-3") is american  # profiles stay cached by identity


def test_each_toggle_changes_only_the_components_it_names() -> None:
    """A toggle adjusts the components of its rule and leaves the others equal (the
    seating forms change the table and the pack together)."""
    for name, variant in VARIANTS.items():
        plain = get_profile(variant.applies_to[0])
        toggled = get_profile(variant.applies_to[0], [name])
        changed = {c for c in COMPONENTS if getattr(plain, c) != getattr(toggled, c)}
        assert changed, name
        assert changed <= {"table", "pack"} or len(changed) == 1, (
            name,
            changed,
        )


def test_the_auction_says_what_follows_a_call() -> None:
    bid = parse_bid("7H")
    calls = [(Seat.E, bid), (Seat.S, PASS), (Seat.W, PASS)]
    until = Auction()
    assert until.after_call(calls, True, 2, 4, True) is Next.LEFT_UNPASSED
    assert until.after_call([*calls, (Seat.N, PASS)], True, 3, 4, True) is Next.WON
    raising = Auction(raise_after_all_pass=True)
    assert raising.after_call([*calls, (Seat.N, PASS)], True, 3, 4, True) is Next.RAISE
    assert until.after_call([(s, PASS) for s in Seat], True, 4, 4, False) is Next.ALL_PASSED
    one = Auction(procedure="one-round")
    assert one.after_call(calls, True, 2, 4, True) is Next.LEFT
    assert one.after_call([*calls, (Seat.N, PASS)], True, 3, 4, True) is Next.WON
    again = Auction(procedure="passes-not-final")
    assert not again.pass_is_final and until.pass_is_final
    assert again.after_call([*calls, (Seat.N, PASS)], True, 3, 4, True) is Next.WON
    assert again.after_call(calls[:2], True, 1, 4, True) is Next.LEFT


def test_the_joker_component_lists_and_checks_its_leads() -> None:
    rules = JokerRules()
    spades_led = 1 << Suit.SPADES
    assert Suit.SPADES not in rules.lead_suits(spades_led, last_trick=False)
    assert rules.lead_suits(ALL_SUITS_MASK, last_trick=False) == []
    assert rules.lead_suits(ALL_SUITS_MASK, last_trick=True) == list(SUITS)
    refused = rules.lead_rejection(spades_led, False, Suit.SPADES)
    assert refused is not None and refused.code is Code.JOKER_SUIT_ALREADY_LED
    last_only = JokerRules(lead_last_trick_only=True)
    assert last_only.lead_suits(0, last_trick=False) == []
    refused = last_only.lead_rejection(0, False, Suit.HEARTS)
    assert refused is not None and refused.code is Code.JOKER_LEAD_LAST_TRICK_ONLY
    assert JokerRules(lead_unled_suit=False).lead_suits(ALL_SUITS_MASK, False) == list(SUITS)
    assert rules.forced(misere=True, suitless=True)
    assert not JokerRules(must_play_in_misere=False).forced(misere=True, suitless=True)


def test_a_table_and_a_pack_that_cannot_be_dealt_are_refused() -> None:
    with pytest.raises(ValueError, match="every seat needs a side"):
        Table(4, ((0, 2), (1,)))
    with pytest.raises(ValueError, match="one name for each seat"):
        Table(3, ((0,), (1,), (2,)))
    pack = DEFAULT_PROFILE.pack
    with pytest.raises(ValueError, match="hand size"):
        dataclasses.replace(pack, packets=((3, 1), (3, 1), (3, 1)))
    assert pack.fits(4) and not pack.fits(3)
    with pytest.raises(ValueError, match="whole deck"):
        DEFAULT_PROFILE.adjusted("table", seats=3, sides=((0,), (1,), (2,)), seat_names=("N",) * 3)


def test_the_pack_deals_round_the_seats_after_the_dealer() -> None:
    pack = Pack(tuple(range(10)), 2, 2, ((1, 1), (1, 1)))  # type: ignore[arg-type]
    hands, kitty, dead = pack.deal(list(range(10)), Seat.N, (1, 2, 3, 0), 4)  # type: ignore[arg-type]
    assert hands == [[3, 8], [0, 5], [1, 6], [2, 7]] and kitty == [4, 9] and dead == []


def test_the_ladder_opens_misere_only_after_its_bid() -> None:
    ladder: Ladder = DEFAULT_PROFILE.ladder
    misere = parse_bid("MIS")
    assert misere not in ladder.calls_above(-1)
    assert misere in ladder.calls_above(ladder.rank[parse_bid("7S")])
    assert ladder.rank_of(parse_bid("6S")) == 0 and ladder.rank_of(parse_bid("OMIS")) is not None


def test_the_end_of_the_game_bars_and_refuses_impossible_starts() -> None:
    end = GameEnd(win_score=500, lose_score=None, rule="first-to-score", barred_at=-500)
    assert end.barred([-500, 10, -600]) == {0, 2}
    assert end.start_problem([500, 0, 0]) is not None
    assert end.start_problem([-500, -510, -700]) is not None
    assert end.start_problem([0, 0, 0]) is None
    assert DEFAULT_PROFILE.end.start_problem([0, -500]) is not None
