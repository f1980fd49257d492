"""A scenario as loaded: its metadata, its steps, and the split between what an
implementation is given (the input) and what it must produce (the expectations)."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import get_profile
from .engine.cards import card_token
from .paths import scenarios_dir
from .yaml_source import SourceMap

ACTION_KEYS = ("call", "discard", "nominate", "play")
"""The keys that make a step an action (exactly one per action step)."""

OBSERVATION_KEYS = (
    "phase", "to_act", "legal", "legal_count", "high_bid", "high_bidder", "passed",
    "contract", "declarer", "hands", "hand_sizes", "kitty", "discards", "nominated",
    "sitting_out", "trick", "last_trick", "suits_led", "tricks", "deal_score", "made",
    "scores", "dealer", "exposed", "game_over", "winner",
)  # fmt: skip


def step_kind(step: Mapping[str, Any]) -> str:
    """``action``, ``expect``, ``deal`` or ``deal_result``."""
    if "expect" in step:
        return "expect"
    if "deal_result" in step:
        return "deal_result"
    if "deal" in step:
        return "deal"
    return "action"


def action_key(step: Mapping[str, Any]) -> str:
    return next(k for k in ACTION_KEYS if k in step)


def expand_deck(deck: Any, profile_name: str | None) -> Any:
    """``ordered`` → the profile's deck as a list of tokens; anything else unchanged."""
    if deck == "ordered":
        return [card_token(c) for c in get_profile(profile_name).deck]
    return deck


@dataclass
class Scenario:
    """One scenario file, validated."""

    id: str
    title: str
    rules: list[str]
    assertion: str
    setup: dict[str, Any]
    steps: list[dict[str, Any]]
    profile: str | None = None
    tags: list[str] = field(default_factory=list)
    explanation: str = ""
    path: Path | None = None
    area: str = ""
    source: SourceMap | None = field(default=None, repr=False)

    @classmethod
    def from_document(
        cls,
        doc: Mapping[str, Any],
        path: Path | None = None,
        area: str = "",
        source: SourceMap | None = None,
    ) -> Scenario:
        return cls(
            id=doc["id"],
            title=doc["title"],
            rules=list(doc["rules"]),
            assertion=doc["assert"],
            setup=dict(doc["setup"]),
            steps=[dict(s) for s in doc["steps"]],
            profile=doc.get("profile"),
            tags=list(doc.get("tags", [])),
            explanation=doc.get("explanation", ""),
            path=path,
            area=area,
            source=source,
        )

    @property
    def profile_name(self) -> str:
        return get_profile(self.profile).name

    def input(self) -> dict[str, Any]:
        """What an implementation receives: the setup and the steps, never the expectations.

        Action steps lose ``reject`` and ``note``; a checkpoint becomes the list of
        observation keys asked for; ``ordered`` decks are spelled out.
        """
        setup = dict(self.setup)
        if "deck" in setup:
            setup["deck"] = expand_deck(setup["deck"], self.profile)
        steps: list[dict[str, Any]] = []
        for step in self.steps:
            kind = step_kind(step)
            if kind == "expect":
                steps.append({"observe": list(step["expect"])})
            elif kind == "deal":
                steps.append({"deal": expand_deck(step["deal"], self.profile)})
            else:
                steps.append({k: v for k, v in step.items() if k not in ("reject", "note")})
        return {"id": self.id, "profile": self.profile_name, "setup": setup, "steps": steps}

    def document(self) -> dict[str, Any]:
        """The scenario as a plain mapping, in the file's key order."""
        doc: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "rules": self.rules,
            "assert": self.assertion,
        }
        if self.profile is not None:
            doc["profile"] = self.profile
        if self.tags:
            doc["tags"] = self.tags
        if self.explanation:
            doc["explanation"] = self.explanation
        doc["setup"] = self.setup
        doc["steps"] = self.steps
        return doc

    def rerun_command(self) -> str:
        """The command that runs this scenario alone; it names the file when the file
        is not one of the bundled scenarios (which ``verify`` reads by default)."""
        command = f"fivehundred verify --id {self.id}"
        if self.path is not None and scenarios_dir().resolve() not in self.path.resolve().parents:
            command = f"fivehundred verify {shlex.quote(str(self.path))} --id {self.id}"
        return command
