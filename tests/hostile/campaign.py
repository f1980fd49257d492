"""The hostile-input campaign: hundreds of malformed inputs, odd files, bad adapters, bad options.

``python tests/hostile/campaign.py [--only CLASS] [--list]`` generates every case,
runs each the way a user would (the command line in-process through click's test
runner with an alarm, or a real subprocess where signals are involved) and checks
four things after each:

* **traceback**: no Python traceback printed, no exception escaping the command;
* **hang**: the command ended within its time limit;
* **leftover**: no process carrying the case's marker is still running;
* **modified**: no file changed that the case did not ask to be written.

Each case also states what a correct answer is (an exit status, a phrase); a case
that ends cleanly but answers wrongly counts as **wrong**.  The tally prints the
number of cases per class and the four counts, which must all be zero; the exit
status is 0 only then.  ``tests/hostile/test_campaign.py`` runs it (marked slow).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import itertools
import json
import os
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import uuid
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from click.testing import CliRunner

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ADAPTER = HERE / "adapters" / "hostile.py"
PYTHON = sys.executable
CASE_SECONDS = 60.0

from fivehundred.cli.main import main as cli_main  # noqa: E402
from fivehundred.cli.scaffold import skeleton  # noqa: E402

BASE = """\
id: 7MDY
title: A bid after three passes ends the auction
rules: [auction-end, pass-is-final]
assert: >-
  If the first three seats pass and the fourth bids, that bid is at once the contract.
tags: [auction-end, boundary]
explanation: |
  Three passes, then a bid: the bid is the contract.
setup:
  start: deck
  dealer: W
  deck: ordered
steps:
  - {seat: N, call: PASS}
  - {seat: E, call: PASS}
  - {seat: S, call: PASS}
  - {seat: W, call: 6S}
  - expect: {phase: kitty, contract: 6S, declarer: W, to_act: W}
"""
"""A valid scenario the cases spoil (its id is unused in a fresh suite folder)."""
GAME = skeleton("GQ7K", "A game skeleton", ["bid-order"], "game")
UNSAFE_OUTPUT = ("\x1b", "\x00", "\x07", "\x9b", "\x85", "\r")


# ---- results -------------------------------------------------------------------------


@dataclass
class Result:
    code: int | None
    stdout: str
    stderr: str
    traceback: bool = False
    hang: bool = False
    seconds: float = 0.0

    @property
    def text(self) -> str:
        return self.stdout + self.stderr


@dataclass
class Case:
    klass: str
    name: str
    run: Callable[[Path, str], Result]
    """Runs the case in a fresh folder with a marker token; returns what happened."""
    check: Callable[[Result, Path], str | None]
    """``None`` when the answer is right, else what is wrong with it."""
    writes: tuple[str, ...] = ()
    """Files (relative to the case folder) the case asks to be written."""


@dataclass
class Tally:
    cases: Counter[str] = field(default_factory=Counter)
    traceback: int = 0
    hang: int = 0
    leftover: int = 0
    modified: int = 0
    wrong: int = 0
    failures: list[str] = field(default_factory=list)


# ---- running commands ----------------------------------------------------------------


class _Alarm(BaseException):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Alarm


def cli(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> Result:
    """The command line in-process (fast), with an alarm for hangs."""
    runner = CliRunner()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    started = time.monotonic()
    old_cwd = os.getcwd()
    os.chdir(cwd)
    try:
        outcome = runner.invoke(cli_main, args, env=env, catch_exceptions=True)
    except _Alarm:
        return Result(None, "", "", hang=True, seconds=time.monotonic() - started)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        os.chdir(old_cwd)
    stdout = outcome.stdout
    stderr = outcome.stderr
    crashed = outcome.exception is not None and not isinstance(outcome.exception, SystemExit)
    if crashed:
        import traceback

        stderr += "".join(traceback.format_exception(outcome.exception))
    return Result(
        outcome.exit_code,
        stdout,
        stderr,
        traceback=crashed or "Traceback (most recent call last)" in stdout + stderr,
        seconds=time.monotonic() - started,
    )


def subprocess_cli(
    args: list[str],
    cwd: Path,
    *,
    after: Callable[[subprocess.Popen[bytes]], None] | None = None,
    env: dict[str, str] | None = None,
) -> Result:
    """``fivehundred ARGS`` as a real process in its own group (for signals)."""
    started = time.monotonic()
    process = subprocess.Popen(
        [PYTHON, "-m", "fivehundred", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, **(env or {})},
    )
    if after is not None:
        after(process)
    try:
        out, err = process.communicate(timeout=CASE_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        return Result(None, "", "", hang=True, seconds=time.monotonic() - started)
    stdout = out.decode("utf-8", errors="replace")
    stderr = err.decode("utf-8", errors="replace")
    return Result(
        process.returncode,
        stdout,
        stderr,
        traceback="Traceback (most recent call last)" in stdout + stderr,
        seconds=time.monotonic() - started,
    )


def adapter(fault: str, marker: str) -> str:
    return shlex.join([PYTHON, str(ADAPTER), fault, "--marker", marker])


def _command_lines() -> Iterator[tuple[int, bytes]]:
    """Each other process and its command line, NUL-separated, as ``/proc`` gives them.

    Plain ``os`` calls rather than ``pathlib``: every case scans ``/proc`` at least once,
    and a scan this way costs about half what it does through ``Path`` objects."""
    me = os.getpid()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as file:
                yield int(name), file.read()
        except OSError:
            continue


def marked_processes(marker: str) -> list[int]:
    token = marker.encode()
    return [pid for pid, command in _command_lines() if token in command]


def adapter_running(marker: str) -> bool:
    """Whether an adapter started with this marker runs (the runner only names it in --impl)."""
    token = marker.encode()
    return any(token in command.split(b"\0") for _, command in _command_lines())


def leftover(marker: str) -> bool:
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        if not marked_processes(marker):
            return False
        time.sleep(0.05)
    for pid in marked_processes(marker):  # clean up so the next cases are not disturbed
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return True


_DIGESTS: dict[tuple[str, int, int, int, int, int], str] = {}
"""Content hashes of files by path and status (device, inode, size, mtime, ctime)."""
_SETTLED_NS = 2_000_000_000
"""A file whose status changed this long before a snapshot is hashed once and then known
by its status: any write changes its ctime, which nothing can set back (``git``'s
"racily clean" rule); a file changed more recently is hashed every time."""


def _digest(path: str, info: os.stat_result, settled_before: int) -> str:
    key = (path, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    known = _DIGESTS.get(key)
    if known is not None:
        return known
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    if max(info.st_ctime_ns, info.st_mtime_ns) < settled_before:
        _DIGESTS[key] = digest
    return digest


def snapshot(*folders: Path) -> dict[str, tuple[int, str]]:
    """Every regular file under the folders (no link followed), by content hash.

    The repository's scenarios and schemas are taken before and after every case;
    their hashes are reused while a file's status is unchanged (see ``_SETTLED_NS``)."""
    files: dict[str, tuple[int, str]] = {}
    settled_before = time.time_ns() - _SETTLED_NS
    for folder in folders:
        stack = [str(folder)]  # strings: a case folder may be 1,500 levels deep
        while stack:
            current = stack.pop()
            try:
                entries = list(os.scandir(current))
            except OSError:
                continue
            for entry in entries:
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISDIR(info.st_mode):
                    stack.append(entry.path)
                elif stat.S_ISREG(info.st_mode) and info.st_mode & 0o400:
                    with contextlib.suppress(OSError):
                        digest = _digest(entry.path, info, settled_before)
                        files[entry.path] = (info.st_size, digest)
    return files


# ---- checks --------------------------------------------------------------------------


def expect(
    codes: tuple[int, ...],
    *phrases: str,
    absent: tuple[str, ...] = (),
    also: Callable[[Result, Path], str | None] | None = None,
) -> Callable[[Result, Path], str | None]:
    def check(result: Result, folder: Path) -> str | None:
        if result.code not in codes:
            return f"exit {result.code}, expected {codes}: {result.text[-600:]!r}"
        for phrase in phrases:
            if phrase not in result.text:
                return f"missing {phrase!r} in {result.text[-600:]!r}"
        for phrase in absent:
            if phrase in result.text:
                return f"unexpected {phrase!r} in output"
        return also(result, folder) if also is not None else None

    return check


def clean_output(result: Result, folder: Path) -> str | None:
    """No terminal control character reaches the output or any report file."""
    texts = {"output": result.text}
    for path in folder.iterdir():
        if path.is_file() and path.name.startswith("report"):
            data = path.read_bytes()
            if not data:
                return f"{path.name} is empty"
            texts[path.name] = data.decode("utf-8")
    for name, text in texts.items():
        for bad in UNSAFE_OUTPUT:
            if bad in text:
                return f"{bad!r} reached {name}"
        for line in [] if text.lstrip().startswith("<?xml") else text.splitlines():
            if line.startswith("verify: 400 passed"):
                return f"a forged summary line reached {name}"
    for path in folder.glob("report*.xml"):
        try:
            ET.fromstring(path.read_bytes())
        except ET.ParseError as error:
            return f"{path.name} is not XML: {error}"
    for path in folder.glob("report*.json"):
        try:
            json.loads(path.read_text("utf-8"), parse_constant=_no_constant)
        except ValueError as error:
            return f"{path.name} is not strict JSON: {error}"
    return None


def _no_constant(name: str) -> object:
    raise ValueError(f"bare {name}")


def both(*checks: Callable[[Result, Path], str | None]) -> Callable[[Result, Path], str | None]:
    def check(result: Result, folder: Path) -> str | None:
        for one in checks:
            problem = one(result, folder)
            if problem is not None:
                return problem
        return None

    return check


# ---- building case folders -----------------------------------------------------------


def suite(folder: Path, files: dict[str, str | bytes] | None = None) -> Path:
    """``folder/scenarios/area/`` with the base scenario and ``files`` (relative to area)."""
    area = folder / "scenarios" / "area"
    area.mkdir(parents=True, exist_ok=True)
    (area / "good.yaml").write_text(BASE, encoding="utf-8")
    for name, content in (files or {}).items():
        target = area / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return area


def spoiled(old: str, new: str, base: str = BASE) -> str:
    assert old in base, old
    return base.replace(old, new, 1).replace("id: 7MDY", "id: 8NQR").replace("id: GQ7K", "id: 8NQR")


# ---- class 1: unbounded YAML ---------------------------------------------------------


