"""``fivehundred fuzz``: differential fuzzing of an implementation against the reference."""

from __future__ import annotations

import contextlib
import functools
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..engine import DEFAULT_PROFILE_NAME
from ..safety import (
    MAX_FUZZ_DEALS,
    MAX_FUZZ_JOBS,
    MAX_FUZZ_SHARDS,
    FileRefused,
    atomic_write_text,
    clean_name,
    clean_text,
    one_line,
    place,
)
from .consoles import err_console, out_console, progress_bar
from .params import OutputFile, OutputFolder, Seconds
from .stopping import Terminated, signals_raise

if TYPE_CHECKING:
    from ..fuzz.fuzzer import FuzzReport, Settings, Tester, TesterFactory
    from ..fuzz.perft import Position
    from ..verify.external import ExternalImplementation

SHARD_HELP = "Run shard I of N (e.g. 2/4): deals whose index is I-1 modulo N."
MAX_JOBS = MAX_FUZZ_JOBS
"""The most adapter processes ``--jobs`` starts; fewer when there are fewer deals."""


def _shard(value: str | None) -> tuple[int, int]:
    if value is None:
        return (1, 1)
    try:
        i, n = (int(part) for part in value.split("/"))
    except ValueError:
        raise click.BadParameter(f"{value!r} is not I/N (e.g. 1/4)", param_hint="--shard") from None
    if not 1 <= i <= n:
        raise click.BadParameter(f"{value!r}: I must be from 1 to N", param_hint="--shard")
    if n > MAX_FUZZ_SHARDS:
        raise click.BadParameter(
            f"{value!r}: N is at most {MAX_FUZZ_SHARDS:,} (site/limits.md)", param_hint="--shard"
        )
    return (i, n)


def _terminate_like_ctrl_c() -> contextlib.AbstractContextManager[None]:
    """SIGTERM and SIGHUP stop the run like Ctrl-C: what was found is kept and reported."""
    return signals_raise(lambda signum: KeyboardInterrupt())


def _progress_bar(total: int | None) -> tuple[Callable[..., None], Callable[[], None]]:
    shown = progress_bar("fuzz", total)
    if shown is None:
        return _nothing, _stop_nothing
    move, stop = shown

    def update(report: object) -> None:
        from ..fuzz.fuzzer import FuzzReport

        assert isinstance(report, FuzzReport)
        skipped = f", {report.skipped} skipped" if report.skipped else ""
        move(
            report.deals,
            f"{report.disagreeing} disagreeing, {len(report.families)} families{skipped}",
        )

    return update, stop


def _nothing(report: object) -> None:
    return None


def _stop_nothing() -> None:
    return None


def _finish(report: object, fmt: str, output: Path | None, out_dir: Path | None) -> int:
    """Write the report and the scenarios found; the exit status of the run."""
    from ..fuzz.fuzzer import FuzzReport
    from ..fuzz.report import render

    assert isinstance(report, FuzzReport)
    text = render(report, fmt)
    if output is None:
        sys.stdout.write(text)
    else:
        atomic_write_text(output, text)
        err_console().print(f"wrote the report to {clean_name(output)}", markup=False)
    if out_dir is not None:
        _write_found(report, out_dir)
    if report.stopped == "interrupted":
        return 130
    if not report.deals and report.stopped == "time":  # a budget gone before a deal: unchecked
        err_console().print("fuzz: the time ran out before any deal: nothing was checked")
        return 1
    if report.deals and not report.checked:  # every deal skipped: nothing was checked
        err_console().print(
            "fuzz: the implementation skipped every deal: nothing was checked (choose what it "
            "can run with --generators, or declare capabilities.starts)",
            markup=False,
        )
        return 1
    return 1 if report.families else 0


