"""One or more unit tests per ruling of ``RULINGS.md`` (default profile).

Every test name ends with ``__<slug>`` (dashes as underscores) and its docstring starts
with the slug in backticks, so a ruling's tests can be found with ``-k trump_order`` or
by grepping for the slug.  The rejection codes and their precedence are tested at the
end of the file; every refusal checked here also checks that ``apply`` raises the same
code and leaves ``snapshot()`` unchanged.
"""

from __future__ import annotations

import random
from itertools import combinations, pairwise

import pytest
from fivehundred.engine import (
    BLIND_MISERE,
    CODE_DESCRIPTIONS,
    DEFAULT_PROFILE,
    JOKER,
    MISERE,
    OPEN_MISERE,
    PASS,
    SANS_KITTY,
    SEATS,
    THROWN_IN,
    Action,
    Bid,
    Card,
    Code,
    Deal,
    DealResult,
    Discard,
    DiscardChoices,
    Game,
    IllegalAction,
    Misere,
    Nominate,
    Phase,
    Play,
    Seat,
    SetupError,
    Side,
    Strain,
    Suit,
    card_token,
    deal_packets,
    first_dealer,
    parse_bid,
    parse_call,
    parse_card,
    profile_named,
    score_deal,
    shuffled_deck,
)

P = DEFAULT_PROFILE
N, E, S, W = SEATS
NS, EW = Side.NS, Side.EW


# ---- helpers ----------------------------------------------------------------------------


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def words(text: str) -> list[str]:
    return text.split()


def tokens(cs: list[Card] | set[Card]) -> set[str]:
    return {card_token(c) for c in cs}


def in_play(
    contract: str,
    declarer: Seat,
    *,
    n: str = "",
    e: str = "",
    s: str = "",
    w: str = "",
    leader: Seat | None = None,
    nominated: str | None = None,
    suits_led: str = "",
    tricks: tuple[int, int] | None = None,
) -> Deal:
    """A deal in play; by default every trick already played went to the leader's side
    (the winner of a trick leads the next)."""
    bid = parse_bid(contract)
    hands = [cards(n), cards(e), cards(s), cards(w)]
    out = declarer.partner if bid.is_misere else None
    size = max(len(h) for seat, h in zip(SEATS, hands, strict=True) if seat != out)
    if tricks is None:
        won = [0, 0]
        won[(leader or declarer).side] = P.hand_size - size
        tricks = (won[0], won[1])
    return Deal.in_play(
        P,
        W,
        bid,
        declarer,
        hands,
        leader=leader,
        nominated=None if nominated is None else Suit.parse(nominated),
        suits_led=[Suit.parse(x) for x in suits_led],
        tricks=tricks,
    )


def full_deal(
    dealer: Seat = W, *, n: str = "", e: str = "", s: str = "", w: str = "", kitty: str = ""
) -> Deal:
    """A deal at the start of the auction; unnamed cards fill up N, E, S, W, then the kitty
    in deck order, the joker last (so by default it is in the kitty)."""
    given = [cards(n), cards(e), cards(s), cards(w)]
    kit = cards(kitty)
    used = {c for h in given for c in h} | set(kit)
    spare = [c for c in P.deck if c not in used and c != JOKER]
    if JOKER not in used:
        spare.append(JOKER)
    hands = []
    for hand in given:
        missing = P.hand_size - len(hand)
        hands.append(hand + spare[:missing])
        del spare[:missing]
    return Deal(P, dealer, hands, kit + spare)


def play(deal: Deal, seat: Seat, token: str, names: str | None = None) -> None:
    deal.apply(seat, Play(parse_card(token), None if names is None else Suit.parse(names)))


def plays(deal: Deal, *moves: str) -> None:
    """Play cards for whoever is to act, in turn: ``plays(deal, "AS", "JK:H")``."""
    for move in moves:
        token, _, names = move.partition(":")
        assert deal.to_act is not None
        play(deal, deal.to_act, token, names or None)


def calls(deal: Deal, text: str) -> None:
    """Make the calls in turn for whoever is to act."""
    for token in text.split():
        assert deal.to_act is not None
        deal.apply(deal.to_act, parse_call(token))


def legal_strings(deal: Deal) -> set[str]:
    return {str(a) for a in deal.legal_actions()}


def accepted(deal: Deal, seat: Seat, action: Action) -> None:
    """``action`` is legal for ``seat``: listed (if to act), not refused."""
    assert deal.rejection(seat, action) is None
    if seat == deal.to_act:
        assert str(action) in legal_strings(deal)


def refused(deal: Deal, seat: Seat, action: Action, code: Code) -> None:
    """``action`` is refused with ``code``, by ``rejection`` and by ``apply``, and not listed;
    the refused ``apply`` leaves the state unchanged."""
    before = deal.snapshot()
    rejection = deal.rejection(seat, action)
    assert rejection is not None, f"{action} was accepted"
    assert rejection.code is code, rejection
    assert rejection.message
    with pytest.raises(IllegalAction) as info:
        deal.apply(seat, action)
    assert info.value.code is code
    assert info.value.rejection == rejection
    assert deal.snapshot() == before
    if seat == deal.to_act:
        assert action not in list(deal.legal_actions())


def card_play(token: str, names: str | None = None) -> Play:
    return Play(parse_card(token), None if names is None else Suit.parse(names))


def misere_auction(declarer: Seat = N, **hands: str) -> Deal:
    """An auction that ends in misère by ``declarer``: 7♠ from the declarer's right, MIS."""
    dealer = Seat((declarer - 2) % 4)  # the declarer's right calls first
    deal = full_deal(dealer, **hands)
    calls(deal, "7S MIS PASS PASS PASS")
    assert deal.contract is MISERE and deal.declarer == declarer
    return deal


def finish_randomly(deal: Deal, seed: int = 0) -> None:
    rng = random.Random(seed)
    while deal.result is None:
        assert deal.to_act is not None
        deal.apply(deal.to_act, rng.choice(deal.legal_actions()))


def trick_winner(contract: str, leader: Seat, *moves: str, declarer: Seat = N) -> Seat:
    """Play one last trick of one-card hands, led by ``leader`` and going clockwise."""
    bid = parse_bid(contract)
    out = declarer.partner if bid.is_misere else None
    hands = {"n": "", "e": "", "s": "", "w": ""}
    seat = leader
    for move in moves:
        if seat == out:
            seat = seat.left
        hands["nesw"[seat]] = move.partition(":")[0]
        seat = seat.left
    deal = in_play(contract, declarer, leader=leader, **hands)
    plays(deal, *moves)
    assert deal.last_trick is not None
    return deal.last_trick.winner


# ---- 1-4: deck and ranks ----------------------------------------------------------------