def bomb(depth: int, width: int) -> str:
    lines = ["a0: &a0 [x, y]"]
    for level in range(1, depth + 1):
        refs = ",".join([f"*a{level - 1}"] * width)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "\n".join(lines) + "\n"


def deep_yaml(kind: str, depth: int) -> str:
    if kind == "flow-list":
        return "x: " + "[" * depth + "]" * depth + "\n"
    if kind == "flow-map":
        return "x: " + "{a: " * depth + "1" + "}" * depth + "\n"
    if kind == "block-map":
        return "".join("  " * i + f"k{i}:\n" for i in range(depth)) + "  " * depth + "v\n"
    return "".join("  " * i + "-\n" for i in range(depth)) + "  " * depth + "v\n"


def class_yaml() -> Iterator[Case]:
    k = "1-unbounded-yaml"
    refused = expect((1,), "limit")
    for depth in range(3, 11):
        for width in (5, 9, 12):
            text = bomb(depth, width)
            big = width**depth > 100_000
            for command in ("validate", "verify"):

                def run(
                    folder: Path, marker: str, text: str = text, command: str = command
                ) -> Result:
                    area = suite(folder, {"bomb.yaml": text})
                    return cli([command, str(area.parent)], folder)

                yield Case(
                    k,
                    f"alias bomb {depth}x{width} ({command})",
                    run,
                    expect((1,), "limit" if big else "bomb.yaml", "good.yaml" if False else ""),
                )
    for kind in ("flow-list", "flow-map", "block-map", "block-seq"):
        for depth in (65, 100, 995, 5000, 100_000):
            if kind.startswith("block") and depth > 5000:
                continue  # a block document that deep is gigabytes of indentation

            def run(folder: Path, marker: str, kind: str = kind, depth: int = depth) -> Result:
                area = suite(folder, {"deep.yaml": deep_yaml(kind, depth)})
                return cli(["validate", str(area)], folder)

            yield Case(k, f"{kind} {depth} deep", run, expect((1,), "deep.yaml", "1 valid"))

    def flat(folder: Path, marker: str) -> Result:
        area = suite(folder, {"flat.yaml": "x: [" + ",".join(["1"] * 150_000) + "]\n"})
        return cli(["validate", str(area)], folder)

    yield Case(k, "150,000 values in one list", flat, refused)
    for size in (1_100_000, 50_000_000):
        for command in ("validate", "verify", "export"):

            def run(folder: Path, marker: str, size: int = size, command: str = command) -> Result:
                area = suite(folder)
                with (area / "huge.yaml").open("w") as handle:
                    handle.write("# " + "x" * (size - 3) + "\n")
                return cli([command, str(area)], folder)

            yield Case(k, f"{size:,}-byte file ({command})", run, expect((1,), "limit"))
    for name, text in (
        ("bomb", bomb(9, 9)),
        ("deep", deep_yaml("flow-list", 995)),
        ("huge", "# " + "x" * 1_100_000 + "\n"),
        ("bigint", "7MDY: {status: fail, reason: " + "9" * 5000 + "}\n"),
    ):

        def run(folder: Path, marker: str, text: str = text) -> Result:
            area = suite(folder)
            (folder / "known.yaml").write_text(text)
            return cli(["verify", str(area), "--expectations", "known.yaml"], folder)

        yield Case(k, f"expectations file: {name}", run, expect((2,), "known.yaml"))

        def show(folder: Path, marker: str, text: str = text) -> Result:
            suite(folder, {"bad.yaml": "id: 8NQR\n" + text})
            return cli(["show", "7MDY"], folder, env={"FIVEHUNDRED_HOME": str(folder)})

        yield Case(k, f"show beside a {name} file", show, expect((0,), "7MDY"))


# ---- class 2: odd file-system entries ------------------------------------------------


def _fifo(area: Path) -> None:
    os.mkfifo(area / "fifo.yaml")


def _zero(area: Path) -> None:
    (area / "zero.yaml").symlink_to("/dev/zero")


def _null(area: Path) -> None:
    (area / "null.yaml").symlink_to("/dev/null")


def _loop(area: Path) -> None:
    (area / "a.yaml").symlink_to("b.yaml")
    (area / "b.yaml").symlink_to("a.yaml")


def _self(area: Path) -> None:
    (area / "self.yaml").symlink_to("self.yaml")


def _dangling(area: Path) -> None:
    (area / "gone.yaml").symlink_to("nowhere.yaml")


def _dir(area: Path) -> None:
    (area / "folder.yaml").mkdir()


def _socket(area: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(area / "sock.yaml"))
    server.close()


def _chain(area: Path) -> None:
    current = area
    for _ in range(1500):
        current = current / "d"
        current.mkdir()
    (current / "deep.yaml").write_text(BASE)


def _dir_loop(area: Path) -> None:
    (area / "sub").mkdir()
    (area / "sub" / "up").symlink_to("..")


def _unreadable(area: Path) -> None:
    target = area / "secret.yaml"
    target.write_text(BASE)
    target.chmod(0)


def _nested_fifo(area: Path) -> None:
    (area / "x" / "y").mkdir(parents=True)
    os.mkfifo(area / "x" / "y" / "pipe.yml")


def _not_utf8(area: Path) -> None:
    (area / "latin1.yaml").write_bytes(BASE.replace("bid", "b\xefd").encode("latin-1"))


ENTRIES: dict[str, Callable[[Path], None]] = {
    "fifo": _fifo,
    "symlink to /dev/zero": _zero,
    "symlink to /dev/null": _null,
    "symlink loop": _loop,
    "self-link": _self,
    "dangling symlink": _dangling,
    "folder named .yaml": _dir,
    "socket": _socket,
    "1,500-deep folders": _chain,
    "folder link loop": _dir_loop,
    "unreadable file": _unreadable,
    "nested fifo": _nested_fifo,
    "not UTF-8": _not_utf8,
}


def class_files() -> Iterator[Case]:
    k = "2-file-system"
    for name, make in ENTRIES.items():
        for command in ("validate", "verify", "export", "show"):

            def run(
                folder: Path,
                marker: str,
                make: Callable[[Path], None] = make,
                command: str = command,
            ) -> Result:
                area = suite(folder)
                make(area)
                if command == "show":
                    return cli(["show", "7MDY"], folder, env={"FIVEHUNDRED_HOME": str(folder)})
                return cli([command, str(area)], folder)

            if command == "show":
                check = expect((0,), "7MDY")
            elif name in ("folder named .yaml",) and command != "validate":
                check = expect((0, 1), "")
            elif command == "verify":
                check = expect((0, 1), "1 passed")
            elif command == "export":
                check = expect((0, 1), "")
            else:
                check = expect((0, 1), "1 valid" if name != "folder named .yaml" else "")
            yield Case(k, f"{name} ({command})", run, check)
    for name in ("fifo", "symlink to /dev/zero", "dangling symlink", "symlink loop", "socket"):

        def explicit(folder: Path, marker: str, name: str = name) -> Result:
            area = suite(folder)
            before = set(area.iterdir())
            ENTRIES[name](area)
            added = sorted(set(area.iterdir()) - before)
            return cli(["validate", str(added[0]), str(area / "good.yaml")], folder)

        yield Case(k, f"{name} named on the command line", explicit, expect((1,), "1 valid"))


# ---- class 3: YAML scalars that are not JSON -----------------------------------------

SCALARS = {
    "date": "2024-01-01",
    "timestamp": "2024-01-01 12:30:00",
    "binary": "!!binary aGVsbG8=",
    "set": "!!set {a, b}",
    "omap": "!!omap [a: 1, b: 2]",
    "pairs": "!!pairs [a: 1, a: 2]",
    "nan": ".nan",
    "inf": ".inf",
    "minus inf": "-.inf",
    "float tag": "!!float 3",
}
KEYS = {
    "null key": "~: 1",
    "int key": "3: 1",
    "bool key": "yes: 1",
    "float key": "1.5: 1",
    "date key": "2024-01-01: 1",
}


def class_scalars() -> Iterator[Case]:
    k = "3-non-json-scalars"
    places = {
        "title": ("title: A bid after three passes ends the auction", "title: {}"),
        "extra key": ("tags: [auction-end, boundary]", "tags: [auction-end, boundary]\nextra: {}"),
        "dealer": ("  dealer: W", "  dealer: {}"),
        "tag item": ("tags: [auction-end, boundary]", "tags: [auction-end, {}]"),
        "call": ("  - {seat: W, call: 6S}", "  - {{seat: W, call: {}}}"),
    }
    for scalar, value in SCALARS.items():
        for place, (old, new) in places.items():
            if place in ("tag item", "call") and value.startswith("!!") and "{" in value:
                new = new.replace("{}", "[{}]") if place == "tag item" else new

            def run(
                folder: Path, marker: str, old: str = old, new: str = new, value: str = value
            ) -> Result:
                text = spoiled(old, new.replace("{}", value) if "{}" in new else new)
                area = suite(folder, {"spoiled.yaml": text})
                return cli(
                    ["validate", "--format", "json" if "nan" in value else "text", str(area)],
                    folder,
                )

            yield Case(
                k,
                f"{scalar} as {place}",
                run,
                expect((1,), "spoiled.yaml", "1 valid" if "nan" not in value else ""),
            )
    for key, line in KEYS.items():
        for where in ("top", "setup", "expect"):

            def run(folder: Path, marker: str, line: str = line, where: str = where) -> Result:
                if where == "top":
                    text = spoiled("tags:", line + "\ntags:")
                elif where == "setup":
                    text = spoiled("  dealer: W", "  dealer: W\n  " + line)
                else:
                    text = spoiled("to_act: W}", "to_act: W, " + line.replace(": ", ": ") + "}")
                area = suite(folder, {"spoiled.yaml": text})
                return cli(["validate", str(area)], folder)

            yield Case(k, f"{key} at {where}", run, expect((1,), "spoiled.yaml", "1 valid"))
    for scalar, value in list(SCALARS.items())[:6]:

        def run(folder: Path, marker: str, value: str = value) -> Result:
            area = suite(folder, {"spoiled.yaml": spoiled("  dealer: W", "  dealer: " + value)})
            return cli(["verify", str(area)], folder)

        yield Case(k, f"{scalar} (verify)", run, expect((1,), "1 passed"))


# ---- class 4: number limits ----------------------------------------------------------


