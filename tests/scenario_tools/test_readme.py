"""What the README and the pages it sends readers to quote exists: scenario ids, commands
and their options, and paths.  And the README stays a front page: short, with the two
commands that CI (``.ci/run``) runs as written.

A README example that selects nothing (an id that is not a scenario) or names an option
that was renamed teaches a new user the wrong thing in the first minute.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
from fivehundred.cli import main
from fivehundred.scenarios.loading.corpus import load_corpus

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# The README and the pages that took over its detail: each is checked the same way.
DOCUMENTS = "\n".join(
    (ROOT / name).read_text(encoding="utf-8")
    for name in (
        "README.md",
        "CONTRIBUTING.md",
        "site/command-line.md",
        "site/interpreting.md",
        "site/benchmarks.md",
    )
)
ID = re.compile(r"(?:--id|-k|FAILED|show|verify --id)\s+([2-9A-Z]{4})\b")


def _code(text: str = DOCUMENTS) -> list[str]:
    """Every line of a fenced code block and every inline code span."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.DOTALL)
    lines = [line for block in blocks for line in block.splitlines()]
    return lines + re.findall(r"`([^`\n]+)`", text)


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
    quoted = set(ID.findall(DOCUMENTS))
    assert ID.findall(README), "the README should show at least one id"
    assert quoted <= known, f"not scenarios: {sorted(quoted - known)}"


def test_quoted_commands_and_options_exist() -> None:
    commands = _commands()
    assert len(commands) >= 10
    context = click.Context(main)
    for words in commands:
        if not words or words[0].startswith("-") or words[0].isupper():
            continue
        name = words[0]
        command = main.get_command(context, name)
        assert command is not None, f"fivehundred {name} is not a command"
        options = {
            o
            for p in command.params
            if isinstance(p, click.Option)
            for o in (*p.opts, *p.secondary_opts)
        }
        for word in words[1:]:
            if word.startswith("--"):
                assert word.split("=")[0] in options, f"fivehundred {name} has no {word}"


def test_quoted_paths_exist() -> None:
    pattern = re.compile(
        r"(?<![\w/.-])((?:adapters|site|schema|scenarios|benchmarks|reference|tests)/[\w./<>-]*)"
    )
    links = re.findall(r"\]\(([^)#]+)\)", README + (ROOT / "CONTRIBUTING.md").read_text("utf-8"))
    paths = {m for text in [*_code(), *links] for m in pattern.findall(text)}
    paths = {p.rstrip(".") for p in paths if "<" not in p and "*" not in p}
    generated = {"scenarios/auction/misere-over-7nt.yaml"}  # made by the `new` example
    missing = sorted(p for p in paths - generated if not (ROOT / p).exists())
    assert not missing, f"the README names paths that do not exist: {missing}"


def _readme_commands() -> list[str]:
    """The README's two commands: the lines of its first console block that install."""
    block = re.search(r"```console\n(.*?)```", README, re.DOTALL)
    assert block is not None, "the README should open with its commands"
    lines = [line.split("  #")[0].strip() for line in block.group(1).splitlines()]
    return [line for line in lines if "pip install" in line]


def test_the_readme_is_a_front_page() -> None:
    lines = README.count("\n")
    assert lines <= 150, f"README.md has {lines} lines; move detail to CONTRIBUTING.md or site/"
    assert "CONTRIBUTING.md" in README and "CHANGELOG.md" in README


def test_the_first_command_installs_what_a_user_needs_and_the_second_the_tests() -> None:
    user, contributor = _readme_commands()
    assert user == "python -m pip install . && fivehundred verify"
    assert contributor.startswith("python -m pip install -e '.[dev]' && ")
    assert contributor.endswith("python -m pytest")


def test_ci_runs_the_readmes_commands_as_written_and_ends_with_its_tests() -> None:
    """``.ci/run`` holds each part of both commands as a line of its own, in order (the
    first command whole: it is run as a user would type it), and its last command is the
    README's test command."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line.strip() for line in script.splitlines()]
    user, contributor = _readme_commands()
    assert user in lines
    install, tests = (part.strip() for part in contributor.split("&&"))
    assert lines.index(user) < lines.index(install) < lines.index(tests)
    commands = [line for line in lines if line and not line.startswith("#")]
    assert commands[-1] == tests