def _write_found(report: FuzzReport, out_dir: Path) -> None:
    """``--out``: a scenario per family found, and a word on each file not written."""
    from ..fuzz.report import write_scenarios

    written = write_scenarios(report, out_dir)
    count = sum(1 for w in written if not (w.kept or w.refused))
    err_console().print(f"wrote {count} scenarios to {clean_name(out_dir)}", markup=False)
    for item in written:
        if item.kept:
            err_console().print(
                f"{clean_name(item.path)}: kept as it was (a different file of that name "
                "is already there; remove it to write this run's)",
                markup=False,
            )
    for item in written:
        if item.problems:
            problems = clean_text("; ".join(item.problems))
            err_console().print(f"{clean_name(item.path)}: {problems}", markup=False)


def run_fuzz(
    *,
    command: str | None,
    seed: int,
    deals: int | None,
    seconds: float | None,
    deal: int | None,
    jobs: int,
    shard: str | None,
    out_dir: Path | None,
    fmt: str,
    output: Path | None,
    profile: str,
    variants: tuple[str, ...],
    timeout: float,
    startup_timeout: float,
    shrink_budget: int,
    progress: bool,
    generators: tuple[str, ...] = (),
) -> int:
    """``fivehundred fuzz``: check the options, shake hands with the adapter, run; the exit
    status (0 nothing found, 1 disagreements or nothing checked, 3 a broken adapter)."""
    from ..fuzz.fuzzer import Settings, reference_tester
    from .rule_set_coverage import rule_set

    variants = rule_set(profile, variants).variants
    _check_deal_counts(jobs, deals, deal)
    if deals is None and seconds is None:
        deals = 100
    chosen = _chosen_generators(generators, profile, variants)
    settings = Settings(
        seed=seed,
        profile=profile,
        variants=variants,
        shard=_shard(shard),
        deals=MAX_FUZZ_DEALS if deals is None else deals,  # a --time run stops there too,
        seconds=seconds,  # so that its report is one `fuzz merge` reads
        shrink_budget=shrink_budget,
        only=deal,
        command=command or "",
        generators=chosen,
    )
    total = (
        1
        if deal is not None
        else None
        if deals is None
        else len(range(settings.shard[0] - 1, deals, settings.shard[1]))
    )
    if total:  # a job without a deal would only start an adapter
        jobs = min(jobs, total)

    def run(factory: TesterFactory, settings: Settings, name: str) -> int:
        return _run(factory, settings, name, jobs, total, progress, fmt, output, out_dir)

    if command is None:
        return run(reference_tester, settings, "fivehundred-reference (in-process)")
    return _run_external(command, settings, jobs, timeout, startup_timeout, run)


def _check_deal_counts(jobs: int, deals: int | None, deal: int | None) -> None:
    """Usage errors for ``--jobs``, ``--deals`` and ``--deal`` out of their bounds."""
    if jobs < 1:
        raise click.BadParameter("must be at least 1", param_hint="--jobs")
    if jobs > MAX_JOBS:
        raise click.BadParameter(
            f"at most {MAX_JOBS} (each job is a process with an adapter of its own)",
            param_hint="--jobs",
        )
    if deals is not None and deals < 1:
        raise click.BadParameter("must be at least 1", param_hint="--deals")
    for value, hint in ((deals, "--deals"), (deal, "--deal")):
        if value is not None and value > MAX_FUZZ_DEALS:
            raise click.BadParameter(
                f"at most {MAX_FUZZ_DEALS:,} (the limit of one run, site/limits.md; run more "
                "with other seeds)",
                param_hint=hint,
            )
    if deal is not None and deal < 0:
        raise click.BadParameter("a deal index is 0 or more", param_hint="--deal")