def _verify_against(fault: str, *options: str) -> Callable[[Path, str], Result]:
    """A case's run: ``verify`` of a one-scenario suite against the hostile adapter
    ``fault`` (classes 4, 5 and 8 differ only in the options)."""

    def run(folder: Path, marker: str) -> Result:
        area = suite(folder)
        return cli(["verify", str(area), "--impl", adapter(fault, marker), *options], folder)

    return run


def _pairs(turn: int, formats: tuple[str, str]) -> list[tuple[tuple[str, ...], str]]:
    """Two (mode, format) pairs for the fault numbered ``turn``: each fault runs in both
    modes and both formats, and the faults between them cover all four combinations
    (pairwise: how a reply is read does not depend on how the report is written)."""
    first, second = formats if turn % 2 == 0 else formats[::-1]
    return [((), first), (("--one-shot",), second)]


def class_numbers() -> Iterator[Case]:
    k = "4-number-limits"
    big = "9" * 5000
    for place, (old, new) in {
        "title": ("title: A bid after three passes ends the auction", f"title: {big}"),
        "dealer": ("  dealer: W", f"  dealer: {big}"),
        "tag": ("tags: [auction-end, boundary]", f"tags: [{big}]"),
        "step": ("  - {seat: N, call: PASS}", f"  - {{seat: N, call: {big}}}"),
        "negative": ("  dealer: W", f"  dealer: -{big}"),
        "hex": ("  dealer: W", "  dealer: 0x" + "f" * 5000),
    }.items():
        for command in ("validate", "verify"):

            def run(
                folder: Path, marker: str, old: str = old, new: str = new, command: str = command
            ) -> Result:
                area = suite(folder, {"big.yaml": spoiled(old, new)})
                return cli([command, str(area)], folder)

            yield Case(
                k, f"5,000-digit integer as {place} ({command})", run, expect((1,), "big.yaml")
            )
    for value in ("7.0", "7.5", "1e1", "7.", "0.0e0", ".inf"):
        for field_ in ("tricks", "NS"):

            def run(folder: Path, marker: str, value: str = value, field_: str = field_) -> Result:
                old = "tricks: 7}" if field_ == "tricks" else "scores: {NS: 0,"
                new = f"tricks: {value}}}" if field_ == "tricks" else f"scores: {{NS: {value},"
                area = suite(folder, {"float.yaml": spoiled(old, new, GAME)})
                return cli(["validate", str(area)], folder)

            yield Case(
                k,
                f"{field_}: {value} where an integer is meant",
                run,
                expect((1,), "float.yaml", "1 valid"),
            )
    for turn, fault in enumerate(("reply-bigint-seq", "reply-bigint-value", "hello-bigint")):
        for mode, fmt in _pairs(turn, ("json", "text")):
            yield Case(
                k,
                f"{fault} {' '.join(mode) or 'persistent'} {fmt}",
                _verify_against(fault, *mode, "--format", fmt),
                expect((3,), "errored"),
            )
    for line in (
        '{"cmd":"run","seq":' + big + ',"scenario":{}}',
        '{"cmd":"hello","protocol":' + big + "}",
        '{"cmd":"run","seq":1,"scenario":{"id":' + big + "}}",
    ):
        yield Case(k, f"serve: {line[:30]}…", _serve_case(line), _serve_ok)
    for suffix, text in (
        (".json", '{"7MDY": {"status": "fail", "reason": ' + big + "}}"),
        (".yaml", "7MDY: {status: fail, reason: x, link: " + big + "}\n"),
    ):

        def run(folder: Path, marker: str, suffix: str = suffix, text: str = text) -> Result:
            area = suite(folder)
            (folder / f"known{suffix}").write_text(text)
            return cli(["verify", str(area), "--expectations", f"known{suffix}"], folder)

        yield Case(
            k, f"expectations{suffix} with a 5,000-digit integer", run, expect((2,), "known")
        )


def _serve_case(line: str) -> Callable[[Path, str], Result]:
    def run(folder: Path, marker: str) -> Result:
        import io

        from fivehundred.verify.serve import serve

        out = io.BytesIO()
        err = io.StringIO()
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
        try:
            with contextlib.redirect_stderr(err):
                code = serve(io.BytesIO(line.encode("utf-8", "surrogatepass") + b"\n"), out)
        except _Alarm:
            return Result(None, "", "", hang=True)
        except Exception as error:  # a crash is what the campaign looks for
            return Result(None, "", repr(error), traceback=True)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        return Result(code, out.getvalue().decode("utf-8", "replace"), err.getvalue())

    return run


def _serve_ok(result: Result, folder: Path) -> str | None:
    if result.code == 2 and "fivehundred serve: message 1" in result.stderr:
        return None
    if result.code == 0 and result.stdout.endswith("\n") and result.stdout.count("\n") == 1:
        json.loads(result.stdout, parse_constant=_no_constant)  # one strict JSON reply
        return None
    return f"serve answered {result.code}: {result.text[:300]!r}"


# ---- class 5: deep JSON, NaN, Infinity -----------------------------------------------


def class_json() -> Iterator[Case]:
    k = "5-deep-json"
    faults = (
        "reply-deep",
        "reply-deep-object",
        "reply-nan",
        "reply-infinity",
        "reply-minus-infinity",
        "reply-1e400",
        "hello-deep",
        "hello-nan",
        "reply-surrogate",
        "reply-float-seq",
    )
    for turn, fault in enumerate(faults):
        for mode, fmt in _pairs(turn, ("json", "junit")):
            suffix = "json" if fmt == "json" else "xml"
            yield Case(
                k,
                f"{fault} {' '.join(mode) or 'persistent'} {fmt}",
                _verify_against(fault, *mode, "--format", fmt, "-o", f"report.{suffix}"),
                expect((3,), also=both(clean_output, _report_errored)),
                writes=("report.json", "report.xml"),
            )
    for line in (
        "[" * 100_000 + "]" * 100_000,
        '{"cmd":"run","seq":1,"scenario":' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"cmd":"run","seq":NaN,"scenario":{}}',
        '{"cmd":"run","seq":1,"scenario":{"id":Infinity}}',
        '{"cmd":"run","seq":1,"scenario":{"id":"\\ud800"}}',
        '{"cmd":"run","seq":1,"scenario":{"id":-Infinity}}',
        '{"cmd":"hello","protocol":1e400}',
        '{"cmd":"run","seq":1,"scenario":' + '{"a":' * 3000 + "1" + "}" * 3000 + "}",
    ):
        yield Case(k, f"serve: {line[:30]}…", _serve_case(line), _serve_ok)
    for suffix, text in (
        (".json", "[" * 100_000 + "]" * 100_000),
        (".json", '{"7MDY": {"status": "fail", "reason": NaN}}'),
        (".json", '{"7MDY": {"status": "fail", "reason": "x", "link": Infinity}}'),
        (".json", '{"7MDY": {"status": "fail", "reason": "\\udc00"}}'),
        (".yaml", "x: " + "[" * 5000 + "]" * 5000),
        (".yaml", "7MDY: {status: fail, reason: .nan}\n"),
    ):

        def run(folder: Path, marker: str, suffix: str = suffix, text: str = text) -> Result:
            area = suite(folder)
            (folder / f"known{suffix}").write_text(text)
            return cli(["verify", str(area), "--expectations", f"known{suffix}"], folder)

        yield Case(k, f"expectations{suffix}: {text[:20]}…", run, expect((2,), "known"))


def _report_errored(result: Result, folder: Path) -> str | None:
    for path in folder.glob("report.json"):
        report = json.loads(path.read_text("utf-8"))
        statuses = {e["status"] for e in report["scenarios"]}
        if statuses - {"errored", "failed"} or not statuses:
            return f"statuses {statuses}"
    return None


# ---- class 6: orphan adapters --------------------------------------------------------


def class_orphans() -> Iterator[Case]:
    k = "6-orphan-adapters"
    # Every signal with every fault, the mode alternating like a checkerboard: each signal
    # and each fault meets both modes, so every pair of the three is tried in 9 runs, as
    # classes 4 and 5 do, though not every triple of 18 (each run is a real process).
    signals = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
    faults = ("hang", "grandchild-hang", "grandchild")
    for (row, signum), (column, fault) in itertools.product(enumerate(signals), enumerate(faults)):
        mode = ((), ("--one-shot",))[(row + column) % 2]

        def run(
            folder: Path,
            marker: str,
            signum: int = signum,
            fault: str = fault,
            mode: tuple[str, ...] = mode,
        ) -> Result:
            area = suite(folder)
            (folder / "report.json").write_text("previous\n")  # kept when stopped
            # enough scenarios that the run is still going when the signal comes
            # (0.3 s after the adapter starts, as the case sends it): five were too few,
            # the run could end before the signal; the `grandchild` adapter also
            # answers each one after 0.05 s
            for i, pair in enumerate(itertools.product("23456789", repeat=2)):
                if i == 40:
                    break
                copy = BASE.replace("7MDY", f"{''.join(pair)}DY")
                (area / f"copy{i}.yaml").write_text(copy)

            def interrupt(process: subprocess.Popen[bytes]) -> None:
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline and not adapter_running(marker):
                    time.sleep(0.05)
                time.sleep(0.3)
                os.killpg(process.pid, signum)  # as a CI cancel does: the runner's group

            return subprocess_cli(
                [
                    "verify",
                    str(area),
                    "--impl",
                    adapter(fault, marker),
                    *mode,
                    "-o",
                    "report.json",
                    "--format",
                    "json",
                ],
                folder,
                after=interrupt,
            )

        signame = signal.Signals(signum).name
        name = f"{signame} during {fault} {' '.join(mode) or 'default'}"
        if signum == signal.SIGINT:  # Ctrl-C: the run reports what it has (or exits 130)
            yield Case(k, name, run, expect((1, 130)), writes=("report.json",))
        else:  # a CI cancel: stopped, said so, and the previous report left alone
            yield Case(k, name, run, expect((128 + signum,), f"stopped by {signame};"))
    for fault in ("hello-bigint", "hello-deep", "hello-nan", "hello-surrogate", "hang-hello"):

        def run(folder: Path, marker: str, fault: str = fault) -> Result:
            area = suite(folder)
            return cli(
                ["verify", str(area), "--impl", adapter(fault, marker), "--startup-timeout", "2"],
                folder,
            )

        yield Case(k, f"handshake fault {fault}", run, expect((3,), "handshake failed"))


# ---- class 7: options ----------------------------------------------------------------


