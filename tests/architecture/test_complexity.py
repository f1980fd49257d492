"""The complexity budget of issue 31, kept by CI rather than by a one-off review.

radon's cyclomatic complexity ranks a block C up to 20 and D from 21.  The engine is the
part every rule set goes through and the part a newcomer reads first, so none of its blocks
may be ranked D or worse; the whole package may hold at most ``PACKAGE_BUDGET`` such blocks,
each a choice someone made on purpose (the failure names them, so the next one is seen).
"""

from __future__ import annotations

from pathlib import Path

import radon.complexity as radon_complexity

PACKAGE = Path(__file__).resolve().parents[2] / "reference" / "fivehundred"
RANK_D = 21
"""radon's lowest complexity ranked D."""
PACKAGE_BUDGET = 5


def _blocks_ranked_d_or_worse(folder: Path) -> list[str]:
    found: list[str] = []
    for path in sorted(folder.rglob("*.py")):
        for block in radon_complexity.cc_visit(path.read_text(encoding="utf-8")):
            for item in [block, *getattr(block, "closures", [])]:
                if item.complexity >= RANK_D:
                    where = path.relative_to(PACKAGE.parent)
                    found.append(f"{where}:{item.lineno} {item.fullname} ({item.complexity})")
    return found


def test_the_engine_has_no_block_ranked_d_or_worse() -> None:
    assert _blocks_ranked_d_or_worse(PACKAGE / "engine") == []


def test_the_package_keeps_within_its_budget_of_complex_blocks() -> None:
    found = _blocks_ranked_d_or_worse(PACKAGE)
    assert len(found) <= PACKAGE_BUDGET, "\n".join(found)
