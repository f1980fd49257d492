"""``fivehundred new``: mint an id and write a scenario skeleton that already validates.

The skeleton starts from the ordered deck so that it is valid as written; the
author then edits the setup, the steps and the expectations.  An existing file is
never overwritten, nothing is written outside the scenarios folder, the title is
written by a YAML emitter (so ``Misère: over 7NT`` stays that title), and the file
is validated before the command says it was created.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path

import yaml

from ..engine import DEFAULT_PROFILE, Profile, card_token, deal_packets
from ..safety import FileRefused, atomic_write_text, place
from ..scenarios import ID_ALPHABET

AREA_PATTERN = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$")
"""An area is a plain slug: lower-case letters, digits and inner hyphens, 1-40 characters."""


class ScaffoldError(Exception):
    """The area or the target file is not acceptable; nothing was written."""


def yaml_scalar(value: str) -> str:
    """``value`` as one YAML scalar, written by PyYAML's emitter (quoted when needed)."""
    text = yaml.safe_dump({"v": value}, allow_unicode=True, width=1_000_000)
    return text[len("v: ") :].rstrip("\n")


def _existing_areas(root: Path) -> list[str]:
    """The plain, visible folders under ``root``, by name."""
    if not root.is_dir():
        return []
    return sorted(
        p.name for p in root.iterdir() if p.is_dir() and not p.is_symlink() and p.name[0] != "."
    )


def area_folder(root: Path, area: str, *, create: bool) -> Path:
    """The folder for ``area`` under ``root``, which must be a plain slug inside it.

    An existing area is taken; a new one only with ``create`` (``--new-area``).  A
    link, or anything that would lead outside ``root``, is refused.
    """
    if not AREA_PATTERN.match(area):
        raise ScaffoldError(
            f"--area {area!r} is not a plain area name: use lower-case letters, digits "
            "and hyphens, 1 to 40 characters (e.g. auction)"
        )
    try:
        folder = place(root, area)  # the suite's rule for every folder it writes into
    except FileRefused as error:
        raise ScaffoldError(f"{error}; areas must be plain folders") from None
    if folder.is_dir():
        return folder
    if os.path.lexists(folder):
        raise ScaffoldError(f"{folder} exists and is not a folder")
    if not create:
        listed = ", ".join(_existing_areas(root)) or "none yet"
        raise ScaffoldError(
            f"there is no area {area!r} (existing areas: {listed}); "
            "pass --new-area to start a new one"
        )
    folder.mkdir(parents=True)
    return folder


NUMBER_LIKE = re.compile(r"[0-9]+(?:E[0-9]+)?")
"""Ids that YAML 1.1 or 1.2 would read as a number when unquoted."""


def mint_id(taken: Iterable[str]) -> str:
    """A fresh random id of four characters that no scenario uses or ever used.

    An id that a YAML parser could read as a number is never minted: digits only
    (``2345``), or digits around an ``E`` (``73E5``, a float to YAML 1.2 parsers).
    """
    used = set(taken)
    while True:
        candidate = "".join(secrets.choice(ID_ALPHABET) for _ in range(4))
        if candidate not in used and not NUMBER_LIKE.fullmatch(candidate):
            return candidate