def class_options() -> Iterator[Case]:
    k = "7-options"
    for option in ("--timeout", "--startup-timeout", "--max-time"):
        for value in (
            "inf",
            "-inf",
            "nan",
            "1e308",
            "0",
            "-1",
            "abc",
            "",
            "86401",
            "1e-400",
            "0x10",
        ):

            def run(folder: Path, marker: str, option: str = option, value: str = value) -> Result:
                area = suite(folder)
                return cli(
                    ["verify", str(area), "--impl", adapter("hang", marker), f"{option}={value}"],
                    folder,
                )

            yield Case(k, f"{option}={value!r}", run, expect((2,), "Invalid value"))
    for mode in ((), ("--one-shot",)):

        def run(folder: Path, marker: str, mode: tuple[str, ...] = mode) -> Result:
            area = suite(folder)
            for i in range(2, 9):
                (area / f"copy{i}.yaml").write_text(BASE.replace("7MDY", f"{i}MDY"))
            return cli(
                [
                    "verify",
                    str(area),
                    "--impl",
                    adapter("hang", marker),
                    *mode,
                    "--max-time",
                    "2",
                    "--format",
                    "json",
                ],
                folder,
            )

        def in_time(result: Result, folder: Path) -> str | None:
            return None if result.seconds < 15 else f"took {result.seconds:.1f} s"

        yield Case(
            k,
            f"--max-time 2 with a hanging adapter {' '.join(mode) or 'persistent'}",
            run,
            expect((3,), "--max-time of 2 s ran out", also=in_time),
        )

    def reference(folder: Path, marker: str) -> Result:
        area = suite(folder)
        return cli(["verify", str(area), "--max-time", "60"], folder)

    yield Case(k, "--max-time with the reference", reference, expect((0,), "1 passed"))


# ---- class 8: terminal and report injection ------------------------------------------


def class_injection() -> Iterator[Case]:
    k = "8-injection"
    faults = (
        "hello-markup",
        "hello-ansi",
        "hello-nul",
        "hello-newline",
        "hello-bidi",
        "hello-surrogate",
        "reply-ansi-message",
        "reply-osc-message",
        "reply-nul-message",
        "reply-markup-message",
        "reply-forged-summary",
        "reply-markup-value",
        "stderr-escapes",
        "reply-surrogate",
    )
    suffixes = {"text": "txt", "json": "json", "junit": "xml", "tap": "tap", "markdown": "md"}
    # With -o, every format but text writes the very string it would print (only text has a
    # console of its own) and adds the summary line on stderr, the same for each: text and
    # JSON cover both paths, so the others run on stdout only.
    to_file_too = {"text", "json"}
    for fault in faults:
        for fmt, suffix in suffixes.items():
            for to_file in (False, True) if fmt in to_file_too else (False,):
                output = ["-o", f"report.{suffix}"] if to_file else []
                yield Case(
                    k,
                    f"{fault} {fmt}{' -o' if to_file else ''}",
                    _verify_against(fault, "--format", fmt, *output),
                    expect((0, 1, 3), also=clean_output),
                    writes=tuple(f"report.{s}" for s in suffixes.values()),
                )
    titles = {
        "ansi": '"Evil \\e[31mred\\e[0m title"',
        "osc": '"Evil \\e]0;pwned\\a title"',
        "nul": '"Evil \\0 title"',
        "c1": '"Evil \\x85\\x9b title"',
        "cr": '"Evil \\r title"',
        "markup": '"Evil [/] [bold]title[link=x]"',
    }
    for name, title in titles.items():
        for fmt, suffix in suffixes.items():

            def run(
                folder: Path, marker: str, title: str = title, fmt: str = fmt, suffix: str = suffix
            ) -> Result:
                text = spoiled(
                    "title: A bid after three passes ends the auction", f"title: {title}"
                )
                text = text.replace("call: 6S}", "call: 6H}")  # fails, so the title is printed
                area = suite(folder, {"evil.yaml": text})
                return cli(["verify", str(area), "--format", fmt, "-o", f"report.{suffix}"], folder)

            yield Case(
                k,
                f"title with {name} ({fmt})",
                run,
                expect((1,), also=clean_output),
                writes=tuple(f"report.{s}" for s in suffixes.values()),
            )

        def shown(folder: Path, marker: str, title: str = title) -> Result:
            text = spoiled("title: A bid after three passes ends the auction", f"title: {title}")
            suite(folder, {"evil.yaml": text})
            return cli(["show", "8NQR"], folder, env={"FIVEHUNDRED_HOME": str(folder)})

        yield Case(k, f"title with {name} (show)", shown, expect((0,), also=clean_output))

        def named(folder: Path, marker: str, name: str = name) -> Result:
            area = suite(folder)
            evil = {
                "ansi": "\x1b[31m",
                "osc": "\x1b]0;x\x07",
                "nul": "\x01",
                "c1": "\x85",
                "cr": "\r",
                "markup": "[bold]",
            }[name]
            (area / f"bad{evil}name.yaml").write_text("id: [")
            return cli(["validate", str(area)], folder)

        yield Case(k, f"file name with {name} (validate)", named, expect((1,), also=clean_output))


# ---- class 9: atomic output ----------------------------------------------------------

GOOD = "previous good content\n"


def class_atomic() -> Iterator[Case]:
    k = "9-atomic-output"

    def unchanged(name: str, content: str = GOOD) -> Callable[[Result, Path], str | None]:
        def check(result: Result, folder: Path) -> str | None:
            if (folder / name).read_text() != content:
                return f"{name} was changed"
            leftovers = [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]
            return f"temporary files left: {leftovers}" if leftovers else None

        return check

    def no_temp(result: Result, folder: Path) -> str | None:
        leftovers = [p.name for p in folder.rglob("*.tmp")]
        return f"temporary files left: {leftovers}" if leftovers else None

    for command in ("export", "verify"):
        for fmt in (
            ("text", "json", "junit", "tap", "markdown") if command == "verify" else ("json",)
        ):

            def run(folder: Path, marker: str, command: str = command, fmt: str = fmt) -> Result:
                area = suite(folder, {"broken.yaml": "id: ["})
                (folder / "out.txt").write_text(GOOD)
                extra = (
                    ["--format", fmt, "--impl", adapter("hello-nan", marker)]
                    if command == "verify"
                    else []
                )
                if command == "verify":
                    (area / "broken.yaml").unlink()
                return cli([command, str(area), *extra, "-o", "out.txt"], folder)

            if command == "export":
                yield Case(
                    k,
                    "export -o over a good file, invalid corpus",
                    run,
                    expect((1,), "nothing written", also=unchanged("out.txt")),
                )
            else:
                yield Case(
                    k,
                    f"verify -o {fmt} over a good file, broken adapter",
                    run,
                    expect((3,), also=no_temp),
                    writes=("out.txt",),
                )
        for target in ("folder", "missing/parent", "file/child"):

            def run(
                folder: Path, marker: str, command: str = command, target: str = target
            ) -> Result:
                area = suite(folder)
                (folder / "folder").mkdir()
                (folder / "file").write_text(GOOD)
                return cli([command, str(area), "-o", target], folder)

            yield Case(k, f"{command} -o {target}", run, expect((1, 2), also=no_temp))
    for force in (False, True):
        for target in ("known.yaml", "known.json"):
            for existing in ("not-expectations", "expectations"):
                content = GOOD if existing == "not-expectations" else "{}\n"

                def run(
                    folder: Path,
                    marker: str,
                    force: bool = force,
                    target: str = target,
                    content: str = content,
                ) -> Result:
                    area = suite(folder)
                    (folder / target).write_text(content)
                    args = [
                        "verify",
                        str(area),
                        "--impl",
                        adapter("reply-nan", marker),
                        "--write-expectations",
                        target,
                    ]
                    return cli(args + (["--force"] if force else []), folder)

                if not force:
                    yield Case(
                        k,
                        f"--write-expectations {target} exists ({existing})",
                        run,
                        expect((2,), "exists", also=unchanged(target, content)),
                    )
                elif existing == "expectations":
                    yield Case(
                        k,
                        f"--write-expectations {target} --force over an expectations file",
                        run,
                        expect((3,), "wrote 1 expectations", also=no_temp),
                        writes=(target,),
                    )
                else:  # it is merged into, to keep comments: refused, and left as it was
                    yield Case(
                        k,
                        f"--write-expectations {target} --force over another file",
                        run,
                        expect((2,), "expectations", also=unchanged(target, content)),
                    )

    def dangling(folder: Path, marker: str) -> Result:
        area = suite(folder)
        (folder / "known.yaml").symlink_to("elsewhere.yaml")
        return cli(["verify", str(area), "--write-expectations", "known.yaml"], folder)

    def not_followed(result: Result, folder: Path) -> str | None:
        return "the link target was written" if (folder / "elsewhere.yaml").exists() else None

    yield Case(
        k, "--write-expectations onto a dangling link", dangling, expect((0, 2), also=not_followed)
    )


# ---- class 10: new -------------------------------------------------------------------


