"""Build hook: a wheel carries the JSON Schemas and the bundled scenarios.

They live at the top of the repository (``schema/``, ``scenarios/``), where implementers
and editors find them; a built wheel puts them in ``fivehundred/_data/`` so that an
installed package works from any folder.  An editable install leaves them out and reads
them from the checkout (see ``fivehundred.resources``): a copy in site-packages would only
go stale.  Everything else about the build is in ``pyproject.toml``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

DATA_FOLDERS = ("schema", "scenarios")


class SuiteDataHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        for folder in DATA_FOLDERS:
            source = str(Path(self.root) / folder)
            build_data["force_include"][source] = f"fivehundred/_data/{folder}"
