"""Throughput of the reference engine under uniformly random legal play.

Each deal is a complete one: a seeded shuffle and cut, the packet deal, the auction,
the kitty exchange, the joker nomination when it is offered, the play and the score,
recorded in a running :class:`~fivehundred.engine.Game`.  At every decision a seeded
``random.Random`` picks uniformly among ``deal.legal_actions()`` with ``rng.choice``.
The default profile is reported as ``fivehundred``, and every other profile of the
registry (``fivehundred/<profile>``, without variants) the same way, in the same
alternating rounds; ``--profiles`` picks which.

If OpenSpiel (``pyspiel``, the optional ``bench`` extra) imports, its ``spades`` game is
driven the same way in the same run: a uniformly random legal action at each player
decision with ``rng.choice``, and only player decisions counted.  Its deal is made of
chance nodes, resolved by sampling their outcomes with the same kind of RNG, in one of
two ways (both are reported by default):

* ``uniform``: ``rng.choice(state.legal_actions())``, the cheapest correct sampling,
  used only after checking that the game's chance outcomes are equally likely (they
  are for spades: the deal is card by card from the rest of the deck);
* ``weighted``: ``rng.choices`` over ``state.chance_outcomes()`` with their
  probabilities, the general method, which costs far more per chance node.

Both loops include their own dealing and scoring.  The engines run in alternating
rounds, so that a busy machine slows both alike and the ratio stays meaningful.

    python benchmarks/engine.py                 # about three seconds per engine and mode
    python benchmarks/engine.py --seconds 10 --seed 7
    python benchmarks/engine.py --profiles australian-4   # the default profile only
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fivehundred.engine import (
    DEFAULT_PROFILE,
    PROFILE_NAMES,
    Deal,
    Game,
    Profile,
    first_dealer,
    profile_named,
    shuffled_deck,
)

ROUNDS = 6
"""Each engine's time is split into this many rounds, alternating with the others."""


@dataclass
class Rate:
    deals: int = 0
    decisions: int = 0
    seconds: float = 0.0

    def add(self, deals: int, decisions: int, seconds: float) -> None:
        self.deals += deals
        self.decisions += decisions
        self.seconds += seconds

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds


class Ours:
    """Random complete deals of the reference engine, one seeded RNG throughout."""

    def __init__(self, seed: int, profile: Profile = DEFAULT_PROFILE) -> None:
        self.rng = random.Random(seed)
        self.profile = profile
        self.game = Game(profile, first_dealer(self.rng, profile))

    def run(self, seconds: float) -> tuple[int, int, float]:
        rng, profile = self.rng, self.profile
        deals = decisions = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            for _ in range(20):  # look at the clock every 20 deals, not every deal
                if self.game.over:
                    self.game = Game(profile, first_dealer(rng, profile))
                deal = Deal.from_deck(profile, self.game.dealer, shuffled_deck(profile, rng))
                while deal.result is None:
                    action = rng.choice(deal.legal_actions())
                    assert deal.to_act is not None
                    deal.apply(deal.to_act, action)
                    decisions += 1
                self.game.record(deal.result)
                deals += 1
            now = time.perf_counter()
            if now >= deadline:
                return deals, decisions, now - start


class Theirs:
    """Random complete games of OpenSpiel's ``spades`` driven from Python."""

    def __init__(self, pyspiel: Any, seed: int, chance: str) -> None:
        self.rng = random.Random(seed)
        self.game = pyspiel.load_game("spades")
        self.chance = chance
        if chance == "uniform" and not self._chance_is_uniform():
            raise SystemExit("spades has chance outcomes that are not equally likely")

    def _chance_is_uniform(self) -> bool:
        state = self.game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                probabilities = [p for _, p in state.chance_outcomes()]
                if max(probabilities) - min(probabilities) > 1e-12:
                    return False
            state.apply_action(self.rng.choice(state.legal_actions()))
        return True

    def run(self, seconds: float) -> tuple[int, int, float]:
        rng, game = self.rng, self.game
        resolve: Callable[[Any], int]
        if self.chance == "uniform":

            def resolve(state: Any) -> int:
                return rng.choice(state.legal_actions())  # type: ignore[no-any-return]

        else:

            def resolve(state: Any) -> int:
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                return rng.choices(outcomes, probabilities)[0]  # type: ignore[no-any-return]

        deals = decisions = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            for _ in range(20):
                state = game.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        state.apply_action(resolve(state))
                    else:
                        state.apply_action(rng.choice(state.legal_actions()))
                        decisions += 1
                deals += 1
            now = time.perf_counter()
            if now >= deadline:
                return deals, decisions, now - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="time per engine and mode (default 3)"
    )
    parser.add_argument("--seed", type=int, default=500, help="RNG seed (default 500)")
    parser.add_argument(
        "--chance",
        choices=("both", "uniform", "weighted"),
        default="both",
        help="how OpenSpiel's chance nodes are sampled (default: report both)",
    )
    parser.add_argument(
        "--profiles",
        default=",".join(PROFILE_NAMES),
        help="comma-separated profiles to time (default: every profile of the registry)",
    )
    args = parser.parse_args(argv)

    runners: dict[str, Ours | Theirs] = {"fivehundred": Ours(args.seed)}
    for name in args.profiles.split(","):
        if name and name != DEFAULT_PROFILE.name:
            runners[f"fivehundred/{name}"] = Ours(args.seed, profile_named(name))
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        pyspiel = None
        print("open_spiel is not installed (pip install '.[bench]'): skipping the OpenSpiel run")
    if pyspiel is not None:
        modes = ("uniform", "weighted") if args.chance == "both" else (args.chance,)
        for mode in modes:
            runners[f"openspiel/{mode}"] = Theirs(pyspiel, args.seed, mode)

    rates = {name: Rate() for name in runners}
    for _ in range(ROUNDS):
        for name, runner in runners.items():
            rates[name].add(*runner.run(args.seconds / ROUNDS))

    print(f"python {sys.version.split()[0]}, {args.seconds:g} s per engine, seed {args.seed}")
    for name, rate in rates.items():
        game = " (game 'spades')" if name.startswith("openspiel") else ""
        print(
            f"{name:25s} {rate.deals:7d} deals  {rate.deals_per_second:8,.0f} deals/s  "
            f"{rate.decisions_per_second:9,.0f} decisions/s  "
            f"({rate.decisions / rate.deals:.1f} decisions/deal){game}"
        )
    ours = rates["fivehundred"].decisions_per_second
    for name, rate in rates.items():
        if name.startswith("openspiel"):
            ratio = ours / rate.decisions_per_second
            print(f"ratio fivehundred / {name} decisions/s: {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