def class_new() -> Iterator[Case]:
    k = "10-new"
    titles = [
        "Misère: over 7NT",
        "# not a comment",
        "&anchor title",
        "*alias title",
        "- a list?",
        "? a key",
        "[flow] title",
        "{flow: map}",
        "'single quoted'",
        '"double quoted"',
        "trailing colon:",
        "percent % sign",
        "@at sign",
        "`backtick`",
        "! tag",
        "| literal",
        "> folded",
        "yes",
        "null",
        "123",
        "1e3",
        "---",
        "...",
        "tab\there",
        "Ünïcödé ♠♥♦♣ 🃏",
        "a" * 200,
        "key: value # comment",
        "line\nbreak",
        "x",
        "  ",
        "\x1b[31mred",
    ]
    for title in titles:

        def run(folder: Path, marker: str, title: str = title) -> Result:
            area = suite(folder)
            return cli(
                [
                    "new",
                    "--dir",
                    str(area.parent),
                    "--area",
                    "area",
                    "--title",
                    title,
                    "--rule",
                    "bid-order",
                ],
                folder,
            )

        def round_trip(result: Result, folder: Path, title: str = title) -> str | None:
            import yaml

            made = [
                p for p in (folder / "scenarios" / "area").glob("*.yaml") if p.name != "good.yaml"
            ]
            if result.code == 0:
                if len(made) != 1:
                    return f"created {len(made)} files"
                if yaml.safe_load(made[0].read_text())["title"] != title:
                    return "the title changed on the way to the file"
                check = cli(["validate", str(made[0])], folder)
                return None if check.code == 0 else f"the new file is invalid: {check.text}"
            return None if not made else "a file was left after a refusal"

        printable = title.isprintable() and len(title.strip()) >= 3
        yield Case(
            k,
            f"title {title[:30]!r}",
            run,
            expect((0,) if printable else (2,), also=round_trip),
            writes=("*new*",),
        )
    areas = [
        "../..",
        "..",
        "/tmp/abs",
        "",
        ".",
        "a" * 300,
        "Auction",
        "a/b",
        "a b",
        "-x",
        "x-",
        "area/../..",
        "~",
        "$HOME",
        "nul\x00",
        "new-one",
    ]
    for area_name in areas:

        def run(folder: Path, marker: str, area_name: str = area_name) -> Result:
            area = suite(folder)
            return cli(
                [
                    "new",
                    "--dir",
                    str(area.parent),
                    "--area",
                    area_name,
                    "--title",
                    "Fine title",
                    "--rule",
                    "bid-order",
                ],
                folder,
            )

        def confined(result: Result, folder: Path) -> str | None:
            outside = [p for p in folder.rglob("*.yaml") if "scenarios" not in p.parts]
            return f"wrote outside scenarios/: {outside}" if outside else None

        yield Case(k, f"area {area_name[:20]!r}", run, expect((2,), also=confined))

    def new_area(folder: Path, marker: str) -> Result:
        area = suite(folder)
        return cli(
            [
                "new",
                "--dir",
                str(area.parent),
                "--area",
                "fresh",
                "--new-area",
                "--title",
                "Fine title",
                "--rule",
                "bid-order",
            ],
            folder,
        )

    yield Case(
        k, "a new area with --new-area", new_area, expect((0,), "created"), writes=("*new*",)
    )

    def link_target(folder: Path, marker: str) -> Result:
        area = suite(folder)
        (area / "fine-title.yaml").symlink_to(folder / "outside.yaml")
        return cli(
            [
                "new",
                "--dir",
                str(area.parent),
                "--area",
                "area",
                "--title",
                "Fine title",
                "--rule",
                "bid-order",
            ],
            folder,
        )

    def not_through(result: Result, folder: Path) -> str | None:
        return "wrote through the link" if (folder / "outside.yaml").exists() else None

    yield Case(
        k, "a dangling link at the target", link_target, expect((2,), "exists", also=not_through)
    )

    def link_area(folder: Path, marker: str) -> Result:
        area = suite(folder)
        (folder / "elsewhere").mkdir()
        (area.parent / "linked").symlink_to(folder / "elsewhere")
        return cli(
            [
                "new",
                "--dir",
                str(area.parent),
                "--area",
                "linked",
                "--title",
                "Fine title",
                "--rule",
                "bid-order",
            ],
            folder,
        )

    yield Case(k, "an area that is a link outside", link_area, expect((2,), "link"))


# ---- class 11: show ------------------------------------------------------------------


def class_show() -> Iterator[Case]:
    k = "11-show"
    for name, make in ENTRIES.items():

        def run(folder: Path, marker: str, make: Callable[[Path], None] = make) -> Result:
            area = suite(folder)
            make(area)
            return cli(["show", "8NQR"], folder, env={"FIVEHUNDRED_HOME": str(folder)})

        yield Case(k, f"unknown id beside {name}", run, expect((2,), "no scenario with id"))

    def no_scenarios(folder: Path, marker: str) -> Result:
        return cli(["show", "7MDY"], folder, env={"FIVEHUNDRED_HOME": str(folder)})

    yield Case(
        k, "FIVEHUNDRED_HOME without scenarios/", no_scenarios, expect((2,), "no scenarios/ folder")
    )

    def invalid(folder: Path, marker: str) -> Result:
        suite(folder, {"bad.yaml": BASE.replace("7MDY", "8NQR").replace("dealer: W", "dealer: Q")})
        return cli(["show", "8NQR"], folder, env={"FIVEHUNDRED_HOME": str(folder)})

    yield Case(k, "the id of an invalid file", invalid, expect((1,), "dealer"))

    def not_utf8(folder: Path, marker: str) -> Result:
        suite(folder, {"bad.yaml": b"id: 8NQR\ntitle: \xff\xfe\n"})
        return cli(["show", "8NQR"], folder, env={"FIVEHUNDRED_HOME": str(folder)})

    yield Case(k, "the id in a file that is not UTF-8", not_utf8, expect((1,), "UTF-8"))


# ---- classes 12-16: shard files, positions files, dispute records, fuzz output, cache -

EVIL = "evil\x1b[2J\x1b]0;pwned\x07\x9b31m\x85\u202eesrever\u2066x\u2069\u200b\u2028end"
"""Terminal control, C1, bidi and format characters and a line separator in one string."""
SHARD_ID = "8NQR"


def _shard(**changes: object) -> dict[str, object]:
    """A fuzz shard report with one family whose scenario validates (the base scenario)."""
    scenario = BASE.replace("7MDY", SHARD_ID)
    family: dict[str, object] = {
        "signature": {"kind": "start", "check": "phase", "expected": "auction", "actual": "x"},
        "describe": "start phase: expected auction, got x",
        "count": 1,
        "first": 0,
        "generator": "random",
        "rulings": ["auction-end"],
        "scenario_id": SHARD_ID,
        "filename": f"fuzz-{SHARD_ID.lower()}-start-phase.yaml",
        "expected": "auction",
        "actual": "x",
        "original_actions": 4,
        "shrunk_actions": 4,
        "start": "deck",
        "start_tricks": None,
        "verified": True,
        "scenario": scenario,
    }
    data: dict[str, object] = {
        "fivehundred_fuzz_report": 1,
        "implementation": "some engine",
        "command": "some-adapter",
        "seed": 0,
        "profile": "australian-4",
        "variants": [],
        "shards": ["1/1"],
        "deals": 1,
        "by_generator": {"random": 1},
        "disagreeing": 1,
        "stopped": "deals",
        "seconds": 0.5,
        "jobs": 1,
        "indices": [[0, 0, 0]],
        "families": [family],
    }
    for key, value in changes.items():
        if key.startswith("family_"):
            family[key[len("family_") :]] = value
        elif key.startswith("signature_"):
            family["signature"][key[len("signature_") :]] = value  # type: ignore[index]
        else:
            data[key] = value
    return data


SHARD_WRITTEN = f"out/fuzz-{SHARD_ID.lower()}-start-phase.yaml"
UNSAFE_EVERYWHERE = (*UNSAFE_OUTPUT, "\u202e", "\u2066", "\u2069", "\u200b", "\u2028")


def clean_everywhere(result: Result, folder: Path) -> str | None:
    """:func:`clean_output`, and no bidi or format character in the output or a report."""
    problem = clean_output(result, folder)
    if problem is not None:
        return problem
    texts = [result.text] + [
        p.read_text("utf-8", errors="replace") for p in folder.rglob("report*") if p.is_file()
    ]
    for text in texts:
        for bad in UNSAFE_EVERYWHERE:
            if bad in text:
                return f"{bad!r} reached the output or a report"
    return None


def only_inside(*allowed: str) -> Callable[[Result, Path], str | None]:
    """No file the case did not make appeared anywhere but ``allowed`` (relative paths)."""

    def check(result: Result, folder: Path) -> str | None:
        made = {
            str(p.relative_to(folder))
            for p in folder.rglob("*")
            if p.is_file() and not p.is_symlink()
        }
        extra = sorted(made - set(allowed) - {"shard.json", "positions.json", "real.json"})
        return f"files written outside the folder named: {extra}" if extra else None

    return check


def _write_json(folder: Path, name: str, data: object) -> Path:
    path = folder / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def _one_file_cases(k: str, argv: list[str], expected: str) -> Iterator[Case]:
    """Each special file of :data:`ENTRIES` that stands for one file (not a tree) given
    as the file that ``argv`` reads: refused with exit 2 and ``expected`` in the message."""
    for name, make in ENTRIES.items():
        if name in ("1,500-deep folders", "folder link loop", "nested fifo", "not UTF-8"):
            continue

        def run(folder: Path, marker: str, make: Callable[[Path], None] = make) -> Result:
            area = folder / "files"
            area.mkdir()
            make(area)
            added = sorted(area.iterdir())[0]
            return cli([*argv, str(added)], folder)

        yield Case(k, f"file: {name}", run, expect((2,), expected))


