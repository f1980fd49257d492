"""Keep the files generated from the vocabularies in step with them.

    python -m fivehundred.scenarios.format.sync            # check: exit 1 and name stale files
    python -m fivehundred.scenarios.format.sync --write    # regenerate them

The generated parts are the observation, code and start enums of the JSON Schemas and
the tables of ``site/scenario-format.md`` (see :mod:`.vocabulary`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .vocabulary import regenerated


def main(argv: list[str] | None = None) -> int:
    """``--check`` (the default): exit 1 when a generated file differs; ``--write``: fix it."""
    parser = argparse.ArgumentParser(prog="python -m fivehundred.scenarios.format.sync")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="report stale files (default)")
    mode.add_argument("--write", action="store_true", help="rewrite the generated files")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the repository")
    args = parser.parse_args(argv)
    try:
        expected = regenerated(args.root)
    except OSError as error:
        print(f"sync: cannot read {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"sync: {error}", file=sys.stderr)
        return 2
    stale = [path for path, text in expected.items() if path.read_text("utf-8") != text]
    if args.write:
        for path in stale:
            path.write_text(expected[path], encoding="utf-8")
            print(f"rewrote {path}")
        return 0
    for path in stale:
        print(f"{path} is out of date; run python -m fivehundred.scenarios.format.sync --write")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
