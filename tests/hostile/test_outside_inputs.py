"""Shard files, positions files, dispute records and adapters' text are input from outside.

Each test is one reproduction of issue 29, run the way a user would (the command line,
in-process) and checked against the rules of site/limits.md: a clear error rather than a
traceback or a hang, nothing written outside the folder named or through a link, nothing
from outside reaching a terminal or a file unescaped, no verdict that checked nothing
passing, no adapter left running.
"""

from __future__ import annotations

import copy
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from fivehundred.cli.main import main
from fivehundred.resources import scenarios_dir
from fivehundred.safety import (
    MAX_FUZZ_DEALS,
    FileRefused,
    clean_name,
    clean_text,
    place,
)

HERE = Path(__file__).resolve().parent
ADAPTER = HERE / "adapters" / "hostile.py"
UNSAFE = ("\x1b", "\x07", "\x9b", "\x85", "\u202e", "\u2066", "\u2069", "\u200b", "\u2028", "\r")
"""What must never reach a terminal or a report: ESC, BEL, C1, bidi and format characters."""
EVIL = "evil\x1b[2J\x1b]0;pwned\x07\x9b31m\x85\u202eesrever\u2066x\u2069\u200b\u2028end"


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """``fivehundred ARGS`` in-process; an exception escaping the command fails the test."""
    result = CliRunner().invoke(main, list(args), env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def assert_clean(text: str) -> None:
    for bad in UNSAFE:
        assert bad not in text, f"{bad!r} reached the output: {text[-400:]!r}"
    assert "Traceback" not in text


def adapter(fault: str) -> str:
    return shlex.join([sys.executable, str(ADAPTER), fault])


# ---- the escaper ------------------------------------------------------------------------


def test_the_escaper_covers_every_format_character_of_unicode() -> None:
    """Bidi overrides and isolates, zero-width characters, tags: all of category Cf."""
    missed = [
        hex(code)
        for code in range(0x110000)
        if unicodedata.category(chr(code)) == "Cf" and clean_text(chr(code)) == chr(code)
    ]
    assert missed == []
    assert clean_text("a\u202eb\u2066c\u200bd\x9be") == "a\\u202eb\\u2066c\\u200bd\\x9be"
    assert clean_text("♠ Misère 🃏\n") == "♠ Misère 🃏\n"


def test_a_name_holding_a_newline_is_shown_on_one_line() -> None:
    assert clean_name("a\nb\tc\u202e.json") == "a\\x0ab\\x09c\\u202e.json"


def test_a_positions_file_name_with_a_newline_is_one_line_of_the_error(tmp_path: Path) -> None:
    path = tmp_path / "bad\nverify: 400 passed.json"
    path.write_text("[]", encoding="utf-8")
    code, _out, err = run("perft", "--positions", str(path))
    assert code == 2
    assert "bad\\x0averify" in err and "\nverify: 400" not in err


# ---- the place rule -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["", ".", "..", "../x", "/abs", "a/b", "a\0b", ".hidden"])
def test_place_refuses_a_name_that_is_not_plain(tmp_path: Path, name: str) -> None:
    with pytest.raises(FileRefused):
        place(tmp_path, name)


def test_place_refuses_a_link_on_the_way(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "linked").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(FileRefused, match="symbolic link"):
        place(tmp_path, "linked", "x.yaml")
    assert place(tmp_path, "elsewhere", "x.yaml") == tmp_path / "elsewhere" / "x.yaml"


# ---- fuzz shards --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shard(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real shard with one family, found against an adapter whose answers are hostile."""
    folder = tmp_path_factory.mktemp("shard")
    target = folder / "shard.json"
    code, _, err = run(
        "fuzz",
        "--deals",
        "1",
        "--impl",
        adapter("reply-unsafe-value"),
        "--shrink-budget",
        "20",
        "--format",
        "json",
        "-o",
        str(target),
    )
    assert code == 1, err
    data: dict[str, Any] = json.loads(target.read_text(encoding="utf-8"))
    assert data["families"] and data["families"][0]["scenario"]
    return data


def _write(folder: Path, data: Any, name: str = "shard.json") -> Path:
    path = folder / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize(
    "filename",
    ["../escaped.pth", "../../escaped.pth", "/tmp/escaped-{}.pth", "a\0b.yaml", "x/../../y.pth"],
)
def test_merge_writes_only_the_names_the_suite_makes(
    tmp_path: Path, shard: dict[str, Any], filename: str
) -> None:
    data = copy.deepcopy(shard)
    family = data["families"][0]
    family["filename"] = filename.format(os.getpid())
    path = _write(tmp_path, data)
    out = tmp_path / "deep" / "out"
    code, stdout, stderr = run("fuzz", "merge", str(path), "--out", str(out))
    assert code == 1, stderr  # a family found
    written = _files(out)
    assert written == [f"fuzz-{family['scenario_id'].lower()}-start-phase.yaml"]
    assert _files(tmp_path) == sorted(["shard.json", "deep", "deep/out", f"deep/out/{written[0]}"])
    # A relative name would land beside the output folder, which the listing of tmp_path
    # covers; an absolute one anywhere, so it is looked for where it says.
    target = Path(filename.format(os.getpid()))
    assert not (target.is_absolute() and target.exists())
    assert yaml.safe_load((out / written[0]).read_text(encoding="utf-8"))["id"]
    assert_clean(stdout + stderr)


def test_merge_does_not_write_a_family_whose_id_the_suite_would_not_mint(
    tmp_path: Path, shard: dict[str, Any]
) -> None:
    data = copy.deepcopy(shard)
    data["families"][0]["scenario_id"] = "../../x"
    out = tmp_path / "out"
    code, _stdout, stderr = run("fuzz", "merge", str(_write(tmp_path, data)), "--out", str(out))
    assert code == 1
    assert "not written" in stderr and _files(out) == []


def test_a_merged_report_escapes_the_shards_text(tmp_path: Path, shard: dict[str, Any]) -> None:
    data = copy.deepcopy(shard)
    data["implementation"] = EVIL
    data["families"][0]["signature"]["actual"] = EVIL
    data["families"][0]["generator"] = EVIL
    path = _write(tmp_path, data)
    for fmt in ("text", "markdown", "json"):
        code, stdout, stderr = run("fuzz", "merge", str(path), "--format", fmt)
        assert code == 1
        assert_clean(stdout + stderr)
        if fmt != "json":
            assert "\\x1b[2J" in stdout
    report = tmp_path / "report.md"
    run("fuzz", "merge", str(path), "--format", "markdown", "-o", str(report))
    assert_clean(report.read_text(encoding="utf-8"))


def _spoiled(shard: dict[str, Any], change: str) -> Any:
    data = copy.deepcopy(shard)
    if change == "billion":
        data["indices"] = [[0, 10**9, 1]]
        data["deals"] = 10**9 + 1
    elif change == "indices-mismatch":
        data["indices"] = [[0, 5, 1]]
    elif change == "shard 1/0":
        data["shards"] = ["1/0"]
    elif change == "shard 3/2":
        data["shards"] = ["3/2"]
    elif change == "kind a list":
        data["families"][0]["signature"]["kind"] = ["x"]
    elif change == "count a string":
        data["families"][0]["count"] = "3"
    elif change == "families a mapping":
        data["families"] = {}
    elif change == "seconds negative":
        data["seconds"] = -1
    elif change == "jobs a billion":
        data["jobs"] = 10**9
    return data


REFUSED_SHARDS = {
    "a list": ("[]", "expected a mapping, found a list"),
    "deep nesting": ("[" * 100_000 + "]" * 100_000, "nest deeper"),
    "NaN": ('{"seconds": NaN}', "NaN is not JSON"),
    "Infinity": ('{"seconds": Infinity}', "Infinity"),
    "1e400": ('{"seconds": 1e400}', "out of range"),
    "a key twice": ('{"deals": 1, "deals": 2}', "appears twice"),
    "not JSON": ("{", "line 1, column 2"),
    "not UTF-8": ("\udcff", "not UTF-8"),
}


@pytest.mark.parametrize("name", sorted(REFUSED_SHARDS))
def test_a_malformed_shard_is_a_clear_error(tmp_path: Path, name: str) -> None:
    text, phrase = REFUSED_SHARDS[name]
    path = tmp_path / "shard.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    code, stdout, stderr = run("fuzz", "merge", str(path))
    assert code == 2 and phrase in stderr, stderr
    assert_clean(stdout + stderr)


@pytest.mark.parametrize(
    ("change", "phrase"),
    [
        ("billion", "10,000,000"),
        ("indices-mismatch", "do not hold"),
        ("shard 1/0", "'1/0' is not a shard"),
        ("shard 3/2", "'3/2' is not a shard"),
        ("kind a list", "families[0].signature.kind: expected a string"),
        ("count a string", "families[0].count: expected a whole number"),
        ("families a mapping", "families: expected a list"),
        ("seconds negative", "seconds"),
        ("jobs a billion", "jobs"),
    ],
)
def test_a_shard_of_the_wrong_shape_is_a_clear_error(
    tmp_path: Path, shard: dict[str, Any], change: str, phrase: str
) -> None:
    path = _write(tmp_path, _spoiled(shard, change))
    code, _stdout, stderr = run("fuzz", "merge", str(path), "--format", "json")
    assert code == 2 and phrase in stderr, stderr  # a billion-entry range is not expanded


def test_merged_shards_may_not_exceed_the_limit_together(
    tmp_path: Path, shard: dict[str, Any]
) -> None:
    half = MAX_FUZZ_DEALS // 2 + 1
    paths = []
    for number in range(2):
        data = copy.deepcopy(shard)
        data["families"], data["disagreeing"], data["by_generator"] = [], 0, {}
        data["deals"], data["indices"] = half, [[number, number + 2 * (half - 1), 2]]
        paths.append(str(_write(tmp_path, data, f"s{number}.json")))
    code, _, stderr = run("fuzz", "merge", *paths)
    assert code == 2 and "together" in stderr


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder"])
def test_a_shard_or_positions_path_that_is_no_file_is_refused_at_once(
    tmp_path: Path, kind: str
) -> None:
    if kind == "fifo":
        path = tmp_path / "fifo.json"
        os.mkfifo(path)
    elif kind == "folder":
        path = tmp_path
    else:
        path = Path("/dev/zero")
    for args in (("fuzz", "merge", str(path)), ("perft", "--positions", str(path))):
        code, _stdout, stderr = run(*args)
        assert code == 2, stderr
        assert "only regular files are read" in stderr or "is a directory" in stderr


# ---- fuzz itself --------------------------------------------------------------------------


def test_fuzz_reports_escape_the_adapters_text_and_its_scenarios_are_valid_yaml(
    tmp_path: Path,
) -> None:
    out = tmp_path / "found"
    common = ["fuzz", "--deals", "1", "--shrink-budget", "20", "--impl"]
    code, stdout, stderr = run(*common, adapter("reply-unsafe-value"), "--out", str(out))
    assert code == 1
    assert_clean(stdout + stderr)
    (written,) = out.iterdir()
    text = written.read_text(encoding="utf-8")
    assert_clean(text)
    assert yaml.safe_load(text)["id"]
    assert "(not re-verified)" not in stdout
    for fmt, name in (("markdown", "r.md"), ("text", "r.txt")):
        code, stdout, stderr = run(
            *common, adapter("reply-bidi-message"), "--format", fmt, "-o", str(tmp_path / name)
        )
        assert code == 1
        assert_clean(stdout + stderr + (tmp_path / name).read_text(encoding="utf-8"))


def test_fuzz_out_with_an_empty_name_is_a_usage_error(tmp_path: Path) -> None:
    code, _, stderr = run("fuzz", "--deals", "1", "--out", "")
    assert code == 2 and "empty folder name" in stderr


@pytest.mark.parametrize("option", ["--deals", "--deal"])
def test_an_absurd_number_of_deals_is_a_usage_error_with_the_limit(option: str) -> None:
    code, _, stderr = run("fuzz", option, str(10**30))
    assert code == 2 and "10,000,000" in stderr and "Traceback" not in stderr


# ---- perft --------------------------------------------------------------------------------


def _positions(name: str = "first") -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (scenarios_dir() / "perft-positions.json").read_text(encoding="utf-8")
    )
    data["positions"] = data["positions"][:1]
    data["positions"][0]["name"] = name
    return data


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("[" * 100_000 + "]" * 100_000, "nest deeper"),
        ("[]", "not a perft positions file"),
        ('{"format": "fivehundred-perft/1", "positions": [[]]}', "expected a mapping"),
        ('{"format": "fivehundred-perft/1", "positions": NaN}', "NaN"),
        ('{"format": "fivehundred-perft/1", "format": "x"}', "appears twice"),
    ],
)
def test_a_malformed_positions_file_is_a_clear_error(
    tmp_path: Path, text: str, phrase: str
) -> None:
    path = tmp_path / "positions.json"
    path.write_text(text, encoding="utf-8")
    code, _stdout, stderr = run("perft", "--positions", str(path))
    assert code == 2 and phrase in stderr, stderr


