"""Profiles and variant toggles: the registry, each profile's deck, deal, ladder, auction,
joker, scoring and end of game, and random complete games under every profile and toggle.

The default profile's own rules are tested in ``test_rulings.py``; here it appears only
where a toggle changes it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

import pytest
from fivehundred.engine import (
    ALL_PASS_NT,
    BLIND_MISERE,
    DEFAULT_PROFILE,
    JOKER,
    MISERE,
    NOMINATIONS,
    OPEN_MISERE,
    PASS,
    PROFILE_DESCRIPTIONS,
    PROFILE_NAMES,
    SUIT_BIDS,
    THROWN_IN,
    VARIANTS,
    Bid,
    Card,
    Code,
    Deal,
    DealResult,
    Discard,
    Game,
    IllegalAction,
    Phase,
    Play,
    Profile,
    Seat,
    SetupError,
    Side,
    Strain,
    Suit,
    card_strength,
    card_token,
    cards_in,
    deal_all,
    first_dealer,
    get_profile,
    is_numeral,
    make_numeral,
    parse_bid,
    parse_call,
    parse_card,
    profile_named,
    score_deal,
    shuffled_deck,
    sorted_cards,
    trick_rules,
    variants_for,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def tokens(cs: Iterable[Card]) -> list[str]:
    return [card_token(c) for c in sorted_cards(cs)]


def calls(deal: Deal, text: str) -> None:
    for token in text.split():
        assert deal.to_act is not None
        deal.apply(deal.to_act, parse_call(token))


def play(deal: Deal, text: str) -> None:
    """Play cards in turn for whoever is to act (``JK:H`` leads the joker naming hearts)."""
    for token in text.split():
        assert deal.to_act is not None
        card, _, named = token.partition(":")
        deal.apply(deal.to_act, Play(parse_card(card), Suit.parse(named) if named else None))


def finish_randomly(deal: Deal, rng: random.Random) -> None:
    while deal.result is None:
        assert deal.to_act is not None
        deal.apply(deal.to_act, rng.choice(list(deal.legal_actions())))


def ladder(profile: Profile) -> list[str]:
    return [b.token for b in profile.bid_order]


AVONDALE = [f"{level}{s}" for level in range(6, 11) for s in ("S", "C", "D", "H", "NT")]


# ---- the registry ------------------------------------------------------------------------


def test_registry_names_descriptions_and_sources() -> None:
    assert set(PROFILE_NAMES) == {
        "australian-4",
        "american-2",
        "american-3",
        "three-handed",
        "american-4",
        "american-5",
        "american-6",
    }
    for name in PROFILE_NAMES:
        profile = profile_named(name)
        assert profile.name == name
        assert PROFILE_DESCRIPTIONS[name]
        assert profile.sources["pack.deck"] and profile.sources["end.rule"]
        assert profile.incomplete == bool(profile.missing)
    for variant in VARIANTS.values():
        assert variant.description and variant.source and variant.applies_to


def test_default_profile_is_the_registry_entry_and_unchanged() -> None:
    assert profile_named("australian-4") is DEFAULT_PROFILE
    assert get_profile(None) is DEFAULT_PROFILE
    assert get_profile("australian-4") is DEFAULT_PROFILE
    assert DEFAULT_PROFILE.variants == () and not DEFAULT_PROFILE.incomplete
    assert DEFAULT_PROFILE.seats == 4 and DEFAULT_PROFILE.sides == ((0, 2), (1, 3))


def test_same_name_and_variants_give_the_same_object() -> None:
    a = profile_named("australian-4", ["no-misere", "defender-cap-490"])
    b = profile_named("australian-4", ("defender-cap-490", "no-misere", "no-misere"))
    assert a is b and a is not DEFAULT_PROFILE
    assert a.variants == ("defender-cap-490", "no-misere")
    assert "variant no-misere" in a.sources


def test_unknown_and_misapplied_variants_are_refused() -> None:
    with pytest.raises(KeyError, match="unknown profile"):
        profile_named("australian-5")
    with pytest.raises(KeyError, match="unknown variant"):
        profile_named("australian-4", ["no-jokers"])
    with pytest.raises(ValueError, match="does not apply"):
        profile_named("american-4", ["no-misere"])
    with pytest.raises(ValueError, match="cannot be combined"):
        profile_named("australian-4", ["defender-cap-490", "defender-cap-480"])
    with pytest.raises(ValueError, match="cannot be combined"):
        profile_named("australian-4", ["no-misere", "blind-misere"])
    assert get_profile("american-4", ["all-pass-no-trumps"]) is profile_named(
        "american-4", ["all-pass-no-trumps"]
    )
    with pytest.raises(KeyError, match="unknown profile"):
        get_profile("australian-5")
    with pytest.raises(ValueError, match="does not apply"):
        get_profile("american-4", ["blind-misere"])


def test_incomplete_profiles_list_their_missing_points() -> None:
    assert profile_named("american-5").incomplete
    assert any("seating" in m for m in profile_named("american-5").missing)
    short = profile_named("american-2", ["deck-24"])
    assert short.incomplete and any("24-card" in m for m in short.missing)


# ---- decks and deals ---------------------------------------------------------------------


def _ranks(profile: Profile, suit: str) -> list[str]:
    return [t[:-1] for t in tokens(profile.deck) if t.endswith(suit) and t != "JK"]


@pytest.mark.parametrize(
    ("name", "size", "spades", "hearts", "joker"),
    [
        ("australian-4", 43, "A K Q J 10 9 8 7 6 5", "A K Q J 10 9 8 7 6 5 4", True),
        ("american-4", 43, "A K Q J 10 9 8 7 6 5", "A K Q J 10 9 8 7 6 5 4", True),
        ("american-2", 33, "A K Q J 10 9 8 7", "A K Q J 10 9 8 7", True),
        ("american-3", 33, "A K Q J 10 9 8 7", "A K Q J 10 9 8 7", True),
        ("three-handed", 33, "A K Q J 10 9 8 7", "A K Q J 10 9 8 7", True),
        ("american-5", 53, "A K Q J 10 9 8 7 6 5 4 3 2", "A K Q J 10 9 8 7 6 5 4 3 2", True),
        (
            "american-6",
            63,
            "A K Q J 12 11 10 9 8 7 6 5 4 3 2",
            "A K Q J 13 12 11 10 9 8 7 6 5 4 3 2",
            True,
        ),
    ],
)
def test_deck(name: str, size: int, spades: str, hearts: str, joker: bool) -> None:
    profile = profile_named(name)
    assert len(profile.deck) == len(set(profile.deck)) == size
    assert _ranks(profile, "S") == spades.split()
    assert _ranks(profile, "H") == hearts.split()
    assert (JOKER in profile.deck) is joker


def test_six_handed_deck_has_red_thirteens_only() -> None:
    profile = profile_named("american-6")
    assert _ranks(profile, "D") == _ranks(profile, "H")
    assert _ranks(profile, "C") == _ranks(profile, "S")
    assert sum(is_numeral(c) for c in profile.deck) == 10
    assert tokens(c for c in profile.deck if is_numeral(c)) == [
        "12S", "11S", "12C", "11C", "13D", "12D", "11D", "13H", "12H", "11H"
    ]  # fmt: skip


def test_deck_24_toggle() -> None:
    profile = profile_named("american-2", ["deck-24"])
    assert len(profile.deck) == 24 and JOKER not in profile.deck
    assert _ranks(profile, "C") == ["A", "K", "Q", "J", "10", "9"]
    assert profile.kitty_size == 2


@pytest.mark.parametrize(
    ("name", "variants", "seats", "kitty", "dead"),
    [
        ("australian-4", (), 4, 3, 0),
        ("american-2", (), 2, 3, 10),
        ("american-2", ("deck-24",), 2, 2, 2),
        ("american-3", (), 3, 3, 0),
        ("three-handed", (), 3, 3, 0),
        ("american-4", (), 4, 3, 0),
        ("american-5", (), 5, 3, 0),
        ("american-6", (), 6, 3, 0),
    ],
)
def test_deal_sizes(
    name: str, variants: tuple[str, ...], seats: int, kitty: int, dead: int
) -> None:
    profile = profile_named(name, variants)
    deck = shuffled_deck(profile, random.Random(7))
    hands, kit, out = deal_all(profile, Seat(seats - 1), deck)
    assert [len(h) for h in hands] == [10] * seats
    assert (len(kit), len(out)) == (kitty, dead)
    assert sorted(c for h in hands for c in h) == sorted(
        c for c in deck if c not in kit and c not in out
    )
    deal = Deal.from_deck(profile, Seat(seats - 1), deck)
    assert [len(deal.hand(s)) for s in profile.seat_list] == [10] * seats
    assert deal.to_act == Seat(0)  # left of the dealer, the last seat
    assert bin(deal.dead).count("1") == dead


def test_american_packets_put_the_widow_after_the_first_round() -> None:
    """Seed 002 «Сдача»: 3 to each, the widow of 3, then 4 each, then 3 each."""
    profile = profile_named("american-4")
    deck = sorted(profile.deck)
    hands, kitty, _ = deal_all(profile, W, deck)
    assert kitty == deck[12:15]
    assert hands[N][:3] == deck[0:3] and hands[E][:3] == deck[3:6]
    assert hands[N][3:7] == deck[15:19]


def test_two_handed_dead_hand_is_dealt_after_the_dealer() -> None:
    profile = profile_named("american-2")
    deck = sorted(profile.deck)
    hands, kitty, dead = deal_all(profile, E, deck)  # seat 1 (E) deals; N is left of it
    assert hands[N][:3] == deck[0:3] and hands[E][:3] == deck[3:6]
    assert dead[:3] == deck[6:9] and kitty == deck[9:12]


def test_six_handed_numerals_rank_between_ten_and_jack() -> None:
    j, c13, c12, c11, ten = (parse_card(t) for t in ("JH", "13H", "12H", "11H", "10H"))
    assert make_numeral(Suit.HEARTS, 13) == c13 and card_token(c11) == "11H"
    assert card_strength(j) > card_strength(c13) > card_strength(c12) > card_strength(c11)
    assert card_strength(c11) > card_strength(ten)
    spades = trick_rules(Suit.SPADES, None)
    hearts = trick_rules(Suit.HEARTS, None)
    assert spades.winner([c11, j, ten], Suit.HEARTS) == 1
    assert spades.winner([ten, c12], Suit.HEARTS) == 1
    # In hearts the jack of hearts is the right bower and the numerals stay plain hearts.
    assert hearts.suit_of[parse_card("11D")] == Suit.DIAMONDS
    assert hearts.suit_of[parse_card("JD")] == Suit.HEARTS
    assert hearts.power[j] > hearts.power[parse_card("AH")] > hearts.power[c13]


# ---- bid ladders ---------------------------------------------------------------------------


def test_american_ladder_places_nullo_by_value_between_8s_and_8c() -> None:
    profile = profile_named("american-4")
    expected = list(AVONDALE)
    expected.insert(expected.index("8S") + 1, "MIS")
    assert ladder(profile) == expected
    assert profile.bid_values[MISERE] == 250
    assert [profile.bid_values[b] for b in profile.bid_order] == sorted(profile.bid_values.values())
    assert OPEN_MISERE not in profile.bid_rank


def test_three_handed_ladder_is_avondale_without_misere() -> None:
    profile = profile_named("three-handed")
    assert ladder(profile) == AVONDALE
    assert profile.bid_values[SUIT_BIDS[(8, Strain.DIAMONDS)]] == 280
    assert profile.bid_values[SUIT_BIDS[(10, Strain.NO_TRUMPS)]] == 520


def test_no_misere_removes_both_misères() -> None:
    profile = profile_named("australian-4", ["no-misere"])
    assert ladder(profile) == AVONDALE
    deal = Deal.from_deck(profile, W, shuffled_deck(profile, random.Random(1)))
    calls(deal, "7S")
    assert MISERE not in deal.legal_actions() and OPEN_MISERE not in deal.legal_actions()
    assert deal.rejection(E, MISERE) == deal.rejection(E, Bid("MIS", None, None, MISERE.misere))
    rejection = deal.rejection(E, MISERE)
    assert rejection is not None and rejection.code is Code.BID_NOT_AVAILABLE


def test_misere_without_seven_may_open_the_auction() -> None:
    default = Deal.from_deck(DEFAULT_PROFILE, W, shuffled_deck(DEFAULT_PROFILE, random.Random(1)))
    assert MISERE not in default.legal_actions()
    profile = profile_named("australian-4", ["misere-without-seven"])
    deal = Deal.from_deck(profile, W, shuffled_deck(profile, random.Random(1)))
    assert MISERE in deal.legal_actions()
    calls(deal, "MIS")
    assert deal.high_bid is MISERE
    assert SUIT_BIDS[(7, Strain.NO_TRUMPS)] not in deal.legal_actions()  # still below 8♠
    assert ladder(profile) == ladder(DEFAULT_PROFILE)


def test_blind_misere_ties_with_open_misere_and_is_worth_500() -> None:
    profile = profile_named("australian-4", ["blind-misere"])
    assert profile.bid_values[BLIND_MISERE] == 500
    assert profile.bid_rank[BLIND_MISERE] == profile.bid_rank[OPEN_MISERE]
    assert profile.bid_rank[SUIT_BIDS[(10, Strain.DIAMONDS)]] < profile.bid_rank[BLIND_MISERE]
    assert profile.bid_rank[BLIND_MISERE] < profile.bid_rank[SUIT_BIDS[(10, Strain.HEARTS)]]
    deal = Deal.from_deck(profile, W, shuffled_deck(profile, random.Random(3)))
    assert BLIND_MISERE in deal.legal_actions()  # N's first call
    calls(deal, "PASS OMIS")
    assert BLIND_MISERE not in deal.legal_actions()  # S: same rank as open misère
    rejection = deal.rejection(S, BLIND_MISERE)
    assert rejection is not None and rejection.code is Code.BID_NOT_HIGHER


def test_blind_misere_is_played_as_a_misere() -> None:
    profile = profile_named("australian-4", ["blind-misere"])
    deal = Deal.from_deck(profile, W, shuffled_deck(profile, random.Random(3)))
    calls(deal, "BMIS PASS PASS PASS")
    assert deal.contract is BLIND_MISERE and deal.declarer == N
    deal.apply(N, Discard(tuple(deal.hand(N)[:3])))
    assert deal.sitting_out == S and deal.trick_size == 3 and deal.exposed is None
    finish_randomly(deal, random.Random(0))
    assert deal.result is not None and abs(deal.result.points[0]) == 500


# ---- auctions ------------------------------------------------------------------------------


def test_one_round_auction_each_calls_once_and_the_highest_bid_wins() -> None:
    profile = profile_named("american-4")
    deal = Deal.from_deck(profile, W, shuffled_deck(profile, random.Random(5)))
    calls(deal, "6S 7H PASS")
    assert deal.to_act == W and deal.phase is Phase.AUCTION
    calls(deal, "PASS")
    assert deal.phase is not Phase.AUCTION
    assert deal.contract == parse_bid("7H") and deal.declarer == E


def test_one_round_auction_all_pass_is_thrown_in() -> None:
    profile = profile_named("american-3")
    deal = Deal.from_deck(profile, S, shuffled_deck(profile, random.Random(5)))
    calls(deal, "PASS PASS PASS")
    assert deal.result is THROWN_IN
    game = Game(profile, S)
    game.record(deal.result)
    assert game.scores == [0, 0, 0] and game.dealer == N


def test_three_handed_auction_goes_round_until_two_pass() -> None:
    profile = profile_named("three-handed")
    deal = Deal.from_deck(profile, S, shuffled_deck(profile, random.Random(5)))
    calls(deal, "6S 6C 6D 7S PASS")
    assert deal.phase is Phase.AUCTION and deal.to_act == S
    calls(deal, "PASS")
    assert deal.contract == parse_bid("7S") and deal.declarer == N


def test_all_pass_no_trumps_each_for_himself() -> None:
    profile = profile_named("american-4", ["all-pass-no-trumps"])
    deal = Deal.from_deck(profile, W, shuffled_deck(profile, random.Random(9)))
    kitty = deal.kitty
    calls(deal, "PASS PASS PASS PASS")
    assert deal.contract is ALL_PASS_NT and deal.declarer is None
    assert deal.phase is Phase.PLAY and deal.to_act == N  # eldest hand leads
    assert deal.kitty == kitty and deal.dead == 0  # the widow stays face down, unused
    assert not any(isinstance(a, type(NOMINATIONS[0])) for a in deal.legal_actions())
    finish_randomly(deal, random.Random(1))
    result = deal.result
    assert result is not None and result.contract is ALL_PASS_NT and not result.made
    assert result.points == (10 * deal.tricks_won[0], 10 * deal.tricks_won[1])
    assert sum(result.points) == 100


def test_raise_after_all_pass_is_off_by_default() -> None:
    deal = Deal.from_deck(DEFAULT_PROFILE, W, shuffled_deck(DEFAULT_PROFILE, random.Random(2)))
    calls(deal, "7S PASS PASS PASS")
    assert deal.phase is Phase.KITTY and deal.contract == parse_bid("7S")


def test_raise_after_all_pass_lets_the_bidder_raise_or_stand() -> None:
    profile = profile_named("australian-4", ["raise-after-all-pass"])
    deal = Deal.from_deck(profile, W, shuffled_deck(profile, random.Random(2)))
    calls(deal, "7S PASS PASS PASS")
    assert deal.phase is Phase.AUCTION and deal.to_act == N
    assert PASS in deal.legal_actions() and parse_bid("7S") not in deal.legal_actions()
    calls(deal, "8H")
    assert deal.phase is not Phase.AUCTION
    assert deal.contract == parse_bid("8H") and deal.declarer == N
    stand = Deal.from_deck(profile, W, shuffled_deck(profile, random.Random(2)))
    calls(stand, "PASS 6NT PASS PASS")
    assert stand.to_act == E
    calls(stand, "PASS")
    assert stand.contract == parse_bid("6NT") and stand.declarer == E
    thrown = Deal.from_deck(profile, W, shuffled_deck(profile, random.Random(2)))
    calls(thrown, "PASS PASS PASS PASS")
    assert thrown.result is THROWN_IN


def test_inkles_with_a_raise_the_six_bidder_may_go_to_seven_or_stand_and_throw_in() -> None:
    """inkles with raise-after-all-pass: the raise is a later call, so it offers no six; a
    six bidder who stands leaves a six as the highest bid, and the deal is thrown in."""
    profile = profile_named("australian-4", ["inkles", "raise-after-all-pass"])
    raised = Deal.from_deck(profile, W, shuffled_deck(profile, random.Random(2)))
    calls(raised, "6S PASS PASS PASS")
    assert raised.to_act == N
    assert not any(isinstance(c, Bid) and c.level == 6 for c in raised.legal_actions())
    calls(raised, "7S")
    assert raised.phase is Phase.KITTY and raised.contract == parse_bid("7S")
    stood = Deal.from_deck(profile, W, shuffled_deck(profile, random.Random(2)))
    calls(stood, "6S PASS PASS PASS PASS")
    assert stood.result is THROWN_IN and stood.contract is None


def test_double_nullo_keeps_one_discard_outside_the_misere() -> None:
    """double-nullo changes only misères: a suit declarer discards once and the partner,
    who plays as in every suit contract, never takes the discards."""
    profile = profile_named("australian-4", ["double-nullo"])
    deal = Deal.from_deck(profile, W, sorted(profile.deck))
    calls(deal, "7S PASS PASS PASS")
    deal.apply(N, Discard(tuple(deal.hand(N)[:3])))
    assert deal.phase is Phase.PLAY and deal.to_act == N
    assert all(len(deal.hand(s)) == 10 for s in (N, E, S, W))


def test_double_nullo_blind_misere_partner_plays_and_discards() -> None:
    """With blind-misere too, the blind misère is a misère: the partner discards in turn,
    plays, and the deal ends on the first trick the declaring side wins."""
    profile = profile_named("australian-4", ["double-nullo", "blind-misere"])
    deal = Deal.from_deck(profile, W, shuffled_deck(profile, random.Random(4)))
    calls(deal, "BMIS PASS PASS PASS")
    deal.apply(N, Discard(tuple(deal.hand(N)[:3])))
    assert deal.phase is Phase.KITTY and deal.to_act == S and len(deal.hand(S)) == 13
    deal.apply(S, Discard(tuple(deal.hand(S)[:3])))
    assert deal.trick_size == 4 and deal.sitting_out is None
    finish_randomly(deal, random.Random(4))
    assert deal.result is not None
    ns_tricks = deal.tricks_won[0]
    assert ns_tricks <= 1 and deal.result.made is (ns_tricks == 0)


def test_inkles_refuses_a_six_as_the_contract_of_a_play_start() -> None:
    profile = profile_named("australian-4", ["inkles"])
    hands = [cards("AS"), cards("KS"), cards("QS"), cards("JS")]
    with pytest.raises(SetupError, match="inkles"):
        Deal.in_play(profile, W, parse_bid("6NT"), N, hands, leader=N, tricks=(9, 0))
    deal = Deal.in_play(profile, W, parse_bid("7NT"), N, hands, leader=N, tricks=(9, 0))
    assert deal.phase is Phase.PLAY


# ---- the joker -----------------------------------------------------------------------------


def _three_handed_in_play(profile: Profile, contract: str, **hands: str) -> Deal:
    given = [cards(hands.get(s, "")) for s in ("n", "e", "s")]
    played = profile.hand_size - len(given[0])
    tricks = [1, played - 1, 0]  # N leads, so N won the last trick
    return Deal.in_play(profile, S, parse_bid(contract), N, given, leader=N, tricks=tricks)


def test_american_joker_has_no_nomination_and_may_name_a_suit_already_led() -> None:
    profile = profile_named("american-3")
    deal = _three_handed_in_play(profile, "6NT", n="AS JK", e="KS 7C", s="QS 8C")
    assert not any(str(a).startswith("NOMINATE") for a in deal.legal_actions())
    rejection = deal.rejection(N, NOMINATIONS[Suit.HEARTS])
    assert rejection is not None and rejection.code is Code.NOMINATION_NOT_ALLOWED
    play(deal, "AS KS QS")  # spades led; N wins
    assert "JK:S" in {str(a) for a in deal.legal_actions()}
    play(deal, "JK:S 7C 8C")
    assert deal.result is not None and deal.tricks_won == [3, 7, 0]


def test_american_nullo_does_not_force_the_joker_and_plays_every_trick() -> None:
    profile = profile_named("american-4")
    hands = [cards("AS 7C"), cards("KS JK"), [], cards("QS 8C")]
    deal = Deal.in_play(profile, W, MISERE, N, hands, leader=W, tricks=(0, 8))
    assert deal.sitting_out == S and deal.trick_size == 3
    play(deal, "QS AS")
    assert {str(a) for a in deal.legal_actions()} == {"KS"}
    play(deal, "KS")  # N wins a trick: the Nullo is lost but play goes on
    assert deal.result is None and deal.to_act == N
    play(deal, "7C")
    assert {str(a) for a in deal.legal_actions()} == {"JK"}  # void in clubs: any card
    play(deal, "JK 8C")
    result = deal.result
    assert result is not None and not result.made and result.declarer_tricks == 1
    assert result.points == (-250, 10)  # the defenders: 10 for the declarer's one trick


def test_joker_leads_last_trick_only() -> None:
    profile = profile_named("australian-4", ["joker-leads-last-trick-only"])
    hands = [cards("JK 5C"), cards("KS 6C"), cards("QS 7C"), cards("JS 8C")]
    early = Deal.in_play(profile, W, parse_bid("6NT"), N, hands, leader=N, tricks=(8, 0))
    assert {str(a) for a in early.legal_actions()} == {"5C"}
    last = Deal.in_play(
        profile, W, parse_bid("6NT"), N, [h[:1] for h in hands], leader=N, tricks=(9, 0)
    )
    assert "JK:H" in {str(a) for a in last.legal_actions()}
    play(last, "JK:S KS QS JS")
    assert last.result is not None
    # The default profile lets the joker lead name an unled suit before the last trick.
    default = Deal.in_play(DEFAULT_PROFILE, W, parse_bid("6NT"), N, hands, leader=N, tricks=(8, 0))
    assert "JK:H" in {str(a) for a in default.legal_actions()}


# ---- scoring -------------------------------------------------------------------------------


def test_three_handed_defenders_score_their_own_tricks() -> None:
    profile = profile_named("three-handed")
    result = score_deal(profile, parse_bid("8D"), E, 9, side_tricks=[0, 9, 1])
    assert result.made and result.side_points == (0, 280, 10)  # seed 003: 8♦ with 9 is 280
    assert result.declaring_side == Side(1)
    lost = score_deal(profile, parse_bid("7NT"), N, 5, side_tricks=[5, 3, 2])
    assert lost.side_points == (-220, 30, 20)
    slam = score_deal(profile, parse_bid("6S"), S, 10, side_tricks=[0, 0, 10])
    assert slam.side_points == (0, 0, 250)


def test_three_handed_play_tracks_tricks_by_player() -> None:
    profile = profile_named("three-handed")
    deal = _three_handed_in_play(profile, "6H", n="AS AC", e="KS KC", s="QS 7H")
    play(deal, "AS KS QS AC KC 7H")
    assert deal.tricks_won == [2, 7, 1]


def test_six_handed_misere_lays_down_both_partners() -> None:
    profile = profile_named("american-6")
    deal = Deal.from_deck(profile, Seat(5), shuffled_deck(profile, random.Random(4)))
    calls(deal, "PASS PASS MIS PASS PASS PASS")
    assert deal.contract is MISERE and deal.declarer == S
    deal.apply(S, Discard(tuple(deal.hand(S)[:3])))
    assert deal.sitting_out_seats == (N, Seat(4)) and deal.trick_size == 4
    finish_randomly(deal, random.Random(0))
    assert deal.result is not None and deal.tricks_played == 10


@pytest.mark.parametrize(
    ("variant", "before", "expected"),
    [
        ((), 490, 20),
        (("defender-cap-490",), 480, 20),
        (("defender-cap-490",), 490, 0),
        (("defender-cap-480",), 470, 20),
        (("defender-cap-480",), 480, 0),
        (("defender-cap-480",), 490, 0),
    ],
)
def test_defender_cap(variant: tuple[str, ...], before: int, expected: int) -> None:
    profile = profile_named("australian-4", variant)
    game = Game(profile, W, (210, before))
    game.record(score_deal(profile, parse_bid("8H"), N, 8))
    assert game.scores == [510, before + expected]
    assert game.deals[-1].points == (300, expected)
    assert game.winner is Side.NS


# ---- the end of the game ---------------------------------------------------------------------


def _result(profile: Profile, contract: str, declarer: Seat, tricks: list[int]) -> DealResult:
    order = [s for s, t in enumerate(tricks) for _ in range(t)]
    side = profile.side_of[declarer]
    return score_deal(profile, parse_bid(contract), declarer, tricks[side], tricks, order)


def test_three_handed_declarer_wins_when_both_reach_500() -> None:
    profile = profile_named("three-handed")
    game = Game(profile, S, (400, 480, 0))
    game.record(_result(profile, "6NT", N, [7, 3, 0]))
    assert game.scores == [520, 510, 0] and game.winner == Side(0)


def test_three_handed_defender_may_win_and_first_trick_breaks_a_tie() -> None:
    profile = profile_named("three-handed")
    game = Game(profile, S, (0, 490, 490))
    # N fails 8S; S took the earliest trick among E and S.
    order = [0, 2, 1, 1, 0, 2, 0, 0, 0, 0]
    game.record(score_deal(profile, parse_bid("8S"), N, 6, [6, 2, 2], order))
    assert game.scores == [-240, 510, 510] and game.winner == Side(2)
    alone = Game(profile, S, (0, 490, 0))
    alone.record(_result(profile, "6S", N, [6, 1, 3]))
    assert alone.winner == Side(1)


def test_minus_500_does_not_end_a_three_handed_game() -> None:
    profile = profile_named("three-handed")
    game = Game(profile, S, (-400, 0, 0))
    game.record(_result(profile, "7S", N, [3, 4, 3]))
    assert game.scores == [-540, 40, 30] and not game.over


def test_american_four_defenders_can_win_by_defending() -> None:
    profile = profile_named("american-4")
    game = Game(profile, W, (0, 480))
    game.record(_result(profile, "6S", N, [6, 4]))
    assert game.winner is Side.EW
    default = Game(DEFAULT_PROFILE, W, (0, 480))
    default.record(score_deal(DEFAULT_PROFILE, parse_bid("6S"), N, 6))
    assert default.scores == [40, 520] and not default.over


def test_american_game_goes_below_minus_500() -> None:
    profile = profile_named("american-4")
    game = Game(profile, W, (-490, 0))
    game.record(_result(profile, "10NT", N, [4, 6]))
    assert game.scores == [-1010, 60] and not game.over


def test_game_scores_must_match_the_sides() -> None:
    with pytest.raises(ValueError, match="3 sides"):
        Game(profile_named("american-3"), N, (0, 0))
    assert Game(profile_named("american-3"), N).scores == [0, 0, 0]


# ---- random complete games under every profile and toggle ------------------------------------


def _combinations() -> list[tuple[str, tuple[str, ...]]]:
    out: list[tuple[str, tuple[str, ...]]] = []
    for name in PROFILE_NAMES:
        out.append((name, ()))
        for variant in variants_for(name):
            out.append((name, (variant.name,)))
    out.append(("australian-4", ("blind-misere", "raise-after-all-pass", "defender-cap-490")))
    out.append(("australian-4", ("misere-without-seven", "joker-leads-last-trick-only")))
    out.append(("american-2", ("all-pass-no-trumps", "deck-24")))
    out.append(("australian-4", ("inkles", "raise-after-all-pass", "misere-without-seven")))
    out.append(("australian-4", ("double-nullo", "sans-kitty", "blind-misere")))
    out.append(
        (
            "australian-4",
            (
                "pass-may-re-enter",
                "raise-after-all-pass",
                "dealers-left-leads",
                "open-misere-shown-after-lead",
                "forty-five-card-pack",
                "avondale-less-twenty",
                "no-slam-bonus",
                "blind-misere",
            ),
        )
    )
    return out


COMBINATIONS = _combinations()


def _check_deal_invariants(deal: Deal, played: int) -> None:
    profile = deal.profile
    held = 0
    for hand in deal.hands:
        assert held & hand == 0
        held |= hand
    parts = [
        held,
        deal.kitty,
        deal.dead,
        deal.discards,
        played,
        *(1 << c for c in deal.trick_cards),
    ]
    total = 0
    for part in parts:
        assert total & part == 0, "a card is in two places"
        total |= part
    assert total == profile.deck_mask, "every card is somewhere, exactly once"
    assert sum(deal.tricks_won) == deal.tricks_played <= profile.hand_size


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(COMBINATIONS), st.integers(0, 2**32 - 1))
def test_random_games_keep_the_invariants(combo: tuple[str, tuple[str, ...]], seed: int) -> None:
    name, variants = combo
    profile = profile_named(name, variants)
    rng = random.Random(seed)
    game = Game(profile, first_dealer(rng, profile))
    for _ in range(6):
        if game.over:
            break
        deal = game.new_deal(shuffled_deck(profile, rng))
        played = 0
        while deal.result is None:
            assert deal.to_act is not None
            actions = list(deal.legal_actions())
            assert actions
            action = rng.choice(actions)
            before = len(deal.trick_cards)
            seat = deal.to_act
            deal.apply(seat, action)
            if isinstance(action, Play) and len(deal.trick_cards) <= before:
                assert deal.last_trick is not None
                for _, card in deal.last_trick.cards:
                    played |= 1 << card
            _check_deal_invariants(deal, played)
        result = deal.result
        assert len(result.side_points) == len(profile.sides)
        if not result.thrown_in and result.contract is not ALL_PASS_NT:
            assert deal.declarer is not None
            assert result.declaring_side == Side(profile.side_of[deal.declarer])
            if not (deal.contract is not None and deal.contract.is_misere):
                assert sum(deal.tricks_won) == profile.hand_size
        scores = list(game.scores)
        game.record(result)
        recorded = game.deals[-1]
        assert game.scores == [a + b for a, b in zip(scores, recorded.points, strict=True)]
    if game.over:
        with pytest.raises(IllegalAction):
            game.record(THROWN_IN)


def test_seats_beyond_four_are_named_by_the_profile() -> None:
    six = profile_named("american-6")
    assert [six.seat_name(s) for s in six.seat_list] == ["N", "E", "S", "W", "P5", "P6"]
    assert six.parse_seat("P6") == Seat(5) and Seat(5).name == "P6"
    assert list(Seat) == [N, E, S, W]  # the pseudo-members never join the four-seat loops
    assert six.left[Seat(5)] == N and six.side_of == (0, 1, 0, 1, 0, 1)
    with pytest.raises(ValueError, match="seat of american-3"):
        profile_named("american-3").parse_seat("W")


def test_a_value_ordered_ladder_is_checked() -> None:
    import dataclasses

    american = profile_named("american-4")
    american.adjusted("ladder", outranks_by="value")  # Avondale with Nullo is in value order
    with pytest.raises(ValueError, match="value order"):
        nullo_below_8s = [b for b in american.bid_order if b is not MISERE]
        nullo_below_8s.insert(nullo_below_8s.index(parse_bid("8S")), MISERE)
        dataclasses.replace(american.ladder, outranks_by="value", order=tuple(nullo_below_8s))


# ---- toggles that give the other answers of disputes a rule set --------------------------


def test_the_two_exposure_toggles_exclude_each_other() -> None:
    assert DEFAULT_PROFILE.misere.open_shown == "first-trick"
    with pytest.raises(ValueError, match="cannot be combined"):
        profile_named(
            "australian-4", ["open-misere-shown-after-lead", "open-misere-shown-before-lead"]
        )


def test_an_open_misere_hand_is_not_shown_while_the_kitty_is_held() -> None:
    profile = profile_named("australian-4", ["open-misere-shown-before-lead"])
    deal = Deal.from_deck(profile, W, list(profile.deck))
    deal.apply(N, OPEN_MISERE)
    for seat in (E, S, W):
        deal.apply(seat, PASS)
    assert deal.phase is Phase.KITTY and deal.exposed is None
    deal.apply(N, deal.legal_actions()[0])
    assert deal.phase is Phase.PLAY and deal.exposed == deal.hand(N)


def test_avondale_less_twenty_lowers_the_suit_and_no_trump_contracts_only() -> None:
    profile = profile_named("australian-4", ["avondale-less-twenty"])
    for bid, value in DEFAULT_PROFILE.bid_values.items():
        assert profile.bid_values[bid] == (value if bid.is_misere else value - 20)
    assert profile.bid_order == DEFAULT_PROFILE.bid_order
    assert profile.bid_values[parse_bid("10NT")] == 500 and profile.incomplete


def test_no_slam_bonus_scores_a_slam_at_the_contract_value() -> None:
    profile = profile_named("australian-4", ["no-slam-bonus"])
    assert score_deal(profile, parse_bid("7S"), N, 10).points == (140, 0)
    assert score_deal(DEFAULT_PROFILE, parse_bid("7S"), N, 10).points == (250, 0)
    assert score_deal(profile, MISERE, N, 0).points == (250, 0)


def test_the_forty_five_card_pack_keeps_the_black_fours_and_a_kitty_of_five() -> None:
    profile = profile_named("australian-4", ["forty-five-card-pack"])
    assert len(profile.deck) == 45 and profile.kitty_size == 5 and profile.incomplete
    assert {parse_card("4S"), parse_card("4C")} <= set(profile.deck)
    hands, kitty, dead = deal_all(profile, W, list(profile.deck))
    assert [len(h) for h in hands] == [10] * 4 and dead == []
    assert kitty == [profile.deck[i] for i in (12, 13, 30, 31, 44)]


def test_dealers_left_leads_gives_the_first_lead_of_a_deal_in_play() -> None:
    profile = profile_named("australian-4", ["dealers-left-leads"])
    hands = [
        cards("QS JS 10S 9S QC JC 10C 9C KH QH"),
        cards("8S 7S 6S 5S 8C 7C 6C 5C JH 10H"),
        cards("9D 8D 7D 6D 5D 4D 9H 8H 7H 6H"),
        cards("AD KD QD JD 10D AS KS AC KC AH"),
    ]
    assert Deal.in_play(profile, N, parse_bid("7D"), W, hands).to_act == E
    with pytest.raises(SetupError, match="E leads to the first trick"):
        Deal.in_play(profile, N, parse_bid("7D"), W, hands, leader=W)
    misere = Deal.in_play(profile, W, MISERE, S, [[], hands[1], hands[2], hands[3]])
    assert misere.to_act == E  # North, left of the dealer, is the partner sitting out


def test_the_declarer_nominates_out_of_turn_when_another_leads() -> None:
    profile = profile_named("australian-4", ["dealers-left-leads"])
    hands = [
        cards("QS JS 10S 9S QC JC 10C 9C KH QH"),
        cards("8S 7S 6S 5S 8C 7C 6C 5C JH 10H"),
        cards("10D 9D 8D 7D 6D 5D 9H 8H 7H 6H"),
        cards("JK AD KD QD JD AS KS AC KC AH"),
    ]
    deal = Deal.in_play(profile, N, parse_bid("7NT"), W, hands)
    assert deal.to_act == E and not any(a in NOMINATIONS for a in deal.legal_actions())
    deal.apply(W, NOMINATIONS[Suit.HEARTS])
    assert deal.nominated is Suit.HEARTS and deal.to_act == E


def test_a_pass_may_re_enter_and_the_raise_comes_after_three_passes_in_a_row() -> None:
    profile = profile_named("australian-4", ["pass-may-re-enter", "raise-after-all-pass"])
    deal = Deal.from_deck(profile, W, list(profile.deck))
    for seat, call in ((N, PASS), (E, "6S"), (S, PASS), (W, PASS), (N, PASS)):
        deal.apply(seat, call if call is PASS else parse_bid(str(call)))
    assert deal.phase is Phase.AUCTION and deal.to_act == E  # the raise
    deal.apply(E, parse_bid("7S"))
    assert deal.phase is Phase.KITTY and deal.contract == parse_bid("7S") and deal.declarer == E


# ---- seating toggles ------------------------------------------------------------------------


_RULE_FIELDS_OF_THE_TABLE_ASIDE = {"name", "title", "variants", "sources", "incomplete", "missing"}


def test_one_sits_out_is_the_four_handed_game_exactly() -> None:
    import dataclasses

    four, rested = profile_named("american-4"), profile_named("american-5", ["one-sits-out"])
    for f in dataclasses.fields(four):
        if f.init and f.name not in _RULE_FIELDS_OF_THE_TABLE_ASIDE:
            assert getattr(rested, f.name) == getattr(four, f.name), f.name
    assert rested.seat_names == ("N", "E", "S", "W") and rested.side_names == ("NS", "EW")
    assert rested.incomplete and len(rested.missing) == 2
    assert all("other five-handed form" not in m for m in profile_named("american-5").missing)


def test_the_resting_dealer_changes_the_order_of_each_deal_only_under_the_toggle() -> None:
    default = DEFAULT_PROFILE
    assert default.players == 4 and default.table.rests == "nobody"
    assert all(row is default.left for row in default.left_in_deal)
    resting = profile_named("american-4", ["dealer-sits-out"])
    assert resting.players == 3 and resting.seats == 4 and len(resting.sides) == 4
    assert resting.left_in_deal[E] == (S, S, W, N)  # after N comes S: E deals and rests
    assert resting.in_deal(E) == (N, S, W) and resting.resting(E) == (E,)
    assert resting.absent_sides(E) == (1,) and default.absent_sides(E) == ()
    assert resting.next_in_misere[E][N] == resting.left_in_deal[E]  # no partner to skip
    six = profile_named("american-6", ["three-sides-of-two"])
    assert six.sitting_out[N] == (W,) and six.next_in_misere[N][N][E] == S
    assert six.next_in_misere[N][N][S] == Seat(4)  # W, the partner, is passed over


def test_a_deal_with_the_dealer_sitting_out() -> None:
    profile = profile_named("american-4", ["dealer-sits-out"])
    deal = Deal.from_deck(profile, S, list(profile.deck))
    assert [len(deal.hand(s)) for s in profile.seat_list] == [10, 10, 0, 10]
    assert deal.to_act == W and deal.trick_size == 3
    refused = deal.rejection(S, PASS)
    assert refused is not None and refused.code is Code.NOT_YOUR_TURN
    calls(deal, "6S PASS PASS")
    assert deal.phase is Phase.KITTY and deal.declarer == W and not deal.has_passed(S)
    game = Game(profile, S)
    game.record(THROWN_IN)
    assert game.dealer == W  # the deal passes on over every seat


def test_positions_that_seat_the_resting_dealer_are_refused() -> None:
    profile = profile_named("american-4", ["dealer-sits-out"])
    hands = [cards("AS KS"), [], cards("QS JS"), cards("10S 9S")]
    six_nt = parse_bid("6NT")
    Deal.in_play(profile, E, six_nt, N, hands, leader=N, tricks=(8, 0, 0, 0))
    with pytest.raises(SetupError, match="cannot be the declarer"):
        Deal.in_play(profile, E, six_nt, E, hands, leader=N, tricks=(8, 0, 0, 0))
    with pytest.raises(SetupError, match="holds no cards"):
        Deal.in_play(profile, N, six_nt, E, hands, leader=E, tricks=(8, 0, 0, 0))
    with pytest.raises(SetupError, match="has won no tricks"):
        Deal.in_play(profile, E, six_nt, N, hands, leader=N, tricks=(6, 2, 0, 0))
    with pytest.raises(SetupError, match="does not lead"):
        Deal.in_play(profile, E, six_nt, N, hands, leader=E, tricks=(6, 0, 2, 0))
    full = Deal.from_deck(profile, W, list(profile.deck))
    dealt = [full.hand(s) for s in profile.seat_list]
    kitty = cards_in(full.kitty)
    Deal(profile, W, dealt, kitty)
    with pytest.raises(SetupError, match="holds no cards"):
        Deal(profile, N, dealt, kitty)


def test_a_lost_nullo_pays_only_the_players_of_the_deal() -> None:
    profile = profile_named("american-4", ["dealer-sits-out"])
    tricks = [2, 7, 1, 0]
    paid = score_deal(profile, MISERE, N, 2, tricks, dealer=W).side_points
    assert paid == (-250, 20, 20, 0)
    assert score_deal(profile, MISERE, N, 2, tricks).side_points == (-250, 20, 20, 20)


def _every_profile_and_toggle() -> Iterator[Profile]:
    for name in PROFILE_NAMES:
        for variant in (None, *VARIANTS):
            try:
                yield get_profile(name, [] if variant is None else [variant])
            except (KeyError, ValueError):
                continue  # a toggle this profile does not take


def _random_play(profile: Profile, rng: random.Random) -> Iterator[Deal]:
    """One random deal, yielded at each state from the deal to the end (the same object,
    changing between yields)."""
    deal = Deal.from_deck(profile, rng.choice(profile.seat_list), shuffled_deck(profile, rng))
    while True:
        yield deal
        if deal.result is not None or deal.to_act is None:
            return
        deal.apply(deal.to_act, rng.choice(list(deal.legal_actions())))


def test_the_snapshot_copies_every_field_that_holds_a_list() -> None:
    """``snapshot()`` copies only the fields named in ``LIST_FIELDS``: a list held anywhere
    else would be shared with every snapshot taken before, so a refused action that changed
    it in place would go unseen.  Every profile and toggle, through whole random deals."""
    from fivehundred.engine.deal import LIST_FIELDS

    rng = random.Random(7)
    checked = 0
    for profile in _every_profile_and_toggle():
        for deal in _random_play(profile, rng):
            held = {f for f in Deal.__slots__ if isinstance(getattr(deal, f, None), list)}
            assert held <= set(LIST_FIELDS), (profile.name, held - set(LIST_FIELDS))
            checked += 1
    assert checked > 1000


DEALS_EACH = 6


def test_every_position_real_play_reaches_passes_the_suits_led_check() -> None:
    """The check that the suits said to be led fit the hands (``Deal.in_play``) is only a
    necessary condition: no position reached by legal play, in any profile or toggle, may
    be refused by it.  Each trick boundary of random deals is set up again from its hands,
    tricks and suits led."""
    rng = random.Random(11)
    checked = 0
    for profile in _every_profile_and_toggle():
        for _ in range(DEALS_EACH):
            for deal in _random_play(profile, rng):
                if (
                    deal.phase is not Phase.PLAY
                    or not deal.tricks_played
                    or deal.trick_cards
                    or deal.contract is None
                    or deal.declarer is None
                    or deal.to_act is None
                    # a nominated joker once played is a position no play start states
                    or (deal.nominated is not None and JOKER not in deal.hand(deal.declarer))
                ):
                    continue
                again = Deal.in_play(
                    profile,
                    deal.dealer,
                    deal.contract,
                    deal.declarer,
                    [deal.hand(s) for s in profile.seat_list],
                    leader=deal.to_act,
                    nominated=deal.nominated,
                    suits_led=deal.suits_led_list,
                    tricks=deal.tricks_won,
                )
                assert again.to_act == deal.to_act
                checked += 1
    assert checked > 1000


def test_suits_led_that_the_hands_contradict_are_refused() -> None:
    """Seven tricks led only in spades and hearts, with three seats still holding hearts and
    two still holding spades, would have used more cards of those suits than are gone."""
    hands = [cards("JK 9D 10D"), cards("KH 7S 8D"), cards("4H 5H 9S"), cards("5C 6C JD")]
    seven_nt, hearts = parse_bid("7NT"), Suit.HEARTS
    spades, clubs = Suit.SPADES, Suit.CLUBS
    with pytest.raises(SetupError, match="7 tricks cannot have been led in S, H"):
        Deal.in_play(
            DEFAULT_PROFILE,
            W,
            seven_nt,
            N,
            hands,
            leader=N,
            nominated=hearts,
            suits_led=[spades, hearts],
            tricks=(4, 3),
        )
    deal = Deal.in_play(
        DEFAULT_PROFILE,
        W,
        seven_nt,
        N,
        hands,
        leader=N,
        nominated=hearts,
        suits_led=[spades, hearts, clubs],
        tricks=(4, 3),
    )
    assert deal.to_act == N


def test_a_side_leads_only_the_tricks_it_won_so_a_leader_with_no_card_of_the_suit_spends_one() -> (
    None
):
    """PKPK as it once stood: seven tricks of spades alone in North's misère, North still
    holding a spade.  North led only the first trick (its side won none), so East or West
    led the other six with spades of their own, and North followed all seven: 13 spades,
    of 10.  With diamonds led too the position is a real one."""
    hands = [cards("AS AD 7C"), cards("JK 5C 6C"), [], cards("7H 8H 9C")]
    misere, spades, diamonds = parse_bid("MIS"), Suit.SPADES, Suit.DIAMONDS
    with pytest.raises(SetupError, match="7 tricks cannot have been led in S with these hands"):
        Deal.in_play(
            DEFAULT_PROFILE, W, misere, N, hands, leader=E, suits_led=[spades], tricks=(0, 7)
        )
    deal = Deal.in_play(
        DEFAULT_PROFILE, W, misere, N, hands, leader=E, suits_led=[spades, diamonds], tricks=(0, 7)
    )
    assert deal.to_act == E


def test_a_suit_none_of_whose_gone_cards_could_have_led_is_refused_wherever_it_is_listed() -> None:
    """Three seats still hold clubs and only two clubs are gone, so no club trick can have
    been played: the list is refused even after a suit with room for every trick (the
    joker is held, so it did not lead clubs either)."""
    hands = [cards("JK 5C 6C"), cards("7C 8C 9C"), cards("10C JC QC"), cards("4D 5D 6D")]
    diamonds, clubs = Suit.DIAMONDS, Suit.CLUBS
    for led in ([diamonds, clubs], [clubs, diamonds]):
        with pytest.raises(SetupError, match="clubs cannot have been led"):
            Deal.in_play(
                DEFAULT_PROFILE,
                W,
                parse_bid("6NT"),
                N,
                hands,
                leader=N,
                suits_led=led,
                tricks=(4, 3),
            )
