"""``fivehundred verify``: its options, and what it does once they are parsed.

Imported only when ``verify`` runs (:mod:`.main` wires the commands), so ``serve
--one-shot``, started once per scenario, never pays for rich and the reports.  Every
user error here is a
:class:`click.UsageError` or :class:`click.BadParameter`: a clear message and exit
status 2, never a traceback.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.markup import escape

from ..reports import REPORT_FORMATS
from ..reports.text import print_broken, print_text_report, summary_line
from ..safety import (
    DEFAULT_STARTUP_TIMEOUT,
    DEFAULT_TIMEOUT,
    atomic_write_text,
    clean_text,
)
from ..scenarios import Corpus, Scenario, load_corpus
from ..verify.expectations import (
    Expectation,
    ExpectationsError,
    dump_expectations,
    load_expectations,
)
from ..verify.protocol import Capabilities, ImplementationInfo
from ..verify.runner import ReferenceImplementation, Selection
from ..verify.serve import REFERENCE_CAPABILITIES, REFERENCE_INFO
from ..verify.verification import (
    Entry,
    Mode,
    Verification,
    expectations_from_run,
    not_run,
    run_verification,
)
from .consoles import err_console, out_console, print_diagnostics, progress_bar
from .finding import selected
from .params import OutputFile, Seconds, existing_paths, selection_options
from .stopping import Terminated, signals_held, signals_raise

if TYPE_CHECKING:
    # Imported where an adapter is run: the adapter process machinery is no part of
    # verifying the reference, which every plain ``fivehundred verify`` does.
    from ..verify.external import ExternalImplementation, HandshakeError

__all__ = ["VerifyOptions", "run_verify", "verify"]


@dataclass(frozen=True)
class VerifyOptions:
    """The options of ``fivehundred verify``, as parsed by click."""

    paths: list[Path] | None
    selection: Selection
    command: str | None
    one_shot: bool
    timeout: float | None
    startup_timeout: float | None
    lenient_errors: bool
    expectations_file: Path | None
    allow_unexpected_pass: bool
    write_expectations: Path | None
    force: bool
    fmt: str
    output: Path | None
    max_time: float | None = None


def _check_options(options: VerifyOptions) -> None:
    """Refuse contradictory options before anything runs (a run may take minutes)."""
    if options.command is None and (
        options.one_shot or options.timeout is not None or options.startup_timeout is not None
    ):
        raise click.UsageError("--one-shot, --timeout and --startup-timeout need --impl")
    for path, option in (
        (options.output, "--output"),
        (options.write_expectations, "--write-expectations"),
    ):
        _check_folder_exists(path, option)
    target = options.write_expectations
    if target is not None and target.exists() and not options.force:
        raise click.UsageError(
            f"{target} exists; pass --force to overwrite it with this run's results"
        )


def _check_folder_exists(path: Path | None, option: str) -> None:
    """A file to write must be in a folder that exists."""
    if path is not None and not Path(os.path.dirname(os.path.abspath(path)) or ".").is_dir():
        raise click.BadParameter(f"no such directory: {path.parent}", param_hint=option)


def _load_expectations(path: Path | None) -> dict[str, Expectation]:
    if path is None:
        return {}
    try:
        return load_expectations(path)
    except ExpectationsError as error:
        raise click.BadParameter(str(error), param_hint="--expectations") from None


def _unknown_ids(expectations: dict[str, Expectation], corpus: Corpus) -> list[str]:
    known = {s.id for s in corpus.scenarios}
    return [
        f"the expectations file lists {i}, which is not a scenario of this suite "
        "(removed, or mistyped?)"
        for i in sorted(set(expectations) - known)
    ]


def _external(options: VerifyOptions) -> ExternalImplementation:
    from ..verify.external import DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT, ExternalImplementation

    assert options.command is not None
    try:
        return ExternalImplementation(
            options.command,
            timeout=DEFAULT_TIMEOUT if options.timeout is None else options.timeout,
            startup_timeout=DEFAULT_STARTUP_TIMEOUT
            if options.startup_timeout is None
            else options.startup_timeout,
            one_shot=options.one_shot,
        )
    except ValueError as error:  # shlex: unbalanced quotes; or an empty command
        raise click.BadParameter(str(error), param_hint="--impl") from None


@dataclass(frozen=True)
class _Run:
    """What the command settled before anything runs."""

    options: VerifyOptions
    scenarios: list[Scenario]
    expectations: dict[str, Expectation]
    invalid_files: int
    warnings: list[str]
    """The warnings said so far (expectations listing scenarios that do not exist)."""


def _verification(
    run: _Run,
    info: ImplementationInfo,
    capabilities: Capabilities | None,
    adapter: ExternalImplementation | None = None,
    handshake: HandshakeError | None = None,
) -> Verification:
    """The one place a run's :class:`Verification` is assembled: who is verified (the
    reference, an adapter's hello, or an adapter that failed its handshake), how it is
    run, how strictly it is judged, and what the command knew before the run."""
    options = run.options
    mode = (
        Mode.IN_PROCESS
        if adapter is None
        else Mode.ONE_SHOT
        if options.one_shot
        else Mode.PERSISTENT
    )
    noted = [] if adapter is None else _capability_warnings(capabilities)
    return Verification(
        info,
        capabilities,
        mode,
        command=None if adapter is None else adapter.command,
        lenient_errors=options.lenient_errors
        or (capabilities is not None and not capabilities.error_codes),
        timeout=None if adapter is None else adapter.timeout,
        allow_unexpected_pass=options.allow_unexpected_pass,
        broken=None if handshake is None else f"the handshake failed: {handshake.message}",
        broken_stderr="" if handshake is None else handshake.stderr,
        warnings=[*run.warnings, *noted],
        invalid_files=run.invalid_files,
    )


def _verify_external(run: _Run) -> Verification:
    """Shake hands, then run; a failed handshake is a broken adapter, not a crash."""
    from ..verify.external import HandshakeError

    options = run.options
    implementation = _external(options)
    try:
        try:
            hello = implementation.start()
        except HandshakeError as error:
            unknown = ImplementationInfo(implementation.command, "unknown", "unknown")
            verification = _verification(run, unknown, None, implementation, error)
            return not_run(
                verification, run.scenarios, "the adapter failed its handshake", run.expectations
            )
        verification = _verification(run, hello.implementation, hello.capabilities, implementation)
        with _progress_bar(len(run.scenarios)) as on_entry:
            run_verification(
                verification,
                run.scenarios,
                implementation,
                run.expectations,
                on_entry=on_entry,
                max_time=options.max_time,
            )
        return verification
    except BaseException:  # a signal or a bug: no farewell, the adapter is killed at once
        implementation.kill()
        raise
    finally:
        implementation.close()


@contextlib.contextmanager
def _progress_bar(total: int) -> Iterator[Callable[[Entry], None] | None]:
    """A progress bar on standard error while an adapter runs, when that is a terminal
    (as fuzz shows one): scenarios done, how many failed and errored so far."""
    shown = progress_bar("verify", total)
    if shown is None:
        yield None
        return
    move, stop = shown
    counts = {"failed": 0, "errored": 0}
    done = 0

    def update(entry: Entry) -> None:
        nonlocal done
        done += 1
        if entry.status.value in counts:
            counts[entry.status.value] += 1
        move(done, ", ".join(f"{n} {what}" for what, n in counts.items() if n))

    try:
        yield update
    finally:
        stop()


def _verify_reference(run: _Run) -> Verification:
    verification = _verification(run, REFERENCE_INFO, REFERENCE_CAPABILITIES)
    return run_verification(
        verification,
        run.scenarios,
        ReferenceImplementation(),
        run.expectations,
        max_time=run.options.max_time,
    )


@dataclass
class _Progress:
    """How far the command got, for the message a stop signal leaves: the signal can come
    while the adapter runs, while the report is on its way to standard output, or after
    it, while the expectations file is written."""

    adapter_done: bool = False
    report: str = "none"  # "stdout" while it is being written there, "written" after


def _write_report(verification: Verification, options: VerifyOptions, progress: _Progress) -> None:
    """The report on stdout or in ``--output``; then, unless the text report went to
    the terminal, the summary line on stderr so a person still sees how it went."""
    output = options.output
    if options.fmt == "text" and output is None:
        progress.report = "stdout"
        print_text_report(verification, out_console())
        progress.report = "written"
        return
    try:
        if options.fmt == "text":
            assert output is not None
            buffer = io.StringIO()
            plain = Console(
                file=buffer, no_color=True, highlight=False, emoji=False, width=120, soft_wrap=True
            )
            print_text_report(verification, plain)
            text = buffer.getvalue()
        else:  # JSON, JUnit, TAP, Markdown: their module (with PyYAML and ElementTree)
            from ..reports.formats import render as render_report  # is loaded only here

            text = render_report(verification, options.fmt)
        if output is None:
            progress.report = "stdout"
            sys.stdout.write(text)
            sys.stdout.flush()
            progress.report = "written"
        else:
            # a stop waits until the file is written and noted as such (into a FIFO whose
            # reader stalls, a second signal stops at once)
            with signals_held():
                atomic_write_text(output, text)  # a failure part-way keeps the previous report
                progress.report = "written"
    except OSError as error:
        raise click.FileError(str(output), hint=error.strerror or str(error)) from None
    err = err_console()
    err.print(
        clean_text(escape(summary_line(verification))),
        style="green" if verification.ok else "red",
    )
    if verification.broken is not None:
        print_broken(verification, err)


def _write_expectations(
    verification: Verification, previous: dict[str, Expectation], options: VerifyOptions
) -> None:
    target = options.write_expectations
    assert target is not None
    base = None
    if target.exists():  # rewriting: keep its reasons, links and comments
        try:
            base = target.read_text(encoding="utf-8")
            previous = {**load_expectations(target), **previous}
        except (OSError, UnicodeDecodeError, ExpectationsError) as error:
            raise click.BadParameter(str(error), param_hint="--write-expectations") from None
    elif options.expectations_file is not None and options.expectations_file.suffix != ".json":
        base = options.expectations_file.read_text(encoding="utf-8")
    written = expectations_from_run(verification, previous)
    try:
        dump_expectations(written, target, force=options.force, base=base)
    except FileExistsError:
        raise click.UsageError(f"{target} appeared during the run; not overwritten") from None
    except OSError as error:
        raise click.FileError(str(target), hint=error.strerror or str(error)) from None
    err_console().print(f"wrote {len(written)} expectations to {clean_text(escape(str(target)))}")


def run_verify(options: VerifyOptions) -> int:
    """Run ``fivehundred verify``; return its exit status (128 + N after signal N)."""
    progress = _Progress()
    try:
        with signals_raise(Terminated):
            return _run_verify(options, progress)
    except Terminated as stop:
        name = signal.Signals(stop.signum).name
        err_console().print(
            f"verify: stopped by {name}; {_stopped(options, progress)}", markup=False
        )
        return 128 + stop.signum


def _stopped(options: VerifyOptions, progress: _Progress) -> str:
    """What a stop signal left behind, as far as the command got."""
    if progress.report == "stdout":
        return "the report on standard output is cut short"
    if progress.report == "written":
        if options.write_expectations is None:
            return "the report had been written"
        # written whole or not at all (atomic_write_text)
        return "the report had been written; the expectations file may not have been"
    if options.command is None or progress.adapter_done:
        return "no report was written"
    return "the adapter was killed and no report was written"


def _capability_warnings(capabilities: Capabilities | None) -> list[str]:
    """What an adapter's capabilities name that the suite does not know."""
    noted = [
        _unknown_profiles(capabilities),
        _unknown_starts(capabilities),
        _unknown_observations(capabilities),
    ]
    return [w for w in noted if w]