def _run_external(
    command: str,
    settings: Settings,
    jobs: int,
    timeout: float,
    startup_timeout: float,
    run: Callable[[TesterFactory, Settings, str], int],
) -> int:
    """Shake hands once up front, so a broken adapter is reported before any deal; then
    run with that adapter (one job) or with one adapter per worker."""
    from ..fuzz.fuzzer import FuzzError, external_tester

    fresh = functools.partial(
        external_tester,
        command,
        timeout=timeout,
        startup_timeout=startup_timeout,
        profile=settings.profile,
        variants=settings.variants,
    )
    try:
        with _terminate_like_ctrl_c():  # a CI cancel now kills the adapter too
            tester, close = fresh()
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--impl") from None
    except FuzzError as error:
        err_console().print(f"fuzz: {error}", markup=False)
        return 3
    except KeyboardInterrupt:
        err_console().print("fuzz: interrupted before the first deal", markup=False)
        return 130
    try:
        settings = _fitted(settings, tester)
    except FuzzError as error:
        close()
        err_console().print(f"fuzz: {error}", markup=False)
        return 3
    if jobs > 1:  # each worker starts an adapter of its own
        close()
        return run(fresh, settings, tester.implementation.name)
    handed = [tester]  # the run goes on with this one: an adapter slow to start starts once
    try:
        return run(
            functools.partial(_handed_first, handed, close, fresh),
            settings,
            tester.implementation.name,
        )
    finally:
        if handed:  # never taken: stopped before the first deal
            handed.clear()
            close()


def _chosen_generators(
    names: tuple[str, ...], profile: str, variants: tuple[str, ...]
) -> tuple[str, ...]:
    """``--generators`` (comma-separated, repeatable) checked against the generators that
    exist and apply to the rules; in rotation order."""
    from ..fuzz.generators import GENERATOR_NAMES, generators_for
    from ..scenarios.format.diagnostics import did_you_mean

    wanted = [n.strip() for text in names for n in text.split(",") if n.strip()]
    for name in wanted:
        if name not in GENERATOR_NAMES:
            raise click.BadParameter(
                f"no generator {name!r}{did_you_mean(name, GENERATOR_NAMES)} "
                f"(the generators: {', '.join(GENERATOR_NAMES)})",
                param_hint="--generators",
            )
    chosen = tuple(n for n in GENERATOR_NAMES if n in wanted)
    if chosen and not generators_for(profile, variants, chosen):
        raise click.BadParameter(
            f"{', '.join(chosen)}: nothing to generate under these rules (a misère deal "
            "without misère, a joker endgame without the joker)",
            param_hint="--generators",
        )
    return chosen


def _fitted(settings: Settings, tester: Tester) -> Settings:
    """The settings with the generators limited to the starts the implementation declared
    it can set up (when it declared them and ``--generators`` did not choose)."""
    from dataclasses import replace

    from ..fuzz.fuzzer import FuzzError
    from ..fuzz.generators import generators_taking

    starts = tester.implementation.capabilities.starts
    if starts is None or settings.generators:
        return settings
    taken = generators_taking(starts)
    if not taken and not {"deck", "auction", "play", "game"} <= set(starts):
        raise FuzzError(
            f"the implementation declared it can set up only these starts: "
            f"{', '.join(starts) or 'none'}; no generator makes deals with only those"
        )
    return replace(settings, generators=taken)


def _handed_first(
    handed: list[Tester], close: Callable[[], None], fresh: TesterFactory
) -> tuple[Tester, Callable[[], None]]:
    """The tester already started, the first time; a newly started one after that."""
    if handed:
        return handed.pop(), close
    return fresh()


def _run(
    factory: TesterFactory,
    settings: Settings,
    name: str,
    jobs: int,
    total: int | None,
    progress: bool,
    fmt: str,
    output: Path | None,
    out_dir: Path | None,
) -> int:
    from ..fuzz.fuzzer import FuzzError, fuzz

    update, stop = _progress_bar(total) if progress else (_nothing, _stop_nothing)
    try:
        with _terminate_like_ctrl_c():
            report = fuzz(factory, settings, name=name, jobs=jobs, progress=update)
    except FuzzError as error:
        stop()
        err_console().print(f"fuzz: {error}", markup=False)
        return 3
    stop()
    if report.stopped == "interrupted":
        err_console().print("fuzz: interrupted; reporting what was found", markup=False)
    return _finish(report, fmt, output, out_dir)


