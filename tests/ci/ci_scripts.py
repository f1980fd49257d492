"""The repository's CI files as the tests read them: the workflows, and the scripts of
``.ci/`` imported as modules (the folder is not a package: the workflows run them as
scripts)."""

from __future__ import annotations

import importlib.util
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"

# A program that is the project's own, or that builds, installs or checks it.
_PROJECT = {"fivehundred", "mkdocs", "twine"}
_SHELL_WORDS = {"if", "then", "else", "elif", "do", "while", "until", "!", "time", "sudo", "env"}
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_HEAD_WORD = re.compile(r"[a-z0-9.][a-z0-9._/\[\]-]*")
_SUBSTITUTION = re.compile(r"\$\(([^()]*)\)")


def ci_script(name: str) -> ModuleType:
    """``.ci/<name>.py`` imported as a module."""
    path = ROOT / ".ci" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"ci_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def workflows() -> dict[str, dict[str, Any]]:
    """Every workflow, by file name, as YAML reads it."""
    return {
        path.name: yaml.safe_load(path.read_text(encoding="utf-8"))
        for path in sorted(WORKFLOWS.glob("*.yml"))
    }


def steps(workflow: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(job id, step) for every step of every job."""
    for job_id, job in workflow["jobs"].items():
        for step in job.get("steps", []):
            yield job_id, step


def step_named(workflow: dict[str, Any], name: str) -> dict[str, Any]:
    found = [step for _, step in steps(workflow) if step.get("name") == name]
    assert len(found) == 1, f"no single step named {name!r}"
    return found[0]


def simple_commands(script: str) -> Iterator[list[str]]:
    """The simple commands of a shell script, as word lists: split at ``;``, ``&&``,
    ``||``, ``|`` and parentheses, with each ``$( … )`` also read as a command, and
    leading assignments, ``sudo``, ``env`` and shell keywords dropped."""
    text = script.replace("\\\n", " ")
    for line in text.splitlines():
        pieces = [line, *_SUBSTITUTION.findall(line)]
        for piece in pieces:
            lexer = shlex.shlex(piece, posix=True, punctuation_chars=";&|()")
            lexer.whitespace_split = True
            lexer.commenters = "#"
            try:
                tokens = list(lexer)
            except ValueError:
                continue
            command: list[str] = []
            for token in [*tokens, ";"]:
                if token and set(token) <= set(";&|()"):
                    while command and (command[0] in _SHELL_WORDS or _ASSIGNMENT.match(command[0])):
                        command.pop(0)
                    if command:
                        yield command
                    command = []
                else:
                    command.append(token)


def _program(word: str) -> str:
    name = word.rsplit("/", 1)[-1]
    return "python" if name in ("python3", "python") else name


def runs_project_code(words: list[str]) -> bool:
    """Whether a command runs the project's code (or builds, installs or checks it)."""
    program = _program(words[0])
    if program in _PROJECT:
        return True
    if program == "bash" or words[0].startswith(".ci/"):
        return any(w.startswith(".ci/") for w in words[:2])
    if program == "python":
        rest = words[1:]
        if rest[:1] == ["-m"] and len(rest) > 1:
            return rest[1] != "venv"
        return bool(rest) and rest[0].startswith((".ci/", "benchmarks/", "tests/"))
    return False


def signature(words: list[str]) -> tuple[tuple[str, ...], frozenset[str]]:
    """What makes two commands the same way of doing a thing: the program with its
    subcommands (and, for ``python -m``, the module; for a script, its path), then the
    set of options given.  Values, paths with variables and placeholders are left out."""
    head = [_program(words[0])]
    options: set[str] = set()
    rest = words[1:]
    in_head = True
    index = 0
    while index < len(rest):
        word = rest[index]
        if word.startswith("-"):
            if head[0] == "python" and word == "-m" and in_head and index + 1 < len(rest):
                head += ["-m", rest[index + 1]]
                index += 2
                continue
            options.add(word.split("=")[0])
            in_head = False
        elif in_head and _HEAD_WORD.fullmatch(word):
            head.append(word)
        else:
            in_head = False
        index += 1
    return tuple(head), frozenset(options)


def documented_commands(*documents: Path) -> list[list[str]]:
    """Every command in the documents' code: fenced blocks and inline code spans."""
    found = []
    for document in documents:
        text = document.read_text(encoding="utf-8")
        blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.DOTALL)
        spans = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.DOTALL))
        for chunk in [*blocks, *spans]:
            found.extend(simple_commands(chunk))
    return found