def _unknown_observations(capabilities: Capabilities | None) -> str | None:
    """A warning for observation keys an adapter declares that the suite does not know
    (a typo such as ``Phase`` or ``to-act`` would otherwise leave those checks unchecked
    without a word)."""
    from ..scenarios.format.vocabulary import OBSERVATION_NAMES

    declared = capabilities and capabilities.observations
    unknown = sorted(set(declared or ()) - set(OBSERVATION_NAMES))
    if not unknown:
        return None
    return (
        f"the adapter's capabilities list observations the suite does not know: "
        f"{', '.join(unknown)}; they are ignored (the keys are in site/scenario-format.md)"
    )


def _unknown_profiles(capabilities: Capabilities | None) -> str | None:
    """A warning for profile names an adapter declares that the suite does not know,
    each with the nearest known names (its scenarios are otherwise all skipped as "not
    supported", the typo unnoticed)."""
    from ..verify.external import unknown_profiles

    if capabilities is None:
        return None
    unknown = unknown_profiles(capabilities)
    if not unknown:
        return None
    return (
        f"the adapter's capabilities name profiles the suite does not know: "
        f"{'; '.join(unknown)} (`fivehundred profiles` lists them)"
    )


def _unknown_starts(capabilities: Capabilities | None) -> str | None:
    """A warning for start kinds an adapter declares that the suite does not know (a
    typo such as ``Deck`` would skip every deck start as "cannot set up")."""
    from ..scenarios.format.diagnostics import did_you_mean
    from ..scenarios.format.vocabulary import STARTS

    declared = capabilities and capabilities.starts
    known = [start.name for start in STARTS]
    unknown = [s for s in declared or () if s not in known]
    if not unknown:
        return None
    named = "; ".join(f"{clean_text(s)!r}{did_you_mean(s, known)}" for s in unknown)
    return (
        f"the adapter's capabilities list starts the suite does not know: {named} "
        f"(the starts: {', '.join(known)})"
    )


