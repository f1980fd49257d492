"""The hostile-input campaign (``campaign.py``) ends with every count at zero."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

CAMPAIGN = Path(__file__).resolve().parent / "campaign.py"


@pytest.mark.slow
def test_the_hostile_campaign_finds_nothing() -> None:
    done = subprocess.run(
        [sys.executable, str(CAMPAIGN)], capture_output=True, text=True, timeout=3600, check=False
    )
    tally = done.stdout
    assert done.returncode == 0, tally + done.stderr[-5000:]
    total = int(re.search(r"hostile campaign: (\d+) cases", tally).group(1))  # type: ignore[union-attr]
    assert total >= 500
    assert "traceback 0, hang 0, leftover process 0, modified file 0, wrong answer 0" in tally
    classes = re.findall(r"^  (\d+)-[\w-]+: (\d+)$", tally, re.MULTILINE)
    assert sorted(int(k) for k, _ in classes) == list(range(1, 17))
