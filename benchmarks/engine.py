"""Throughput of the reference engine under uniformly random legal play.

Each deal is a complete one: a seeded shuffle and cut, the packet deal, the auction,
the kitty exchange, the joker nomination when it is offered, the play and the score,
recorded in a running :class:`~fivehundred.engine.Game`.  At every decision a seeded
``random.Random`` picks uniformly among ``deal.legal_actions()`` with ``rng.choice``.

If OpenSpiel (``pyspiel``, the optional ``bench`` extra) imports, its ``spades`` game is
driven the same way in the same run: a uniformly random legal action at each player
decision, chance nodes resolved by sampling their outcomes with the same kind of RNG,
and only player decisions counted.  Both loops include their own dealing.

    python benchmarks/engine.py                # about three seconds each
    python benchmarks/engine.py --seconds 10 --seed 7
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

from fivehundred.engine import DEFAULT_PROFILE, Deal, Game, Profile, first_dealer, shuffled_deck


@dataclass(frozen=True)
class Rate:
    deals: int
    decisions: int
    seconds: float

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds


def bench_ours(seconds: float, seed: int, profile: Profile = DEFAULT_PROFILE) -> Rate:
    rng = random.Random(seed)
    game = Game(profile, first_dealer(rng))
    deals = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(20):  # check the clock every 20 deals, not every deal
            if game.over:
                game = Game(profile, first_dealer(rng))
            deal = Deal.from_deck(profile, game.dealer, shuffled_deck(profile, rng))
            while deal.result is None:
                action = rng.choice(deal.legal_actions())
                assert deal.to_act is not None
                deal.apply(deal.to_act, action)
                decisions += 1
            game.record(deal.result)
            deals += 1
        now = time.perf_counter()
        if now >= deadline:
            return Rate(deals, decisions, now - start)


def bench_openspiel(pyspiel: Any, seconds: float, seed: int) -> Rate:
    rng = random.Random(seed)
    game = pyspiel.load_game("spades")
    deals = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(20):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, probabilities)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    decisions += 1
            deals += 1
        now = time.perf_counter()
        if now >= deadline:
            return Rate(deals, decisions, now - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per engine (default 3)")
    parser.add_argument("--seed", type=int, default=500, help="RNG seed (default 500)")
    args = parser.parse_args(argv)

    ours = bench_ours(args.seconds, args.seed)
    print(
        f"fivehundred  {ours.deals:8d} deals  {ours.deals_per_second:10,.0f} deals/s  "
        f"{ours.decisions_per_second:10,.0f} decisions/s  "
        f"({ours.decisions / ours.deals:.1f} decisions/deal)"
    )
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        print("open_spiel is not installed (pip install '.[bench]'): skipping the OpenSpiel run")
        return 0
    theirs = bench_openspiel(pyspiel, args.seconds, args.seed)
    print(
        f"openspiel    {theirs.deals:8d} deals  {theirs.deals_per_second:10,.0f} deals/s  "
        f"{theirs.decisions_per_second:10,.0f} decisions/s  "
        f"({theirs.decisions / theirs.deals:.1f} decisions/deal, game 'spades')"
    )
    ratio = ours.decisions_per_second / theirs.decisions_per_second
    print(f"ratio ours/openspiel decisions/s: {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