def _run_verify(options: VerifyOptions, progress: _Progress) -> int:
    """The command itself.  The time reported is the whole command's: loading and
    checking the scenario files, starting the implementation and running every scenario."""
    started = time.perf_counter()
    _check_options(options)
    expectations = _load_expectations(options.expectations_file)
    notes = out_console() if options.fmt == "text" and options.output is None else err_console()
    corpus = load_corpus(options.paths)
    print_diagnostics(corpus.diagnostics, notes)
    scenarios = selected(corpus, options.selection, none_with_invalid=True)
    warnings = _unknown_ids(expectations, corpus)
    for warning in warnings:
        err_console().print(f"[yellow]warning:[/] {clean_text(escape(warning))}")
    run = _Run(options, scenarios, expectations, len(corpus.invalid_files), warnings)
    if options.command is None:
        verification = _verify_reference(run)
    else:
        verification = _verify_external(run)
        progress.adapter_done = True
        for warning in verification.warnings[len(warnings) :]:  # the adapter's, after its run
            err_console().print(f"[yellow]warning:[/] {clean_text(escape(warning))}")
    verification.seconds = time.perf_counter() - started  # the whole command's time
    _write_report(verification, options, progress)
    if options.write_expectations is not None:
        if verification.broken is not None and verification.capabilities is None:
            err_console().print(  # no scenario was sent: there is nothing to record
                "[red]--write-expectations: nothing written, the adapter failed its handshake[/]"
            )
        else:
            _write_expectations(verification, expectations, options)
    return verification.exit_code


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@selection_options
@click.option(
    "--impl",
    "command",
    metavar="COMMAND",
    help="Verify this implementation: a command speaking protocol v1 (site/protocol.md), "
    "split like a shell would but never run by one.  Default: the reference, in-process.",
)
@click.option(
    "--one-shot", is_flag=True, help="Start COMMAND once per message instead of once per run."
)
@click.option(
    "--timeout",
    type=Seconds(),
    default=None,
    help=f"Seconds COMMAND has to answer one scenario (default {DEFAULT_TIMEOUT:g}).",
)
@click.option(
    "--startup-timeout",
    type=Seconds(),
    default=None,
    help=f"Seconds COMMAND has to start and answer hello (default {DEFAULT_STARTUP_TIMEOUT:g}).",
)
@click.option(
    "--max-time",
    type=Seconds(),
    default=None,
    help="Seconds the whole run may take; scenarios not started by then are reported "
    "as not run (errored).  Default: no limit.",
)
@click.option(
    "--lenient-errors",
    is_flag=True,
    help="Compare only accepted versus rejected, not rejection codes.",
)
@click.option(
    "--expectations",
    "expectations_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Expected failures and skips, YAML or JSON (schema/expectations.schema.json).",
)
@click.option(
    "--allow-unexpected-pass",
    is_flag=True,
    help="Do not fail the run when a scenario listed as failing passes.",
)
@click.option(
    "--write-expectations",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write an expectations file listing this run's failures and errors.",
)
@click.option("--force", is_flag=True, help="Let --write-expectations overwrite a file.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(list(REPORT_FORMATS)),
    default="text",
    show_default=True,
    help="Report format.",
)
@click.option(
    "-o",
    "--output",
    type=OutputFile(),
    help="Write the report to this file instead of stdout.",
)
def verify(
    paths: tuple[str, ...],
    selection: Selection,
    command: str | None,
    one_shot: bool,
    timeout: float | None,
    startup_timeout: float | None,
    max_time: float | None,
    lenient_errors: bool,
    expectations_file: Path | None,
    allow_unexpected_pass: bool,
    write_expectations: Path | None,
    force: bool,
    fmt: str,
    output: Path | None,
) -> None:
    """Run scenarios against an implementation and compare every expectation.

    Without --impl the reference runs in-process.  Exit status: 0 when nothing
    failed, errored or passed unexpectedly (expected failures and skips are fine);
    1 when something did, or a scenario file is invalid; 2 for a usage error;
    3 when the adapter is broken (failed its handshake, or every scenario errored).
    """
    options = VerifyOptions(
        paths=existing_paths(paths),
        selection=selection,
        command=command,
        one_shot=one_shot,
        timeout=timeout,
        startup_timeout=startup_timeout,
        max_time=max_time,
        lenient_errors=lenient_errors,
        expectations_file=expectations_file,
        allow_unexpected_pass=allow_unexpected_pass,
        write_expectations=write_expectations,
        force=force,
        fmt=fmt,
        output=output,
    )
    sys.exit(run_verify(options))
