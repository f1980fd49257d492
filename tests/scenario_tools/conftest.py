"""Helpers for writing scenario files in temporary folders."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

GOOD = """\
id: ZZ22
title: A declarer may be outbid by a higher bid
rules: [bid-must-outrank]
assert: A bid of 6C outranks 6S.
setup:
  start: deck
  dealer: W
  deck: ordered
steps:
  - {seat: N, call: 6S}
  - {seat: E, call: 6C}
  - expect: {high_bid: 6C, high_bidder: E, to_act: S}
"""


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str], Path]:
    def _write(name: str, text: str) -> Path:
        path = tmp_path / "area" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    return _write
