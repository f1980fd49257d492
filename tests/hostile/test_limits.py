"""Hostile input, one test or more per class of issue 8, in-process and fast.

The slow campaign (``test_campaign.py``) runs hundreds of cases through the command
line; these tests pin each guard down at the function that provides it.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from fivehundred.cli.main import main
from fivehundred.reports.formats import render
from fivehundred.reports.text import print_text_report
from fivehundred.safety import (
    MAX_YAML_NODES,
    FileRefused,
    JsonRefused,
    atomic_write_text,
    clean_text,
    read_regular_file,
    strict_json,
)
from fivehundred.scenarios import load_corpus, load_file
from fivehundred.scenarios.loading._yaml import YamlSourceError, load_yaml
from fivehundred.verify.expectations import (
    Expectation,
    ExpectationsError,
    dump_expectations,
    load_expectations,
)
from fivehundred.verify.protocol import (
    Capabilities,
    ImplementationInfo,
    ProtocolError,
    decode,
    parse_run_reply,
)
from fivehundred.verify.serve import serve
from fivehundred.verify.verdict import Status, Verdict
from fivehundred.verify.verification import Entry, Outcome, Verification
from rich.console import Console

HERE = Path(__file__).resolve().parent
BASE = (HERE / "campaign.py").read_text(encoding="utf-8").split('BASE = """\\\n')[1].split('"""')[0]


def _suite(tmp_path: Path, **files: str) -> Path:
    area = tmp_path / "scenarios" / "area"
    area.mkdir(parents=True)
    (area / "good.yaml").write_text(BASE, encoding="utf-8")
    for name, text in files.items():
        (area / name).write_text(text, encoding="utf-8")
    return area


def _cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> tuple[int, str]:
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, list(args), env=env)
    finally:
        os.chdir(old)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


# ---- 1. unbounded YAML ---------------------------------------------------------------


def _bomb(depth: int = 9, width: int = 9) -> str:
    lines = ["a0: &a0 [x, y]"]
    for level in range(1, depth + 1):
        lines.append(f"a{level}: &a{level} [{','.join([f'*a{level - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_is_refused_in_under_a_second_with_its_position() -> None:
    started = time.monotonic()
    with pytest.raises(YamlSourceError) as caught:
        load_yaml(_bomb())
    assert time.monotonic() - started < 1.0
    assert f"{MAX_YAML_NODES:,} values" in caught.value.message
    assert caught.value.mark.line > 1


def test_small_aliases_still_load() -> None:
    data, _ = load_yaml("a: &x [1, 2]\nb: *x\n")
    assert data == {"a": [1, 2], "b": [1, 2]}


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("tags: &t [a, *t]\n", (1, 14)),
        ("setup: &s {start: game, again: *s}\n", (1, 32)),
        ("a: &x {b: [1, {c: *x}]}\n", (1, 19)),
        ("&top {a: *top}\n", (1, 10)),
    ],
)
def test_an_alias_inside_what_it_names_is_refused_with_its_position(
    text: str, where: tuple[int, int]
) -> None:
    """A structure that contains itself would send every later step round for ever (the
    JSON Schema's error message was the first to try: a traceback, and every command
    stopped at that one file)."""
    with pytest.raises(YamlSourceError) as caught:
        load_yaml(text)
    assert "contain itself" in caught.value.message
    assert (caught.value.mark.line, caught.value.mark.column) == where


def test_an_alias_to_a_finished_sibling_inside_an_open_mapping_loads() -> None:
    data, _ = load_yaml("m: {a: &x [1], b: [*x, {c: *x}]}\n")
    assert data == {"m": {"a": [1], "b": [[1], {"c": [1]}]}}


def test_a_file_containing_itself_does_not_stop_the_other_files(tmp_path: Path) -> None:
    area = _suite(tmp_path)
    spoiled = (area / "good.yaml").read_text().replace("id: 7MDY", "id: 8NQR")
    (area / "self.yaml").write_text(spoiled.replace("tags: [", "tags: &t [*t, ", 1))
    code, output = _cli("validate", str(area))
    assert code == 1, output
    assert "self.yaml" in output and "contain itself" in output and "Traceback" not in output
    assert "2 files, 1 valid, 1 invalid" in output


@pytest.mark.parametrize("depth", [65, 995, 100_000])
def test_deep_nesting_is_refused_not_a_recursion_error(depth: int) -> None:
    with pytest.raises(YamlSourceError):
        load_yaml("x: " + "[" * depth + "]" * depth)


def test_a_file_over_the_size_limit_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(50_000_000)  # sparse: costs no disk
    started = time.monotonic()
    with pytest.raises(FileRefused, match="limit"):
        read_regular_file(big)
    assert time.monotonic() - started < 1.0


def test_expectations_files_use_the_bounded_loader(tmp_path: Path) -> None:
    path = tmp_path / "known.yaml"
    path.write_text(_bomb())
    with pytest.raises(ExpectationsError, match=r"known.yaml:\d+:\d+"):
        load_expectations(path)


# ---- 2. odd file-system entries ------------------------------------------------------


def _odd_entries(area: Path) -> None:
    os.mkfifo(area / "fifo.yaml")
    (area / "zero.yaml").symlink_to("/dev/zero")
    (area / "loop.yaml").symlink_to("loop.yaml")
    (area / "gone.yaml").symlink_to("nowhere")
    (area / "folder.yaml").mkdir()
    chain = area
    for _ in range(40):
        chain = chain / "d"
    chain.mkdir(parents=True)
    (chain / "deep.yaml").write_text(BASE)
    (area / "up").symlink_to(".")


def test_odd_entries_are_diagnostics_and_the_good_file_still_loads(tmp_path: Path) -> None:
    area = _suite(tmp_path)
    _odd_entries(area)
    started = time.monotonic()
    corpus = load_corpus([area], area.parent)
    assert time.monotonic() - started < 5.0
    assert [s.id for s in corpus.scenarios] == ["7MDY"]
    messages = "\n".join(str(d) for d in corpus.diagnostics)
    assert "FIFO" in messages
    assert "character device" in messages
    assert "symbolic links" in messages or "loop" in messages
    assert "does not exist" in messages
    assert "folders deep" in messages
    assert "already searched" in messages


def test_a_fifo_named_explicitly_never_blocks(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    result = load_file(tmp_path / "pipe.yaml", tmp_path)
    assert result.scenario is None
    assert "FIFO" in result.diagnostics[0].message


# ---- 3. YAML scalars that are not JSON -----------------------------------------------


@pytest.mark.parametrize(
    ("value", "phrase"),
    [
        ("2024-01-01", "a date"),
        ("2024-01-01 10:00:00", "a timestamp"),
        ("!!binary aGVsbG8=", "binary"),
        ("!!set {a, b}", "a set"),
        (".nan", "not a JSON number"),
        ("!!omap [a: 1]", "pairs"),
    ],
)
def test_non_json_scalars_are_located_schema_errors(
    tmp_path: Path, value: str, phrase: str
) -> None:
    text = BASE.replace("  dealer: W", f"  dealer: {value}")
    path = tmp_path / "area" / "x.yaml"
    path.parent.mkdir()
    path.write_text(text)
    result = load_file(path, tmp_path)
    assert result.scenario is None
    diagnostic = result.diagnostics[0]
    assert (diagnostic.kind, diagnostic.line) == ("schema", 11)
    assert diagnostic.path.startswith("setup.dealer")
    assert phrase in diagnostic.message


@pytest.mark.parametrize("line", ["~: 1", "3: x", "2024-01-01: x", "yes: 1"])
def test_keys_that_are_not_text_are_schema_errors(tmp_path: Path, line: str) -> None:
    path = tmp_path / "area" / "x.yaml"
    path.parent.mkdir()
    path.write_text(BASE.replace("tags:", f"{line}\ntags:"))
    result = load_file(path, tmp_path)
    assert result.scenario is None
    assert "a key must be text" in result.diagnostics[0].message
    code, output = _cli("validate", str(path))
    assert code == 1
    assert "a key must be text" in output


# ---- 4. number limits ----------------------------------------------------------------


def test_a_5000_digit_integer_in_yaml_is_located(tmp_path: Path) -> None:
    with pytest.raises(YamlSourceError, match="4,300 digits") as caught:
        load_yaml("a: 1\nb: " + "9" * 5000 + "\n")
    assert (caught.value.mark.line, caught.value.mark.column) == (2, 4)


@pytest.mark.parametrize("value", ["7.0", "7.5", "1.0e+1"])
def test_a_decimal_where_an_integer_is_meant_does_not_validate(tmp_path: Path, value: str) -> None:
    from fivehundred.cli.scaffold import skeleton

    text = skeleton("GQ7K", "Game", ["bid-order"], "game").replace(
        "tricks: 7}", f"tricks: {value}}}"
    )
    path = tmp_path / "area" / "x.yaml"
    path.parent.mkdir()
    path.write_text(text)
    result = load_file(path, tmp_path)
    assert result.scenario is None
    assert result.diagnostics[0].path == "steps[0].deal_result.tricks"
    assert "decimal number" in result.diagnostics[0].message


# ---- 5. strict JSON ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"a": NaN}',
        '{"a": Infinity}',
        '{"a": -Infinity}',
        '{"a": 1e400}',
        '{"a": ' + "9" * 5000 + "}",
        "[" * 100_000 + "]" * 100_000,
        '{"a": ' * 70 + "1" + "}" * 70,
        '{"a": "\\ud800"}',
        '{"\\udc00": 1}',
    ],
)
def test_strict_json_refuses_what_rfc_8259_and_the_limits_exclude(text: str) -> None:
    with pytest.raises(JsonRefused):
        strict_json(text.encode())
    with pytest.raises(ProtocolError, match="not strict JSON"):
        decode(text.encode())


def test_strict_json_accepts_ordinary_json() -> None:
    text = '{"a": [1, 2.5, "\\u00e9\\ud83c\\udccf", {"b": null}], "c": "[[[{{{"}'
    assert strict_json(text.encode()) == json.loads(text)
    assert strict_json('{"x": "' + "[" * 500 + '"}') == {"x": "[" * 500}


def test_a_float_seq_is_not_the_integer_seq() -> None:
    with pytest.raises(ProtocolError, match="must be an integer"):
        parse_run_reply({"seq": 1.0, "result": {"steps": []}}, 1)


@pytest.mark.parametrize(
    "line",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"cmd":"run","seq":1,"scenario":{"id":NaN}}',
        b'{"cmd":"run","seq":' + b"9" * 5000 + b',"scenario":{}}',
    ],
)
def test_serve_reports_a_hostile_line_and_stops(line: bytes) -> None:
    out = io.BytesIO()
    assert serve(io.BytesIO(line + b"\n"), out) == 2
    assert out.getvalue() == b""


# ---- 7. options ----------------------------------------------------------------------


@pytest.mark.parametrize("option", ["--timeout", "--startup-timeout", "--max-time"])
@pytest.mark.parametrize("value", ["inf", "nan", "1e308", "0", "-1", "abc", "86401"])
def test_time_options_are_validated(option: str, value: str) -> None:
    code, output = _cli("verify", "--impl", "true", f"{option}={value}")
    assert code == 2
    assert "not a number of seconds" in output


def test_max_time_reports_what_was_not_run(tmp_path: Path) -> None:
    from fivehundred.verify.runner import InProcess, RunOutcome, run_scenarios

    corpus = load_corpus([_suite(tmp_path)], tmp_path / "scenarios")

    class Never(InProcess):
        name = "never"

        def run(self, scenario: object) -> RunOutcome:
            raise AssertionError("must not be called after the deadline")

    summary = run_scenarios(corpus.scenarios, Never(), deadline=0.0, out_of_time="not run: x")
    assert [r.verdict.message for r in summary.reports] == ["not run: x"]


# ---- 8. terminal and report injection ------------------------------------------------


def test_clean_text_makes_control_characters_visible() -> None:
    assert clean_text("a\x1b[31mb\x00c\rd\x85e\x07") == "a\\x1b[31mb\\x00c\\x0dd\\x85e\\x07"
    assert clean_text("x\ud800y") == "x\ufffdy"
    assert clean_text("line\n\ttab ♠ 🃏 Misère") == "line\n\ttab ♠ 🃏 Misère"


def _hostile_verification(tmp_path: Path) -> Verification:
    scenario = load_corpus([_suite(tmp_path)], tmp_path / "scenarios").scenarios[0]
    evil = "[/][bold]\x1b]0;pwned\x07\x1b[2K\rverify: 400 passed\x00\x0b\ud800"
    verification = Verification(
        ImplementationInfo(evil, evil, evil),
        Capabilities(("australian-4",), True, True),
        "persistent",
        command="adapter",
    )
    verdict = Verdict(Status.ERRORED, message=evil + "\n" + evil, stderr=evil)
    verification.entries.append(Entry(scenario, verdict, 0.1, None, Outcome.ERRORED))
    return verification


@pytest.mark.parametrize("fmt", ["json", "junit", "tap", "markdown", "text"])
def test_no_report_carries_control_characters(tmp_path: Path, fmt: str) -> None:
    verification = _hostile_verification(tmp_path)
    if fmt == "text":
        buffer = io.StringIO()
        print_text_report(verification, Console(file=buffer, width=120, no_color=True))
        text = buffer.getvalue()
    else:
        text = render(verification, fmt)
    text.encode("utf-8")  # no lone surrogate left
    for bad in ("\x1b", "\x00", "\x07", "\x0b", "\r"):
        assert bad not in text
    assert not any(line.startswith("verify: 400") for line in text.splitlines())
    if fmt == "junit":
        ET.fromstring(text.encode())
    if fmt == "json":
        json.loads(text, parse_constant=pytest.fail)


# ---- 9. atomic output ----------------------------------------------------------------


def test_a_failed_write_keeps_the_previous_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "report.json"
    target.write_text("good\n")

    def broken(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="No space"):
        atomic_write_text(target, "new\n")
    assert target.read_text() == "good\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


def test_an_exclusive_write_never_replaces_even_a_dangling_link(tmp_path: Path) -> None:
    link = tmp_path / "known.yaml"
    link.symlink_to(tmp_path / "elsewhere.yaml")
    with pytest.raises(FileExistsError):
        dump_expectations({"7MDY": Expectation("fail", "x")}, link)
    assert not (tmp_path / "elsewhere.yaml").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["known.yaml"]


def test_a_link_to_a_device_is_written_through_not_replaced(tmp_path: Path) -> None:
    """``-o`` onto ``/dev/null`` or a link to it: run as root, replacing the device with a
    file (what the rename did before) broke every program on the machine."""
    link = tmp_path / "sink"
    link.symlink_to("/dev/null")
    atomic_write_text(link, "report\n")
    assert link.is_symlink() and Path("/dev/null").is_char_device()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sink"]


def test_a_redirected_standard_stream_is_appended_to(tmp_path: Path) -> None:
    """``-o /dev/stdout`` when standard output is a file: ``/proc/self/fd/N`` (where
    ``/dev/stdout`` leads) is written into, after what the file holds."""
    target = tmp_path / "out.txt"
    target.write_text("before\n")
    with target.open("a") as stream:
        atomic_write_text(Path(f"/proc/self/fd/{stream.fileno()}"), "report\n")
    assert target.read_text() == "before\nreport\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_a_fifo_nobody_reads_is_an_error_not_a_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    run = CliRunner().invoke(main, ["verify", "--id", "7MDY", "-o", str(fifo)])
    assert run.exit_code == 1 and "nothing reads it" in run.stderr
    assert isinstance(run.exception, SystemExit) and time.monotonic() - started < 10
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]


def test_a_fifo_with_a_reader_gets_the_whole_report(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    text = "x" * 200_000 + "\n"  # more than a pipe holds: the reader is waited for
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    deadline = time.monotonic() + 10
    while True:  # the reader's open must come first, or the write would find no reader
        try:
            atomic_write_text(fifo, text)
            break
        except OSError:
            assert time.monotonic() < deadline
            time.sleep(0.01)
    reader.join(10)
    assert received == [text.encode()]


@pytest.mark.parametrize(
    "command",
    [["verify"], ["export"], ["fuzz", "--deals", "1", "--no-progress"]],
    ids=["verify", "export", "fuzz"],
)
@pytest.mark.parametrize("target", ["good.yaml", "../perft.json"])
def test_a_report_is_never_written_over_a_file_of_the_suite(
    tmp_path: Path, command: list[str], target: str
) -> None:
    """A YAML file, or any file of the suite's scenarios/ folder, given as ``-o`` (a typo,
    a wrong tab completion) is refused and left as it was."""
    area = _suite(tmp_path)
    (area.parent / "perft.json").write_text("{}", encoding="utf-8")
    path = area / target
    before = path.read_bytes()
    code, output = _cli("--suite", str(tmp_path), *command, "-o", str(path), cwd=tmp_path)
    assert code == 2, output
    assert "no report is written over one" in output
    assert path.read_bytes() == before


def test_a_key_said_twice_in_a_json_expectations_file_is_refused(tmp_path: Path) -> None:
    known = tmp_path / "known.json"
    known.write_text(
        '{"7MDY": {"status": "fail", "reason": "a"}, "7MDY": {"status": "skip", "reason": "b"}}'
    )
    with pytest.raises(ExpectationsError, match="'7MDY' appears twice in one object"):
        load_expectations(known)


def test_an_empty_output_name_is_a_usage_error(tmp_path: Path) -> None:
    code, output = _cli("verify", str(_suite(tmp_path)), "-o", "")
    assert code == 2 and "an empty file name" in output


def test_one_file_named_two_ways_is_read_once(tmp_path: Path) -> None:
    area = _suite(tmp_path)
    relative = "scenarios/area/good.yaml"
    spelled = [relative, str(area / "good.yaml"), str(area / ".." / "area" / "good.yaml")]
    code, output = _cli("validate", *spelled, cwd=tmp_path)
    assert code == 0, output
    assert "1 files, 1 valid, 0 invalid" in output and "already used" not in output


def test_export_over_a_good_file_with_an_invalid_corpus_keeps_it(tmp_path: Path) -> None:
    area = _suite(tmp_path, **{"bad.yaml": "id: ["})
    (tmp_path / "out.json").write_text("good\n")
    code, _ = _cli("export", str(area), "-o", str(tmp_path / "out.json"))
    assert code == 1
    assert (tmp_path / "out.json").read_text() == "good\n"


# ---- 10. new -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "title", ["Misère: over 7NT", "# hash", "&anchor", "*star", "'quoted'", "yes", "a: b # c"]
)
def test_new_writes_the_title_exactly(tmp_path: Path, title: str) -> None:
    area = _suite(tmp_path)
    code, output = _cli(
        "new", "--dir", str(area.parent), "--area", "area", "--title", title, "--rule", "bid-order"
    )
    assert code == 0, output
    made = [p for p in area.glob("*.yaml") if p.name != "good.yaml"]
    assert len(made) == 1
    assert yaml.safe_load(made[0].read_text())["title"] == title


@pytest.mark.parametrize("area", ["../..", "/tmp", "", ".", "a" * 300, "A", "a/b", "fresh"])
def test_new_confines_the_area(tmp_path: Path, area: str) -> None:
    root = _suite(tmp_path).parent
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    code, output = _cli(
        "new", "--dir", str(root), "--area", area, "--title", "Fine", "--rule", "bid-order"
    )
    assert code == 2, output
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


def test_new_makes_a_new_area_only_when_asked(tmp_path: Path) -> None:
    root = _suite(tmp_path).parent
    code, output = _cli(
        "new",
        "--dir",
        str(root),
        "--area",
        "fresh",
        "--new-area",
        "--title",
        "Fine",
        "--rule",
        "bid-order",
    )
    assert code == 0, output
    assert (root / "fresh" / "fine.yaml").is_file()


def test_new_refuses_a_newline_in_the_title(tmp_path: Path) -> None:
    root = _suite(tmp_path).parent
    code, output = _cli(
        "new", "--dir", str(root), "--area", "area", "--title", "a\nb", "--rule", "bid-order"
    )
    assert code == 2
    assert "one line" in output


# ---- 11. show ------------------------------------------------------------------------


def test_show_survives_odd_files_beside_the_scenario(tmp_path: Path) -> None:
    area = _suite(tmp_path)
    _odd_entries(area)
    (area / "latin1.yaml").write_bytes(b"id: 8NQR\ntitle: caf\xe9\n")
    env = {"FIVEHUNDRED_HOME": str(tmp_path)}
    code, output = _cli("show", "7MDY", env=env)
    assert code == 0, output
    code, output = _cli("show", "8NQR", env=env)
    assert code == 1
    assert "UTF-8" in output


def test_show_with_a_home_without_scenarios(tmp_path: Path) -> None:
    code, output = _cli("show", "7MDY", env={"FIVEHUNDRED_HOME": str(tmp_path)})
    assert code == 2
    assert "no scenarios/ folder" in output


def test_a_plain_file_under_dev_is_replaced_like_any_other() -> None:
    """``/dev/shm`` holds ordinary files: a report there is replaced whole, not appended
    to the previous one, and a new one is created; only the system's links into ``/dev``
    and ``/proc`` (``/dev/stdout``) are written through."""
    folder = Path(tempfile.mkdtemp(dir="/dev/shm"))
    try:
        old = folder / "report.json"
        old.write_text('{"old": 1}\n')
        atomic_write_text(old, "new\n")
        assert old.read_text() == "new\n"
        atomic_write_text(folder / "fresh.json", "fresh\n")
        assert (folder / "fresh.json").read_text() == "fresh\n"
        # a link of the user's that leads to a system one is written through, and stays
        user_link = folder / "via-link"
        user_link.symlink_to("/dev/stdout")
        atomic_write_text(user_link, "")
        assert user_link.is_symlink() and os.readlink(user_link) == "/dev/stdout"
        assert sorted(p.name for p in folder.iterdir()) == ["fresh.json", "report.json", "via-link"]
    finally:
        shutil.rmtree(folder)
