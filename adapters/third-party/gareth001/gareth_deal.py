"""Which numbers rand() must return so that Gareth001/500's server deals given hands.

The server builds its deck in a fixed order, shuffles it with a Fisher-Yates loop that
calls rand() once for each position from the last down to the second, and then deals the
shuffled deck by its own code: the cards go one at a time to its players 0, 1, 2, 3, with
the 13th, 29th and 43rd cards to the kitty.  Nothing here changes how it deals.  This
module only works backwards: from the four hands and the kitty a scenario needs, it finds a
shuffled order that the server's own deal turns into those hands, and the rand() values
that make the server's own shuffle produce that order.

The scenario's hands come from the suite's deal (the ordered deck dealt in packets of
3-1-4-1-3-1 from the left of the dealer), as site/protocol.md asks of an engine that deals
for itself.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence

SEATS = ("N", "E", "S", "W")
RAND_MAX = 2147483647
KITTY_POSITIONS = (12, 28, 42)

# The server's card values: 4..10 as they are, then J Q K A.
_RANKS = {11: "J", 12: "Q", 13: "K", 14: "A"}


def _card_name(value: int, suit: str) -> str:
    return f"{_RANKS.get(value, str(value))}{suit}"


def server_initial_deck() -> list[str]:
    """The server's deck before its shuffle, in the suite's notation: for each value from
    4 to ace, spades and clubs (no black fours), diamonds, hearts; the joker last."""
    deck: list[str] = []
    for value in range(4, 15):
        suits = "DH" if value == 4 else "SCDH"
        deck.extend(_card_name(value, suit) for suit in suits)
    deck.append("JK")
    return deck


def server_deal_target(position: int) -> int | None:
    """The server's player (0-3) that gets the card at this position of the shuffled
    deck, or None for the kitty."""
    if position in KITTY_POSITIONS:
        return None
    if position < 12:
        return position % 4
    if position < 28:
        return (position - 1) % 4
    return (position - 2) % 4


def suite_deal(dealer: str, deck: Sequence[str]) -> tuple[dict[str, list[str]], list[str]]:
    """The suite's deal of an ordered deck (top card first): packets of three, four and
    three to each seat from the left of the dealer, one card to the kitty after each
    round of packets.  Returns the hands by seat and the kitty."""
    if len(deck) != 43:
        raise ValueError(f"a deck has 43 cards, not {len(deck)}")
    hands: dict[str, list[str]] = {seat: [] for seat in SEATS}
    kitty: list[str] = []
    position = 0
    first = (SEATS.index(dealer) + 1) % 4
    for size in (3, 4, 3):
        for offset in range(4):
            seat = SEATS[(first + offset) % 4]
            hands[seat].extend(deck[position : position + size])
            position += size
        kitty.append(deck[position])
        position += 1
    return hands, kitty


def shuffled_order(hands_by_player: Sequence[Sequence[str]], kitty: Sequence[str]) -> list[str]:
    """A shuffled deck that the server's deal turns into these hands (by server player)
    and this kitty."""
    queues = [list(hand) for hand in hands_by_player]
    kitty_queue = list(kitty)
    order: list[str] = []
    for position in range(43):
        target = server_deal_target(position)
        queue = kitty_queue if target is None else queues[target]
        if not queue:
            raise ValueError("the hands and kitty do not make a 43-card deal")
        order.append(queue.pop(0))
    if sorted(order) != sorted(server_initial_deck()):
        raise ValueError("the hands and kitty are not the server's 43 cards")
    return order


def _float32(value: float) -> float:
    return float(struct.unpack("f", struct.pack("f", value))[0])


def _server_index(position: int, number: int) -> int:
    """The swap index the server computes from one rand() value:
    (int)((i + 1) * (float)rand() / ((float)RAND_MAX + 1)), in single precision."""
    scaled = _float32(float(position + 1) * _float32(float(number)))
    return int(_float32(scaled / _float32(float(RAND_MAX) + 1.0)))


def rand_values(order: Sequence[str]) -> list[int]:
    """The rand() values, in the order the server asks for them, that make its shuffle of
    its initial deck come out as ``order``."""
    current = server_initial_deck()
    values: list[int] = []
    for position in range(42, 0, -1):
        index = current.index(order[position])
        # The middle of the band of values that the server maps to this index.
        number = ((2 * index + 1) << 31) // (2 * (position + 1))
        if _server_index(position, number) != index:
            raise ArithmeticError(f"no rand() value gives swap index {index} at {position}")
        values.append(number)
        current[position], current[index] = current[index], current[position]
    if current != list(order):
        raise ArithmeticError("the shuffle does not reproduce the order")
    return values


def values_for_hands(
    hands: Mapping[str, Sequence[str]], kitty: Sequence[str], first_player_seat: str
) -> list[int]:
    """rand() values for a deal of these hands (by seat) and kitty, where the server's
    player 0 sits at ``first_player_seat``."""
    first = SEATS.index(first_player_seat)
    by_player = [hands[SEATS[(first + player) % 4]] for player in range(4)]
    return rand_values(shuffled_order(by_player, kitty))
