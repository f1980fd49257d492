"""The fuzz run: generate deals, compare each with the reference, group, shrink, report.

Deal ``i`` of a run is :func:`~.generators.generate` ``(seed, i)``; a shard ``I/N`` runs
the deals whose index is ``I - 1`` modulo ``N``.  A family's representative is always
the disagreeing deal with the *lowest index*, shrunk; so merging the reports of shards
(:func:`merge`) gives exactly what one run over the same deals gives (times aside).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import multiprocessing
import os
import pickle
import signal
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as connection_wait
from typing import Any, TypeVar

from ..engine import DEFAULT_PROFILE_NAME
from ..safety import signals_deferred
from ..scenarios import Checkpoint, PlayStart, Scenario
from ..verify.external import (
    ExternalImplementation,
    HandshakeError,
    profile_hint,
    unsupported_observations,
)
from ..verify.reference import InputError, observer_names
from ..verify.runner import Implementation, ReferenceImplementation, judge
from .cases import Case, materialize
from .generators import GeneratorError, generate, generator_for
from .shrink import Shrinker
from .signature import Disagreement, Signature, first_disagreement, rulings_for
from .write import mint_id, scenario_filename, scenario_yaml

__all__ = [
    "REPORT_VERSION",
    "DealSkipped",
    "Family",
    "FuzzError",
    "FuzzReport",
    "Settings",
    "Skipped",
    "Tester",
    "fuzz",
    "merge",
]

REPORT_VERSION = 1


GENERATOR_ERROR = "generator-error"
"""Counted as a generator in the report: a deal a generator could not make (a bug)."""
NOT_FUZZED = frozenset({"perft"})
"""Observations not asked for after every action: perft is checked by ``fivehundred perft``
on its own positions (it costs thousands of actions per checkpoint)."""


class FuzzError(Exception):
    """The fuzz run cannot go on (the implementation refuses the profile, …)."""


@dataclass(frozen=True)
class Settings:
    seed: int = 0
    profile: str = DEFAULT_PROFILE_NAME
    shard: tuple[int, int] = (1, 1)
    variants: tuple[str, ...] = ()
    """The profile's variant toggles, sorted."""
    deals: int | None = None
    """Run the deals whose index is below this (``None``: until the time runs out)."""
    seconds: float | None = None
    shrink_budget: int = 400
    only: int | None = None
    """Run this one deal (``--deal``), whatever the shard and the limits."""
    command: str = ""
    """The implementation's command, for the report and the files written."""
    generators: tuple[str, ...] = ()
    """Only these generators (``--generators``, or what the implementation can set up);
    empty: the whole rotation."""

    @property
    def label(self) -> str:
        """The profile with its toggles: ``australian-4+no-misere``."""
        return "+".join((self.profile, *self.variants))

    @property
    def rules_options(self) -> str:
        """The command-line options that choose these rules (empty for the default)."""
        options = "" if self.profile == DEFAULT_PROFILE_NAME else f" --profile {self.profile}"
        return options + "".join(f" --variant {v}" for v in self.variants)

    @property
    def deal_options(self) -> str:
        """The options that choose the rules and the generators: with the seed and the
        index, they name one deal."""
        chosen = f" --generators {','.join(self.generators)}" if self.generators else ""
        return self.rules_options + chosen


@dataclass(frozen=True)
class Skipped:
    """A deal the implementation answered ``skipped``, with its reason."""

    reason: str


