"""``fivehundred new``: mint an id and write a scenario skeleton that already validates.

The skeleton starts from the ordered deck so that it is valid as written; the
author then edits the setup, the steps and the expectations.  An existing file is
never overwritten.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from ..engine import DEFAULT_PROFILE, Seat, card_token, deal_packets
from ..scenarios import ID_ALPHABET


def mint_id(taken: Iterable[str]) -> str:
    """A fresh random id of four characters that no scenario uses or ever used.

    An id of digits only is never minted: unquoted in YAML it would read as a number.
    """
    used = set(taken)
    while True:
        candidate = "".join(secrets.choice(ID_ALPHABET) for _ in range(4))
        if candidate not in used and not candidate.isdigit():
            return candidate


def slugify(title: str) -> str:
    """A file name from a title: ``Misère over 7♠`` → ``misere-over-7``."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")
    return slug[:60].rstrip("-") or "scenario"


def _flow(cards: list[str]) -> str:
    return "[" + ", ".join(cards) + "]"


def skeleton(scenario_id: str, title: str, rules: list[str], start: str) -> str:
    dealer = Seat.W
    hands, kitty = deal_packets(DEFAULT_PROFILE, dealer, DEFAULT_PROFILE.deck)
    tokens = [[card_token(c) for c in hand] for hand in hands]
    lines = [
        "# yaml-language-server: $schema=../../schema/scenario.schema.json",
        f"id: {scenario_id}",
        f"title: {title}",
        f"rules: [{', '.join(rules)}]",
        "assert: Replace this with one sentence stating the behaviour the scenario proves.",
        "tags: []",
        "explanation: |",
        "  Explain, in Markdown, why the outcome is what it is.",
        "setup:",
        f"  start: {start}",
        f"  dealer: {dealer.name}",
    ]
    if start == "deck":
        lines += ["  deck: ordered", "steps:", "  - expect: {phase: auction, to_act: N}"]
    elif start == "auction":
        lines.append("  hands:")
        lines += [f"    {s.name}: {_flow(tokens[s])}" for s in Seat]
        lines += [
            f"  kitty: {_flow([card_token(c) for c in kitty])}",
            "steps:",
            "  - {seat: N, call: 6S}",
            "  - expect: {high_bid: 6S, to_act: E}",
        ]
    elif start == "play":
        lines += ["  contract: 6NT", "  declarer: N", "  hands:"]
        lines += [f"    {s.name}: {_flow(tokens[s])}" for s in Seat]
        lines += ["steps:", "  - expect: {phase: play, to_act: N}"]
    else:
        lines += [
            "  scores: {NS: 0, EW: 0}",
            "steps:",
            "  - deal_result: {contract: 7H, declarer: N, tricks: 7}",
            "  - expect: {scores: {NS: 200, EW: 30}}",
        ]
    return "\n".join(lines) + "\n"


def write_new(directory: Path, scenario_id: str, title: str, rules: list[str], start: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{slugify(title)}.yaml"
    if path.exists():
        raise FileExistsError(f"{path} already exists; choose another title")
    path.write_text(skeleton(scenario_id, title, rules, start), encoding="utf-8")
    return path
