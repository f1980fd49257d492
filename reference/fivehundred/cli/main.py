"""The ``fivehundred`` command line: the group, and where each command lives.

main.py only wires commands; each command lives in its own module (``<name>_command.py``),
imported when the command is asked for.  ``fivehundred serve --one-shot`` is started once
per scenario, and importing every command (jsonschema, rich, the linter) would multiply
its start-up time by four.

Exit codes: 0 everything passed; 1 something failed, errored or was invalid;
2 the command itself was used wrongly (unknown id, bad option); 3 (``verify``) the
implementation's adapter is broken — it failed the handshake or errored on every
scenario — which is a different problem from not conforming.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import click

from .. import SUITE_VERSION
from ..resources import SuiteError, use_suite

COMMANDS: dict[str, tuple[str, str]] = {
    "coverage": ("coverage_command", "coverage"),
    "disputes": ("disputes_command", "disputes"),
    "export": ("export_command", "export"),
    "fuzz": ("fuzz_command", "fuzz"),
    "list": ("list_command", "list_command"),
    "new": ("new_command", "new"),
    "perft": ("perft_command", "perft"),
    "profiles": ("profiles_command", "profiles"),
    "rules": ("rules_command", "rules"),
    "serve": ("serve_command", "serve"),
    "show": ("show_command", "show"),
    "validate": ("validate_command", "validate"),
    "verify": ("verify_command", "verify"),
}
"""Each command's name → the module of this package that defines it, and its name there."""


class _Group(click.Group):
    """Turns a suite folder without scenarios into a usage error, and a standard stream
    that is closed, cannot take the text or cannot be written into a one-line error, never
    a traceback."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, its module imported only now."""
        if cmd_name not in COMMANDS:
            return None
        module_name, attribute = COMMANDS[cmd_name]
        command = getattr(importlib.import_module(f".{module_name}", __package__), attribute)
        if not isinstance(command, click.Command):  # pragma: no cover - a programming error
            raise TypeError(f"{module_name}.{attribute} is not a click command")
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and click.utils.make_str(args[0]) not in COMMANDS:
            # an unknown name: click suggests the close ones among the commands it holds
            loaded = {name: self.get_command(ctx, name) for name in COMMANDS}
            self.commands = {name: c for name, c in loaded.items() if c is not None}
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except SuiteError as error:
            raise click.UsageError(str(error)) from None

    def main(self, *args: Any, **kwargs: Any) -> Any:
        _usable_streams()
        try:
            return super().main(*args, **kwargs)
        except OSError as error:  # EPIPE is click's; this is a full disk, /dev/full, EIO
            where = f" ({error.filename})" if error.filename else ""
            _last_word(f"fivehundred: cannot go on: {error.strerror or error}{where}\n")
            raise SystemExit(2) from None


def _usable_streams() -> None:
    """A closed standard input reads as empty; a closed standard output or error stops the
    command with a word (where one can be written) and status 2."""
    if sys.stdin is None:  # closed: nothing to read, as from an empty file
        import os

        sys.stdin = open(os.devnull)  # noqa: SIM115  (for the life of the process)
    streams = {"stdout": "output", "stderr": "error"}
    closed = [f"standard {name}" for key, name in streams.items() if getattr(sys, key) is None]
    if closed:
        verb = "is" if len(closed) == 1 else "are"
        if sys.stderr is not None:
            _last_word(f"fivehundred: {' and '.join(closed)} {verb} closed\n")
        raise SystemExit(2)
    for stream in (sys.stdout, sys.stderr):
        _never_unencodable(stream)


def _never_unencodable(stream: Any) -> None:
    """A stream whose encoding cannot hold every character (``LC_ALL=C`` without UTF-8
    mode, ``PYTHONIOENCODING=ascii``) writes what it cannot hold as ``\\u2014`` escapes
    instead of failing on the first dash of a title."""
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    if encoding not in ("utf8", "utf8sig") and hasattr(stream, "reconfigure"):
        stream.reconfigure(errors="backslashreplace")


def _last_word(message: str) -> None:
    """Say why the command stopped on stderr, if even that can be written."""
    try:
        sys.stderr.write(message)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(SUITE_VERSION, prog_name="fivehundred")
@click.option(
    "--suite",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The suite folder (it holds scenarios/). Default: $FIVEHUNDRED_HOME, else the "
    "nearest of the current folder and its parents that has scenarios/, else the scenarios "
    "bundled with this package.",
)
def main(suite: Path | None) -> None:
    """Five Hundred (500): reference engine and conformance suite."""
    use_suite(suite)


if __name__ == "__main__":  # pragma: no cover
    main()
