"""Perft: the number of legal action sequences of a given length from a position.

As chess programs count move paths (python-chess's ``perft``), a handful of numbers
from well-chosen positions expose almost any bug in listing or applying legal actions:
a missing discard, an extra joker lead, a wrong seat to act after a trick.  Sequences
stay within the deal: one that ends the deal before ``depth`` actions is not counted.
"""

from __future__ import annotations

from .deal import Deal

__all__ = ["PERFT_DEPTHS", "perft"]

PERFT_DEPTHS = (1, 2, 3)
"""The depths the ``perft`` observation reports."""


def perft(deal: Deal, depth: int) -> int:
    """How many sequences of ``depth`` legal actions can be taken from ``deal``."""
    if depth <= 0:
        return 1
    seat = deal.to_act
    if seat is None or deal.is_over:
        return 0
    legal = deal.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = deal.copy()
        child.apply(seat, action)
        total += perft(child, depth - 1)
    return total