def test_perft_escapes_a_positions_name(tmp_path: Path) -> None:
    path = _write(tmp_path, _positions(EVIL), "positions.json")
    for extra in ((), ("--depth", "1")):
        code, stdout, stderr = run("perft", "--positions", str(path), *extra)
        assert code == 0, stderr
        assert_clean(stdout + stderr)
        assert "evil\\x1b[2J" in stdout


def test_perft_escapes_an_adapters_error(tmp_path: Path) -> None:
    path = _write(tmp_path, _positions(), "positions.json")
    code, stdout, stderr = run(
        "perft", "--positions", str(path), "--impl", adapter("reply-bidi-message")
    )
    assert code == 1 and "FAIL" in stdout
    assert_clean(stdout + stderr)
    assert stdout.count("\n") == 2  # one line for the position, one summary: none forged


def test_perft_of_an_adapter_without_legal_actions_checked_nothing_and_fails(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path, _positions(), "positions.json")
    code, _, stderr = run("perft", "--positions", str(path), "--impl", adapter("hello-no-legal"))
    assert code == 1 and "Nothing was checked" in stderr


def test_perft_write_refuses_a_linked_positions_file(tmp_path: Path) -> None:
    target = _write(tmp_path, _positions(), "real.json")
    before = target.read_bytes()
    link = tmp_path / "positions.json"
    link.symlink_to(target.name)
    code, _, stderr = run("perft", "--positions", str(link), "--write")
    assert code == 2 and "symbolic link" in stderr
    assert link.is_symlink() and target.read_bytes() == before