def class_shards() -> Iterator[Case]:
    k = "12-shard-files"
    names = [
        "../escaped.pth",
        "../../escaped.pth",
        "{folder}/absolute.pth",
        "out/../sibling.pth",
        "a\x00b.yaml",
        "a\nb.yaml",
        "",
        ".",
        "..",
        "x/" * 200 + "deep.yaml",
        ".hidden.yaml",
        "\x1b[2J.yaml",
    ]
    for name in names:

        def run(folder: Path, marker: str, name: str = name) -> Result:
            filename = name.replace("{folder}", str(folder))
            path = _write_json(folder, "shard.json", _shard(family_filename=filename))
            return cli(["fuzz", "merge", str(path), "--out", str(folder / "out")], folder)

        yield Case(
            k,
            f"family file name {name[:30]!r}",
            run,
            expect(
                (1,), "wrote 1 scenarios", also=both(only_inside(SHARD_WRITTEN), clean_everywhere)
            ),
            writes=(SHARD_WRITTEN,),
        )
    for scenario_id in ("../x", "", "8NQR/..", "\x00", "8nqr", "ZZZZZ", "/tmp", "1234"):

        def run(folder: Path, marker: str, scenario_id: str = scenario_id) -> Result:
            path = _write_json(folder, "shard.json", _shard(family_scenario_id=scenario_id))
            return cli(["fuzz", "merge", str(path), "--out", str(folder / "out")], folder)

        yield Case(
            k,
            f"scenario id {scenario_id!r}",
            run,
            expect((1,), also=both(only_inside(), clean_everywhere)),
        )
    texts = {
        "a list": "[]",
        "a string": '"x"',
        "null": "null",
        "100,000-deep list": "[" * 100_000 + "]" * 100_000,
        "5,000-deep object": '{"a":' * 5000 + "1" + "}" * 5000,
        "NaN": json.dumps(_shard()).replace('"seconds": 0.5', '"seconds": NaN'),
        "Infinity": json.dumps(_shard()).replace('"seconds": 0.5', '"seconds": Infinity'),
        "-Infinity": json.dumps(_shard()).replace('"seconds": 0.5', '"seconds": -Infinity'),
        "1e400": json.dumps(_shard()).replace('"seconds": 0.5', '"seconds": 1e400'),
        "5,000-digit seed": json.dumps(_shard()).replace('"seed": 0', '"seed": ' + "9" * 5000),
        "a key twice": json.dumps(_shard()).replace('"seed": 0', '"seed": 0, "seed": 1'),
        "lone surrogate": json.dumps(_shard()).replace('"some engine"', '"x\\ud800"'),
        "empty": "",
        "not JSON": "{'a': 1}",
    }
    for name, text in texts.items():

        def run(folder: Path, marker: str, text: str = text) -> Result:
            path = _write_json(folder, "shard.json", text)
            return cli(["fuzz", "merge", str(path), "--out", str(folder / "out")], folder)

        yield Case(
            k,
            f"JSON: {name}",
            run,
            expect((2,), "not a readable fuzz report", also=both(only_inside(), clean_everywhere)),
        )
    bytes_cases = {"not UTF-8": b'{"a": "\xff"}', "2 MB": b" " * (2 << 20) + b"{}"}
    for name, data in bytes_cases.items():

        def run(folder: Path, marker: str, data: bytes = data) -> Result:
            (folder / "shard.json").write_bytes(data)
            return cli(["fuzz", "merge", str(folder / "shard.json")], folder)

        yield Case(k, f"bytes: {name}", run, expect((2,), "not a readable fuzz report"))
    shapes: dict[str, dict[str, object]] = {
        "billion-entry range": {"indices": [[0, 10**9, 1]], "deals": 10**9 + 1},
        "range over the limit": {"indices": [[0, 10**7, 1]], "deals": 10**7 + 1},
        "indices not the deals": {"indices": [[0, 5, 1]]},
        "a run of two": {"indices": [[0, 5]]},
        "a backward run": {"indices": [[5, 0, 1]]},
        "a zero step": {"indices": [[0, 5, 0]]},
        "a negative index": {"indices": [[-5, -5, 0]]},
        "shard 1/0": {"shards": ["1/0"]},
        "shard 0/1": {"shards": ["0/1"]},
        "shard 3/2": {"shards": ["3/2"]},
        "shard a number": {"shards": [1]},
        "shard huge": {"shards": ["1/99999999999"]},
        "deals a string": {"deals": "1"},
        "deals true": {"deals": True},
        "deals negative": {"deals": -1},
        "seconds negative": {"seconds": -1},
        "seconds a string": {"seconds": "1"},
        "jobs a billion": {"jobs": 10**9},
        "stopped unknown": {"stopped": "exploded"},
        "variants a mapping": {"variants": {}},
        "by_generator a list": {"by_generator": []},
        "by_generator counts text": {"by_generator": {"random": "1"}},
        "families a mapping": {"families": {}},
        "a family a list": {"families": [[]]},
        "implementation a list": {"implementation": ["x"]},
        "signature kind a list": {"signature_kind": ["x"]},
        "signature missing check": {"signature_check": None},
        "count zero": {"family_count": 0},
        "first a float": {"family_first": 0.5},
        "verified a string": {"family_verified": "yes"},
        "start_tricks text": {"family_start_tricks": "3"},
        "rulings a string": {"family_rulings": "auction-end"},
        "scenario a list": {"family_scenario": ["x"]},
        "a different version": {"fivehundred_fuzz_report": 2},
    }
    for name, change in shapes.items():

        def run(folder: Path, marker: str, change: dict[str, object] = change) -> Result:
            data = _shard(**change)
            if change.get("signature_check", 1) is None:
                del data["families"][0]["signature"]["check"]  # type: ignore[index]
            path = _write_json(folder, "shard.json", data)
            return cli(
                ["fuzz", "merge", str(path), "--format", "json", "-o", "report.json"], folder
            )

        yield Case(k, f"shape: {name}", run, expect((2,), "not a readable fuzz report"))
    yield from _one_file_cases(k, ["fuzz", "merge"], "not a readable fuzz report")
    for fmt in ("text", "markdown", "json"):
        for to_file in (False, True):

            def run(folder: Path, marker: str, fmt: str = fmt, to_file: bool = to_file) -> Result:
                data = _shard(
                    implementation=EVIL,
                    command=EVIL,
                    by_generator={EVIL: 1},
                    family_generator=EVIL,
                    signature_actual=EVIL,
                    family_scenario=BASE.replace("7MDY", SHARD_ID).replace(
                        "W\n", "W # " + EVIL + "\n", 1
                    ),
                )
                path = _write_json(folder, "shard.json", data)
                output = ["-o", f"report.{fmt}"] if to_file else []
                return cli(["fuzz", "merge", str(path), "--format", fmt, *output], folder)

            yield Case(
                k,
                f"hostile text in a shard ({fmt}{', -o' if to_file else ''})",
                run,
                expect((1,), also=clean_everywhere),
                writes=(f"report.{fmt}",) if to_file else (),
            )

    def two(folder: Path, marker: str) -> Result:
        half = 5_000_001
        paths = []
        for number in range(2):
            data = _shard(
                deals=half,
                indices=[[number, number + 2 * (half - 1), 2]],
                families=[],
                disagreeing=0,
                by_generator={},
            )
            paths.append(str(_write_json(folder, f"s{number}.json", data)))
        return cli(["fuzz", "merge", *paths], folder)

    yield Case(k, "two shards over the limit together", two, expect((2,), "together"))


def _positions(name: str = "first", **changes: object) -> dict[str, object]:
    data = json.loads((ROOT / "scenarios" / "perft-positions.json").read_text("utf-8"))
    data["positions"] = data["positions"][:1]
    data["positions"][0]["name"] = name
    data["positions"][0].update(changes)
    return data


def _perft(folder: Path, *args: str) -> Result:
    return cli(["perft", "--positions", str(folder / "positions.json"), *args], folder)


def class_positions() -> Iterator[Case]:
    k = "13-positions-files"
    texts = {
        "a list": "[]",
        "100,000-deep list": "[" * 100_000 + "]" * 100_000,
        "5,000-deep object": '{"a":' * 5000 + "1" + "}" * 5000,
        "NaN": json.dumps(_positions()).replace('"first"', "NaN"),
        "Infinity count": json.dumps(_positions(perft=[1, 2, 3])).replace(
            "[1, 2, 3]", "[Infinity]"
        ),
        "1e400": json.dumps(_positions(perft=[1, 2, 3])).replace("[1, 2, 3]", "[1e400]"),
        "a key twice": json.dumps(_positions()).replace('"name":', '"name": "a", "name":'),
        "empty": "",
        "positions a mapping": json.dumps({"format": "fivehundred-perft/1", "positions": {}}),
        "a position a list": json.dumps({"format": "fivehundred-perft/1", "positions": [[]]}),
        "setup a list": json.dumps(_positions(setup=[])),
        "steps a mapping": json.dumps(_positions(steps={})),
        "counts text": json.dumps(_positions(perft="123")),
        "counts negative": json.dumps(_positions(perft=[-1])),
        "name a list": json.dumps(_positions(name=["x"])),
        "name missing": json.dumps(_positions()).replace('"name": "first",', ""),
        "a 5,000-digit count": json.dumps(_positions(perft=[1])).replace(
            "[1]", "[" + "9" * 5000 + "]"
        ),
    }
    for name, text in texts.items():

        def run(folder: Path, marker: str, text: str = text) -> Result:
            _write_json(folder, "positions.json", text)
            return _perft(folder)

        yield Case(k, f"JSON: {name}", run, expect((2,), "--positions", also=clean_everywhere))
    yield from _one_file_cases(k, ["perft", "--positions"], "--positions")
    for depth in ((), ("--depth", "1")):

        def run(folder: Path, marker: str, depth: tuple[str, ...] = depth) -> Result:
            _write_json(folder, "positions.json", _positions(EVIL))
            return _perft(folder, *depth)

        yield Case(
            k,
            f"hostile position name {' '.join(depth) or '(check)'}",
            run,
            expect((0,), "evil", also=clean_everywhere),
        )
    faults = {
        "reply-bidi-message": (1, "FAIL"),
        "reply-ansi-message": (1, "FAIL"),
        "reply-osc-message": (1, "FAIL"),
        "reply-forged-summary": (1, "FAIL"),
        "reply-unsafe-value": (1, "FAIL"),
        "hello-no-legal": (1, "Nothing was checked"),
        "hello-ansi": (0, "1 of 1 positions agree"),
        "hello-nan": (3, "handshake failed"),
        "hello-deep": (3, "handshake failed"),
        "stderr-escapes": (0, "1 of 1 positions agree"),
    }
    for fault, (code, phrase) in faults.items():

        def run(folder: Path, marker: str, fault: str = fault) -> Result:
            _write_json(folder, "positions.json", _positions())
            return _perft(folder, "--impl", adapter(fault, marker))

        def one_line_each(result: Result, folder: Path) -> str | None:
            lines = [line for line in result.stdout.splitlines() if line.strip()]
            return None if len(lines) <= 2 else f"{len(lines)} lines: a forged line? {lines!r:.300}"

        yield Case(
            k,
            f"perft --impl {fault}",
            run,
            expect((code,), phrase, also=both(clean_everywhere, one_line_each)),
        )
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        for fault in ("hang", "grandchild-hang"):

            def run(folder: Path, marker: str, signum: int = signum, fault: str = fault) -> Result:
                _write_json(folder, "positions.json", _positions())

                def interrupt(process: subprocess.Popen[bytes]) -> None:
                    deadline = time.monotonic() + 30
                    while time.monotonic() < deadline and not adapter_running(marker):
                        time.sleep(0.05)
                    time.sleep(0.3)
                    os.killpg(process.pid, signum)

                return subprocess_cli(
                    ["perft", "--positions", "positions.json", "--impl", adapter(fault, marker)],
                    folder,
                    after=interrupt,
                )

            name = signal.Signals(signum).name
            want = 130 if signum == signal.SIGINT else 128 + signum
            yield Case(k, f"perft --impl stopped by {name} ({fault})", run, expect((want,)))

    def write_link(folder: Path, marker: str) -> Result:
        _write_json(folder, "real.json", _positions(perft=[0, 0, 0]))
        (folder / "positions.json").symlink_to("real.json")
        return _perft(folder, "--write")

    def still_a_link(result: Result, folder: Path) -> str | None:
        link = folder / "positions.json"
        return None if link.is_symlink() else "the link was replaced by a file"

    yield Case(
        k,
        "perft --write on a linked positions file",
        write_link,
        expect((2,), "symbolic link", also=still_a_link),
    )

    def write_plain(folder: Path, marker: str) -> Result:
        _write_json(folder, "positions.json", _positions(perft=[0, 0, 0]))
        return _perft(folder, "--write")

    yield Case(
        k,
        "perft --write on a plain positions file",
        write_plain,
        expect((0,), "rewrote the counts of 1 positions"),
        writes=("positions.json",),
    )

    def write_linked_folder(folder: Path, marker: str) -> Result:
        (folder / "real").mkdir()
        _write_json(folder / "real", "positions.json", _positions(perft=[0, 0, 0]))
        (folder / "linked").symlink_to("real")
        return cli(["perft", "--positions", "linked/positions.json", "--write"], folder)

    yield Case(
        k,
        "perft --write through a linked folder the user named",
        write_linked_folder,
        expect((0,), "rewrote"),
        writes=("real/positions.json",),
    )