def run_merge(paths: tuple[str, ...], fmt: str, output: Path | None, out_dir: Path | None) -> int:
    from ..fuzz.fuzzer import FuzzError, merge
    from ..fuzz.shard import ShardRefused, read_shards

    try:
        reports = read_shards(paths)
    except ShardRefused as error:
        raise click.BadParameter(str(error), param_hint="REPORTS") from None
    try:
        merged = merge(reports)
    except FuzzError as error:
        raise click.UsageError(clean_text(str(error))) from None
    return _finish(merged, fmt, output, out_dir)


def fuzz_options(function: Callable[..., object]) -> Callable[..., object]:
    options = [
        click.option(
            "--impl",
            "command",
            help="The adapter's command (default: the reference itself, in-process).",
        ),
        click.option("--seed", type=int, default=0, show_default=True, help="Seed of the deals."),
        click.option(
            "--deals",
            type=int,
            help="Run deals 0 to N-1 (default 100 without --time).",
        ),
        click.option("--time", "seconds", type=Seconds(), help="Stop after this many seconds."),
        click.option(
            "--deal",
            type=int,
            help="Run only this deal (as a report names it).",
        ),
        click.option("--jobs", type=int, default=1, show_default=True, help="Adapter processes."),
        click.option("--shard", help=SHARD_HELP),
        click.option(
            "--out",
            "out_dir",
            type=OutputFolder(),
            help="Write each family's shrunk scenario into this folder.",
        ),
        click.option(
            "--format",
            "fmt",
            type=click.Choice(["text", "json", "markdown"]),
            default="text",
            show_default=True,
        ),
        click.option(
            "-o",
            "--output",
            type=OutputFile(),
            help="Write the report to this file.",
        ),
        click.option(
            "--profile",
            default=DEFAULT_PROFILE_NAME,
            show_default=True,
            help="The profile to fuzz.",
        ),
        click.option(
            "--variant",
            "variants",
            multiple=True,
            help="A variant toggle of the profile (repeatable).",
        ),
        click.option(
            "--timeout", type=Seconds(), default=10.0, show_default=True, help="Seconds per deal."
        ),
        click.option("--startup-timeout", type=Seconds(), default=30.0, show_default=True),
        click.option(
            "--shrink-budget", type=int, default=400, show_default=True, help="Runs per shrink."
        ),
        click.option(
            "--progress/--no-progress", default=True, help="A progress bar on a terminal."
        ),
        click.option(
            "--generators",
            "generators",
            multiple=True,
            metavar="NAMES",
            help="Only these generators, comma-separated (repeatable): random, "
            "contract-suit, illegal, …, auction (calls only: for an engine of the bidding "
            "alone). Default: the whole rotation, or what the adapter declares it can "
            "set up (capabilities.starts).",
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


__all__ = ["fuzz_options", "out_console", "run_fuzz", "run_merge"]


def run_perft(
    *,
    command: str | None,
    positions: Path | None,
    depth: int | None,
    write: bool,
    timeout: float,
    startup_timeout: float,
) -> int:
    """``fivehundred perft``: the reference against the positions file, or an adapter."""
    from ..fuzz.perft import PerftError, load_positions, positions_file

    path = positions or positions_file()
    try:
        loaded = load_positions(path)
    except PerftError as error:
        raise click.BadParameter(str(error), param_hint="--positions") from None
    if depth is not None and not 0 <= depth <= 6:
        raise click.BadParameter("from 0 to 6", param_hint="--depth")
    try:
        if depth is None and write:
            return _rewrite(loaded, path)
        if depth is None and command is not None:
            return _perft_implementation(loaded, command, timeout, startup_timeout)
        return _perft(loaded, depth)
    except PerftError as error:  # a position of the file the reference cannot set up
        err_console().print(f"perft: {clean_name(path)}: {error}", markup=False)
        return 2


def _perft(loaded: list[Position], depth: int | None) -> int:
    from ..fuzz.perft import check_reference, counts_of

    console = out_console()
    if depth is not None:
        for position in loaded:
            (count,) = counts_of(position, (depth,))
            console.print(f"{count:>12,}  {one_line(position.name)}", markup=False)
        return 0
    bad = 0
    for position, counts in check_reference(loaded):
        ok = counts == position.counts
        bad += not ok
        mark = "ok  " if ok else "FAIL"
        console.print(
            f"{mark} {list(counts)!s:<22} {one_line(position.name)}"
            + ("" if ok else f" (file: {list(position.counts)})"),
            markup=False,
        )
    console.print(f"perft: {len(loaded) - bad} of {len(loaded)} positions agree with the file")
    return 1 if bad else 0


def _rewrite(loaded: list[Position], path: Path) -> int:
    """``--write``: the reference's counts into the positions file, in place.  The file is
    read again as it was read first, and rewritten only where the suite writes: a plain
    file, never through a link (which would be replaced by a file, its target left
    stale)."""
    from ..fuzz.perft import check_reference, dump_positions, read_positions

    try:
        target = place(path.parent, path.name)
    except FileRefused as error:
        raise click.BadParameter(f"--write: {error}", param_hint="--positions") from None
    data = read_positions(target)
    for item, (_, counts) in zip(data["positions"], check_reference(loaded), strict=True):
        item["perft"] = list(counts)
    atomic_write_text(target, dump_positions(data))
    out_console().print(
        f"rewrote the counts of {len(loaded)} positions in {clean_name(target)}", markup=False
    )
    return 0


def _perft_implementation(
    loaded: list[Position], command: str, timeout: float, startup_timeout: float
) -> int:
    """An adapter's perft counts against the file's.  Stopped by SIGTERM or SIGHUP as
    ``verify`` is (:func:`~.stopping.signals_raise`): the adapter's process group is
    killed on every way out."""
    from ..verify.external import ExternalImplementation

    try:
        implementation = ExternalImplementation(
            command, timeout=timeout, startup_timeout=startup_timeout
        )
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--impl") from None
    try:
        with signals_raise(Terminated):
            try:
                return _perft_adapter(implementation, loaded)
            except BaseException:
                implementation.kill()
                raise
            finally:
                implementation.close()
    except Terminated as stop:
        name = signal.Signals(stop.signum).name
        err_console().print(f"perft: stopped by {name}; the adapter was killed", markup=False)
        return 128 + stop.signum
    except KeyboardInterrupt:
        err_console().print("perft: interrupted; the adapter was killed", markup=False)
        return 130


def _perft_adapter(implementation: ExternalImplementation, loaded: list[Position]) -> int:
    from ..fuzz.perft import check_implementation
    from ..verify.external import HandshakeError

    try:
        hello = implementation.start()
    except HandshakeError as error:
        err_console().print(
            f"perft: the handshake failed: {clean_text(error.message)}", markup=False
        )
        return 3
    if not hello.capabilities.legal_actions:
        err_console().print(
            "perft: Nothing was checked: the implementation lists no legal actions "
            "(capabilities.legal_actions is false), so no count could be compared",
            markup=False,
        )
        return 1
    bad = 0
    console = out_console()
    for position, problem in check_implementation(implementation, loaded):
        bad += problem is not None
        mark = "ok  " if problem is None else "FAIL"
        shown = "" if problem is None else ": " + one_line(problem)[:300]
        console.print(f"{mark} {one_line(position.name)}{shown}", markup=False)
    console.print(f"perft: {len(loaded) - bad} of {len(loaded)} positions agree")
    return 1 if bad else 0


@click.group(invoke_without_command=True)
@fuzz_options
@click.pass_context
def fuzz(ctx: click.Context, /, **options: Any) -> None:
    """Differential fuzzing: random deals on an implementation and on the reference;
    disagreements grouped, shrunk and written as scenarios (`fuzz merge` combines shards)."""
    if ctx.invoked_subcommand is None:
        sys.exit(run_fuzz(**options))


@fuzz.command(name="merge")
@click.argument("reports", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text")
@click.option("-o", "--output", type=OutputFile())
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path))
def fuzz_merge(
    reports: tuple[str, ...], fmt: str, output: Path | None, out_dir: Path | None
) -> None:
    """Combine the JSON reports of shards as one run would have reported them."""
    sys.exit(run_merge(reports, fmt, output, out_dir))
