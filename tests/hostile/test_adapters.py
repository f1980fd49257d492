"""Hostile adapters through the real command line: each fault is classified, none outlives it.

Each test runs ``fivehundred verify`` against ``adapters/hostile.py FAULT`` (a real
process with a unique marker) and checks the exit status, the JSON report (every
scenario errored or failed, never a crash), that no terminal control character
reached the output, and that no process carrying the marker is still running
afterwards.  The runner runs in this process (click's runner: what it decides about a
reply does not depend on being a process of its own).  Signals sent to the runner's
whole group, as a CI cancel does, are the campaign's class 6 (``campaign.py``): there
the runner is a process, and after SIGTERM or SIGHUP it must exit 128 + N, say it was
stopped, leave no adapter process and leave the previous report file as it was.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
import uuid
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from campaign import BASE, all_cases, cli, leftover  # noqa: E402

# each test starts the runner and adapters as processes; they share the reference's answers
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("adapter_memo")]

ADAPTER = HERE / "adapters" / "hostile.py"
ERRORED = [
    "hello-surrogate",
    "hello-bigint",
    "hello-deep",
    "hello-nan",
    "hello-float-protocol",
    "reply-bigint-seq",
    "reply-bigint-value",
    "reply-deep",
    "reply-deep-object",
    "reply-nan",
    "reply-infinity",
    "reply-minus-infinity",
    "reply-surrogate",
    "reply-float-seq",
    "reply-1e400",
    "reply-ansi-message",
    "reply-osc-message",
    "reply-nul-message",
    "reply-markup-message",
    "reply-forged-summary",
]
PASSING = [
    "hello-markup",
    "hello-ansi",
    "hello-nul",
    "hello-newline",
    "hello-bidi",
    "stderr-escapes",
    "grandchild",
]


def _suite(tmp_path: Path, copies: int = 1) -> Path:
    area = tmp_path / "scenarios" / "area"
    area.mkdir(parents=True)
    for i in range(copies):
        (area / f"s{i}.yaml").write_text(BASE.replace("7MDY", f"{i + 2}MDY"), encoding="utf-8")
    return area


def _command(fault: str, marker: str) -> str:
    return shlex.join([sys.executable, str(ADAPTER), fault, "--marker", marker])


def _verify(tmp_path: Path, fault: str, *options: str, copies: int = 1) -> tuple[int, dict, str]:
    marker = f"hostile-{uuid.uuid4().hex[:12]}"
    area = _suite(tmp_path, copies)
    done = cli(
        ["verify", str(area), "--impl", _command(fault, marker), "--format", "json", *options],
        tmp_path,
    )
    assert not leftover(marker), f"{fault}: an adapter process outlived the run"
    assert not done.hang, f"{fault}: the run did not end"
    assert not done.traceback, done.stderr
    for bad in ("\x1b", "\x00", "\x07", "\r"):
        assert bad not in done.stdout + done.stderr
    report = json.loads(done.stdout, parse_constant=pytest.fail)
    assert done.code is not None
    return done.code, report, done.stderr


ONE_SHOT_IN_CAMPAIGN = {
    case.name.split()[0] for case in all_cases({"5"}) if " --one-shot " in case.name
}
"""Faults the campaign (class 5, also in this suite) already runs with ``--one-shot``, with
much the same checks (exit 3, no scenario passed, clean output, no process left): here they
run once, in the default persistent mode; the others run in both modes."""
MODES = [
    pytest.param(fault, mode, id=f"{fault}-{name}")
    for fault in ERRORED
    for mode, name in (((), "persistent"), (("--one-shot",), "one-shot"))
    if not (mode and fault in ONE_SHOT_IN_CAMPAIGN)
]


@pytest.mark.parametrize(("fault", "mode"), MODES)
def test_a_hostile_reply_makes_the_scenario_errored(
    tmp_path: Path, fault: str, mode: tuple[str, ...]
) -> None:
    code, report, _ = _verify(tmp_path, fault, *mode)
    assert code == 3
    assert [e["status"] for e in report["scenarios"]] == ["errored"]


@pytest.mark.parametrize("fault", PASSING)
def test_hostile_names_and_stderr_do_not_stop_a_correct_run(tmp_path: Path, fault: str) -> None:
    code, report, _ = _verify(tmp_path, fault)
    assert code == 0
    assert [e["status"] for e in report["scenarios"]] == ["passed"]
    assert "\x1b" not in json.dumps(report, ensure_ascii=False)


def test_max_time_bounds_a_run_against_an_adapter_that_always_hangs(tmp_path: Path) -> None:
    started = time.monotonic()
    code, report, _ = _verify(tmp_path, "hang", "--max-time", "2", "--timeout", "60", copies=3)
    assert time.monotonic() - started < 30
    assert code == 3
    assert all("--max-time" in s["message"] for s in report["scenarios"])
    # the adapter was given one scenario; the report does not say it was given three
    reason = report["broken_adapter"]["reason"]
    assert reason.startswith("the only scenario it was given errored"), reason
    assert "2 more were never sent (not run: the run's --max-time of 2 s ran out)" in reason
