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
