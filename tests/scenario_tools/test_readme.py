"""What the README quotes exists: scenario ids, commands and their options, and paths.

A README example that selects nothing (an id that is not a scenario) or names an option
that was renamed teaches a new user the wrong thing in the first minute.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
from fivehundred.cli import main
from fivehundred.scenarios.corpus import load_corpus

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
ID = re.compile(r"(?:--id|-k|FAILED|show|verify --id)\s+([2-9A-Z]{4})\b")


def _code() -> list[str]:
    """Every line of a fenced code block and every inline code span."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", README, re.DOTALL)
    lines = [line for block in blocks for line in block.splitlines()]
    return lines + re.findall(r"`([^`\n]+)`", README)


def _commands() -> list[list[str]]:
    found = []
    for text in _code():
        text = text.split("  #")[0].strip()
        for part in re.split(r"&&|\|", text):
            try:
                words = shlex.split(part)
            except ValueError:
                continue
            if words[:1] == ["fivehundred"]:
                found.append(words[1:])
    return found


def test_quoted_ids_are_scenarios() -> None:
    known = {s.id for s in load_corpus().scenarios}
    quoted = set(ID.findall(README))
    assert quoted, "the README should show at least one id"
    assert quoted <= known, f"not scenarios: {sorted(quoted - known)}"


def test_quoted_commands_and_options_exist() -> None:
    commands = _commands()
    assert len(commands) >= 10
    for words in commands:
        if not words or words[0].startswith("-"):
            continue
        name = words[0]
        command = main.commands.get(name)
        assert command is not None, f"fivehundred {name} is not a command"
        options = {o for p in command.params if isinstance(p, click.Option) for o in p.opts}
        for word in words[1:]:
            if word.startswith("--"):
                assert word.split("=")[0] in options, f"fivehundred {name} has no {word}"


def test_quoted_paths_exist() -> None:
    pattern = re.compile(
        r"(?<![\w/.-])((?:adapters|site|schema|scenarios|benchmarks|reference|tests)/[\w./-]*)"
    )
    links = re.findall(r"\]\(([^)#]+)\)", README)
    paths = {m for text in [*_code(), *links] for m in pattern.findall(text)}
    paths = {p.rstrip(".") for p in paths if "<" not in p and "*" not in p}
    generated = {"scenarios/auction/misere-over-7nt.yaml"}  # made by the `new` example
    missing = sorted(p for p in paths - generated if not (ROOT / p).exists())
    assert not missing, f"the README names paths that do not exist: {missing}"