def test_perft_write_rewrites_a_plain_file(tmp_path: Path) -> None:
    data = _positions()
    data["positions"][0]["perft"] = [0, 0, 0]
    path = _write(tmp_path, data, "positions.json")
    code, stdout, _ = run("perft", "--positions", str(path), "--write")
    assert code == 0 and "rewrote the counts of 1 positions" in stdout
    assert json.loads(path.read_text(encoding="utf-8"))["positions"][0]["perft"] != [0, 0, 0]


def _adapters(marker: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as file:
                    if marker.encode() in file.read().split(b"\0"):
                        found.append(int(name))
            except OSError:
                continue
    return found


@pytest.fixture
def marker() -> Iterator[str]:
    token = f"perft-stop-{os.getpid()}-{time.monotonic_ns()}"
    yield token
    for pid in _adapters(token):  # never leave one behind, even when the test fails
        os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_perft_stopped_by_a_signal_ends_its_adapter(
    tmp_path: Path, marker: str, signum: int
) -> None:
    path = _write(tmp_path, _positions(), "positions.json")
    command = adapter("hang") + " --marker " + marker
    process = subprocess.Popen(
        [sys.executable, "-m", "fivehundred", "perft", "--positions", str(path), "--impl", command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not _adapters(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _adapters(marker), "the adapter did not start"
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 128 + signum, stderr
    assert "the adapter was killed" in stderr
    deadline = time.monotonic() + 5
    while _adapters(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _adapters(marker) == []


# ---- dispute records ----------------------------------------------------------------------


def _suite(root: Path, record: str | None = None) -> Path:
    """A suite folder with the shipped auction scenarios and one record (or none)."""
    scenarios = root / "scenarios"
    (scenarios / "area").mkdir(parents=True)
    for path in sorted((scenarios_dir() / "auction").glob("*.yaml"))[:3]:
        (scenarios / "area" / path.name).write_bytes(path.read_bytes())
    if record is not None:
        (scenarios / "disputes").mkdir()
        (scenarios / "disputes" / "all-pass.yaml").write_text(record, encoding="utf-8")
    return scenarios


def _record(**fields: str) -> str:
    text = (scenarios_dir() / "disputes" / "all-pass.yaml").read_text(encoding="utf-8")
    document = yaml.safe_load(text)
    lines = []
    for key, value in document.items():
        lines.append(f"{key}: {fields[key] if key in fields else json.dumps(value)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("field", ["title", "status", "notes"])
def test_an_unquoted_date_in_a_record_is_a_located_problem(tmp_path: Path, field: str) -> None:
    scenarios = _suite(tmp_path, _record(**{field: "2024-01-01"}))
    code, stdout, stderr = run("validate", str(scenarios))
    assert code == 1
    assert f"{field}: found a date" in stdout + stderr
    code, stdout, stderr = run("disputes", env={"FIVEHUNDRED_HOME": str(tmp_path)})
    assert "found a date" in stdout + stderr and "Traceback" not in stdout + stderr


def test_a_records_folder_that_is_a_file_is_a_problem(tmp_path: Path) -> None:
    scenarios = _suite(tmp_path)
    (scenarios / "disputes").write_text("not a folder\n", encoding="utf-8")
    code, stdout, stderr = run("validate", str(scenarios))
    assert code == 1 and "cannot be searched: it is not a folder" in stdout + stderr
    assert "0 problems" not in stdout + stderr


@pytest.mark.parametrize("where", ["folder", "record", "two records"])
def test_a_link_loop_among_the_records_is_a_problem(tmp_path: Path, where: str) -> None:
    scenarios = _suite(tmp_path)
    disputes = scenarios / "disputes"
    if where == "folder":
        disputes.symlink_to("disputes")
    else:
        disputes.mkdir()
        if where == "record":
            (disputes / "a.yaml").symlink_to("a.yaml")
        else:
            (disputes / "a.yaml").symlink_to("b.yaml")
            (disputes / "b.yaml").symlink_to("a.yaml")
    code, stdout, stderr = run("validate", str(scenarios))
    assert code == 1 and "symbolic links" in stdout + stderr
    code, stdout, stderr = run("disputes", env={"FIVEHUNDRED_HOME": str(tmp_path)})
    assert "symbolic links" in stdout + stderr


def test_disputes_escapes_a_records_text(tmp_path: Path) -> None:
    hostile = json.dumps(EVIL)
    question = json.dumps(EVIL + "?")
    _suite(tmp_path, _record(title=hostile, notes=hostile, question=question))
    env = {"FIVEHUNDRED_HOME": str(tmp_path)}
    for args in (
        ("disputes",),
        ("disputes", "all-pass"),
        ("disputes", "all-pass", "--format", "json"),
    ):
        code, stdout, stderr = run(*args, env=env)
        assert code == 0, stderr
        assert_clean(stdout + stderr)
        assert "evil" in stdout


def test_new_dispute_refuses_a_linked_records_folder(tmp_path: Path) -> None:
    scenarios = _suite(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (scenarios / "disputes").symlink_to(elsewhere)
    code, _, stderr = run(
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
    )
    assert code == 2 and "symbolic link" in stderr
    assert list(elsewhere.iterdir()) == []
    assert not (scenarios / "american-4").exists()


# ---- the cache ----------------------------------------------------------------------------


def test_cache_pruning_never_removes_the_users_folders(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    mine = [cache / f"code-{letter}" for letter in "abcde"]
    for folder in mine:
        folder.mkdir(parents=True)
        (folder / "keep.txt").write_text("mine", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "fivehundred", "validate"],
        env={**os.environ, "FIVEHUNDRED_CACHE": str(cache)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert all((folder / "keep.txt").read_text(encoding="utf-8") == "mine" for folder in mine)
    made = [p for p in cache.iterdir() if p not in mine]
    assert len(made) == 1 and (made[0] / ".fivehundred-cache").is_file()


# ---- written YAML -------------------------------------------------------------------------


def test_an_expectations_file_named_with_a_newline_is_still_valid_yaml(tmp_path: Path) -> None:
    scenarios = _suite(tmp_path)
    target = tmp_path / "known\nverify: 400 passed\x1b[2J.yaml"
    code, _, stderr = run("verify", str(scenarios), "--write-expectations", str(target))
    assert code == 0, stderr
    text = target.read_text(encoding="utf-8")
    assert_clean(text)
    assert yaml.safe_load(text) == {}
    assert all(line.startswith("#") for line in text.splitlines()[:3])


def test_merge_out_never_writes_through_a_link_at_the_suites_name(
    tmp_path: Path, shard: dict[str, Any]
) -> None:
    data = copy.deepcopy(shard)
    name = f"fuzz-{data['families'][0]['scenario_id'].lower()}-start-phase.yaml"
    out = tmp_path / "out"
    out.mkdir()
    outside = tmp_path / "outside.yaml"
    (out / name).symlink_to(outside)
    code, _, stderr = run("fuzz", "merge", str(_write(tmp_path, data)), "--out", str(out))
    assert code == 1 and "symbolic link" in stderr and "not written" in stderr
    assert not outside.exists() and (out / name).is_symlink()


def test_a_merged_json_report_names_the_file_the_suite_would_write(
    tmp_path: Path, shard: dict[str, Any]
) -> None:
    data = copy.deepcopy(shard)
    family = data["families"][0]
    family["filename"] = "../../escaped.pth"
    code, stdout, _ = run("fuzz", "merge", str(_write(tmp_path, data)), "--format", "json")
    assert code == 1
    (merged,) = json.loads(stdout)["families"]
    assert merged["filename"] == f"fuzz-{family['scenario_id'].lower()}-start-phase.yaml"


def test_a_time_budget_stops_at_the_deal_limit_so_merge_can_read_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fivehundred.cli.fuzz_command as fuzz_command

    monkeypatch.setattr(fuzz_command, "MAX_FUZZ_DEALS", 3)
    target = tmp_path / "shard.json"
    code, _, stderr = run("fuzz", "--time", "600", "--format", "json", "-o", str(target))
    assert code == 0, stderr
    assert json.loads(target.read_text(encoding="utf-8"))["deals"] == 3
    code, stdout, stderr = run("fuzz", "merge", str(target))
    assert code == 0 and "No disagreement in 3 deals" in stdout, stderr
