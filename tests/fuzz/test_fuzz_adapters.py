"""``fivehundred fuzz`` against real adapter processes: the reference behind the protocol,
the independent JavaScript engine with named misreadings, and the fault adapters.

The adapters are always real processes.  The command itself runs in this process
(click's runner), as in ``fuzz_cli.py``, except where being a process is the point:
``--jobs 2`` forks workers, and Ctrl-C is sent to a real process group.  All are slow
(processes).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from fuzz_cli import run_in_process

# the fault adapters of tests/protocol/adapters share the reference's answers (adapter_memo)
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("adapter_memo")]

PYTHON = sys.executable
ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "adapters" / "independent-js" / "adapter.js"
FAULTS = ROOT / "tests" / "protocol" / "adapters"


def fuzz(*args: str) -> subprocess.CompletedProcess[str]:
    return run_in_process("fuzz", "--no-progress", *args)


def fuzz_process(*args: str) -> subprocess.CompletedProcess[str]:
    """``fivehundred fuzz`` as a process of its own (for ``--jobs``, which forks)."""
    return subprocess.run(
        [PYTHON, "-m", "fivehundred", "fuzz", "--no-progress", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=ROOT,
    )


def verify(folder: Path, command: str) -> subprocess.CompletedProcess[str]:
    return run_in_process("verify", str(folder), "--impl", command)


def js(misreading: str | None = None) -> str:
    return f"node {JS}" + (f" --misreading {misreading}" if misreading else "")


def fault(marker: str, name: str, *args: str) -> str:
    return shlex.join([PYTHON, "-X", f"marker={marker}", str(FAULTS / name), *args])


def left_over(marker: str) -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if marker in command:
            found.append(command)
    return found


def assert_filed_scenarios_catch(out: Path, misreading: str) -> None:
    """The scenarios fuzz filed in ``out`` are valid, fail with the misreading on, and
    only with it: the clean engine passes every one."""
    valid = run_in_process("validate", str(out))
    assert valid.returncode == 0, valid.stdout + valid.stderr
    assert verify(out, js(misreading)).returncode == 1
    clean = verify(out, js())
    assert clean.returncode == 0, clean.stdout


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in ("seconds", "jobs")}


def test_fuzzing_fivehundred_serve_finds_nothing() -> None:
    serve = shlex.join([PYTHON, "-m", "fivehundred", "serve"])
    done = fuzz("--impl", serve, "--deals", "24", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["deals"] == 24 and report["families"] == []


@pytest.mark.parametrize(
    "misreading",
    ["lead-rotates", "misere-by-value", "kitty-size-2", "finished-deal-wrong-phase"],
)
def test_a_named_misreading_is_found_shrunk_and_filed(misreading: str, tmp_path: Path) -> None:
    out = tmp_path / "found"
    done = fuzz("--impl", js(misreading), "--deals", "36", "--seed", "1", "--out", str(out))
    assert done.returncode == 1, done.stdout + done.stderr
    files = sorted(out.glob("*.yaml"))
    assert files, done.stdout
    for path in files:
        text = path.read_text()
        assert "tags: [fuzz]" in text and "seed 1" in text
    assert_filed_scenarios_catch(out, misreading)


def test_jobs_and_shards_report_exactly_what_one_process_does(tmp_path: Path) -> None:
    # 12 deals find two families (seed 5), and each shard gets six
    args = ["--impl", js("misere-by-value"), "--deals", "12", "--seed", "5", "--format", "json"]
    one = fuzz(*args)
    two = fuzz_process(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 1, one.stderr + two.stderr
    alone, parallel = json.loads(one.stdout), json.loads(two.stdout)
    assert alone["families"]
    assert without_timing(parallel) == without_timing(alone)
    paths = []
    for shard in ("1/2", "2/2"):
        part = fuzz(*args, "--shard", shard)
        path = tmp_path / f"shard-{shard[0]}.json"
        path.write_text(part.stdout)
        paths.append(str(path))
    merged = run_in_process("fuzz", "merge", *paths, "--format", "json")
    assert merged.returncode == 1, merged.stderr
    combined = without_timing(json.loads(merged.stdout))
    combined.pop("shards")
    expected = without_timing(alone)
    expected.pop("shards")
    assert combined == expected


def test_a_run_in_one_process_keeps_the_adapter_it_shook_hands_with(tmp_path: Path) -> None:
    """The handshake up front (a broken adapter is reported before any deal) starts the
    adapter the deals then go to: an adapter slow to start starts once, not twice."""
    log = tmp_path / "seq.log"
    log.touch()  # seq_log.py answers every run at once when its log exists
    done = fuzz("--impl", fault(uuid.uuid4().hex, "seq_log.py", str(log)), "--deals", "3")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = log.read_text().split()
    assert lines.count("start") == 1, lines
    assert len(lines) > 3  # the deals' runs went to that one process


def test_no_more_jobs_start_than_there_are_deals(tmp_path: Path) -> None:
    """Two deals need two workers, whatever ``--jobs`` asks: each job is an adapter
    process, and the ones without a deal would only start and stop."""
    log = tmp_path / "seq.log"
    log.touch()
    adapter = fault(uuid.uuid4().hex, "seq_log.py", str(log))
    done = fuzz_process("--impl", adapter, "--deals", "2", "--jobs", "8")
    assert done.returncode == 0, done.stdout + done.stderr
    assert log.read_text().split().count("start") == 3  # the handshake, then two workers


@pytest.mark.parametrize(
    ("adapter", "args", "family"),
    [
        ("crash_mid_run.py", ["3"], "errored"),
        ("not_json.py", [], "errored"),
        ("off_protocol.py", [], "errored"),
        ("wrong_seq.py", [], "errored"),
        ("flood_stderr.py", ["1"], None),
        ("hang.py", ["3"], "errored"),
        ("capabilities.py", ["australian-4", "no", "no"], None),
    ],
)
def test_fault_adapters_are_survived_and_classified(
    adapter: str, args: list[str], family: str | None
) -> None:
    marker = uuid.uuid4().hex
    done = fuzz(
        "--impl",
        fault(marker, adapter, *args),
        "--deals",
        "6",
        "--timeout",
        "1",
        "--format",
        "json",
    )
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    assert report["deals"] == 6
    if family is None:
        assert done.returncode == 0 and report["families"] == []
    else:
        assert done.returncode == 1
        assert {f["signature"]["kind"] for f in report["families"]} == {family}
    time.sleep(0.2)
    assert left_over(marker) == []


def test_a_broken_handshake_is_a_broken_adapter() -> None:
    marker = uuid.uuid4().hex
    done = fuzz("--impl", fault(marker, "bad_hello.py"), "--deals", "2")
    assert done.returncode == 3 and "handshake" in done.stderr
    assert left_over(marker) == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_cleanly_and_keeps_what_was_found(jobs: str, tmp_path: Path) -> None:
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        # pytest started in the background of a non-interactive shell ignores SIGINT, and
        # so would the command below: a handler here makes it start with the default.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    marker = uuid.uuid4().hex
    log = tmp_path / "runs.log"
    log.touch()  # there already: every seq_log.py answers at once, and logs each run's seq
    process = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "fivehundred",
            "fuzz",
            "--no-progress",
            "--impl",
            fault(marker, "seq_log.py", str(log)),
            "--time",
            "120",
            "--jobs",
            jobs,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    # Interrupt once deals have been answered: with more runs logged than twice the
    # adapters, one adapter has answered a run and taken the next.  Not after a fixed
    # time: too short on a busy machine (no deal yet), and each second here is two to
    # four processes' worth of CPU.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        runs = sum(1 for line in log.read_text().split() if line.isdigit())
        if runs > 2 * int(jobs):
            break
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stdout[-2000:] + stderr[-4000:]
    assert "No disagreement in" in stdout and "(interrupted)" in stdout
    deals = re.search(r"No disagreement in (\d+) deals", stdout)
    assert deals and int(deals.group(1)) > 0, stdout  # what was run before Ctrl-C is kept
    assert "interrupted; reporting what was found" in stderr
    time.sleep(0.2)
    assert left_over(marker) == []


def test_a_toggle_run_files_scenarios_that_carry_the_toggle(tmp_path: Path) -> None:
    out = tmp_path / "found"
    misreading = "lead-rotates"
    done = fuzz(
        "--impl", js(misreading), "--profile", "australian-4", "--variant", "no-misere",
        "--deals", "12", "--seed", "1", "--out", str(out), "--format", "json",
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert json.loads(done.stdout)["variants"] == ["no-misere"]
    files = sorted(out.glob("*.yaml"))
    assert files, done.stdout
    for path in files:
        text = path.read_text()
        assert "\nvariants: [no-misere]\n" in text and "--variant no-misere" in text
    assert_filed_scenarios_catch(out, misreading)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "no-misere"], "does not support variant no-misere"),
        (["--profile", "american-3"], "does not support profile american-3"),
    ],
)
def test_rules_an_adapter_does_not_declare_are_one_clear_error(
    args: list[str], message: str
) -> None:
    skeleton = f"node {ROOT / 'adapters' / 'node-skeleton' / 'adapter.js'}"
    done = fuzz("--impl", skeleton, *args, "--deals", "2")
    assert done.returncode == 3, done.stdout + done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_a_worker_whose_adapter_cannot_start_ends_the_run(tmp_path: Path) -> None:
    """The first handshake succeeds, every later start fails: the workers' failure is the
    run's answer (exit 3, said plainly), not a pool starting workers for ever."""
    marker = uuid.uuid4().hex
    flag = tmp_path / "started"
    done = fuzz_process(
        "--impl", fault(marker, "starts_once.py", str(flag)), "--deals", "4", "--jobs", "2"
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert "handshake failed" in done.stderr and "already started once" in done.stderr
    assert "Traceback" not in done.stderr
    assert left_over(marker) == []


def test_when_the_time_runs_out_the_deals_under_way_finish_and_count() -> None:
    """As in one process, a deal already started is finished (and a disagreement in it
    shrunk and reported) when the time runs out: deal 0 of seed 5 disagrees, and both
    workers start a deal before the first check of the clock."""
    args = ["--impl", js("misere-by-value"), "--seed", "5", "--time", "0.01", "--format", "json"]
    done = fuzz_process(*args, "--jobs", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert (report["deals"], report["stopped"]) == (2, "time")
    assert [family["first"] for family in report["families"]] == [0]