def test_deck_has_43_cards__deck() -> None:
    """`deck`: red A..4, black A..5 and one joker, 43 cards."""
    assert len(P.deck) == 43 == len(set(P.deck))
    by_suit = {s: [c for c in P.deck if c != JOKER and c // 13 == s] for s in Suit}
    assert tokens(by_suit[Suit.HEARTS]) == set(words("AH KH QH JH 10H 9H 8H 7H 6H 5H 4H"))
    assert tokens(by_suit[Suit.DIAMONDS]) == set(words("AD KD QD JD 10D 9D 8D 7D 6D 5D 4D"))
    assert tokens(by_suit[Suit.SPADES]) == set(words("AS KS QS JS 10S 9S 8S 7S 6S 5S"))
    assert tokens(by_suit[Suit.CLUBS]) == set(words("AC KC QC JC 10C 9C 8C 7C 6C 5C"))
    assert JOKER in P.deck
    for absent in ("4S", "4C", "3H", "2D"):
        assert not P.has_card(parse_card(absent))


def test_deck_outside_cards_refused__deck() -> None:
    """`deck`: a deck or hand with a card outside the 43 (4♠) is not a deal of this profile."""
    deck = list(P.deck)
    deck[0] = parse_card("4S")
    with pytest.raises(SetupError):
        Deal.from_deck(P, N, deck)
    with pytest.raises(SetupError):
        Deal.from_deck(P, N, list(P.deck)[:-1])
    with pytest.raises(SetupError):
        in_play("6H", N, n="4S", e="5S", s="6S", w="7S", leader=N)


TRUMP_ORDER_HEARTS = ["JK", "JH", "JD", "AH", "KH", "QH", "10H", "9H", "8H", "7H", "6H", "5H", "4H"]


@pytest.mark.parametrize("high,low", list(pairwise(TRUMP_ORDER_HEARTS)))
def test_trump_ranks_pairwise__trump_order(high: str, low: str) -> None:
    """`trump-order`: joker > right bower > left bower > A > K > Q > 10 > … > 4 (hearts)."""
    # N leads the lower trump, E plays the higher one, S and W discard spades.
    assert trick_winner("6H", N, low, high, "5S", "6S") == E
    # and the other way round: the higher trump led keeps the trick.
    assert trick_winner("6H", N, high, low, "5S", "6S") == N


@pytest.mark.parametrize(
    "trump,right,left", [("S", "JS", "JC"), ("C", "JC", "JS"), ("D", "JD", "JH"), ("H", "JH", "JD")]
)
def test_bowers_in_every_suit__trump_order(trump: str, right: str, left: str) -> None:
    """`trump-order`: the right bower is the trump jack, the left bower the other jack of the
    same colour; joker > right > left > ace of trumps."""
    contract = "6" + trump
    ace = "A" + trump
    x, y = ("5D", "6D") if trump in "SC" else ("5S", "6S")  # neither trumps nor bowers
    assert trick_winner(contract, N, ace, left, x, y) == E
    assert trick_winner(contract, N, left, right, x, "JK") == W
    assert trick_winner(contract, N, ace, right, left, x) == E
    assert trick_winner(contract, N, left, ace, x, y) == N


def test_left_bower_follows_trumps__trump_order() -> None:
    """`trump-order`: the left bower is a trump for following: on a trump lead a player whose
    only trump is the left bower must play it."""
    deal = in_play("6H", N, n="AH 5C", e="JD 5S", s="4H 6S", w="9H 7S", leader=N)
    play(deal, N, "AH")
    refused(deal, E, card_play("5S"), Code.MUST_FOLLOW_SUIT)
    assert legal_strings(deal) == {"JD"}
    play(deal, E, "JD")


def test_left_bower_is_not_its_printed_suit__trump_order() -> None:
    """`trump-order`: the left bower is not a card of its printed suit: a player holding the
    left bower and no other diamond is void in diamonds (hearts trumps)."""
    deal = in_play("6H", N, n="AD 5C", e="JD 5S", s="4D 6S", w="9D 7S", leader=N)
    play(deal, N, "AD")
    assert legal_strings(deal) == {"JD", "5S"}
    accepted(deal, E, card_play("5S"))
    play(deal, E, "JD")  # trumping with the left bower wins
    plays(deal, "4D", "9D")
    assert deal.last_trick is not None and deal.last_trick.winner == E


def test_left_bower_lead_is_a_trump_lead__trump_order() -> None:
    """`trump-order`: leading the left bower leads trumps, not its printed suit."""
    deal = in_play("6H", N, n="JD 5C", e="4D 5H", s="6D 6S", w="9D 7S", leader=N)
    play(deal, N, "JD")
    assert deal.led_suit is Suit.HEARTS
    assert deal.suits_led_list == [Suit.HEARTS]
    refused(deal, E, card_play("4D"), Code.MUST_FOLLOW_SUIT)
    assert legal_strings(deal) == {"5H"}


def test_trumps_over_every_side_card__trump_order() -> None:
    """`trump-order`: the lowest trump beats the ace of the suit led."""
    assert trick_winner("6S", N, "AH", "5S", "KH", "QH") == E
    assert trick_winner("6D", W, "AC", "KC", "4D", "QC") == E


def test_plain_suit_order_jack_in_place__plain_order() -> None:
    """`plain-order`: plain suits rank A K Q J 10 9 … with the jack in its natural place."""
    order = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S"]
    for high, low in pairwise(order):
        assert trick_winner("6H", N, low, high, "5C", "6C") == E
        assert trick_winner("6H", N, high, low, "5C", "6C") == N


def test_black_jack_plain_when_red_trumps__plain_order() -> None:
    """`plain-order`: with hearts trumps the jack of clubs is an ordinary club between Q and 10."""
    assert trick_winner("6H", N, "10C", "JC", "5S", "6S") == E
    assert trick_winner("6H", N, "JC", "QC", "5S", "6S") == E


def test_plain_suit_card_off_suit_cannot_win__plain_order() -> None:
    """`plain-order`: a higher card of another plain suit does not beat the suit led."""
    assert trick_winner("6H", N, "5S", "AC", "AD", "6S") == W


@pytest.mark.parametrize("contract", ["6NT", "10NT", "MIS", "OMIS"])
def test_jacks_ordinary_without_trumps__no_trump_ranks(contract: str) -> None:
    """`no-trump-ranks`: no trumps and misères have no trump suit and no bowers."""
    deal = in_play(
        contract,
        N,
        w="QH 5C",
        n="JH 6C",
        e="JD 8C",
        s="" if "MIS" in contract else "10H 7C",
        leader=W,
    )
    play(deal, W, "QH")
    refused(deal, N, card_play("6C"), Code.MUST_FOLLOW_SUIT)
    play(deal, N, "JH")
    # JD is an ordinary diamond: E is void in hearts and may play anything.
    assert legal_strings(deal) == {"JD", "8C"}
    play(deal, E, "JD")
    if "MIS" not in contract:
        play(deal, S, "10H")
    # QH beats JH: no left or right bower.
    assert deal.last_trick is not None and deal.last_trick.winner == W
    assert deal.rules.trump is None


def test_no_trump_off_suit_ace_loses__no_trump_ranks() -> None:
    """`no-trump-ranks`: without trumps only the suit led can win."""
    assert trick_winner("6NT", N, "5H", "AS", "AC", "AD") == N
    assert trick_winner("8NT", E, "10C", "JC", "QC", "9C") == W


# ---- 5-7: the deal ----------------------------------------------------------------------


def test_dealer_moves_left_after_every_deal__dealer_rotation() -> None:
    """`dealer-rotation`: the dealer moves one seat left after every deal, thrown in too."""
    game = Game(P, N)
    game.record(THROWN_IN)
    assert game.dealer == E and game.scores == [0, 0]
    game.record(score_deal(P, parse_bid("6S"), S, 6))
    assert game.dealer == S
    game.record(THROWN_IN)
    game.record(THROWN_IN)
    assert game.dealer == N
    deal = game.new_deal(list(P.deck))
    assert deal.dealer == N and deal.to_act == E


def test_first_dealer_random__dealer_rotation() -> None:
    """`dealer-rotation`: the first dealer comes from the caller's RNG and can be any seat."""
    seen = {first_dealer(random.Random(seed)) for seed in range(64)}
    assert seen == set(SEATS)
    assert first_dealer(random.Random(3)) == first_dealer(random.Random(3))


def test_auction_goes_clockwise__dealer_rotation() -> None:
    """`dealer-rotation`: bidding goes clockwise from the dealer's left."""
    deal = full_deal(S)
    order = []
    for token in ["6S", "6C", "6D", "6H"]:
        order.append(deal.to_act)
        calls(deal, token)
    assert order == [W, N, E, S]


def test_packets_from_ordered_deck__deal_packets() -> None:
    """`deal-packets`: 3 each + 1 kitty, 4 each + 1 kitty, 3 each + 1 kitty, from the
    dealer's left; with cards numbered 1-43 exactly as the ruling lists them."""
    deck = list(P.deck)
    for dealer in SEATS:
        hands, kitty = deal_packets(P, dealer, deck)
        first = dealer.left
        order = [first, first.left, first.left.left, dealer]
        expected: dict[Seat, list[Card]] = {seat: [] for seat in SEATS}
        for i, seat in enumerate(order):
            expected[seat] += deck[3 * i : 3 * i + 3]  # cards 1-12
            expected[seat] += deck[13 + 4 * i : 17 + 4 * i]  # cards 14-29
            expected[seat] += deck[30 + 3 * i : 33 + 3 * i]  # cards 31-42
        for seat in SEATS:
            assert hands[seat] == expected[seat]
        assert kitty == [deck[12], deck[29], deck[42]]
        deal = Deal.from_deck(P, dealer, deck)
        for seat in SEATS:
            assert set(deal.hand(seat)) == set(expected[seat])
        assert deal.kitty == (1 << deck[12]) | (1 << deck[29]) | (1 << deck[42])


def test_packets_concrete_cards__deal_packets() -> None:
    """`deal-packets`: with the deck in profile order (A♠ K♠ … 5♠, A♣ … 5♣, A♦ … 4♦, A♥ … 4♥,
    joker) and N dealing, the hands and kitty are exactly these."""
    hands, kitty = deal_packets(P, N, list(P.deck))
    assert [card_token(c) for c in hands[E]] == words("AS KS QS JC 10C 9C 8C 4D AH KH")
    assert [card_token(c) for c in hands[S]] == words("JS 10S 9S 7C 6C 5C AD QH JH 10H")
    assert [card_token(c) for c in hands[W]] == words("8S 7S 6S KD QD JD 10D 9H 8H 7H")
    assert [card_token(c) for c in hands[N]] == words("5S AC KC 9D 8D 7D 6D 6H 5H 4H")
    assert [card_token(c) for c in kitty] == ["QC", "5D", "JK"]


def test_shuffle_is_a_permutation_and_seeded__deal_packets() -> None:
    """`deal-packets`: the shuffled and cut deck is the 43 cards; the same seed, the same deck."""
    a = shuffled_deck(P, random.Random(7))
    b = shuffled_deck(P, random.Random(7))
    assert a == b and sorted(a) == sorted(P.deck)
    assert Deal.from_deck(P, N, a) == Deal.from_deck(P, N, b)


def test_kitty_stays_out_until_auction_over__kitty_hidden() -> None:
    """`kitty-hidden`: the kitty is apart from every hand during the auction and reaches the
    declarer only when the auction is over."""
    deal = full_deal(W, kitty="AH KH QH")
    kitty = set(cards("AH KH QH"))
    calls(deal, "6S PASS")
    for seat in SEATS:
        assert not kitty & set(deal.hand(seat))
        assert len(deal.hand(seat)) == 10
    calls(deal, "PASS")
    assert deal.phase is Phase.AUCTION
    calls(deal, "PASS")
    assert deal.phase is Phase.KITTY
    assert kitty <= set(deal.hand(N)) and deal.kitty == 0


def test_kitty_never_taken_on_throw_in__kitty_hidden() -> None:
    """`kitty-hidden`: in a thrown-in deal nobody takes the kitty."""
    deal = full_deal(W, kitty="AH KH QH")
    calls(deal, "PASS PASS PASS PASS")
    assert deal.kitty == (1 << parse_card("AH")) | (1 << parse_card("KH")) | (1 << parse_card("QH"))
    assert all(len(deal.hand(seat)) == 10 for seat in SEATS)


# ---- 8-14: the auction -------------------------------------------------------------------


@pytest.mark.parametrize("dealer", SEATS)
def test_dealers_left_calls_first__first_call(dealer: Seat) -> None:
    """`first-call`: the player on the dealer's left calls first; a call is a pass or a bid."""
    deal = full_deal(dealer)
    assert deal.phase is Phase.AUCTION and deal.to_act == dealer.left
    for seat in SEATS:
        if seat != dealer.left:
            refused(deal, seat, PASS, Code.NOT_YOUR_TURN)
            refused(deal, seat, parse_bid("6S"), Code.NOT_YOUR_TURN)
    legal = list(deal.legal_actions())
    assert legal[0] is PASS
    assert all(isinstance(a, Bid) for a in legal[1:])
    accepted(deal, dealer.left, PASS)
    accepted(deal, dealer.left, parse_bid("6S"))


BID_ORDER = words(
    "6S 6C 6D 6H 6NT 7S 7C 7D 7H 7NT MIS 8S 8C 8D 8H 8NT 9S 9C 9D 9H 9NT 10S 10C 10D OMIS 10H 10NT"
)


def test_bid_order_table__bid_order() -> None:
    """`bid-order`: 6♠ … 7NT, misère, 8♠ … 10♦, open misère, 10♥, 10NT."""
    assert [b.token for b in P.bid_order] == BID_ORDER


def test_bid_order_is_not_value_order__bid_order() -> None:
    """`bid-order`: misère (250) ranks below 8♠ (240); open misère (500) below 10♥ (500)."""
    assert P.bid_values[MISERE] > P.bid_values[parse_bid("8S")]
    assert P.bid_rank[MISERE] < P.bid_rank[parse_bid("8S")]
    assert P.bid_values[OPEN_MISERE] == P.bid_values[parse_bid("10H")]
    assert P.bid_rank[OPEN_MISERE] < P.bid_rank[parse_bid("10H")]


def test_misere_between_7nt_and_8s__bid_order() -> None:
    """`bid-order`: misère outranks 7NT and is outranked by 8♠."""
    deal = full_deal(W)
    calls(deal, "7NT MIS")
    refused(deal, S, MISERE, Code.BID_NOT_HIGHER)
    refused(deal, S, parse_bid("7NT"), Code.BID_NOT_HIGHER)
    calls(deal, "8S")
    refused(deal, W, MISERE, Code.BID_NOT_HIGHER)
    assert deal.high_bid == parse_bid("8S")


def test_open_misere_between_10d_and_10h__bid_order() -> None:
    """`bid-order`: open misère outranks 10♦ and is outranked by 10♥."""
    deal = full_deal(W)
    calls(deal, "10D OMIS")
    refused(deal, S, parse_bid("10D"), Code.BID_NOT_HIGHER)
    refused(deal, S, OPEN_MISERE, Code.BID_NOT_HIGHER)
    calls(deal, "10H")
    refused(deal, W, OPEN_MISERE, Code.BID_NOT_HIGHER)
    calls(deal, "10NT")
    assert deal.high_bid == parse_bid("10NT")


def test_legal_calls_follow_bid_order__bid_order() -> None:
    """`bid-order`: the legal calls after a bid are PASS and the bids above it, in order."""
    deal = full_deal(W)
    calls(deal, "7H")
    above_7h = BID_ORDER[BID_ORDER.index("7H") + 1 :]
    assert [str(a) for a in deal.legal_actions()] == ["PASS", *above_7h]
    calls(deal, "9S")
    above_9s = BID_ORDER[BID_ORDER.index("9S") + 1 :]
    assert [str(a) for a in deal.legal_actions()] == ["PASS", *above_9s]


def test_same_or_lower_bid_refused__bid_must_outrank() -> None:
    """`bid-must-outrank`: a bid must rank above the highest bid so far."""
    deal = full_deal(W)
    calls(deal, "7C")
    refused(deal, E, parse_bid("7C"), Code.BID_NOT_HIGHER)
    refused(deal, E, parse_bid("7S"), Code.BID_NOT_HIGHER)
    refused(deal, E, parse_bid("6NT"), Code.BID_NOT_HIGHER)
    accepted(deal, E, parse_bid("7D"))


def test_partner_must_be_outranked_too__bid_must_outrank() -> None:
    """`bid-must-outrank`: whoever made the highest bid, partner included."""
    deal = full_deal(W)
    calls(deal, "6H PASS")
    refused(deal, S, parse_bid("6H"), Code.BID_NOT_HIGHER)
    refused(deal, S, parse_bid("6D"), Code.BID_NOT_HIGHER)
    calls(deal, "6NT")
    assert deal.high_bidder == S


def test_misere_refused_before_a_seven__misere_needs_seven() -> None:
    """`misere-needs-seven`: misère needs a seven already bid; not as first bid, not over a six."""
    deal = full_deal(W)
    refused(deal, N, MISERE, Code.MISERE_NEEDS_SEVEN)
    assert MISERE not in list(deal.legal_actions())
    calls(deal, "6NT")
    refused(deal, E, MISERE, Code.MISERE_NEEDS_SEVEN)
    assert MISERE not in list(deal.legal_actions())


@pytest.mark.parametrize("seven", ["7S", "7C", "7D", "7H", "7NT"])
def test_misere_over_any_seven__misere_needs_seven(seven: str) -> None:
    """`misere-needs-seven`: misère may be bid over any seven-level bid."""
    deal = full_deal(W)
    calls(deal, seven)
    assert MISERE in list(deal.legal_actions())
    accepted(deal, E, MISERE)
    calls(deal, "MIS")
    assert deal.high_bid is MISERE


def test_misere_after_an_eight_not_higher__misere_needs_seven() -> None:
    """`misere-needs-seven`: misère ranks below every eight."""
    deal = full_deal(W)
    calls(deal, "7S 8S")
    refused(deal, S, MISERE, Code.BID_NOT_HIGHER)


def test_open_misere_as_first_bid__open_misere_any_time() -> None:
    """`open-misere-any-time`: open misère may be the first bid."""
    deal = full_deal(W)
    assert OPEN_MISERE in list(deal.legal_actions())
    calls(deal, "OMIS PASS PASS PASS")
    assert deal.contract is OPEN_MISERE and deal.declarer == N


@pytest.mark.parametrize("below", ["6S", "7NT", "MIS", "9NT", "10D"])
def test_open_misere_over_anything_below__open_misere_any_time(below: str) -> None:
    """`open-misere-any-time`: open misère may be bid whenever the highest bid ranks below it."""
    deal = full_deal(W)
    if below == "MIS":
        calls(deal, "7S")
    calls(deal, below)
    accepted(deal, deal.to_act, OPEN_MISERE)  # type: ignore[arg-type]


def test_passed_seat_can_never_call_again__pass_is_final() -> None:
    """`pass-is-final`: a passed player is skipped and can never call again."""
    deal = full_deal(W)
    calls(deal, "PASS 6S 6C")  # N passes, E and S bid
    assert deal.to_act == W
    calls(deal, "6D")
    assert deal.to_act == E  # N is skipped
    refused(deal, N, parse_bid("10NT"), Code.ALREADY_PASSED)
    refused(deal, N, PASS, Code.ALREADY_PASSED)
    calls(deal, "6H PASS")  # E bids, S passes
    assert deal.to_act == W
    calls(deal, "7S")
    assert deal.to_act == E  # N and S skipped
    refused(deal, S, parse_bid("9H"), Code.ALREADY_PASSED)
    assert deal.has_passed(N) and deal.has_passed(S) and not deal.has_passed(E)


def test_bid_and_three_passes_ends_auction__auction_end() -> None:
    """`auction-end`: a bid and three passes: the bid is the contract, its bidder declares."""
    deal = full_deal(W)
    calls(deal, "PASS 6S 7C PASS")  # N, E, S, W
    assert deal.phase is Phase.AUCTION and deal.to_act == E
    calls(deal, "PASS")
    assert deal.phase is Phase.KITTY
    assert deal.contract == parse_bid("7C") and deal.declarer == S and deal.to_act == S


def test_declarer_cannot_raise__auction_end() -> None:
    """`auction-end`: once the others have passed the declarer cannot raise the contract."""
    deal = full_deal(W)
    calls(deal, "6S PASS PASS PASS")
    refused(deal, N, parse_bid("7S"), Code.WRONG_PHASE)
    refused(deal, N, PASS, Code.WRONG_PHASE)


def test_three_passes_before_any_bid__auction_end() -> None:
    """`auction-end`: three passes without a bid do not end the auction; the fourth player may
    still bid, and that bid is then the contract at once."""
    deal = full_deal(W)
    calls(deal, "PASS PASS PASS")
    assert deal.phase is Phase.AUCTION and deal.to_act == W
    calls(deal, "6S")
    assert deal.phase is Phase.KITTY and deal.contract == parse_bid("6S") and deal.declarer == W


def test_all_pass_throws_in__auction_end() -> None:
    """`auction-end`: four passes throw the deal in; nobody scores; the next dealer deals."""
    deal = full_deal(S)
    calls(deal, "PASS PASS PASS PASS")
    assert deal.is_over and deal.thrown_in and deal.result is THROWN_IN
    assert deal.result.points == (0, 0) and deal.result.contract is None
    assert deal.legal_actions() == ()
    refused(deal, W, PASS, Code.DEAL_OVER)
    game = Game(P, S, (120, -40))
    game.record_deal(deal)
    assert game.scores == [120, -40] and game.dealer == W and game.winner is None


# ---- 15: the kitty ------------------------------------------------------------------------


def test_declarer_takes_kitty_and_discards_three__kitty_exchange() -> None:
    """`kitty-exchange`: the declarer takes the kitty (13 cards), then discards any three."""
    deal = full_deal(W, n="AS KS QS JS 10S 9S 8S 7S 6S 5S", kitty="AH KH QH")
    calls(deal, "6S PASS PASS PASS")
    assert len(deal.hand(N)) == 13
    choices = deal.legal_actions()
    assert isinstance(choices, DiscardChoices) and len(choices) == 286
    as_sets = {frozenset(d.cards) for d in choices}
    assert as_sets == {frozenset(c) for c in combinations(deal.hand(N), 3)}
    # any three of the thirteen, kitty cards included
    refused(deal, E, Discard(tuple(cards("AC KC QC"))), Code.NOT_YOUR_TURN)
    deal.apply(N, Discard(tuple(cards("AH 5S KH"))))
    assert tokens(deal.hand(N)) == set(words("AS KS QS JS 10S 9S 8S 7S 6S QH"))
    assert deal.discards == sum(1 << c for c in cards("AH KH 5S"))
    assert deal.phase is Phase.PLAY and deal.to_act == N


def test_discard_any_order_and_kitty_cards__kitty_exchange() -> None:
    """`kitty-exchange`: the three may come in any order and may all be kitty cards."""
    deal = full_deal(W, kitty="AH KH QH")
    calls(deal, "6S PASS PASS PASS")
    for perm in [("QH", "AH", "KH"), ("KH", "QH", "AH")]:
        accepted(deal, N, Discard(tuple(cards(" ".join(perm)))))
    deal.apply(N, Discard(tuple(cards("QH AH KH"))))
    assert not set(cards("AH KH QH")) & set(deal.hand(N))


@pytest.mark.parametrize("discard", ["", "AS", "AS KS", "AS KS QS JS", "AS AS KS"])
def test_discard_needs_exactly_three__kitty_exchange(discard: str) -> None:
    """`kitty-exchange`: exactly three different cards (code discard-needs-three)."""
    deal = full_deal(W, n="AS KS QS JS")
    calls(deal, "6S PASS PASS PASS")
    refused(deal, N, Discard(tuple(cards(discard))), Code.DISCARD_NEEDS_THREE)


def test_discard_card_not_held__kitty_exchange() -> None:
    """`kitty-exchange`: only cards the declarer holds (code card-not-held)."""
    deal = full_deal(W, n="AS KS QS", e="AH")
    calls(deal, "6S PASS PASS PASS")
    refused(deal, N, Discard(tuple(cards("AS KS AH"))), Code.CARD_NOT_HELD)
    not_in_deck = (parse_card("AS"), parse_card("KS"), parse_card("4S"))
    refused(deal, N, Discard(not_in_deck), Code.CARD_NOT_HELD)


def test_discards_score_nothing__kitty_exchange() -> None:
    """`kitty-exchange`: the discards belong to nobody: a deal's points come from tricks only."""
    deal = full_deal(W, kitty="AH KH QH")
    calls(deal, "6S PASS PASS PASS")
    deal.apply(N, Discard(tuple(cards("AH KH QH"))))
    finish_randomly(deal, 1)
    result = deal.result
    assert result is not None
    ns_tricks = result.declarer_tricks
    assert result.points[EW] == 10 * (10 - ns_tricks)
    assert result.points[NS] in (40, -40, 250)


# ---- 16-18: misère seating, the opening lead, exposure -----------------------------------


def test_partner_sits_out_three_card_tricks__misere_partner_out() -> None:
    """`misere-partner-out`: in misère the partner takes no part; tricks have three cards and
    turn order skips the partner."""
    deal = misere_auction(E, e="4H 5H 6H 4D 5D 6D 5S 6S 5C 6C", w="AH KH QH AD KD QD AS KS AC KC")
    assert deal.sitting_out == W
    hand = set(deal.hand(E))
    low = set(cards("4H 5H 6H 4D 5D 6D 5S 6S 5C 6C"))
    deal.apply(E, Discard(tuple(sorted(hand - low))))
    w_hand = deal.hands[W]
    assert deal.to_act == E
    seats_seen = []
    for _ in range(3):
        seats_seen.append(deal.to_act)
        refused(deal, W, Play(Card(next(iter(deal.hand(W))))), Code.NOT_YOUR_TURN)
        assert deal.to_act is not None
        deal.apply(deal.to_act, deal.legal_actions()[0])
    assert seats_seen == [E, S, N]
    assert deal.last_trick is not None and len(deal.last_trick.cards) == 3
    assert deal.hands[W] == w_hand


def test_partner_out_in_open_misere__misere_partner_out() -> None:
    """`misere-partner-out`: the same in open misère; the partner's hand is never played."""
    deal = full_deal(W, s="AH KH QH AD KD QD AS KS AC KC")
    calls(deal, "OMIS PASS PASS PASS")
    assert deal.sitting_out == S
    deal.apply(N, deal.legal_actions()[0])
    s_hand = deal.hands[S]
    while deal.result is None:
        assert deal.to_act != S
        assert deal.to_act is not None
        assert len(deal.trick_cards) < 3
        deal.apply(deal.to_act, deal.legal_actions()[-1])
    assert deal.hands[S] == s_hand


def test_partner_out_setup_checks__misere_partner_out() -> None:
    """`misere-partner-out`: a misère position cannot have the partner on lead."""
    with pytest.raises(SetupError):
        in_play("MIS", N, n="5S 6S", e="7S 8S", w="9S 10S", s="", leader=S)
    deal = in_play("MIS", N, n="5S 6S", e="7S 8S", w="9S 10S", s="AH KH QH", leader=E)
    plays(deal, "7S", "9S")  # E then W (S skipped), then N
    assert deal.to_act == N


def test_declarer_leads_first_trick__opening_lead() -> None:
    """`opening-lead`: the declarer leads to the first trick."""
    for contract in ["6S", "8NT", "OMIS"]:
        deal = full_deal(W)
        calls(deal, f"PASS {contract} PASS PASS")  # E declares
        assert deal.declarer == E
        deal.apply(E, deal.legal_actions()[0])
        assert deal.phase is Phase.PLAY and deal.to_act == E
        for seat in (N, S, W):
            refused(deal, seat, Play(Card(deal.hand(seat)[0])), Code.NOT_YOUR_TURN)


def test_declarer_leads_first_trick_in_misere__opening_lead() -> None:
    """`opening-lead`: in misère too."""
    deal = misere_auction(S)
    deal.apply(S, deal.legal_actions()[0])
    assert deal.to_act == S
    with pytest.raises(SetupError):
        in_play(
            "6H",
            N,
            n="AS KS QS JS 10S 9S 8S 7S 6S 5S",
            e="AC KC QC JC 10C 9C 8C 7C 6C 5C",
            s="AD KD QD JD 10D 9D 8D 7D 6D 5D",
            w="AH KH QH JH 10H 9H 8H 7H 6H 5H",
            leader=E,
        )


def test_winner_leads_next_trick_ten_tricks__opening_lead() -> None:
    """`opening-lead`: each trick's winner leads the next; ten tricks are played."""
    deal = full_deal(W)
    calls(deal, "6NT PASS PASS PASS")
    deal.apply(N, deal.legal_actions()[0])
    rng = random.Random(5)
    finished = 0
    while deal.result is None:
        assert deal.to_act is not None
        deal.apply(deal.to_act, rng.choice(deal.legal_actions()))
        if deal.tricks_played > finished:
            finished = deal.tricks_played
            assert deal.last_trick is not None and not deal.trick_cards
            if deal.result is None:
                assert deal.to_act == deal.last_trick.winner
    assert finished == deal.tricks_played == 10 and sum(deal.tricks_won) == 10


def test_a_position_in_play_has_its_leader_on_a_side_with_a_trick__opening_lead() -> None:
    """`opening-lead`: since the winner of a trick leads the next, a position after the first
    trick whose leader's side has won nothing never happens, and is refused; in a misère that
    stops at the declarer's first trick, the declarer therefore never leads after trick one."""
    hands = {"n": "AS 5C", "e": "KS 6C", "s": "QS 7C", "w": "JS 8C"}
    with pytest.raises(SetupError, match="N's side has won none of the 8 tricks"):
        in_play("6NT", N, **hands, leader=N, tricks=(0, 8))
    assert in_play("6NT", N, **hands, leader=N, tricks=(1, 7)).to_act == N
    assert in_play("6NT", N, **hands, leader=E, tricks=(1, 7)).to_act == E
    with pytest.raises(SetupError, match="E's side has won none"):
        in_play("6NT", N, **hands, leader=E, tricks=(8, 0))
    with pytest.raises(SetupError, match="N's side has won none"):
        in_play("MIS", N, n="AS 5C", e="KS 6C", w="JS 8C", leader=N, tricks=(0, 8))


def test_exposed_only_after_first_trick__open_misere_exposure() -> None:
    """`open-misere-exposure`: the open misère hand is exposed from the end of the first trick."""
    deal = full_deal(
        W,
        n="4H 5H 6H 4D 5D 6D 5S 6S 5C 6C",
        e="AS KS QS JS 10S AC KC QC JC 10C",
        w="9S 8S 7S 9C 8C 7C AH KH AD KD",
        kitty="7H 8H 9H",
    )
    calls(deal, "OMIS PASS PASS PASS")
    assert deal.exposed is None
    deal.apply(N, Discard(tuple(cards("7H 8H 9H"))))
    assert deal.exposed is None
    plays(deal, "5S")
    assert deal.exposed is None
    legal_before = legal_strings(deal)
    plays(deal, "AS")
    assert deal.exposed is None
    assert legal_strings(deal) == {"9S", "8S", "7S"} and legal_before == {
        "AS",
        "KS",
        "QS",
        "JS",
        "10S",
    }
    plays(deal, "9S")  # end of trick 1, E wins
    assert deal.result is None and deal.tricks_played == 1
    assert deal.exposed == deal.hand(N)
    assert tokens(deal.exposed) == set(words("4H 5H 6H 4D 5D 6D 6S 5C 6C"))


def test_exposure_changes_no_legality__open_misere_exposure() -> None:
    """`open-misere-exposure`: the declarer still chooses every card; legality is unchanged."""
    open_deal = in_play("OMIS", N, n="5S 6C", e="AS KC", w="9S 8C", leader=E)
    closed = in_play("MIS", N, n="5S 6C", e="AS KC", w="9S 8C", leader=E)
    assert open_deal.exposed == cards("5S 6C")
    assert closed.exposed is None
    for deal in (open_deal, closed):
        plays(deal, "AS", "9S")
        assert legal_strings(deal) == {"5S"}


# ---- 19-20: following and winning --------------------------------------------------------


def test_must_follow_if_able__follow_suit() -> None:
    """`follow-suit`: a player must follow the suit led if able."""
    deal = in_play("6H", N, n="AS 5C", e="KS 6C", s="QS AD", w="7C 8C", leader=N)
    play(deal, N, "AS")
    refused(deal, E, card_play("6C"), Code.MUST_FOLLOW_SUIT)
    assert legal_strings(deal) == {"KS"}


def test_void_may_play_anything__follow_suit() -> None:
    """`follow-suit`: a player who cannot follow may play any card; nobody has to trump."""
    deal = in_play("6H", N, n="AS 5C", e="4H 6C", s="QS AD", w="7C 8C", leader=N)
    play(deal, N, "AS")
    assert legal_strings(deal) == {"4H", "6C"}
    play(deal, E, "6C")  # does not have to trump


def test_no_obligation_to_beat__follow_suit() -> None:
    """`follow-suit`: nobody has to beat the trick."""
    deal = in_play("6H", N, n="10S 5C", e="AS 5S", s="QS AD", w="7C 8C", leader=N)
    play(deal, N, "10S")
    assert legal_strings(deal) == {"AS", "5S"}
    play(deal, E, "5S")


def test_joker_is_a_trump_for_following__follow_suit() -> None:
    """`follow-suit`: in a suit contract the joker counts as a trump: on a trump lead it must
    be played if it is the only trump; on a plain lead it may not be played while the
    player can follow."""
    deal = in_play("6H", N, n="AH 5C", e="JK 6C", s="4H AD", w="5H 8C", leader=N)
    play(deal, N, "AH")
    refused(deal, E, card_play("6C"), Code.MUST_FOLLOW_SUIT)
    assert legal_strings(deal) == {"JK"}
    deal = in_play("6H", N, n="AC 5S", e="JK 6C", s="7C AD", w="5C 8S", leader=N)
    play(deal, N, "AC")
    refused(deal, E, card_play("JK"), Code.MUST_FOLLOW_SUIT)
    refused(deal, E, card_play("JK", "H"), Code.UNEXPECTED_SUIT_NAME)
    assert legal_strings(deal) == {"6C"}


def test_void_in_plain_suit_may_play_joker__follow_suit() -> None:
    """`follow-suit`: a player void in a plain suit may trump with the joker (and it wins)."""
    deal = in_play("6H", N, n="AC 5S", e="JK 6D", s="7C AD", w="5C 8S", leader=N)
    play(deal, N, "AC")
    assert legal_strings(deal) == {"JK", "6D"}
    plays(deal, "JK", "7C", "5C")
    assert deal.last_trick is not None and deal.last_trick.winner == E


def test_highest_trump_wins__trick_winner() -> None:
    """`trick-winner`: the highest trump played wins."""
    assert trick_winner("7H", N, "AS", "4H", "JD", "5H") == S
    assert trick_winner("7S", E, "AH", "5S", "6S", "AD") == W
    assert trick_winner("7C", N, "AH", "JS", "JC", "5C") == S


def test_highest_of_suit_led_without_trumps__trick_winner() -> None:
    """`trick-winner`: if no trump is played, the highest card of the suit led wins."""
    assert trick_winner("7H", N, "10S", "AC", "JS", "AD") == S
    assert trick_winner("7H", N, "10S", "AC", "JC", "AD") == N


def test_joker_lead_is_trump_lead__trick_winner() -> None:
    """`trick-winner`: leading the joker in a suit contract is a trump lead; it names nothing."""
    deal = in_play("6S", N, n="JK 5C", e="5S AH", s="AD KD", w="JC 6C", leader=N)
    refused(deal, N, card_play("JK", "H"), Code.UNEXPECTED_SUIT_NAME)
    assert "JK" in legal_strings(deal) and not any(a.startswith("JK:") for a in legal_strings(deal))
    play(deal, N, "JK")
    assert deal.led_suit is Suit.SPADES and deal.suits_led_list == [Suit.SPADES]
    refused(deal, E, card_play("AH"), Code.MUST_FOLLOW_SUIT)
    plays(deal, "5S", "AD")
    refused(deal, W, card_play("6C"), Code.MUST_FOLLOW_SUIT)  # left bower is a spade
    plays(deal, "JC")
    assert deal.last_trick is not None and deal.last_trick.winner == N


def test_worked_example_trick__trick_winner() -> None:
    """`trick-winner` (the seed's worked example): hearts trumps; A leads A♥, B plays J♦ (left
    bower), C K♥, D the joker; everyone followed trumps and D wins."""
    deal = in_play("8H", N, n="AH 5S", e="JD 9D", s="KH AC", w="JK AS", leader=N)
    play(deal, N, "AH")
    refused(deal, E, card_play("9D"), Code.MUST_FOLLOW_SUIT)
    play(deal, E, "JD")
    refused(deal, S, card_play("AC"), Code.MUST_FOLLOW_SUIT)
    play(deal, S, "KH")
    refused(deal, W, card_play("AS"), Code.MUST_FOLLOW_SUIT)
    play(deal, W, "JK")
    trick = deal.last_trick
    assert trick is not None
    assert trick.winner == W and trick.led is Suit.HEARTS and trick.leader == N
    assert [(seat, card_token(c)) for seat, c in trick.cards] == [
        (N, "AH"),
        (E, "JD"),
        (S, "KH"),
        (W, "JK"),
    ]
    assert deal.to_act == W


# ---- 21-27: the joker without trumps -----------------------------------------------------


def _nt_after_discard(contract: str = "6NT", *, discard: str = "5S 6S 7S") -> Deal:
    """N declares ``contract`` holding the joker, and has just discarded ``discard``."""
    hands = {
        "n": "JK AH KH QH 5S 6S 7S 8S 9S 10S",
        "e": "AS KS QS JS AD KD QD JD 10D 9D",
        "kitty": "4H 5H 6H",
    }
    if contract == "MIS":
        deal = full_deal(S, **hands)  # W calls first: 7S by W, then MIS by N
        calls(deal, "7S MIS PASS PASS PASS")
    else:
        deal = full_deal(W, **hands)
        calls(deal, f"{contract} PASS PASS PASS")
    assert deal.declarer == N and deal.contract == parse_bid(contract)
    refused(deal, N, Nominate(Suit.HEARTS), Code.NOMINATION_NOT_ALLOWED)  # before the discard
    deal.apply(N, Discard(tuple(cards(discard))))
    return deal


@pytest.mark.parametrize("contract", ["6NT", "MIS", "OMIS"])
def test_declarer_may_nominate_before_first_lead__joker_nomination(contract: str) -> None:
    """`joker-nomination`: the declarer holding the joker may nominate its suit after the
    discard and before the first lead, in no trumps and both misères."""
    deal = _nt_after_discard(contract)
    legal = legal_strings(deal)
    assert {"NOMINATE S", "NOMINATE C", "NOMINATE D", "NOMINATE H"} <= legal
    assert deal.joker_is_suitless
    deal.apply(N, Nominate(Suit.CLUBS))
    assert deal.nominated is Suit.CLUBS and not deal.joker_is_suitless
    assert deal.to_act == N and deal.phase is Phase.PLAY
    refused(deal, N, Nominate(Suit.HEARTS), Code.NOMINATION_NOT_ALLOWED)  # only once
    assert not any(a.startswith("NOMINATE") for a in legal_strings(deal))


def test_nomination_is_optional__joker_nomination() -> None:
    """`joker-nomination`: the declarer may lead without nominating; then it is too late."""
    deal = _nt_after_discard()
    play(deal, N, "AH")
    refused(deal, N, Nominate(Suit.HEARTS), Code.NOMINATION_NOT_ALLOWED)
    assert deal.to_act is not None
    refused(deal, deal.to_act, Nominate(Suit.HEARTS), Code.NOMINATION_NOT_ALLOWED)
    while deal.trick_cards:
        assert deal.to_act is not None
        deal.apply(deal.to_act, deal.legal_actions()[0])
    assert deal.to_act is not None
    refused(deal, N, Nominate(Suit.HEARTS), Code.NOMINATION_NOT_ALLOWED)


def test_only_declarer_nominates__joker_nomination() -> None:
    """`joker-nomination`: only the declarer may nominate; a defender's joker stays suitless."""
    deal = in_play(
        "6NT",
        N,
        n="AH KH QH 5S 6S 7S 8S 9S 10S 4D",
        e="JK KS QS JS AD KD QD JD 10D 9D",
        s="AS AC KC QC JC 10C 9C 8C 7C 6C",
        w="5C 4H 5H 6H 7H 8H 9H 10H JH 8D",
    )
    assert not any(a.startswith("NOMINATE") for a in legal_strings(deal))
    for seat in SEATS:
        refused(deal, seat, Nominate(Suit.SPADES), Code.NOMINATION_NOT_ALLOWED)


def test_declarer_without_joker_cannot_nominate__joker_nomination() -> None:
    """`joker-nomination`: a declarer who discarded the joker cannot nominate."""
    deal = _nt_after_discard(discard="JK 5S 6S")
    assert not any(a.startswith("NOMINATE") for a in legal_strings(deal))
    refused(deal, N, Nominate(Suit.SPADES), Code.NOMINATION_NOT_ALLOWED)


def test_no_nomination_in_suit_contract__joker_nomination() -> None:
    """`joker-nomination`: in a suit contract the joker is the top trump; no nomination."""
    deal = _nt_after_discard("6H")
    assert not any(a.startswith("NOMINATE") for a in legal_strings(deal))
    refused(deal, N, Nominate(Suit.HEARTS), Code.NOMINATION_NOT_ALLOWED)


def test_no_nomination_during_auction__joker_nomination() -> None:
    """`joker-nomination`: at no other time: not during the auction."""
    deal = full_deal(W, n="JK")
    refused(deal, N, Nominate(Suit.HEARTS), Code.NOMINATION_NOT_ALLOWED)


def test_nominated_joker_is_top_of_its_suit__nominated_joker() -> None:
    """`nominated-joker`: a nominated joker is the highest card of its suit and leads as it."""
    deal = in_play("6NT", N, n="JK 5S", e="AH 6S", s="KH 7S", w="QH 8S", leader=N, nominated="H")
    assert "JK" in legal_strings(deal) and not any(a.startswith("JK:") for a in legal_strings(deal))
    refused(deal, N, card_play("JK", "H"), Code.UNEXPECTED_SUIT_NAME)
    play(deal, N, "JK")
    assert deal.led_suit is Suit.HEARTS and Suit.HEARTS in deal.suits_led_list
    refused(deal, E, card_play("6S"), Code.MUST_FOLLOW_SUIT)
    plays(deal, "AH", "KH", "QH")
    assert deal.last_trick is not None and deal.last_trick.winner == N


def test_nominated_joker_follows_as_its_suit__nominated_joker() -> None:
    """`nominated-joker`: it follows as a card of its suit (and may not be kept back)."""
    deal = in_play("6NT", N, n="JK 5S", e="AH 6S", s="KH 7S", w="QH 8S", leader=E, nominated="H")
    plays(deal, "AH", "KH", "QH")
    refused(deal, N, card_play("5S"), Code.MUST_FOLLOW_SUIT)
    assert legal_strings(deal) == {"JK"}
    play(deal, N, "JK")
    assert deal.last_trick is not None and deal.last_trick.winner == N


def test_nominated_joker_discarded_loses__nominated_joker() -> None:
    """`nominated-joker`: played on another suit's lead it cannot win."""
    deal = in_play("6NT", N, n="JK 4D", e="5S AH", s="6S KH", w="7S QH", leader=E, nominated="H")
    play(deal, E, "5S")
    play(deal, S, "6S")
    play(deal, W, "7S")
    assert legal_strings(deal) == {"JK", "4D"}
    play(deal, N, "JK")
    assert deal.last_trick is not None and deal.last_trick.winner == W


def test_suitless_joker_wins_any_trick__suitless_joker() -> None:
    """`suitless-joker`: an unnominated joker belongs to no suit and wins any trick."""
    assert trick_winner("6NT", N, "AS", "KS", "QS", "JK") == W  # a defender's joker
    assert trick_winner("9NT", E, "AD", "JK", "KD", "QD", declarer=E) == S
    # the declarer's own unnominated joker wins too
    assert trick_winner("6NT", E, "AC", "KC", "JK", "QC", declarer=W) == W


def test_suitless_joker_belongs_to_no_suit__suitless_joker() -> None:
    """`suitless-joker`: a suitless joker is no card of any suit for following."""
    deal = in_play("6NT", N, n="AS 5C", e="JK 6D", s="QS AD", w="7C 8C", leader=N)
    assert deal.joker_is_suitless
    play(deal, N, "AS")
    assert legal_strings(deal) == {"JK", "6D"}  # E is void in spades


def test_joker_only_when_void__suitless_joker_following() -> None:
    """`suitless-joker-following`: on another's lead a suitless joker may be played only by a
    player with no card of the suit led."""
    for contract in ["6NT", "MIS", "OMIS"]:
        deal = in_play(
            contract,
            N,
            w="AS 8C",
            n="5S 5C",
            e="JK 6S",
            s="" if "MIS" in contract else "QS AD",
            leader=W,
        )
        plays(deal, "AS", "5S")
        refused(deal, E, card_play("JK"), Code.JOKER_ONLY_WHEN_VOID)
        assert legal_strings(deal) == {"6S"}


def test_joker_optional_in_no_trumps__suitless_joker_following() -> None:
    """`suitless-joker-following`: in no trumps playing it when void is optional."""
    deal = in_play("6NT", N, n="AS 5C", e="JK 6D", s="QS AD", w="7C 8C", leader=N)
    play(deal, N, "AS")
    accepted(deal, E, card_play("6D"))
    accepted(deal, E, card_play("JK"))
    play(deal, E, "6D")


@pytest.mark.parametrize("contract", ["MIS", "OMIS"])
def test_joker_compulsory_for_defender_in_misere__suitless_joker_following(contract: str) -> None:
    """`suitless-joker-following`: in misère a void player must play the suitless joker; this
    binds the defenders."""
    deal = in_play(contract, N, n="5S 5C", e="AS 6C", w="JK 6D", s="", leader=E)
    plays(deal, "AS")
    assert deal.to_act == W
    refused(deal, W, card_play("6D"), Code.JOKER_MUST_BE_PLAYED)
    assert legal_strings(deal) == {"JK"}
    plays(deal, "JK", "5S")
    assert deal.last_trick is not None and deal.last_trick.winner == W
    assert deal.result is None  # the misère goes on


@pytest.mark.parametrize("contract", ["MIS", "OMIS"])
def test_joker_compulsory_for_declarer_in_misere__suitless_joker_following(contract: str) -> None:
    """`suitless-joker-following`: it binds the misère declarer too (unnominated joker)."""
    deal = in_play(contract, N, n="JK 5C", e="AS 6C", w="KS 6D", s="", leader=E)
    plays(deal, "AS", "KS")
    refused(deal, N, card_play("5C"), Code.JOKER_MUST_BE_PLAYED)
    assert legal_strings(deal) == {"JK"}
    play(deal, N, "JK")
    assert deal.result is not None and not deal.result.made


def test_nominated_joker_not_compulsory_in_misere__suitless_joker_following() -> None:
    """`suitless-joker-following`: only a suitless joker is compulsory; a nominated one is just
    a card of its suit."""
    deal = in_play("MIS", N, n="JK 5C", e="AS 6C", w="KS 6D", s="", leader=E, nominated="H")
    plays(deal, "AS", "KS")
    assert legal_strings(deal) == {"JK", "5C"}
    play(deal, N, "5C")


def test_joker_lead_names_unled_suit__joker_lead() -> None:
    """`joker-lead`: leading a suitless joker names a suit not yet led; the others follow it
    and the joker wins; the lead counts as a lead of that suit."""
    deal = in_play(
        "6NT",
        N,
        n="JK 5C 5D",
        e="AH 6H 6D",
        s="KH 4H 7D",
        w="QD 7C 8D",
        leader=N,
        suits_led="S",
        tricks=(3, 4),
    )
    assert {a for a in legal_strings(deal) if a.startswith("JK")} == {"JK:C", "JK:D", "JK:H"}
    refused(deal, N, card_play("JK"), Code.JOKER_LEAD_NEEDS_SUIT)
    refused(deal, N, card_play("JK", "S"), Code.JOKER_SUIT_ALREADY_LED)
    play(deal, N, "JK", "H")
    assert deal.led_suit is Suit.HEARTS
    assert set(deal.suits_led_list) == {Suit.SPADES, Suit.HEARTS}
    refused(deal, E, card_play("6D"), Code.MUST_FOLLOW_SUIT)
    plays(deal, "AH", "KH", "8D")
    trick = deal.last_trick
    assert trick is not None and trick.winner == N and trick.led is Suit.HEARTS
    # hearts has now been led: a later joker lead could not name it
    assert deal.suits_led >> Suit.HEARTS & 1


def test_joker_lead_by_defender_in_misere__joker_lead() -> None:
    """`joker-lead`: a defender leading the suitless joker in misère names an unled suit."""
    deal = in_play(
        "MIS", N, n="5H 6H", e="JK 7C", w="8H 9H", s="", leader=E, suits_led="C", tricks=(0, 8)
    )
    assert {a for a in legal_strings(deal) if a.startswith("JK")} == {"JK:S", "JK:D", "JK:H"}
    refused(deal, E, card_play("JK", "C"), Code.JOKER_SUIT_ALREADY_LED)
    play(deal, E, "JK", "D")
    assert deal.to_act == W  # S sits out
    assert legal_strings(deal) == {"8H", "9H"}  # W is void in diamonds
    plays(deal, "8H", "5H")
    assert deal.last_trick is not None and deal.last_trick.winner == E and deal.result is None


def test_joker_lead_blocked_when_all_suits_led__joker_lead_all_suits_led() -> None:
    """`joker-lead-all-suits-led`: after all four suits were led a suitless joker may not be led
    except to the last trick."""
    deal = in_play(
        "6NT",
        N,
        n="JK 5C",
        e="AH 6H",
        s="KH 4H",
        w="QD 7C",
        leader=N,
        suits_led="SCDH",
        tricks=(4, 4),
    )
    assert not any(a.startswith("JK") for a in legal_strings(deal))
    assert legal_strings(deal) == {"5C"}
    refused(deal, N, card_play("JK"), Code.JOKER_LEAD_ALL_SUITS_LED)
    for suit in "SCDH":
        refused(deal, N, card_play("JK", suit), Code.JOKER_LEAD_ALL_SUITS_LED)


def test_joker_lead_last_trick_any_suit__joker_lead_all_suits_led() -> None:
    """`joker-lead-all-suits-led`: to the last trick, after all four suits, any suit may be
    named."""
    for suit in "SCDH":
        deal = in_play(
            "6NT", N, n="JK", e="AH", s="KS", w="QD", leader=N, suits_led="SCDH", tricks=(5, 4)
        )
        assert {a for a in legal_strings(deal)} == {"JK:S", "JK:C", "JK:D", "JK:H"}
        refused(deal, N, card_play("JK"), Code.JOKER_LEAD_NEEDS_SUIT)
        play(deal, N, "JK", suit)
        assert deal.led_suit is Suit.parse(suit)
        plays(deal, "AH", "KS", "QD")
        assert deal.result is not None and deal.last_trick is not None
        assert deal.last_trick.winner == N


def test_last_trick_before_all_suits_led_uses_joker_lead__joker_lead_all_suits_led() -> None:
    """`joker-lead-all-suits-led`: before all four suits have been led, ruling 25 applies on
    every trick, the last one included: only an unled suit may be named."""
    deal = in_play(
        "6NT", N, n="JK", e="AH", s="KS", w="QD", leader=N, suits_led="SCD", tricks=(5, 4)
    )
    assert legal_strings(deal) == {"JK:H"}
    for suit in "SCD":
        refused(deal, N, card_play("JK", suit), Code.JOKER_SUIT_ALREADY_LED)
    play(deal, N, "JK", "H")
    assert deal.to_act == E


def test_joker_lead_all_suits_led_in_misere__joker_lead_all_suits_led() -> None:
    """`joker-lead-all-suits-led`: the same for a defender in misère."""
    deal = in_play(
        "OMIS", N, n="5C 6C", e="JK 7C", w="8C 9C", s="", leader=E, suits_led="SCDH", tricks=(0, 8)
    )
    refused(deal, E, card_play("JK", "H"), Code.JOKER_LEAD_ALL_SUITS_LED)
    assert legal_strings(deal) == {"7C"}


def test_unnominated_joker_breaks_misere__misere_joker() -> None:
    """`misere-joker`: an unnominated joker in the misère declarer's hand wins when played, so
    the misère is lost and the deal ends at once."""
    deal = in_play(
        "MIS", N, n="JK 5C 6C", e="AS 7C 8C", w="KS 9C 10C", s="", leader=E, tricks=(0, 7)
    )
    plays(deal, "AS", "KS")
    play(deal, N, "JK")  # void in spades: the declarer must play it, and it wins
    result = deal.result
    assert result is not None and deal.is_over
    assert result.made is False and result.declarer_tricks == 1
    assert result.points == (-250, 0)
    assert deal.tricks_played == 8 and deal.to_act is None
    refused(deal, N, card_play("5C"), Code.DEAL_OVER)
    refused(deal, E, card_play("7C"), Code.DEAL_OVER)


def test_nominated_joker_can_lose_in_misere__misere_joker() -> None:
    """`misere-joker`: a nominated joker can be discarded on another suit and lose."""
    deal = in_play(
        "MIS", N, n="JK 5C", e="AS 7C", w="KS 9C", s="", leader=E, nominated="D", tricks=(0, 8)
    )
    plays(deal, "AS", "KS", "JK")
    assert deal.result is None and deal.last_trick is not None and deal.last_trick.winner == E
    plays(deal, "7C", "9C", "5C")
    assert deal.result is not None and deal.result.made
    assert deal.result.points == (250, 0)


# ---- 28-30: values and scoring ------------------------------------------------------------

STRAINS = ("S", "C", "D", "H", "NT")
VALUES = {
    6: (40, 60, 80, 100, 120),
    7: (140, 160, 180, 200, 220),
    8: (240, 260, 280, 300, 320),
    9: (340, 360, 380, 400, 420),
    10: (440, 460, 480, 500, 520),
}


@pytest.mark.parametrize(
    "token,value",
    [(f"{lvl}{st}", VALUES[lvl][i]) for lvl in VALUES for i, st in enumerate(STRAINS)]
    + [("MIS", 250), ("OMIS", 500)],
)
def test_contract_value_table__contract_values(token: str, value: int) -> None:
    """`contract-values`: the Avondale table, misère 250, open misère 500."""
    bid = parse_bid(token)
    assert P.bid_values[bid] == value
    if bid.is_misere:
        assert score_deal(P, bid, E, 0).points == (0, value)
    else:
        assert bid.level is not None
        made = score_deal(P, bid, E, bid.level)
        assert made.made and made.points[EW] == value
        assert score_deal(P, bid, E, bid.level - 1).points[EW] == -value


def test_all_27_bids_valued__contract_values() -> None:
    """`contract-values`: every bid of the profile has a value."""
    assert set(P.bid_values) == set(P.bid_order) and len(P.bid_order) == 27


def test_made_scores_value_defenders_per_trick__deal_score() -> None:
    """`deal-score`: made: the contract's value, no bonus for extra tricks; defenders 10 a trick."""
    for taken in range(6, 10):
        result = score_deal(P, parse_bid("6S"), N, taken)
        assert result.made and result.points == (40, 10 * (10 - taken))
    assert score_deal(P, parse_bid("9NT"), W, 9).points == (10, 420)


def test_lost_loses_value_defenders_still_score__deal_score() -> None:
    """`deal-score`: lost: minus the value; the defenders score their tricks anyway."""
    result = score_deal(P, parse_bid("8H"), S, 7)
    assert not result.made and result.points == (-300, 30)
    assert score_deal(P, parse_bid("10NT"), E, 0).points == (100, -520)


@pytest.mark.parametrize(
    "token,slam",
    [
        ("6S", 250),
        ("6NT", 250),
        ("7NT", 250),
        ("7H", 250),
        ("8S", 250),
        ("8C", 260),
        ("8H", 300),
        ("9S", 340),
        ("10NT", 520),
    ],
)
def test_slam_rule__deal_score(token: str, slam: int) -> None:
    """`deal-score`: a slam of a contract worth less than 250 scores 250; 250 or more scores
    its own value; defenders 0."""
    result = score_deal(P, parse_bid(token), N, 10)
    assert result.made and result.points == (slam, 0)
    assert score_deal(P, parse_bid(token), N, 9).points[NS] == (
        P.bid_values[parse_bid(token)] if token != "10NT" else -520
    )


def test_score_from_play__deal_score() -> None:
    """`deal-score`: the score of a played deal: 6♠ made with exactly 6 tricks, and a slam."""
    deal = in_play("6S", N, n="AS", e="5C", s="6C", w="7C", leader=N, tricks=(5, 4))
    plays(deal, "AS", "5C", "6C", "7C")
    assert deal.result == DealResult(parse_bid("6S"), N, 6, True, (40, 40))
    deal = in_play("7NT", E, n="5C", e="AS", s="6C", w="7C", leader=E, tricks=(0, 9))
    plays(deal, "AS", "6C", "7C", "5C")
    assert deal.result is not None and deal.result.points == (0, 250)
    deal = in_play("6D", N, n="5S", e="AS", s="6S", w="7C", leader=E, tricks=(5, 4))
    plays(deal, "AS", "6S", "7C", "5S")
    assert deal.result is not None and deal.result.points == (-80, 50)


@pytest.mark.parametrize("contract,value", [("MIS", 250), ("OMIS", 500)])
def test_misere_made_and_lost__misere_score(contract: str, value: int) -> None:
    """`misere-score`: made with no trick (+250/+500), lost otherwise; defenders 0 either way."""
    deal = in_play(contract, S, s="5C", w="AC", e="KC", n="", leader=W, tricks=(0, 9))
    plays(deal, "AC", "KC", "5C")  # W, E, S: N sits out
    assert deal.result is not None
    assert deal.result.made and deal.result.points == (value, 0)
    assert score_deal(P, parse_bid(contract), S, 1).points == (-value, 0)
    assert score_deal(P, parse_bid(contract), W, 3).points == (0, -value)


@pytest.mark.parametrize("contract,value", [("MIS", 250), ("OMIS", 500)])
def test_misere_ends_on_declarers_trick__misere_score(contract: str, value: int) -> None:
    """`misere-score`: the deal ends as soon as the declarer wins a trick; further play is
    rejected (deal-over)."""
    deal = in_play(
        contract, S, s="AC 5D 6D", w="5C 7D 8D", e="6C 9D 10D", n="", leader=W, tricks=(0, 7)
    )
    plays(deal, "5C", "6C", "AC")  # W, E, S
    assert deal.result is not None and deal.is_over
    assert deal.result.points == (-value, 0) and deal.result.declarer_tricks == 1
    assert deal.tricks_played == 8 and deal.legal_actions() == ()
    refused(deal, S, card_play("5D"), Code.DEAL_OVER)
    refused(deal, S, card_play("5D"), Code.DEAL_OVER)


# ---- 31-34: the end of the game ----------------------------------------------------------


def test_end_checked_only_after_deal__end_check() -> None:
    """`end-check`: the end is checked after a deal is fully scored, never in the middle."""
    game = Game(P, W, (480, 0))
    deal = game.new_deal(list(P.deck))
    calls(deal, "6S PASS PASS PASS")
    with pytest.raises(ValueError):
        game.record_deal(deal)
    assert game.winner is None
    deal.apply(N, deal.legal_actions()[0])
    finish_randomly(deal, 3)
    game.record_deal(deal)
    assert deal.result is not None
    if deal.result.made:
        assert game.winner is NS
    else:
        assert game.winner is None and game.scores[NS] == 440


def test_misere_broken_midway_checked_after_scoring__end_check() -> None:
    """`end-check`: a misère that ends early is scored, then the end is checked."""
    game = Game(P, W, (-300, 0))
    deal = in_play("MIS", S, s="AC 5D", w="5C 7D", e="6C 9D", n="", leader=W, tricks=(0, 8))
    plays(deal, "5C", "6C", "AC")  # W, E, S
    game.record_deal(deal)
    assert game.scores == [-550, 0] and game.winner is EW


def test_win_on_own_made_contract__win_on_own_contract() -> None:
    """`win-on-own-contract`: a side that makes its contract and reaches 500 or more wins."""
    game = Game(P, N, (460, 0))
    game.record(score_deal(P, parse_bid("6S"), S, 6))
    assert game.scores == [500, 40] and game.winner is NS and game.over


def test_made_contract_below_500_does_not_win__win_on_own_contract() -> None:
    """`win-on-own-contract`: a made contract leaving the side below 500 wins nothing."""
    game = Game(P, N, (450, 0))
    game.record(score_deal(P, parse_bid("6S"), S, 6))
    assert game.scores == [490, 40] and game.winner is None


def test_defenders_reaching_500_do_not_win__win_on_own_contract() -> None:
    """`win-on-own-contract`: reaching 500 with defenders' trick points alone wins nothing."""
    game = Game(P, N, (0, 480))
    game.record(score_deal(P, parse_bid("6S"), N, 6))
    assert game.scores == [40, 520] and game.winner is None
    game.record(score_deal(P, parse_bid("10NT"), S, 0))
    assert game.scores == [-480, 620] and game.winner is None


def test_side_over_500_wins_with_next_made_contract__win_on_own_contract() -> None:
    """`win-on-own-contract`: a side already over 500 from defending wins when it next makes
    its own contract (and not when it fails)."""
    game = Game(P, N, (0, 620))
    game.record(score_deal(P, parse_bid("6S"), E, 5))
    assert game.scores == [50, 580] and game.winner is None  # over 500, but the contract failed
    game.record(score_deal(P, parse_bid("7H"), E, 6))
    assert game.scores == [90, 380] and game.winner is None
    game = Game(P, N, (0, 620))
    game.record(score_deal(P, parse_bid("6S"), W, 6))
    assert game.winner is EW


def test_made_misere_wins__win_on_own_contract() -> None:
    """`win-on-own-contract`: a made misère counts as the side's own contract."""
    game = Game(P, N, (300, 490))
    game.record(score_deal(P, MISERE, N, 0))
    assert game.scores == [550, 490] and game.winner is NS


def test_minus_500_loses_at_once__lose_at_minus_500() -> None:
    """`lose-at-minus-500`: a side at -500 or lower after a deal loses; the other side wins."""
    game = Game(P, N, (-260, 100))
    game.record(score_deal(P, parse_bid("6NT"), E, 5))
    assert game.scores == [-210, -20] and game.winner is None
    game.record(score_deal(P, parse_bid("7NT"), S, 6))
    assert game.scores == [-430, 20] and game.winner is None
    game.record(score_deal(P, parse_bid("6S"), N, 5))
    assert game.scores == [-470, 70] and game.winner is None
    game.record(score_deal(P, parse_bid("6S"), N, 4))
    assert game.scores == [-510, 130] and game.winner is EW


def test_exactly_minus_500_loses__lose_at_minus_500() -> None:
    """`lose-at-minus-500`: exactly -500 is enough to lose."""
    game = Game(P, N, (0, -250))
    game.record(score_deal(P, MISERE, E, 1))
    assert game.scores == [0, -500] and game.winner is NS


def test_lost_game_cannot_start__lose_at_minus_500() -> None:
    """`lose-at-minus-500`: a game cannot be set up with a side already at -500."""
    with pytest.raises(SetupError):
        Game(P, N, (-500, 0))
    assert Game(P, N, (-490, 0)).winner is None


def test_game_over_refuses_more_deals__lose_at_minus_500() -> None:
    """`lose-at-minus-500`: once lost the game is over (code game-over for any further deal)."""
    game = Game(P, N, (-480, 0))
    game.record(score_deal(P, parse_bid("6S"), N, 0))
    assert game.winner is EW
    with pytest.raises(IllegalAction) as info:
        game.record(THROWN_IN)
    assert info.value.code is Code.GAME_OVER
    with pytest.raises(IllegalAction) as info:
        game.new_deal(list(P.deck))
    assert info.value.code is Code.GAME_OVER
    assert game.dealer == E and len(game.deals) == 1


def test_only_declarers_can_win_a_deal__no_ties() -> None:
    """`no-ties`: both sides over 500 after a deal: only the declarers (who made it) win."""
    game = Game(P, N, (490, 490))
    game.record(score_deal(P, parse_bid("6S"), N, 6))
    assert game.scores == [530, 530] and game.winner is NS


def test_no_490_cap_for_defenders__no_ties() -> None:
    """`no-ties`: no 490 cap on defenders' points."""
    game = Game(P, N, (0, 480))
    game.record(score_deal(P, parse_bid("6S"), N, 0))
    assert game.scores == [-40, 580] and game.winner is None


def test_worked_example_scores__no_ties() -> None:
    """`win-on-own-contract` / `no-ties` (the seed's worked example): 8♥ made with exactly 8
    tricks: +300 to the declarers, +20 to the defenders; 210 → 510 wins, the defenders'
    490 → 510 does not."""
    result = score_deal(P, parse_bid("8H"), N, 8)
    assert P.bid_values[parse_bid("8H")] == 300
    assert result.made and result.points == (300, 20)
    game = Game(P, N, (210, 490))
    game.record(result)
    assert game.scores == [510, 510] and game.winner is NS
    game = Game(P, N, (0, 490))
    game.record(result)
    assert game.scores == [300, 510] and game.winner is None


# ---- rejection codes and their precedence ------------------------------------------------


def test_every_code_has_a_description() -> None:
    """Every code in the closed list is documented."""
    assert set(CODE_DESCRIPTIONS) == set(Code)
    assert all(CODE_DESCRIPTIONS.values())


def _deal_over() -> tuple[Deal, Seat, Action]:
    deal = full_deal(W)
    calls(deal, "PASS PASS PASS PASS")
    return deal, N, PASS


def _wrong_phase() -> tuple[Deal, Seat, Action]:
    deal = full_deal(W)
    return deal, N, card_play(card_token(deal.hand(N)[0]))


def _not_your_turn() -> tuple[Deal, Seat, Action]:
    return full_deal(W), E, PASS


def _already_passed() -> tuple[Deal, Seat, Action]:
    deal = full_deal(W)
    calls(deal, "PASS")
    return deal, N, parse_bid("6S")


def _bid_not_available() -> tuple[Deal, Seat, Action]:
    return full_deal(W), N, Bid("11NT", 11, Strain.NO_TRUMPS, Misere.NONE)


def _bid_not_higher() -> tuple[Deal, Seat, Action]:
    deal = full_deal(W)
    calls(deal, "7S")
    return deal, E, parse_bid("6NT")


def _misere_needs_seven() -> tuple[Deal, Seat, Action]:
    return full_deal(W), N, MISERE


def _discard_needs_three() -> tuple[Deal, Seat, Action]:
    deal = full_deal(W)
    calls(deal, "6S PASS PASS PASS")
    return deal, N, Discard(tuple(deal.hand(N)[:2]))


def _card_not_held() -> tuple[Deal, Seat, Action]:
    deal = in_play("6S", N, n="AS", e="KS", s="QS", w="JS", leader=N)
    return deal, N, card_play("KS")


def _nomination_not_allowed() -> tuple[Deal, Seat, Action]:
    deal = in_play("6S", N, n="JK", e="KS", s="QS", w="JS", leader=N)
    return deal, N, Nominate(Suit.SPADES)


def _must_follow_suit() -> tuple[Deal, Seat, Action]:
    deal = in_play("6S", N, n="AS 5C", e="KS 6C", s="QS 7C", w="JS 8C", leader=N)
    play(deal, N, "AS")
    return deal, E, card_play("6C")


def _joker_only_when_void() -> tuple[Deal, Seat, Action]:
    deal = in_play("6NT", N, n="AS 5C", e="KS JK", s="QS 7C", w="JS 8C", leader=N)
    play(deal, N, "AS")
    return deal, E, card_play("JK")


def _joker_must_be_played() -> tuple[Deal, Seat, Action]:
    deal = in_play("MIS", N, w="AS 5C", n="KS 8C", e="5D JK", leader=W)
    plays(deal, "AS", "KS")
    return deal, E, card_play("5D")


def _joker_lead_needs_suit() -> tuple[Deal, Seat, Action]:
    return in_play("6NT", N, n="JK", e="KS", s="QS", w="JS", leader=N), N, card_play("JK")


def _joker_suit_already_led() -> tuple[Deal, Seat, Action]:
    deal = in_play("6NT", N, n="JK", e="KS", s="QS", w="JS", leader=N, suits_led="H")
    return deal, N, card_play("JK", "H")


def _joker_lead_all_suits_led() -> tuple[Deal, Seat, Action]:
    deal = in_play("6NT", N, n="JK 5C", e="KS 6C", s="QS 7C", w="JS 8C", leader=N, suits_led="SCDH")
    return deal, N, card_play("JK", "H")


def _unexpected_suit_name() -> tuple[Deal, Seat, Action]:
    return in_play("6NT", N, n="AS", e="KS", s="QS", w="JS", leader=N), N, card_play("AS", "S")


def _blind_misere_first_call() -> tuple[Deal, Seat, Action]:
    """Variant blind-misere: a seat that has already called may not bid blind misère."""
    profile = profile_named("australian-4", ["blind-misere"])
    deal = Deal.from_deck(profile, W, sorted(profile.deck))
    calls(deal, "6S 6NT PASS PASS")
    return deal, N, BLIND_MISERE


def _joker_lead_last_trick_only() -> tuple[Deal, Seat, Action]:
    """Variant joker-leads-last-trick-only: no suitless joker lead before the last trick."""
    profile = profile_named("australian-4", ["joker-leads-last-trick-only"])
    hands = [cards("JK 5C"), cards("KS 6C"), cards("QS 7C"), cards("JS 8C")]
    deal = Deal.in_play(profile, W, parse_bid("6NT"), N, hands, leader=N, tricks=(8, 0))
    return deal, N, card_play("JK", "H")


def _six_bid_first_call() -> tuple[Deal, Seat, Action]:
    """Variant inkles: a seat that has already called may not bid a six."""
    profile = profile_named("australian-4", ["inkles"])
    deal = Deal.from_deck(profile, W, sorted(profile.deck))
    calls(deal, "6S PASS 6H PASS")
    return deal, N, parse_bid("6NT")


def _sans_kitty_not_allowed() -> tuple[Deal, Seat, Action]:
    """Sans kitty at the kitty of a default-profile deal: the toggle is off."""
    deal = Deal.from_deck(P, W, sorted(P.deck))
    calls(deal, "6S PASS PASS PASS")
    return deal, N, SANS_KITTY


DEAL_CODE_CASES = {
    Code.DEAL_OVER: _deal_over,
    Code.WRONG_PHASE: _wrong_phase,
    Code.NOT_YOUR_TURN: _not_your_turn,
    Code.ALREADY_PASSED: _already_passed,
    Code.BID_NOT_AVAILABLE: _bid_not_available,
    Code.BID_NOT_HIGHER: _bid_not_higher,
    Code.MISERE_NEEDS_SEVEN: _misere_needs_seven,
    Code.DISCARD_NEEDS_THREE: _discard_needs_three,
    Code.CARD_NOT_HELD: _card_not_held,
    Code.NOMINATION_NOT_ALLOWED: _nomination_not_allowed,
    Code.MUST_FOLLOW_SUIT: _must_follow_suit,
    Code.JOKER_ONLY_WHEN_VOID: _joker_only_when_void,
    Code.JOKER_MUST_BE_PLAYED: _joker_must_be_played,
    Code.JOKER_LEAD_NEEDS_SUIT: _joker_lead_needs_suit,
    Code.JOKER_SUIT_ALREADY_LED: _joker_suit_already_led,
    Code.JOKER_LEAD_ALL_SUITS_LED: _joker_lead_all_suits_led,
    Code.UNEXPECTED_SUIT_NAME: _unexpected_suit_name,
    Code.BLIND_MISERE_FIRST_CALL: _blind_misere_first_call,
    Code.JOKER_LEAD_LAST_TRICK_ONLY: _joker_lead_last_trick_only,
    Code.SIX_BID_FIRST_CALL: _six_bid_first_call,
    Code.SANS_KITTY_NOT_ALLOWED: _sans_kitty_not_allowed,
}


def test_every_code_is_exercised() -> None:
    """Every code of the closed list is produced by some case below (game-over by Game)."""
    assert set(DEAL_CODE_CASES) | {Code.GAME_OVER} == set(Code)


@pytest.mark.parametrize("code", list(DEAL_CODE_CASES), ids=lambda c: c.value)
def test_rejection_code(code: Code) -> None:
    """Each deal-level code: ``rejection`` and ``apply`` agree and the state is unchanged."""
    deal, seat, action = DEAL_CODE_CASES[code]()
    refused(deal, seat, action, code)


def test_rejection_code_game_over() -> None:
    """game-over: a finished game refuses to record or deal again."""
    game = Game(P, N, (490, 0))
    game.record(score_deal(P, parse_bid("6S"), N, 6))
    for attempt in (lambda: game.record(THROWN_IN), lambda: game.new_deal(list(P.deck))):
        with pytest.raises(IllegalAction) as info:
            attempt()
        assert info.value.code is Code.GAME_OVER
    assert game.scores == [530, 40]


def test_precedence_deal_over_first() -> None:
    """Precedence: deal-over comes before every other check, for every kind of action."""
    deal, _, _ = _deal_over()
    for seat in SEATS:
        for action in (
            PASS,
            parse_bid("6S"),
            MISERE,
            Discard(()),
            Nominate(Suit.HEARTS),
            SANS_KITTY,
            card_play("4S"),
            card_play("JK", "H"),
        ):
            refused(deal, seat, action, Code.DEAL_OVER)


def test_precedence_calls() -> None:
    """Precedence for calls: wrong-phase, already-passed, not-your-turn, bid-not-available,
    bid-not-higher, misere-needs-seven."""
    deal = full_deal(W)
    calls(deal, "PASS")  # N passed, E to act
    refused(deal, N, MISERE, Code.ALREADY_PASSED)  # not N's turn either
    refused(deal, S, Bid("5S", 5, Strain.SPADES, Misere.NONE), Code.NOT_YOUR_TURN)
    refused(deal, E, Bid("5S", 5, Strain.SPADES, Misere.NONE), Code.BID_NOT_AVAILABLE)
    refused(deal, E, MISERE, Code.MISERE_NEEDS_SEVEN)
    calls(deal, "8S")
    refused(deal, S, MISERE, Code.BID_NOT_HIGHER)  # not higher comes before needs-seven
    refused(deal, S, Bid("11S", 11, Strain.SPADES, Misere.NONE), Code.BID_NOT_AVAILABLE)
    calls(deal, "PASS PASS")
    assert deal.phase is Phase.KITTY and deal.declarer == E
    refused(deal, N, PASS, Code.WRONG_PHASE)  # wrong phase comes before already-passed
    refused(deal, S, parse_bid("6S"), Code.WRONG_PHASE)
    refused(deal, E, parse_bid("9S"), Code.WRONG_PHASE)


def test_precedence_discards() -> None:
    """Precedence for discards: wrong-phase, not-your-turn, discard-needs-three, card-not-held."""
    deal = full_deal(W, e="AH")
    refused(deal, N, Discard(tuple(cards("AH"))), Code.WRONG_PHASE)
    calls(deal, "6S PASS PASS PASS")
    refused(deal, E, Discard(tuple(cards("AH"))), Code.NOT_YOUR_TURN)
    refused(deal, N, Discard(tuple(cards("AH"))), Code.DISCARD_NEEDS_THREE)
    held = deal.hand(N)
    refused(deal, N, Discard((held[0], held[1], parse_card("AH"))), Code.CARD_NOT_HELD)
    deal.apply(N, Discard(tuple(held[:3])))
    refused(deal, N, Discard(tuple(deal.hand(N)[:3])), Code.WRONG_PHASE)


def test_precedence_sans_kitty() -> None:
    """Precedence for sans kitty: wrong-phase, not-your-turn, then sans-kitty-not-allowed
    (without the toggle, or with a misère); under the toggle the declarer of a suit contract
    may announce it, and the kitty goes back as dealt."""
    profile = profile_named("australian-4", ["sans-kitty"])
    deal = Deal.from_deck(profile, W, sorted(profile.deck))
    kitty = deal.kitty
    refused(deal, N, SANS_KITTY, Code.WRONG_PHASE)
    calls(deal, "6S PASS PASS PASS")
    refused(deal, E, SANS_KITTY, Code.NOT_YOUR_TURN)
    assert SANS_KITTY in deal.legal_actions() and len(deal.legal_actions()) == 287
    dealt = deal.hands[N] & ~kitty
    accepted(deal, N, SANS_KITTY)
    deal.apply(N, SANS_KITTY)
    assert deal.phase is Phase.PLAY and deal.to_act == N
    assert deal.kitty == kitty and deal.hands[N] == dealt and deal.discards == 0
    refused(deal, N, SANS_KITTY, Code.WRONG_PHASE)
    misere = Deal.from_deck(profile, W, sorted(profile.deck))
    calls(misere, "7S MIS PASS PASS PASS")
    refused(misere, E, SANS_KITTY, Code.SANS_KITTY_NOT_ALLOWED)
    assert SANS_KITTY not in misere.legal_actions() and len(misere.legal_actions()) == 286


def test_precedence_nominations() -> None:
    """Precedence for nominations: every refusal is nomination-not-allowed (never wrong-phase or
    not-your-turn), in auction, kitty and play."""
    deal = full_deal(W, n="JK")
    refused(deal, N, Nominate(Suit.SPADES), Code.NOMINATION_NOT_ALLOWED)
    calls(deal, "6NT PASS PASS PASS")
    refused(deal, N, Nominate(Suit.SPADES), Code.NOMINATION_NOT_ALLOWED)
    deal.apply(N, Discard(tuple(c for c in deal.hand(N) if c != JOKER)[:3]))
    refused(deal, E, Nominate(Suit.SPADES), Code.NOMINATION_NOT_ALLOWED)
    accepted(deal, N, Nominate(Suit.SPADES))


def test_precedence_plays_on_lead() -> None:
    """Precedence for a lead: wrong-phase, not-your-turn, card-not-held, then for a suitless
    joker joker-lead-all-suits-led, joker-lead-needs-suit, joker-suit-already-led; any other
    card named with a suit: unexpected-suit-name."""
    deal = full_deal(W)
    refused(deal, N, card_play("AS", "H"), Code.WRONG_PHASE)
    deal = in_play("6NT", N, n="JK 5C", e="KS 6C", s="QS 7C", w="JS 8C", leader=N, suits_led="SCDH")
    refused(deal, E, card_play("AS", "H"), Code.NOT_YOUR_TURN)
    refused(deal, N, card_play("AS", "H"), Code.CARD_NOT_HELD)
    refused(deal, N, card_play("JK"), Code.JOKER_LEAD_ALL_SUITS_LED)
    refused(deal, N, card_play("5C", "H"), Code.UNEXPECTED_SUIT_NAME)
    deal = in_play("6NT", N, n="JK 5C", e="KS 6C", s="QS 7C", w="JS 8C", leader=N, suits_led="H")
    refused(deal, N, card_play("JK"), Code.JOKER_LEAD_NEEDS_SUIT)
    refused(deal, N, card_play("JK", "H"), Code.JOKER_SUIT_ALREADY_LED)


def test_precedence_plays_following() -> None:
    """Precedence when following: unexpected-suit-name, then must-follow-suit /
    joker-only-when-void, then joker-must-be-played."""
    deal = in_play("MIS", N, w="AS 5C", n="KS 6C", e="QS JK", leader=W)
    plays(deal, "AS", "KS")
    refused(deal, E, card_play("JK", "S"), Code.UNEXPECTED_SUIT_NAME)
    refused(deal, E, card_play("JK"), Code.JOKER_ONLY_WHEN_VOID)
    refused(deal, W, card_play("5C"), Code.NOT_YOUR_TURN)
    deal = in_play("MIS", N, w="AS 5C", n="KS 6C", e="5D JK", leader=W)
    plays(deal, "AS", "KS")
    refused(deal, E, card_play("5D", "D"), Code.UNEXPECTED_SUIT_NAME)
    refused(deal, E, card_play("5D"), Code.JOKER_MUST_BE_PLAYED)
    refused(deal, E, card_play("AS"), Code.CARD_NOT_HELD)
