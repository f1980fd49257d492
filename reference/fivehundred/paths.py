"""Where the suite's data lives: the schemas and the bundled scenarios.

The package is installed editable from the repository (see the README), so the
data is found beside it; ``FIVEHUNDRED_HOME`` points elsewhere when needed.
"""

from __future__ import annotations

import os
from pathlib import Path


def suite_root() -> Path:
    override = os.environ.get("FIVEHUNDRED_HOME")
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[2]


def schema_dir() -> Path:
    return suite_root() / "schema"


def scenarios_dir() -> Path:
    return suite_root() / "scenarios"


def retired_ids_file() -> Path:
    return scenarios_dir() / "retired-ids.txt"
