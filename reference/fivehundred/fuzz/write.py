"""A shrunk disagreement as a scenario file, ready to file with the suite.

The file is an ordinary scenario: it validates (safe YAML, the JSON Schema, lint), passes
on the reference and fails on the implementation that was fuzzed.  Its id is minted from
a hash of its content, so the same finding always gets the same id (rename it with
``fivehundred new`` conventions before filing it if it collides).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import yaml

from ..safety import clean_text, one_line
from ..scenarios import ID_ALPHABET, Scenario, input_json
from ..scenarios.format.model import ActionStep, Checkpoint, DealResultStep, DealStep

__all__ = ["mint_id", "scenario_filename", "scenario_yaml"]


def mint_id(text: str) -> str:
    digest = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    chars = []
    for _ in range(4):
        digest, index = divmod(digest, len(ID_ALPHABET))
        chars.append(ID_ALPHABET[index])
    return "".join(chars)


def scenario_filename(scenario_id: str, kind: str, check: str) -> str | None:
    """The file name of a shrunk scenario, made by the suite from its id and a slug of the
    disagreement's kind and check (letters, digits and hyphens only); ``None`` when the id
    is not one the suite mints, so that nothing read from a shard ever names a file."""
    if len(scenario_id) != 4 or any(c not in ID_ALPHABET for c in scenario_id):
        return None
    words = "".join(c if c.isascii() and c.isalnum() else "-" for c in f"{kind}-{check}".lower())
    slug = "-".join(part for part in words.split("-") if part)[:60].rstrip("-")
    return f"fuzz-{scenario_id.lower()}-{slug or 'disagreement'}.yaml"


def _flow(value: Any) -> str:
    return str(
        yaml.safe_dump(
            value, default_flow_style=True, sort_keys=False, allow_unicode=True, width=10**6
        )
    ).strip()


def _scalar(value: str) -> str:
    text = yaml.safe_dump({"v": value}, allow_unicode=True, width=10**6)
    return str(text)[len("v: ") :].rstrip("\n")


def _block(value: Mapping[str, Any], indent: int) -> str:
    text = yaml.safe_dump(
        dict(value), default_flow_style=None, sort_keys=False, allow_unicode=True, width=100
    )
    pad = " " * indent
    return "".join(pad + line + "\n" for line in str(text).splitlines())


def _step(step: Any, wire: dict[str, Any]) -> dict[str, Any]:
    if isinstance(step, Checkpoint):
        return {"expect": dict(step.expect)}
    out = dict(wire)
    if isinstance(step, ActionStep | DealStep | DealResultStep) and step.reject is not None:
        out["reject"] = step.reject
    return out


def scenario_yaml(scenario: Scenario, header: str) -> str:
    """The scenario as a YAML file (``header`` becomes comment lines at the top)."""
    wire = input_json(scenario.input())
    # Every line of text (an adapter's answers are quoted in it) goes through the escaper:
    # a control character is not allowed anywhere in YAML, and a line separator or a bidi
    # override would make a comment or a block read otherwise than it parses.
    lines = [f"# {one_line(line)}".rstrip() for line in header.splitlines()]
    lines.append(f"id: '{scenario.id}'")  # quoted: an id such as 5387 is not a number
    lines.append(f"title: {_scalar(one_line(scenario.title))}")
    lines.append(f"rules: {_flow(list(scenario.rules))}")
    lines.append("assert: " + _scalar(one_line(scenario.assertion)))
    if scenario.profile is not None:
        lines.append(f"profile: {scenario.profile}")
    if scenario.variants:
        lines.append(f"variants: {_flow(list(scenario.variants))}")
    lines.append(f"tags: {_flow(list(scenario.tags))}")
    if scenario.explanation:
        lines.append("explanation: |")
        explanation = clean_text(scenario.explanation).splitlines()
        lines += ["  " + line if line else "" for line in explanation]
    lines.append("setup:")
    text = "\n".join(lines) + "\n" + _block(wire["setup"], 2) + "steps:\n"
    for step, step_wire in zip(scenario.steps, wire["steps"], strict=True):
        text += f"  - {_flow(_step(step, step_wire))}\n"
    return text
