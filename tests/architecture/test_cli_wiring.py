"""The command line's layout rule: ``main.py`` only wires commands, and each command lives
in a module of its own (CONTRIBUTING.md, "The layout")."""

from __future__ import annotations

import importlib
from pathlib import Path

import click
from fivehundred.cli import main
from fivehundred.cli.main import COMMANDS

CLI = Path(importlib.import_module("fivehundred.cli").__file__ or "").parent


def test_every_wired_command_is_the_command_of_that_name() -> None:
    context = click.Context(main)
    for name in COMMANDS:
        command = main.get_command(context, name)
        assert isinstance(command, click.Command), name
        assert command.name == name.replace("_", "-"), name


def test_every_command_module_is_wired_and_main_defines_none() -> None:
    modules = {path.stem for path in CLI.glob("*_command.py")}
    assert modules == {module for module, _ in COMMANDS.values()}
    assert main.commands == {}, "main.py registers commands eagerly"
    assert main.list_commands(click.Context(main)) == sorted(COMMANDS)


def test_a_mistyped_command_is_answered_with_the_close_names() -> None:
    """No command is loaded before one is asked for; an unknown name still gets click's
    suggestions from every command (click 8.4 and later make them)."""
    from click.testing import CliRunner

    result = CliRunner().invoke(main, ["verfy"])
    assert result.exit_code == 2
    assert "No such command 'verfy'" in result.output
    if hasattr(click.exceptions, "NoSuchCommand"):
        assert "(Did you mean one of: 'perft', 'verify'?)" in result.output
