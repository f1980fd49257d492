"""``fivehundred profiles``: the rule sets and their variant toggles, one line each.

A profile is a form of the game (``australian-4``, ``american-3``, …); a toggle is a
change to one or more of them (``no-misere``), written ``PROFILE+TOGGLE``.  Until this
command, the list lived only in the documentation; an adapter author needs it to fill
``capabilities.profiles`` and ``variants``, and ``--format json`` gives it to scripts.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from .consoles import out_console


def _listing() -> dict[str, Any]:
    from ..engine import ALL_PROFILES, DEFAULT_PROFILE, VARIANTS, variants_for

    return {
        "default": DEFAULT_PROFILE.name,
        "profiles": [
            {
                "name": name,
                "title": profile.title,
                "seats": profile.seats,
                "variants": [v.name for v in variants_for(name)],
            }
            for name, profile in ALL_PROFILES.items()
        ],
        "variants": [
            {
                "name": variant.name,
                "description": variant.description,
                "applies_to": list(variant.applies_to),
                "conflicts": list(variant.conflicts),
                "source": variant.source,
            }
            for variant in VARIANTS.values()
        ],
    }


@click.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: every profile and toggle with its title, seats, sources and conflicts.",
)
def profiles(fmt: str) -> None:
    """List the rule sets (profiles) and their variant toggles, one line each."""
    listing = _listing()
    if fmt == "json":
        sys.stdout.write(json.dumps(listing, indent=2, ensure_ascii=False) + "\n")
        return
    console = out_console()
    width = max(len(p["name"]) for p in listing["profiles"])
    console.print("profiles (a scenario's profile:, an adapter's capabilities.profiles):")
    for profile in listing["profiles"]:
        console.print(f"  {profile['name']:<{width}}  {profile['title']}", markup=False)
    width = max(len(v["name"]) for v in listing["variants"])
    console.print("toggles (variants:, capabilities.variants), with the profiles they apply to:")
    for variant in listing["variants"]:
        where = ", ".join(variant["applies_to"])
        console.print(
            f"  {variant['name']:<{width}}  {variant['description']} [{where}]",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