def slugify(title: str) -> str:
    """A file name from a title: ``Misère over 7♠`` → ``misere-over-7``."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")
    return slug[:60].rstrip("-") or "scenario"


def _flow(cards: list[str]) -> str:
    return "[" + ", ".join(cards) + "]"


def profile_lines(profile: Profile) -> list[str]:
    """The ``profile:`` and ``variants:`` lines of a scenario of ``profile`` (none for the
    default profile without toggles)."""
    lines = []
    if profile.name != DEFAULT_PROFILE.name:
        lines.append(f"profile: {profile.name}")
    if profile.variants:
        lines.append(f"variants: [{', '.join(profile.variants)}]")
    return lines


def _sides_flow(profile: Profile, value: int = 0) -> str:
    return "{" + ", ".join(f"{side}: {value}" for side in profile.side_names) + "}"


def skeleton(
    scenario_id: str,
    title: str,
    rules: list[str],
    start: str,
    profile: Profile | None = None,
    *,
    tags: Sequence[str] = (),
    assertion: str = "Replace this with one sentence stating the behaviour the scenario proves.",
    explanation: str = "Explain, in Markdown, why the outcome is what it is.",
    dealt_checkpoint: bool = False,
) -> str:
    """A scenario that validates and passes as written, for ``profile`` (default: the
    default profile).  The dealer is the last seat, so the first seat (``N``) acts first.
    With ``dealt_checkpoint`` a deck start checks the hands and the kitty as the reference
    deals them, so the author sees the position before editing it."""
    profile = profile or DEFAULT_PROFILE
    seats = profile.seat_list
    names = profile.seat_names
    dealer = seats[-1]
    hands, kitty = deal_packets(profile, dealer, profile.deck)
    tokens = [[card_token(c) for c in hands[s]] for s in seats]
    lines = [
        "# yaml-language-server: $schema=../../schema/scenario.schema.json",
        f"id: {scenario_id}",
        f"title: {yaml_scalar(title)}",
        *profile_lines(profile),
        f"rules: [{', '.join(rules)}]",
        f"assert: {yaml_scalar(assertion)}",
        f"tags: [{', '.join(tags)}]",
        "explanation: |",
        f"  {explanation}",
        "setup:",
        f"  start: {start}",
        f"  dealer: {names[dealer]}",
    ]
    first, second = names[0], names[1 % len(names)]
    if start == "deck":
        lines += ["  deck: ordered", "steps:"]
        if dealt_checkpoint:
            lines += [
                "  - expect:",
                "      phase: auction",
                f"      to_act: {first}",
                "      hands:",
            ]
            lines += [f"        {names[s]}: {_flow(tokens[s])}" for s in seats]
            lines.append(f"      kitty: {_flow([card_token(c) for c in kitty])}")
        else:
            lines.append(f"  - expect: {{phase: auction, to_act: {first}}}")
    elif start == "auction":
        lines.append("  hands:")
        lines += [f"    {names[s]}: {_flow(tokens[s])}" for s in seats]
        lines += [
            f"  kitty: {_flow([card_token(c) for c in kitty])}",
            "steps:",
            f"  - {{seat: {first}, call: 6S}}",
            f"  - expect: {{high_bid: 6S, to_act: {second}}}",
        ]
    elif start == "play":
        lines += ["  contract: 6NT", f"  declarer: {first}", "  hands:"]
        lines += [f"    {names[s]}: {_flow(tokens[s])}" for s in seats]
        lines += ["steps:", f"  - expect: {{phase: play, to_act: {first}}}"]
    elif profile is DEFAULT_PROFILE:
        lines += [
            "  scores: {NS: 0, EW: 0}",
            "steps:",
            "  - deal_result: {contract: 7H, declarer: N, tricks: 7}",
            "  - expect: {scores: {NS: 200, EW: 30}}",
        ]
    else:
        lines += [
            f"  scores: {_sides_flow(profile)}",
            "steps:",
            "  - deal_result: thrown-in",
            f"  - expect: {{scores: {_sides_flow(profile)}}}",
        ]
    return "\n".join(lines) + "\n"


def write_new(
    directory: Path,
    scenario_id: str,
    title: str,
    rules: list[str],
    start: str,
    profile: Profile | None = None,
) -> Path:
    """Write the skeleton into ``directory`` (an area folder) without replacing anything.

    The file appears complete or not at all (a temporary file, then a hard link that
    fails if anything — even a dangling link — is in the way).
    """
    path = directory / f"{slugify(title)}.yaml"
    if os.path.lexists(path):
        raise FileExistsError(f"{path} already exists; choose another title")
    atomic_write_text(path, skeleton(scenario_id, title, rules, start, profile), exclusive=True)
    return path


def remove_quietly(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()
