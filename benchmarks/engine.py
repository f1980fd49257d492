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
    python benchmarks/engine.py --against main  # this engine beside the one at main

``--against REV`` compares two versions of this engine instead: the engine of the working
tree and the engine at git revision ``REV`` (its ``reference/`` folder exported with
``git archive`` into a temporary folder).  Each runs in a worker process of its own that
imports only its own ``fivehundred`` package, and the two are timed back to back in many
short alternating rounds (``--rounds``), the one going first swapped every round, for the
default profile and each other profile; the output gives the decisions per second of
each and the median of the rounds' ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

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


class Worker:
    """One version of the engine timed in a process of its own: a ``--worker`` run of this
    script with ``PYTHONPATH`` naming that version's ``reference`` folder first."""

    def __init__(self, reference: Path, seed: int) -> None:
        env = {**os.environ, "PYTHONPATH": str(reference)}
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker", "--seed", str(seed)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=reference,
        )
        self.origin = self._ask({"ask": "origin"})["origin"]
        if not Path(self.origin).resolve().is_relative_to(reference.resolve()):
            raise SystemExit(f"the worker for {reference} imported the engine at {self.origin}")

    def _ask(self, message: dict[str, Any]) -> dict[str, Any]:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps(message) + "\n")
        stdin.flush()
        line = stdout.readline()
        if not line:
            raise SystemExit(f"the worker for {self.origin} stopped")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def run(self, profile: str, seconds: float) -> tuple[int, int, float]:
        reply = self._ask({"ask": "run", "profile": profile, "seconds": seconds})
        return reply["deals"], reply["decisions"], reply["seconds"]

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def serve(seed: int, requests: IO[str], replies: IO[str]) -> None:
    """The worker's side of :class:`Worker`: one JSON request a line, one reply a line.
    Each profile keeps its runner (and its RNG) from one round to the next."""
    import fivehundred

    runners: dict[str, Ours] = {}
    for line in requests:
        request = json.loads(line)
        if request["ask"] == "origin":
            reply: dict[str, Any] = {"origin": fivehundred.__file__}
        else:
            name = request["profile"]
            if name not in runners:
                runners[name] = Ours(seed, profile_named(name))
            deals, decisions, seconds = runners[name].run(request["seconds"])
            reply = {"deals": deals, "decisions": decisions, "seconds": seconds}
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


def export_revision(revision: str, into: Path) -> Path:
    """The ``reference`` folder of the repository at ``revision``, exported into ``into``."""
    root = Path(__file__).resolve().parent.parent
    # The revision is resolved to a commit first, after --end-of-options, so that text
    # beginning with a dash is a name git cannot find rather than an option of git archive.
    commit = subprocess.run(
        [
            "git",
            "-C",
            str(root),
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            f"{revision}^{{commit}}",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if commit.returncode != 0:
        raise SystemExit(f"cannot export revision {revision!r}: not a commit of this repository")
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", "--format=tar", commit.stdout.strip(), "reference"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        message = archive.stderr.decode("utf-8", "replace").strip()
        raise SystemExit(f"cannot export revision {revision!r}: {message}")
    tar_path = into / "reference.tar"
    tar_path.write_bytes(archive.stdout)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into, filter="data")
    return into / "reference"


def against(revision: str, profiles: list[str], seconds: float, seed: int, rounds: int) -> int:
    """Time this tree's engine and the engine at ``revision`` in alternating rounds.

    The two are timed back to back for each profile in each round, the one going first
    swapped every round, and each round gives a ratio of their decisions/s; the median of
    those ratios is the figure, since a shared machine's load changes from one second to
    the next and the median of close pairs shrugs off a round that a burst of other work
    slowed on one side only."""
    here = Path(__file__).resolve().parent.parent / "reference"
    with tempfile.TemporaryDirectory(prefix="fivehundred-against-") as folder:
        there = export_revision(revision, Path(folder))
        workers = {"current": Worker(here, seed), revision: Worker(there, seed)}
        rates = {(who, name): Rate() for name in profiles for who in workers}
        ratios: dict[str, list[float]] = {name: [] for name in profiles}
        try:
            for round_number in range(rounds):
                order = list(workers) if round_number % 2 == 0 else list(workers)[::-1]
                for name in profiles:
                    pair = {}
                    for who in order:
                        deals, decisions, spent = workers[who].run(name, seconds / rounds)
                        rates[who, name].add(deals, decisions, spent)
                        pair[who] = decisions / spent
                    ratios[name].append(pair["current"] / pair[revision])
        finally:
            for worker in workers.values():
                worker.close()
    print(
        f"python {sys.version.split()[0]}, {seconds:g} s per engine and profile, seed {seed}, "
        f"{rounds} alternating rounds"
    )
    print(f"{'profile':14s} {'current':>14s} {revision[:14]:>14s}  median ratio (range)")
    for name in profiles:
        now, then = rates["current", name], rates[revision, name]
        each = sorted(ratios[name])
        print(
            f"{name:14s} {now.decisions_per_second:12,.0f}/s {then.decisions_per_second:12,.0f}/s"
            f"  {statistics.median(each):.3f} ({each[0]:.2f}–{each[-1]:.2f})"
        )
    return 0


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
    parser.add_argument(
        "--against",
        metavar="REV",
        help="time this engine beside the engine at git revision REV instead (see above)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=24,
        help="with --against: how many alternating rounds the time is split into (default 24)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        serve(args.seed, sys.stdin, sys.stdout)
        return 0
    if args.against:
        names = [name for name in args.profiles.split(",") if name]
        unknown = sorted(set(names) - set(PROFILE_NAMES))
        if unknown:
            parser.error(f"unknown profile {unknown[0]!r}; known: {', '.join(PROFILE_NAMES)}")
        return against(args.against, names, args.seconds, args.seed, max(2, args.rounds))

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