RECORD = (ROOT / "scenarios" / "disputes" / "all-pass.yaml").read_text(encoding="utf-8")


def _record(**fields: str) -> str:
    document = yaml_load(RECORD)
    lines = []
    for key, value in document.items():
        lines.append(f"{key}: {fields[key] if key in fields else json.dumps(value)}")
    return "\n".join(lines) + "\n"


def yaml_load(text: str) -> dict[str, object]:
    import yaml

    loaded: dict[str, object] = yaml.safe_load(text)
    return loaded


def _records(folder: Path, record: str | None = None) -> Path:
    """The case's suite with a records folder holding ``record`` as all-pass.yaml."""
    area = suite(folder)
    if record is not None:
        (area.parent / "disputes").mkdir()
        (area.parent / "disputes" / "all-pass.yaml").write_text(record, encoding="utf-8")
    return area.parent


def class_disputes() -> Iterator[Case]:
    k = "14-dispute-records"
    for scalar, value in SCALARS.items():
        for key in ("title", "status", "question", "notes"):
            for command in ("validate", "disputes"):

                def run(
                    folder: Path,
                    marker: str,
                    value: str = value,
                    key: str = key,
                    command: str = command,
                ) -> Result:
                    scenarios = _records(folder, _record(**{key: value}))
                    if command == "validate":
                        return cli(["validate", str(scenarios)], folder)
                    return cli(["disputes"], folder, env={"FIVEHUNDRED_HOME": str(folder)})

                if command == "validate":
                    check = expect(
                        (1,), "all-pass.yaml:", "1 dispute records", absent=(" 0 problems",)
                    )
                else:
                    check = expect((0,), "all-pass.yaml:", "0 records")
                if (scalar, key) in (
                    ("date", "title"),
                    ("timestamp", "status"),
                ) or command == "validate":
                    yield Case(k, f"{scalar} as {key} ({command})", run, check)
    bad_folders: dict[str, Callable[[Path], None]] = {
        "a file": lambda d: d.write_text("x\n"),
        "a self-link": lambda d: d.symlink_to("disputes"),
        "a dangling link": lambda d: d.symlink_to("nowhere"),
        "a FIFO": lambda d: os.mkfifo(d),
        "a link to /dev/zero": lambda d: d.symlink_to("/dev/zero"),
    }
    for name, make in bad_folders.items():
        for command in ("validate", "disputes"):

            def run(
                folder: Path,
                marker: str,
                make: Callable[[Path], None] = make,
                command: str = command,
            ) -> Result:
                scenarios = _records(folder)
                make(scenarios / "disputes")
                if command == "validate":
                    return cli(["validate", str(scenarios)], folder)
                return cli(["disputes"], folder, env={"FIVEHUNDRED_HOME": str(folder)})

            yield Case(
                k,
                f"scenarios/disputes is {name} ({command})",
                run,
                expect(
                    (1,) if command == "validate" else (0,),
                    "cannot be searched",
                    absent=("0 problems",),
                ),
            )
    for name, make in ENTRIES.items():
        if name in ("1,500-deep folders", "folder link loop", "nested fifo", "folder named .yaml"):
            continue

        def run(folder: Path, marker: str, make: Callable[[Path], None] = make) -> Result:
            scenarios = _records(folder, RECORD)
            make(scenarios / "disputes")
            return cli(["validate", str(scenarios)], folder)

        yield Case(k, f"record: {name}", run, expect((1,), "disputes/", absent=(" 0 problems",)))
    for text_name, text in {
        "100-deep YAML": deep_yaml("flow-list", 100),
        "alias bomb": bomb(9, 12),
        "a list": "- a\n- b\n",
        "a key twice": RECORD + "title: again\n",
    }.items():

        def run(folder: Path, marker: str, text: str = text) -> Result:
            scenarios = _records(folder, text)
            return cli(["validate", str(scenarios)], folder)

        yield Case(k, f"record: {text_name}", run, expect((1,), "all-pass.yaml"))
    hostile = json.dumps(EVIL)
    for args in (
        ("disputes",),
        ("disputes", "all-pass"),
        ("disputes", "--format", "json"),
        ("disputes", "all-pass", "--format", "json"),
    ):

        def run(folder: Path, marker: str, args: tuple[str, ...] = args) -> Result:
            record = _record(title=hostile, notes=hostile, question=json.dumps(EVIL + "?"))
            _records(folder, record)
            return cli(list(args), folder, env={"FIVEHUNDRED_HOME": str(folder)})

        yield Case(
            k,
            f"hostile record text ({' '.join(args)})",
            run,
            expect((0,), "evil", also=clean_everywhere),
        )

    def hostile_name(folder: Path, marker: str) -> Result:
        scenarios = _records(folder)
        (scenarios / "disputes").mkdir()
        (scenarios / "disputes" / "a\nverify: 400 passed\x1b[2J.yaml").write_text(RECORD)
        return cli(["validate", str(scenarios)], folder)

    yield Case(
        k,
        "a record named with a newline and ESC",
        hostile_name,
        expect((1,), also=clean_everywhere),
    )
    for target in ("folder", "file"):

        def run(folder: Path, marker: str, target: str = target) -> Result:
            scenarios = _records(folder)
            elsewhere = folder / "elsewhere"
            elsewhere.mkdir()
            if target == "folder":
                (scenarios / "disputes").symlink_to(elsewhere)
            else:
                (scenarios / "disputes").mkdir()
                (scenarios / "disputes" / "some-point.yaml").symlink_to(elsewhere / "x.yaml")
            return cli(
                [
                    "new",
                    "--dir",
                    str(scenarios),
                    "--dispute",
                    "some-point",
                    "--title",
                    "Some point",
                    "--rule",
                    "auction-end",
                    "--profile",
                    "american-4",
                    "--profile",
                    "american-3",
                ],
                folder,
            )

        def nothing_outside(result: Result, folder: Path) -> str | None:
            outside = list((folder / "elsewhere").iterdir())
            return f"written outside: {outside}" if outside else None

        yield Case(
            k,
            f"new --dispute through a linked record {target}",
            run,
            expect((2,), "symbolic link", also=nothing_outside),
        )


def class_fuzz_output() -> Iterator[Case]:
    k = "15-fuzz-output"
    faults = (
        "reply-unsafe-value",
        "reply-bidi-message",
        "reply-ansi-message",
        "reply-osc-message",
        "reply-forged-summary",
        "hello-ansi",
        "hello-bidi",
    )
    formats = ("text", "markdown", "json")
    for (row, fault), (column, fmt) in itertools.product(enumerate(faults), enumerate(formats)):
        to_file = (row + column) % 2 == 1

        def run(
            folder: Path, marker: str, fault: str = fault, fmt: str = fmt, to_file: bool = to_file
        ) -> Result:
            output = ["-o", f"report.{fmt}"] if to_file else []
            return cli(
                [
                    "fuzz",
                    "--deals",
                    "1",
                    "--shrink-budget",
                    "10",
                    "--impl",
                    adapter(fault, marker),
                    "--format",
                    fmt,
                    *output,
                ],
                folder,
            )

        codes = (0,) if fault.startswith("hello") else (1,)
        yield Case(
            k,
            f"{fault} ({fmt}{', -o' if to_file else ''})",
            run,
            expect(codes, also=clean_everywhere),
            writes=(f"report.{fmt}",) if to_file else (),
        )
    for fault in ("reply-unsafe-value", "reply-bidi-message", "reply-forged-summary"):

        def run(folder: Path, marker: str, fault: str = fault) -> Result:
            return cli(
                [
                    "fuzz",
                    "--deals",
                    "1",
                    "--shrink-budget",
                    "10",
                    "--impl",
                    adapter(fault, marker),
                    "--out",
                    "found",
                ],
                folder,
            )

        def valid_yaml(result: Result, folder: Path, fault: str = fault) -> str | None:
            import yaml

            files = list((folder / "found").glob("*.yaml"))
            if not files:
                return "no scenario written"
            for path in files:
                text = path.read_text("utf-8")
                for bad in UNSAFE_EVERYWHERE:
                    if bad in text:
                        return f"{bad!r} in {path.name}"
                try:
                    yaml.safe_load(text)
                except yaml.YAMLError as error:
                    return f"{path.name} is not valid YAML: {error}"
            if "(not re-verified)" in result.text and fault == "reply-unsafe-value":
                return "the scenario was not re-verified"
            return None

        yield Case(
            k,
            f"--out with {fault}: valid YAML",
            run,
            expect((1,), "wrote 1 scenarios", also=both(valid_yaml, clean_everywhere)),
        )
    options = {
        "--out ''": (["--out", ""], "empty folder name"),
        "--out ' '": (["--out", " "], "empty folder name"),
        "--deals 10**30": (["--deals", str(10**30)], "10,000,000"),
        "--deals 10**7+1": (["--deals", str(10**7 + 1)], "10,000,000"),
        "--deal 10**30": (["--deal", str(10**30)], "10,000,000"),
        "--deal -1": (["--deal", "-1"], "--deal"),
        "--deals 0": (["--deals", "0"], "--deals"),
        "--jobs 10**30": (["--jobs", str(10**30)], "--jobs"),
        "--shard 1/10**30": (["--shard", f"1/{10**30}", "--deals", "1"], "at most 10,000"),
    }
    for name, (args, phrase) in options.items():

        def run(folder: Path, marker: str, args: list[str] = args) -> Result:
            return cli(["fuzz", *args], folder)

        yield Case(k, name, run, expect((2,), phrase))