class DealSkipped(Exception):
    """The implementation skipped the case it was given (:class:`Tester.run`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


SKIP_REASONS_KEPT = 20
"""Distinct skip reasons a report keeps; the rest are counted under :data:`OTHER_REASONS`."""
OTHER_REASONS = "(other reasons)"


class Tester:
    """Runs cases on one implementation and finds the first disagreement."""

    __test__ = False  # not a pytest test class

    def __init__(
        self,
        implementation: Implementation,
        *,
        unsupported: Mapping[str, str] | None = None,
        lenient_errors: bool = False,
    ) -> None:
        self.implementation = implementation
        unsupported = unsupported or {}
        self.keys = tuple(
            k for k in observer_names() if k not in unsupported and k not in NOT_FUZZED
        )
        self.lenient_errors = lenient_errors
        self.runs = 0
        self.interrupted = False
        """Ctrl-C arrived while a disagreement was being shrunk (it was kept, unverified)."""

    def run(self, scenario: Scenario) -> Disagreement | None:
        """The first disagreement of a run; :class:`DealSkipped` if the implementation
        skipped it."""
        self.runs += 1
        outcome = self.implementation.run(scenario)
        if outcome.skipped is not None:
            raise DealSkipped(outcome.skipped)
        verdict = judge(scenario, outcome, self.lenient_errors)
        return first_disagreement(scenario, verdict, outcome.result)

    def check(self, case: Case) -> Disagreement | None:
        """For the shrinker: a smaller case the implementation skips (another kind of
        start, say) shows nothing, so the shrinker never keeps it."""
        try:
            scenario = materialize(case, self.keys)
        except InputError:
            return None
        try:
            return self.run(scenario)
        except DealSkipped:
            return None


@dataclass
class Family:
    """Disagreements with one signature."""

    signature: Signature
    count: int
    first: int
    """The lowest deal index that showed it (the representative)."""
    generator: str
    rulings: tuple[str, ...] = ()
    scenario_id: str = ""
    scenario: str = ""
    """The shrunk scenario file's text."""
    filename: str = ""
    expected: Any = None
    actual: Any = None
    original_actions: int = 0
    shrunk_actions: int = 0
    start: str = ""
    """The kind of start of the shrunk scenario."""
    start_tricks: int | None = None
    """For a play start: tricks left to play in it."""
    verified: bool = False
    """The written scenario was run again and still failed in the same way."""

    def as_json(self) -> dict[str, Any]:
        return {
            "signature": self.signature.as_json(),
            "describe": self.signature.describe(),
            "count": self.count,
            "first": self.first,
            "generator": self.generator,
            "rulings": list(self.rulings),
            "scenario_id": self.scenario_id,
            "filename": self.filename,
            "expected": self.expected,
            "actual": self.actual,
            "original_actions": self.original_actions,
            "shrunk_actions": self.shrunk_actions,
            "start": self.start,
            "start_tricks": self.start_tricks,
            "verified": self.verified,
            "scenario": self.scenario,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Family:
        return cls(
            signature=Signature.from_json(data["signature"]),
            count=int(data["count"]),
            first=int(data["first"]),
            generator=str(data["generator"]),
            rulings=tuple(data.get("rulings", ())),
            scenario_id=str(data.get("scenario_id", "")),
            scenario=str(data.get("scenario", "")),
            filename=str(data.get("filename", "")),
            expected=data.get("expected"),
            actual=data.get("actual"),
            original_actions=int(data.get("original_actions", 0)),
            shrunk_actions=int(data.get("shrunk_actions", 0)),
            start=str(data.get("start", "")),
            start_tricks=data.get("start_tricks"),
            verified=bool(data.get("verified", False)),
        )


@dataclass
class FuzzReport:
    implementation: str
    command: str
    seed: int
    profile: str
    shards: list[tuple[int, int]]
    deals: int = 0
    by_generator: Counter[str] = field(default_factory=Counter)
    disagreeing: int = 0
    families: dict[Signature, Family] = field(default_factory=dict)
    stopped: str = "deals"
    """Why the run ended: ``deals``, ``time`` or ``interrupted``."""
    seconds: float = 0.0
    jobs: int = 1
    indices: list[int] = field(default_factory=list)
    """Every deal index run (sorted), so that merged shards can be checked for overlap."""
    variants: tuple[str, ...] = ()
    """The profile's variant toggles, sorted."""
    generators: tuple[str, ...] = ()
    """The generators the run was limited to (empty: the whole rotation)."""
    skipped_by_generator: Counter[str] = field(default_factory=Counter)
    """Deals the implementation skipped, by generator (counted in ``deals`` too)."""
    skip_reasons: Counter[str] = field(default_factory=Counter)
    """Skipped deals by the reason the implementation gave."""

    @property
    def label(self) -> str:
        """The profile with its toggles: ``australian-4+no-misere``."""
        return "+".join((self.profile, *self.variants))

    @property
    def skipped(self) -> int:
        return sum(self.skipped_by_generator.values())

    @property
    def checked(self) -> int:
        """Deals the implementation ran (not skipped)."""
        return self.deals - self.skipped

    @property
    def sorted_families(self) -> list[Family]:
        return sorted(self.families.values(), key=lambda f: (-f.count, f.first))

    def count_skip(self, reason: str, count: int = 1) -> None:
        """Count skipped deals under their reason; past :data:`SKIP_REASONS_KEPT`
        distinct reasons (an adapter may put a deal's details in its reason), under
        :data:`OTHER_REASONS`."""
        if reason not in self.skip_reasons and len(self.skip_reasons) >= SKIP_REASONS_KEPT:
            reason = OTHER_REASONS
        self.skip_reasons[reason] += count

    def add(self, index: int, generator: str, found: Family | Signature | Skipped | None) -> None:
        self.deals += 1
        self.indices.append(index)
        self.by_generator[generator] += 1
        if isinstance(found, Skipped):
            self.skipped_by_generator[generator] += 1
            self.count_skip(found.reason)
            return
        if found is None:
            return
        self.disagreeing += 1
        signature = found if isinstance(found, Signature) else found.signature
        known = self.families.get(signature)
        if known is None:
            if isinstance(found, Family):
                self.families[signature] = found
            else:  # counted, not yet shrunk: a placeholder until its family arrives
                self.families[signature] = Family(signature, 1, index, generator)
            return
        known.count += 1
        if isinstance(found, Family) and (found.first < known.first or not known.scenario):
            found.count = known.count
            self.families[signature] = found

    def as_json(self) -> dict[str, Any]:
        return {
            "fivehundred_fuzz_report": REPORT_VERSION,
            "implementation": self.implementation,
            "command": self.command,
            "seed": self.seed,
            "profile": self.profile,
            "variants": list(self.variants),
            "generators": list(self.generators),
            "shards": [f"{i}/{n}" for i, n in self.shards],
            "deals": self.deals,
            "by_generator": dict(sorted(self.by_generator.items())),
            "skipped": {
                "deals": self.skipped,
                "by_generator": dict(sorted(self.skipped_by_generator.items())),
                "reasons": dict(self.skip_reasons.most_common()),
            },
            "disagreeing": self.disagreeing,
            "stopped": self.stopped,
            "seconds": round(self.seconds, 3),
            "jobs": self.jobs,
            "indices": _ranges(sorted(self.indices)),
            "families": [f.as_json() for f in self.sorted_families],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FuzzReport:
        if data.get("fivehundred_fuzz_report") != REPORT_VERSION:
            raise FuzzError("not a fivehundred fuzz report (version 1)")
        shards = []
        for text in data["shards"]:
            i, n = str(text).split("/")
            shards.append((int(i), int(n)))
        report = cls(
            implementation=str(data["implementation"]),
            command=str(data["command"]),
            seed=int(data["seed"]),
            profile=str(data["profile"]),
            shards=shards,
            deals=int(data["deals"]),
            by_generator=Counter({str(k): int(v) for k, v in data["by_generator"].items()}),
            disagreeing=int(data["disagreeing"]),
            stopped=str(data["stopped"]),
            seconds=float(data["seconds"]),
            jobs=int(data["jobs"]),
            indices=_unranges(data["indices"]),
            variants=tuple(sorted(str(v) for v in data.get("variants", ()))),
            generators=tuple(str(g) for g in data.get("generators", ())),
        )
        report._read_skips(data.get("skipped", {}))
        for item in data["families"]:
            family = Family.from_json(item)
            report.families[family.signature] = family
        return report

    def _read_skips(self, skipped: Any) -> None:
        """The skipped deals of a report's JSON (absent from reports made before skips
        were counted)."""
        if not isinstance(skipped, Mapping) or not all(
            isinstance(skipped.get(key, {}), Mapping) for key in ("by_generator", "reasons")
        ):
            raise TypeError("skipped: expected an object with by_generator and reasons")
        for name, count in skipped.get("by_generator", {}).items():
            self.skipped_by_generator[str(name)] = int(count)
        for reason, count in skipped.get("reasons", {}).items():
            self.count_skip(str(reason), int(count))


def _ranges(indices: Sequence[int]) -> list[list[int]]:
    """Sorted indices as ``[first, last, step]`` runs (a shard's indices share a step)."""
    out: list[list[int]] = []
    for index in indices:
        if out:
            first, last, step = out[-1]
            if step == 0 and index > last:
                out[-1] = [first, index, index - last]
                continue
            if index - last == step:
                out[-1][1] = index
                continue
        out.append([index, index, 0])
    return out


def _unranges(runs: Sequence[Sequence[int]]) -> list[int]:
    out: list[int] = []
    for first, last, step in runs:
        out += [first] if step == 0 else list(range(first, last + 1, step))
    return out


# ---- one deal ---------------------------------------------------------------------------


def _title(signature: Signature, contract: str | None) -> str:
    where = f" in {contract}" if contract else ""
    if signature.check == "outcome":
        return f"Fuzz: a {signature.kind}{where} is {signature.expected}, not {signature.actual}"
    return (
        f"Fuzz: {signature.check} after a {signature.kind}{where}: expected "
        f"{signature.expected}, got {signature.actual}"
    )


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


def _contract(case: Case) -> str | None:
    if isinstance(case.setup, PlayStart):
        return case.setup.contract
    return None


def _start_tricks(case: Case) -> int | None:
    setup = case.setup
    if not isinstance(setup, PlayStart):
        return None
    return max(len(cards) for cards in setup.hands.values())


def _final_scenario(
    tester: Tester,
    case: Case,
    found: Disagreement,
    settings: Settings,
    index: int,
    *,
    run: bool = True,
) -> tuple[Scenario, bool]:
    """The shrunk case with only the failed check; verified to fail the same way (else
    with every checkpoint up to the failure)."""
    signature = found.signature
    contract = _contract(case)
    what = _what_the_reference_says(found)
    title = _title(signature, contract)
    rulings = rulings_for(signature, contract)
    assertion = f"After these steps {what}, as the reference engine rules."
    explanation = _explanation(tester, found, settings, index, what)
    checkpoints: dict[int, tuple[str, ...]] = {}
    if signature.check != "outcome":
        checkpoints[found.action] = (signature.check,)
    scenario = None
    for chosen in (checkpoints, None):
        scenario = materialize(
            case,
            tester.keys,
            checkpoints=chosen,
            title=title,
            rules=rulings,
            assertion=assertion,
            explanation=explanation,
        )
        if signature.check != "outcome" and not any(
            isinstance(s, Checkpoint) for s in scenario.steps
        ):
            continue
        if not run:
            return _with_id(scenario), False
        if _fails_the_same_way(tester, scenario, signature):
            return _with_id(scenario), True
    assert scenario is not None
    return _with_id(scenario), False


def _fails_the_same_way(tester: Tester, scenario: Scenario, signature: Signature) -> bool:
    """Whether the implementation still fails the scenario with the signature (a form of
    it the implementation skips does not)."""
    try:
        result = tester.run(scenario)
    except DealSkipped:
        return False
    return result is not None and result.signature == signature


def _what_the_reference_says(found: Disagreement) -> str:
    signature = found.signature
    if signature.check == "outcome":
        return f"the {signature.kind} is {signature.expected}"
    return f"{signature.check} is {_short(found.expected, 120)}"


def _explanation(
    tester: Tester, found: Disagreement, settings: Settings, index: int, what: str
) -> str:
    """How the scenario was found, what the two engines said, and how to search again."""
    generator = generator_for(index, settings.profile, settings.variants, settings.generators)
    return (
        f"Found by `fivehundred fuzz` with seed {settings.seed} (deal {index}, generator "
        f"{generator}) against `{settings.command or tester.implementation.name}`, then "
        f"shrunk.\n\nAt the last step the reference says {what}; the implementation gave "
        f"{_short(found.actual)}.\n\nRerun the search: `fivehundred fuzz --impl "
        f"'{settings.command}'{settings.deal_options} --seed {settings.seed} "
        f"--deal {index}`.\n"
    )


def _with_id(scenario: Scenario) -> Scenario:
    """The scenario with an id minted from the finding itself: its title, rulings, start
    and steps, never the explanation (which names the command, a path on one machine,
    and the seed and deal that happened to find it)."""
    body = scenario_yaml(replace(scenario, explanation=""), "")
    return replace(scenario, id=mint_id(body))


def _header(settings: Settings, index: int, signature: Signature) -> str:
    return (
        "yaml-language-server: $schema=../../schema/scenario.schema.json\n"
        f"Written by `fivehundred fuzz{settings.deal_options} --seed {settings.seed}` "
        f"(deal {index}): "
        f"{signature.describe()}"
    )


def _filename(scenario: Scenario, signature: Signature) -> str:
    return scenario_filename(scenario.id, signature.kind, signature.check) or ""


def investigate(
    tester: Tester, settings: Settings, index: int, case: Case, found: Disagreement
) -> Family:
    """Shrink a first disagreement of its kind and make its scenario file."""
    signature = found.signature
    generator = generator_for(index, settings.profile, settings.variants, settings.generators)
    family = Family(signature, 1, index, generator, original_actions=len(case.actions))
    if signature.kind == "errored":  # crashes and hangs are not shrunk (each try may hang)
        family.rulings = ("worked-example",)
        family.actual = signature.actual
        small = case
        scenario = materialize(
            small,
            tester.keys,
            title=f"Fuzz: the implementation errored ({signature.actual[:60]})",
            assertion="The implementation answers this scenario without erroring.",
            explanation=f"Found by `fivehundred fuzz` with seed {settings.seed} (deal {index}).\n",
        )
        scenario = _with_id(scenario)
    else:
        shrinker = Shrinker(tester.check, settings.shrink_budget)
        try:
            small, small_found = shrinker.shrink(case, found)
            scenario, family.verified = _final_scenario(tester, small, small_found, settings, index)
        except KeyboardInterrupt:  # keep what was found: the smallest case so far, unverified
            tester.interrupted = True
            small, small_found = shrinker.best or case, shrinker.best_found or found
            scenario, family.verified = _final_scenario(
                tester, small, small_found, settings, index, run=False
            )
        family.rulings = scenario.rules
        family.expected, family.actual = small_found.expected, small_found.actual
    family.scenario_id = scenario.id
    family.scenario = scenario_yaml(scenario, _header(settings, index, signature))
    family.filename = _filename(scenario, signature)
    family.shrunk_actions = len(small.actions)
    family.start = small.setup.kind
    family.start_tricks = _start_tricks(small)
    return family


def fuzz_deal(
    tester: Tester, settings: Settings, index: int, seen: set[Signature]
) -> tuple[str, Family | Signature | Skipped | None]:
    """Run deal ``index``: ``None`` when it agrees, :class:`Skipped` when the
    implementation skipped it, its signature when its family is already known here, or
    the new family, shrunk."""
    rules = (settings.profile, settings.variants, settings.generators)
    try:
        case = generate(settings.seed, index, *rules)
    except GeneratorError:  # counted apart in the report, never the end of a run
        return GENERATOR_ERROR, None
    generator = generator_for(index, *rules)
    try:
        scenario = materialize(case, tester.keys)
    except InputError:
        return generator, None
    try:
        found = tester.run(scenario)
    except DealSkipped as skip:  # counted, and the run goes on
        return generator, Skipped(skip.reason)
    if found is None:
        return generator, None
    if found.signature in seen:
        return generator, found.signature
    seen.add(found.signature)
    return generator, investigate(tester, settings, index, case, found)


# ---- the run ---------------------------------------------------------------------------


def shard_indices(settings: Settings) -> Iterator[int]:
    if settings.only is not None:
        return iter([settings.only])
    i, n = settings.shard
    indices = itertools.count(i - 1, n)
    if settings.deals is not None:
        return iter(range(i - 1, settings.deals, n))
    return indices


Progress = Callable[[FuzzReport], None]
TesterFactory = Callable[[], tuple[Tester, Callable[[], None]]]
"""Makes a tester and the function that closes it (once per worker process)."""


def fuzz(
    tester_factory: TesterFactory,
    settings: Settings,
    *,
    name: str,
    jobs: int = 1,
    progress: Progress | None = None,
) -> FuzzReport:
    """Run the fuzz loop until the deals or the time are used up, or Ctrl-C.

    ``tester_factory`` makes a tester and the function that closes it (in each worker
    process when ``jobs`` > 1).
    """
    report = FuzzReport(name, settings.command, settings.seed, settings.profile, [settings.shard])
    report.variants = settings.variants
    report.generators = settings.generators
    report.jobs = jobs
    started = time.monotonic()
    deadline = None if settings.seconds is None else started + settings.seconds
    try:
        if jobs <= 1:
            _serial(tester_factory, settings, report, deadline, progress)
        else:
            _parallel(tester_factory, settings, report, deadline, progress, jobs)
    except KeyboardInterrupt:
        report.stopped = "interrupted"
    report.seconds = time.monotonic() - started
    return report


def _serial(
    tester_factory: TesterFactory,
    settings: Settings,
    report: FuzzReport,
    deadline: float | None,
    progress: Progress | None,
) -> None:
    tester, close = tester_factory()
    seen: set[Signature] = set()
    try:
        for index in shard_indices(settings):
            if deadline is not None and time.monotonic() >= deadline:
                report.stopped = "time"
                return
            generator, found = fuzz_deal(tester, settings, index, seen)
            report.add(index, generator, found)
            if progress is not None:
                progress(report)
            if tester.interrupted:
                raise KeyboardInterrupt
    finally:
        close()


# ---- several adapter processes ------------------------------------------------------------

_T = TypeVar("_T")

_STOP_GRACE = 10.0
"""Seconds a worker is given to close its adapter and exit once told to stop."""


def _worker_main(
    connection: Connection,
    inherited: Sequence[Connection],
    tester_factory: TesterFactory,
    settings: Settings,
) -> None:
    """One worker process: start an adapter, then run the deals the parent sends, one
    index at a time, until it sends ``None`` or goes away.

    Deals come over a pipe of the worker's own rather than a shared queue, so stopping
    never depends on a signal arriving at the right moment: ``None`` waits in the pipe
    for a worker still busy with a deal, and a parent that dies closes the pipe.  The
    parent interrupts a deal as Ctrl-C interrupts one process, with SIGUSR1: a shrink
    under way keeps its smallest case so far, and the worker answers and stops.  SIGTERM
    (the run given up, or a CI cancel to the group) kills the adapter and exits at once.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C stops
    for other in inherited:  # the parent's ends of the pipes, copied by fork
        other.close()
    state: dict[str, Any] = {"close": None, "kill": None, "busy": True}
    """``busy`` while shaking hands or running a deal: only then does SIGUSR1 raise, always
    inside a ``try`` that answers "cut"; outside, the None queued behind it stops us."""

    def interrupt(signum: int, frame: object) -> None:
        if state["busy"]:
            raise KeyboardInterrupt

    def stop(signum: int, frame: object) -> None:
        if state["close"] is None:  # still shaking hands: the handshake kills the adapter
            raise SystemExit(0)
        quick = state["busy"] and state["kill"] is not None  # no farewell in mid-deal
        with contextlib.suppress(Exception):
            (state["kill"] if quick else state["close"])()
        os._exit(0)

    signal.signal(signal.SIGUSR1, interrupt)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    made = _while_busy(connection, state, tester_factory)
    if made is None:
        return
    tester, close = made
    state.update(close=close, kill=getattr(tester.implementation, "kill", None))
    seen: set[Signature] = set()
    try:
        while True:
            try:
                with signals_deferred():  # never half a message
                    index = connection.recv()
            except (EOFError, OSError):  # the parent is gone
                return
            if index is None:
                return
            dealt = _while_busy(
                connection, state, functools.partial(fuzz_deal, tester, settings, index, seen)
            )
            if dealt is None:
                return
            _reply(connection, ("dealt", dealt))
            if tester.interrupted:  # a shrink was cut short: its case is kept, then stop
                return
    finally:
        close()


def _while_busy(connection: Connection, state: dict[str, Any], work: Callable[[], _T]) -> _T | None:
    """``work()`` (never None here), with the worker marked busy meanwhile, so that
    SIGUSR1 raises only inside this ``try``; a cut or an error is answered to the parent
    instead, and None tells the worker to stop."""
    try:
        state["busy"] = True
        return work()
    except KeyboardInterrupt:  # cut short before anything was found
        _reply(connection, ("cut", None))
    except Exception as error:
        _reply(connection, ("raised", error))
    finally:
        state["busy"] = False
    return None


def _reply(connection: Connection, message: tuple[str, Any]) -> None:
    """Send a worker's answer whole.  An exception the parent could not rebuild from its
    pickle goes as a RuntimeError with its type and text."""
    kind, payload = message
    if kind == "raised":
        try:
            pickle.loads(pickle.dumps(payload))
        except Exception:
            message = (kind, RuntimeError(f"{type(payload).__name__}: {payload}"))
    try:
        with signals_deferred():
            connection.send(message)
    except (OSError, EOFError):  # the parent is gone
        pass


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    connection: Connection
    index: int | None = None
    """The deal it is running, if any."""


_Result = tuple[str, Family | Signature | Skipped | None]
"""A finished deal's generator and what it found."""


def _parallel(
    tester_factory: TesterFactory,
    settings: Settings,
    report: FuzzReport,
    deadline: float | None,
    progress: Progress | None,
    jobs: int,
) -> None:
    """Deals shared among ``jobs`` worker processes, each with its own adapter; results
    are reported in deal order, as one process would report them.

    As in one process, a deal under way is finished when the time runs out, and Ctrl-C
    (or SIGTERM, SIGHUP) cuts each deal under way short, keeping a shrink's smallest case
    so far; a second one gives up at once."""
    pool = _Pool(report, progress, shard_indices(settings))
    try:
        pool.start(jobs, tester_factory, settings)
        while True:
            try:
                if not pool.step(deadline):
                    break
            except KeyboardInterrupt:
                if pool.stopped == "interrupted":
                    raise  # a second Ctrl-C: give up at once
                pool.interrupt()
        if pool.stopped == "time":
            report.stopped = "time"
        elif pool.stopped == "interrupted":
            raise KeyboardInterrupt
    finally:
        _stop_workers(pool.workers)


@dataclass
class _Pool:
    """The worker processes of a run, the deals sent to them in order, and the results
    not yet reported (a deal's result waits for every earlier deal's)."""

    report: FuzzReport
    progress: Progress | None
    indices: Iterator[int]
    """The deals not yet given out."""
    workers: list[_Worker] = field(default_factory=list)
    sent: deque[int] = field(default_factory=deque)
    done: dict[int, _Result | None] = field(default_factory=dict)
    """A finished deal's result; ``None`` for one cut short before it found anything."""
    stopped: str | None = None
    """Why no new deal is given out: ``time`` or ``interrupted`` (``None``: it goes on)."""

    def start(self, jobs: int, tester_factory: TesterFactory, settings: Settings) -> None:
        """Fork the workers (each closes the others' ends of their pipes) and give each
        its first deal."""
        context = multiprocessing.get_context("fork")
        for _ in range(jobs):
            mine, theirs = context.Pipe()
            inherited = [worker.connection for worker in self.workers] + [mine]
            process = context.Process(
                target=_worker_main, args=(theirs, inherited, tester_factory, settings)
            )
            process.daemon = True
            process.start()
            theirs.close()
            self.workers.append(_Worker(process, mine))
        for worker in self.workers:
            self.give(worker)

    def give(self, worker: _Worker) -> None:
        """The next deal to an idle worker (none once the run is stopping).  The message
        and the record of it are one step a signal cannot split."""
        with signals_deferred():
            index = None if self.stopped is not None else next(self.indices, None)
            if index is not None:
                worker.connection.send(index)
                self.sent.append(index)
                worker.index = index

    def in_order(self) -> None:
        """Report the finished deals that every earlier deal's result precedes."""
        while self.sent and self.sent[0] in self.done:
            index = self.sent.popleft()
            result = self.done.pop(index)
            if result is not None:
                self.report.add(index, *result)
                if self.progress is not None:
                    self.progress(self.report)

    def step(self, deadline: float | None) -> bool:
        """Report what is in order, then wait for answers and give their workers the
        next deals; ``False`` once no worker holds a deal."""
        self.in_order()
        busy = {w.connection: w for w in self.workers if w.index is not None}
        if not busy:
            return False
        if self.stopped is None and deadline is not None and time.monotonic() >= deadline:
            self.stopped = "time"  # no new deal; those under way finish
        wait = None
        if self.stopped is None and deadline is not None:
            wait = max(0.01, deadline - time.monotonic())
        for ready in connection_wait(list(busy), timeout=wait):
            _collect(busy[ready], self.done, self.stopped)  # type: ignore[index]
            self.give(busy[ready])  # type: ignore[index]
        return True

    def interrupt(self) -> None:
        """The first Ctrl-C: every worker's deal is cut short, and no new one given."""
        self.stopped = "interrupted"
        for worker in self.workers:
            if worker.index is not None and worker.process.pid is not None:
                # SIGUSR1 cuts its deal short; None, read after its answer, stops it even
                # if the signal came before the deal began or after it ended
                _tell_to_stop(worker)
                with contextlib.suppress(OSError):
                    os.kill(worker.process.pid, signal.SIGUSR1)


def _collect(
    worker: _Worker,
    done: dict[int, _Result | None],
    stopped: str | None,
) -> None:
    """Read a worker's answer for the deal it holds into ``done``, and mark it idle: one
    step a signal cannot split (an answer read must never be lost)."""
    index = worker.index
    assert index is not None
    with signals_deferred():
        try:
            kind, payload = worker.connection.recv()
        except (EOFError, OSError):  # a socket pair: a peer gone with bytes unread resets
            kind, payload = "ended", None
        if kind in ("dealt", "cut") or (kind == "ended" and stopped == "interrupted"):
            done[index] = payload if kind == "dealt" else None  # "cut": it found nothing
            worker.index = None
    if kind == "raised":
        raise payload
    if kind == "ended" and stopped != "interrupted":
        worker.process.join(1.0)
        raise FuzzError(
            f"a worker process ended unexpectedly (exit status "
            f"{worker.process.exitcode}) while running deal {index}"
        )


def _tell_to_stop(worker: _Worker) -> None:
    """Queue ``None``: the worker stops as soon as it is free (a dead one is not told)."""
    with contextlib.suppress(OSError), signals_deferred():
        worker.connection.send(None)


def _stop_workers(workers: Sequence[_Worker]) -> None:
    """Tell every worker to stop, then SIGTERM any still running (one in a deal or still
    shaking hands, when the run is given up); wait, killing any that hang."""
    for worker in workers:
        _tell_to_stop(worker)
    for worker in workers:
        worker.process.join(0.2 if worker.index is None else 0)
        if worker.process.is_alive():
            worker.process.terminate()  # SIGTERM: its adapter is killed or closed
    for worker in workers:
        worker.process.join(_STOP_GRACE)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()
        worker.connection.close()


# ---- merging shards ------------------------------------------------------------------------


def merge(reports: Sequence[FuzzReport]) -> FuzzReport:
    """Shard reports combined as one run over all their deals would have reported them."""
    if not reports:
        raise FuzzError("nothing to merge")
    _check_one_run(reports)
    indices = _disjoint_indices(reports)
    first = reports[0]
    merged = FuzzReport(
        first.implementation,
        first.command,
        first.seed,
        first.profile,
        sorted({s for r in reports for s in r.shards}),
    )
    merged.variants = first.variants
    merged.generators = first.generators
    merged.jobs = max(r.jobs for r in reports)
    merged.seconds = max(r.seconds for r in reports)
    stops = {r.stopped for r in reports}
    merged.stopped = next((why for why in ("interrupted", "time") if why in stops), "deals")
    merged.indices = sorted(indices)
    for report in reports:
        _add_shard(merged, report)
    return merged


_SAME_IN_EVERY_SHARD = ("seed", "profile", "variants", "generators", "command")
"""What the shards of one run share."""


def _check_one_run(reports: Sequence[FuzzReport]) -> None:
    first = reports[0]
    for other in reports[1:]:
        for what in _SAME_IN_EVERY_SHARD:
            if getattr(other, what) != getattr(first, what):
                raise FuzzError(
                    f"the reports differ in {what} ({getattr(first, what)!r} and "
                    f"{getattr(other, what)!r}); only shards of one run can be merged"
                )


def _disjoint_indices(reports: Sequence[FuzzReport]) -> set[int]:
    """Every deal index of the reports, none of them in two."""
    seen: set[int] = set()
    for report in reports:
        overlap = seen & set(report.indices)
        if overlap:
            raise FuzzError(f"the reports overlap: deal {min(overlap)} is in two of them")
        seen |= set(report.indices)
    return seen


def _add_shard(merged: FuzzReport, report: FuzzReport) -> None:
    """Add a shard's counts and families: counts add up, and in a family the deal with
    the lowest index stays the representative."""
    merged.deals += report.deals
    merged.disagreeing += report.disagreeing
    merged.by_generator.update(report.by_generator)
    merged.skipped_by_generator.update(report.skipped_by_generator)
    for reason, count in report.skip_reasons.items():
        merged.count_skip(reason, count)
    families = merged.families
    for signature, family in report.families.items():
        known = families.get(signature)
        if known is None:
            families[signature] = replace(family)
            continue
        count = known.count + family.count
        if family.first < known.first:
            families[signature] = replace(family)
        families[signature].count = count


def reference_tester() -> tuple[Tester, Callable[[], None]]:
    """The reference in-process as the implementation: finds nothing (a baseline)."""
    implementation = ReferenceImplementation()
    return Tester(implementation), implementation.close


def external_tester(
    command: str,
    *,
    timeout: float,
    startup_timeout: float,
    profile: str,
    variants: tuple[str, ...] = (),
) -> tuple[Tester, Callable[[], None]]:
    """An adapter started over protocol v1: handshake, capabilities, then a tester.

    Raises :class:`FuzzError` when the handshake fails or the profile is not supported.
    """
    implementation = ExternalImplementation(
        command, timeout=timeout, startup_timeout=startup_timeout, give_up_after=None
    )
    try:
        hello = implementation.start()
    except HandshakeError as error:
        implementation.kill()
        detail = f"\n{error.stderr.strip()}" if error.stderr.strip() else ""
        raise FuzzError(f"the handshake failed: {error.message}{detail}") from None
    capabilities = hello.capabilities
    if profile not in capabilities.profiles:
        implementation.close()
        declared = ", ".join(capabilities.profiles) or "none"
        raise FuzzError(
            f"the implementation does not support profile {profile} (it declared: {declared})"
            + profile_hint(capabilities.profiles)
        )
    missing = [v for v in variants if v not in capabilities.variants]
    if missing:
        implementation.close()
        declared = ", ".join(capabilities.variants) or "none"
        raise FuzzError(
            f"the implementation does not support variant {', '.join(missing)} of {profile} "
            f"(it declared: {declared})"
        )
    tester = Tester(
        implementation,
        unsupported=unsupported_observations(capabilities),
        lenient_errors=not capabilities.error_codes,
    )
    return tester, implementation.close
