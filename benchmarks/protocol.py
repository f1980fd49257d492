"""Throughput of the whole corpus through protocol v1 against the same run in-process.

Both sides do the same work per scenario: build the input, run it on the reference
engine, and judge the result against the expectations.  Through the protocol the
engine runs in ``fivehundred serve`` (a persistent subprocess) and each scenario
also pays for JSON encoding, two pipe transfers, decoding and reply checking.  The
target is a ratio within 2x: the protocol must not be what makes a suite run slow.

The corpus is run over and over until ``--seconds`` have passed, in rounds that
alternate the two sides, so small corpora and a busy machine still give stable
figures; the adapter's start-up and handshake are timed apart.
``--one-shot N`` also times N scenarios in one-shot mode (a process per scenario),
which is dominated by interpreter start-up.

    python benchmarks/protocol.py
    python benchmarks/protocol.py --seconds 10 --rounds 10 --one-shot 20
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from fivehundred.scenarios import Scenario
from fivehundred.scenarios.loading.corpus import load_corpus
from fivehundred.verify.external import ExternalImplementation
from fivehundred.verify.runner import Implementation, ReferenceImplementation, run_scenarios
from fivehundred.verify.verdict import Status

SERVE = [sys.executable, "-m", "fivehundred", "serve"]


@dataclass(frozen=True)
class Rate:
    scenarios: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.scenarios / self.seconds


def bench(implementation: Implementation, scenarios: list[Scenario], seconds: float) -> Rate:
    """Whole passes over the corpus until ``seconds`` have passed; every one must pass."""
    done = 0
    start = time.perf_counter()
    plan = getattr(implementation, "plan", None)  # as `fivehundred verify` does
    while True:
        if callable(plan):
            plan(scenarios)
        summary = run_scenarios(scenarios, implementation)
        bad = [r.scenario.id for r in summary.reports if r.status is not Status.PASSED]
        if bad:
            raise SystemExit(f"{implementation.name}: not every scenario passed: {bad[:5]}")
        done += len(scenarios)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return Rate(done, elapsed)


def interleaved(
    sides: dict[str, Implementation], scenarios: list[Scenario], seconds: float, rounds: int
) -> dict[str, Rate]:
    """Alternate the sides round by round and keep each side's median round.

    On a shared machine load comes and goes; alternating puts both sides under the
    same conditions, and the median ignores a round that a neighbour disturbed.
    """
    results: dict[str, list[Rate]] = {name: [] for name in sides}
    for _ in range(rounds):
        for name, implementation in sides.items():
            results[name].append(bench(implementation, scenarios, seconds / rounds))
    return {
        name: sorted(rates, key=lambda r: r.per_second)[len(rates) // 2]
        for name, rates in results.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per side (default 5)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument(
        "--one-shot", type=int, default=0, metavar="N", help="also time N one-shot scenarios"
    )
    args = parser.parse_args(argv)

    corpus = load_corpus()
    if corpus.invalid_files:
        raise SystemExit(f"{len(corpus.invalid_files)} invalid scenario files; fix them first")
    scenarios = corpus.scenarios
    print(
        f"corpus: {len(scenarios)} scenarios; {args.seconds:g} s per side "
        f"in {args.rounds} alternating rounds (median round shown)"
    )

    served = ExternalImplementation(SERVE)
    started = time.perf_counter()
    try:
        served.start()
        startup = time.perf_counter() - started
        sides: dict[str, Implementation] = {
            "in-process": ReferenceImplementation(),
            "protocol": served,
        }
        for implementation in sides.values():  # warm caches on both sides
            bench(implementation, scenarios, 0.2)
        rates = interleaved(sides, scenarios, args.seconds, max(1, args.rounds))
    finally:
        served.close()
    ours, theirs = rates["in-process"], rates["protocol"]
    print(f"in-process     {ours.scenarios:8d} scenarios  {ours.per_second:10,.0f} scenarios/s")
    print(
        f"protocol       {theirs.scenarios:8d} scenarios  {theirs.per_second:10,.0f} scenarios/s"
        f"  (start-up and hello: {startup * 1000:.0f} ms, once per run)"
    )
    ratio = ours.per_second / theirs.per_second
    verdict = "within" if ratio <= 2 else "OVER"
    print(f"ratio in-process/protocol: {ratio:.2f}x ({verdict} the 2x target)")

    if args.one_shot:
        sample = scenarios[: args.one_shot]
        one_shot = ExternalImplementation([*SERVE, "--one-shot"], one_shot=True)
        try:
            one_shot.start()
            rate = bench(one_shot, sample, 0.0)
        finally:
            one_shot.close()
        print(
            f"one-shot       {rate.scenarios:8d} scenarios  {rate.per_second:10,.1f} scenarios/s"
            "  (a process start per scenario)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
