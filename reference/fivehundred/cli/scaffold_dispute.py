"""``fivehundred new --dispute ID``: a dispute record and its paired scenario skeletons.

The record (``scenarios/disputes/ID.yaml``) gets one answer per ``--profile`` given, each
listing that profile (with its toggles), and lists the paired scenarios; each scenario
skeleton starts from the profile's ordered deck with a checkpoint of the hands and the
kitty as the reference deals them, so every file validates and passes as written and
the pair already shows how the profiles differ on the same position.  The placeholders
are plain sentences telling the author what to write; they validate, and
``fivehundred disputes`` flags a record that still carries them.

As ``fivehundred new`` does for a scenario: nothing existing is replaced (every target
is checked before anything is written), each file is validated after it is written, and
a failure removes every file this command wrote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..engine import DEFAULT_PROFILE, DEFAULT_PROFILE_NAME, Profile, profile_named
from ..safety import FileRefused, atomic_write_text, place
from ..scenarios.loading.corpus import DISPUTES_DIR
from .scaffold import ScaffoldError, area_folder, mint_id, skeleton, slugify, yaml_scalar

DISPUTE_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
"""A dispute id: the schema's slug, at most 60 characters."""

VARIANTS_AREA = "variants"
"""Folder of the default profile's scenarios with toggles."""

PLACEHOLDER = "Replace this"
"""Every placeholder sentence starts so; ``fivehundred disputes`` flags records with one."""

PLACEHOLDER_URL = "https://example.org/replace-this-with-the-source"


@dataclass(frozen=True)
class Member:
    """One paired scenario to write: its profile, folder and file."""

    label: str
    profile: Profile
    folder: Path
    path: Path
    scenario_id: str


def parse_profile(label: str) -> Profile:
    """A profile from ``NAME[+TOGGLE...]``, with a usage message on any problem."""
    name, *toggles = label.split("+")
    try:
        return profile_named(name, toggles)
    except (KeyError, ValueError) as error:
        message = error.args[0] if error.args else str(error)
        raise ScaffoldError(f"--profile {label}: {message}") from None


def member_area(profile: Profile, default_area: str | None) -> str:
    """Where a scenario of ``profile`` goes: the default profile's in ``default_area``,
    its toggles in ``variants/``, any other profile in a folder named after it."""
    if profile.name != DEFAULT_PROFILE.name:
        return profile.name
    if profile.variants:
        return VARIANTS_AREA
    if default_area is None:
        raise ScaffoldError(
            "a scenario of the default profile needs --area: the area of the rule it "
            "illustrates (e.g. --area auction)"
        )
    return default_area


def plan_members(
    root: Path,
    dispute_id: str,
    labels: list[str],
    default_area: str | None,
    new_area: bool,
    taken: set[str],
) -> list[Member]:
    """The paired scenarios to write, checked before anything is written."""
    if not DISPUTE_ID.match(dispute_id) or len(dispute_id) > 60:
        raise ScaffoldError(
            f"--dispute {dispute_id!r} is not a dispute id: lower-case words of letters and "
            "digits joined by single hyphens, at most 60 characters (e.g. misere-rank)"
        )
    if len(labels) < 2:
        raise ScaffoldError(
            "a dispute needs at least two --profile NAME[+TOGGLE...], one for each answer "
            f"(e.g. --profile {DEFAULT_PROFILE_NAME} --profile american-4)"
        )
    profiles = [parse_profile(label) for label in labels]
    seen: dict[str, str] = {}
    for label, profile in zip(labels, profiles, strict=True):
        if profile.label in seen:
            raise ScaffoldError(
                f"--profile {label} names the same rule set as --profile {seen[profile.label]}"
            )
        seen[profile.label] = label
    members: list[Member] = []
    for profile in profiles:
        area = member_area(profile, default_area)
        folder = area_folder(root, area, create=new_area or area != default_area)
        path = folder / f"{dispute_id}-{slugify(profile.label)}.yaml"
        scenario_id = mint_id(taken)
        taken.add(scenario_id)
        members.append(Member(profile.label, profile, folder, path, scenario_id))
    return members


def _answer_id(profile: Profile) -> str:
    return "as-in-" + slugify(profile.label)


def record_text(dispute_id: str, title: str, rulings: list[str], members: list[Member]) -> str:
    """The record: valid against the schema, with a placeholder wherever the author must
    write (the question, each answer's summary and source, the notes)."""
    lines = [
        "# yaml-language-server: $schema=../../schema/dispute.schema.json",
        f"id: {dispute_id}",
        f"title: {yaml_scalar(title)}",
        f"question: {PLACEHOLDER} with the disputed point as one question?",
        f"rulings: [{', '.join(rulings)}]",
        "status: open",
        "answers:",
    ]
    for member in members:
        lines += [
            f"  - id: {_answer_id(member.profile)}",
            "    summary: >-",
            f"      {PLACEHOLDER} with the answer {member.label} takes, in one or two",
            "      sentences of your own words.",
            "    sources:",
            f"      - title: {PLACEHOLDER} with where it is given (a seed or a publication)",
            f"        url: {PLACEHOLDER_URL}",
            f"    profiles: [{member.label}]",
        ]
    lines += [
        f"scenarios: [{', '.join(m.scenario_id for m in members)}]",
        "notes: |",
        f"  {PLACEHOLDER} with notes for readers: why the point matters, how each source puts it",
        "  (in your own words), and which profiles the answers leave out.",
    ]
    return "\n".join(lines) + "\n"


def member_text(member: Member, dispute_id: str, title: str, rules: list[str]) -> str:
    return skeleton(
        member.scenario_id,
        f"{title} ({member.label})",
        rules,
        "deck",
        member.profile,
        tags=[f"dispute-{dispute_id}"],
        assertion=f"{PLACEHOLDER} with the answer of {member.label}, as one sentence of fact.",
        explanation=(
            f"{PLACEHOLDER} with why {member.label} gives this outcome, citing the seed section."
        ),
        dealt_checkpoint=True,
    )


def write_dispute(
    root: Path,
    dispute_id: str,
    title: str,
    rulings: list[str],
    labels: list[str],
    default_area: str | None,
    new_area: bool,
    taken: set[str],
) -> tuple[Path, list[Member]]:
    """Write the record and its paired skeletons; refuse if any target exists.

    Returns the record's path and the members; on an error nothing is left behind.
    """
    try:  # the records' folder and the record itself: never a link (safety.place)
        record = place(root, DISPUTES_DIR, f"{dispute_id}.yaml")
    except FileRefused as error:
        raise ScaffoldError(str(error)) from None
    if record.exists() or record.is_symlink():
        raise FileExistsError(f"{record} already exists; a dispute id is never reused")
    members = plan_members(root, dispute_id, labels, default_area, new_area, taken)
    for member in members:
        if member.path.exists() or member.path.is_symlink():
            raise FileExistsError(f"{member.path} already exists")
    record.parent.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    try:
        atomic_write_text(record, record_text(dispute_id, title, rulings, members), exclusive=True)
        written.append(record)
        for member in members:
            text = member_text(member, dispute_id, title, rulings)
            atomic_write_text(member.path, text, exclusive=True)
            written.append(member.path)
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        raise
    return record, members


__all__ = [
    "PLACEHOLDER",
    "Member",
    "member_area",
    "member_text",
    "parse_profile",
    "plan_members",
    "record_text",
    "write_dispute",
]