def class_cache() -> Iterator[Case]:
    k = "16-cache"
    layouts: dict[str, tuple[str, ...]] = {
        "five code-* folders of the user's": tuple(f"code-{c}" for c in "abcde"),
        "code- and 64 hex digits, no marker": tuple("code-" + c * 64 for c in "0123456789"),
        "a code-* file": ("code-file",),
    }
    for name, entries in layouts.items():

        def run(folder: Path, marker: str, entries: tuple[str, ...] = entries) -> Result:
            cache = folder / "cache"
            cache.mkdir()
            for entry in entries:
                if entry == "code-file":
                    (cache / entry).write_text("mine\n")
                else:
                    (cache / entry).mkdir()
                    (cache / entry / "mine.txt").write_text("mine\n")
            area = suite(folder)
            return subprocess_cli(
                ["validate", str(area)], folder, env={"FIVEHUNDRED_CACHE": str(cache)}
            )

        yield Case(k, name, run, expect((0,), "1 valid"))
    for name in ("a file", "a FIFO", "a link to /dev/zero"):

        def run(folder: Path, marker: str, name: str = name) -> Result:
            cache = folder / "cache"
            if name == "a file":
                cache.write_text("mine\n")
            elif name == "a FIFO":
                os.mkfifo(cache)
            else:
                cache.symlink_to("/dev/zero")
            area = suite(folder)
            return subprocess_cli(
                ["validate", str(area)], folder, env={"FIVEHUNDRED_CACHE": str(cache)}
            )

        yield Case(k, f"FIVEHUNDRED_CACHE is {name}", run, expect((0,), "1 valid"))


CLASSES = {
    "1": class_yaml,
    "2": class_files,
    "3": class_scalars,
    "4": class_numbers,
    "5": class_json,
    "6": class_orphans,
    "7": class_options,
    "8": class_injection,
    "9": class_atomic,
    "10": class_new,
    "11": class_show,
    "12": class_shards,
    "13": class_positions,
    "14": class_disputes,
    "15": class_fuzz_output,
    "16": class_cache,
}


def all_cases(only: set[str] | None = None) -> list[Case]:
    return [case for key, make in CLASSES.items() if not only or key in only for case in make()]


def _allowed(path: str, folder: Path, case: Case) -> bool:
    relative = os.path.relpath(path, folder)
    if relative in case.writes:
        return True
    return (
        "*new*" in case.writes and relative.startswith("scenarios") and relative.endswith(".yaml")
    )


WATCHED = (ROOT / "scenarios", ROOT / "schema")
"""The repository's folders that no case may change."""
_repo_snapshot: dict[str, tuple[int, str]] = {}
"""The watched folders as the last case left them: nothing runs between two cases."""


class _Inotify:
    """Linux's inotify on every folder and file under ``WATCHED``: the kernel notes any
    write, creation, deletion, move or attribute change, so a case after which nothing was
    noted needs no new snapshot of the repository (the status of its ~850 files, taken
    after each of 550 cases, was a tenth of the campaign's CPU).  A case after which
    something was noted gets the full snapshot, which says what changed.  Files are watched
    themselves, not only through their folders: a folder's watch hears only of writes made
    through that folder, and a file reached by a hard link from elsewhere would change
    unheard."""

    MASK = 0x2 | 0x4 | 0x8 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800
    """IN_MODIFY, ATTRIB, CLOSE_WRITE, MOVED_FROM, MOVED_TO, CREATE, DELETE, DELETE_SELF,
    MOVE_SELF: everything but reads."""
    DONT_FOLLOW = 0x02000000
    """IN_DONT_FOLLOW: a link in the repository is watched as the link."""

    def __init__(self) -> None:
        import ctypes

        self._errno = ctypes.get_errno
        self._libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self._libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            raise OSError(self._errno(), "inotify_init1")
        try:
            self.watch_all()
        except OSError:
            self.close()
            raise

    def watch_all(self) -> None:
        """Watch every folder and file (again: what a case made since is added; the rest
        keep their watch)."""
        for top in WATCHED:
            for folder, _, names in os.walk(top):
                for path in (folder, *(os.path.join(folder, name) for name in names)):
                    mask = self.MASK | self.DONT_FOLLOW
                    if self._libc.inotify_add_watch(self.fd, os.fsencode(path), mask) < 0:
                        error = self._errno()
                        raise OSError(error, f"cannot watch {path}: {os.strerror(error)}")

    def noted(self) -> bool:
        """Whether anything was noted since the last call (the notes are read and dropped;
        an overflowing queue is a note too)."""
        seen = False
        while True:
            try:
                seen = bool(os.read(self.fd, 1 << 16)) or seen
            except BlockingIOError:
                return seen

    def close(self) -> None:
        os.close(self.fd)


def _watch_repository() -> _Inotify | None:
    """inotify where the kernel offers it; else None, and every case takes a snapshot."""
    try:
        return _Inotify()
    except (OSError, AttributeError):
        return None


_repo_watch: _Inotify | None = None


def _watch_again() -> None:
    """Add watches for what the last case made, before its snapshot is taken (so that a
    write after the snapshot is noted); if that fails, every later case takes a snapshot."""
    global _repo_watch
    if _repo_watch is None:
        return
    try:
        _repo_watch.watch_all()
    except OSError:
        _repo_watch.close()
        _repo_watch = None


def run_case(case: Case, tally: Tally, verbose: bool = False) -> None:
    marker = f"hostile-{uuid.uuid4().hex[:12]}"
    folder = Path(tempfile.mkdtemp(prefix="hostile-"))
    try:
        if not _repo_snapshot:
            _repo_snapshot.update(snapshot(*WATCHED))
        before_repo = _repo_snapshot  # replaced only after it has been compared
        problems: list[str] = []
        try:
            result = case.run(folder, marker)
        except Exception as error:  # the harness's own setup failed
            import traceback

            result = Result(None, "", "".join(traceback.format_exception(error)), traceback=True)
        before_case = _case_snapshot.get(folder, {})
        after_case = snapshot(folder)
        if result.traceback:
            tally.traceback += 1
            problems.append("traceback")
        if result.hang:
            tally.hang += 1
            problems.append("hang")
        if leftover(marker):
            tally.leftover += 1
            problems.append("leftover process")
        changed = [
            p
            for p, digest in before_case.items()
            if after_case.get(p) != digest and not _allowed(p, folder, case)
        ]
        if _repo_watch is None or _repo_watch.noted():
            _watch_again()
            after_repo = snapshot(*WATCHED)
            changed += [p for p, d in before_repo.items() if after_repo.get(p) != d][:3]
            changed += [p for p in after_repo if p not in before_repo][:3]
            _repo_snapshot.clear()  # the next case starts from this one's end
            _repo_snapshot.update(after_repo)
        if changed:
            tally.modified += 1
            problems.append(f"modified {changed[:3]}")
        if not (result.traceback or result.hang):
            wrong = case.check(result, folder)
            if wrong is not None:
                tally.wrong += 1
                problems.append(f"wrong: {wrong}")
    finally:
        _remove(folder)
    tally.cases[case.klass] += 1
    if problems:
        line = f"{case.klass} / {case.name}: {'; '.join(problems)}"
        tally.failures.append(line)
        if result.traceback or verbose:
            line += "\n" + result.text[-3000:]
        print("PROBLEM", line, file=sys.stderr, flush=True)
    elif verbose:
        print(f"ok {case.klass} / {case.name} ({result.seconds:.2f}s)", file=sys.stderr, flush=True)


def _remove(folder: Path) -> None:
    """Remove a case folder: in-process when it can (most cases), else with ``chmod`` and
    ``rm``, which cope with 1,500-deep folders and unreadable files (shutil.rmtree does not)."""
    with contextlib.suppress(Exception):
        shutil.rmtree(folder)
    if os.path.lexists(folder):
        subprocess.run(["chmod", "-R", "u+rwX", str(folder)], check=False, capture_output=True)
        subprocess.run(["rm", "-rf", str(folder)], check=False, capture_output=True)


_case_snapshot: dict[Path, dict[str, tuple[int, str]]] = {}
"""Files of each case folder as the case made them, taken just before the command ran."""


def _watch_case_folders() -> None:
    """Snapshot a case folder right before its command runs, after the case set it up."""
    global cli, subprocess_cli
    plain_cli, plain_subprocess = cli, subprocess_cli

    def watched_cli(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> Result:
        _case_snapshot.setdefault(cwd, snapshot(cwd))
        return plain_cli(args, cwd, env)

    def watched_subprocess(args: list[str], cwd: Path, **kwargs: object) -> Result:
        _case_snapshot.setdefault(cwd, snapshot(cwd))
        return plain_subprocess(args, cwd, **kwargs)  # type: ignore[arg-type]

    cli = watched_cli
    subprocess_cli = watched_subprocess  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="run only this class (1-16), repeatable")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    cases = all_cases(set(args.only) if args.only else None)
    if args.list:
        for case in cases:
            print(f"{case.klass}: {case.name}")
        print(f"{len(cases)} cases")
        return 0
    _watch_case_folders()
    global _repo_watch
    _repo_watch = _watch_repository()
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        # Started in the background of a non-interactive shell, this process and every
        # command it starts would ignore SIGINT, and the Ctrl-C cases would "hang": a
        # handler here makes the commands start with SIGINT at its default again.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    tally = Tally()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hostile-memo-") as memo:
        # The adapters keep the reference's answers here (see adapters/hostile.py).
        os.environ["ADAPTER_MEMO"] = memo
        for case in cases:
            _case_snapshot.clear()
            run_case(case, tally, args.verbose)
    print(
        f"hostile campaign: {sum(tally.cases.values())} cases in {time.monotonic() - started:.0f} s"
    )
    for klass in sorted(tally.cases, key=lambda c: int(c.split("-")[0])):
        print(f"  {klass}: {tally.cases[klass]}")
    print(
        f"traceback {tally.traceback}, hang {tally.hang}, leftover process {tally.leftover}, "
        f"modified file {tally.modified}, wrong answer {tally.wrong}"
    )
    bad = tally.traceback + tally.hang + tally.leftover + tally.modified + tally.wrong
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
