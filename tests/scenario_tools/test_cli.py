"""The command line: validate and verify pass on good files and fail clearly on bad ones."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from fivehundred.cli import main
from scenario_texts import GOOD

Write = Callable[[str, str], Path]


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_validate_passes_on_good_files(write: Write) -> None:
    path = write("good.yaml", GOOD)
    code, output = _run("validate", str(path.parent))
    assert code == 0, output
    assert "1 files, 1 valid, 0 invalid" in output


def test_validate_fails_with_file_line_and_column(write: Write) -> None:
    good = write("good.yaml", GOOD)
    bad = write("bad.yaml", GOOD.replace("ZZ22", "ZZ26").replace("call: 6C", "call: 6X"))
    code, output = _run("validate", str(good.parent))
    assert code == 1
    assert f"{bad}:11:21: steps[1].call:" in output
    assert "2 files, 1 valid, 1 invalid" in output
    assert "Traceback" not in output


def test_validate_of_one_file_checks_its_id_against_the_rest_of_the_suite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file copied inside a suite and validated alone is told its id is taken; the same
    file outside any suite folder is not compared with the suite."""
    area = tmp_path / "suite" / "scenarios" / "auction"
    area.mkdir(parents=True)
    (area / "first.yaml").write_text(GOOD, encoding="utf-8")
    (area / "copy.yaml").write_text(GOOD, encoding="utf-8")
    monkeypatch.chdir(tmp_path / "suite")
    code, output = _run("validate", "scenarios/auction/copy.yaml")
    assert code == 1
    assert "copy.yaml:1:5: id: id ZZ22 is already used by scenarios/auction/first.yaml" in output
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(GOOD, encoding="utf-8")
    code, output = _run("validate", str(outside))
    assert code == 0, output


def test_validate_json_output(write: Write) -> None:
    bad = write("bad.yaml", "id: [")
    code, output = _run("validate", "--format", "json", str(bad))
    assert code == 1
    report = json.loads(output)
    assert report["files"] == 1 and report["valid"] == 0
    assert report["diagnostics"][0]["kind"] == "yaml"


def test_validate_refuses_a_missing_path() -> None:
    code, output = _run("validate", "no/such/dir")
    assert code == 2
    assert "no such file or directory: no/such/dir" in output


def test_verify_passes_and_prints_the_summary(write: Write) -> None:
    path = write("good.yaml", GOOD)
    code, output = _run("verify", str(path))
    assert code == 0, output
    assert "1 passed, 0 failed" in output


def test_verify_reports_a_wrong_expectation_with_the_rerun_command(write: Write) -> None:
    path = write("wrong.yaml", GOOD.replace("to_act: S", "to_act: W"))
    code, output = _run("verify", str(path))
    assert code == 1
    assert "ZZ22" in output and "A declarer may be outbid" in output
    assert 'to_act expected "W", got "S"' in output
    # a file outside the bundled scenarios is named in the command
    assert f"rerun: fivehundred verify {path} --id ZZ22" in output
    assert "0 passed, 1 failed" in output


def test_text_from_a_scenario_is_printed_as_written_never_as_emoji(write: Write) -> None:
    """Rich turns ``:x:`` or ``:joker:`` into emoji even inside escaped text; a title, an
    adapter's name or a message must reach the reader as written."""
    title = "A declarer :x: may be outbid :joker:"
    text = GOOD.replace("A declarer may be outbid by a higher bid", f'"{title}"')
    path = write("wrong.yaml", text.replace("to_act: S", "to_act: W"))
    code, output = _run("verify", str(path))
    assert code == 1 and title in output, output
    report = path.parent / "report.txt"
    _run("verify", str(path), "-o", str(report))
    assert title in report.read_text(encoding="utf-8")
    code, output = _run("show", str(path))
    assert code == 0 and title in output, output
    assert "\N{CROSS MARK}" not in output and "\N{PLAYING CARD BLACK JOKER}" not in output


def test_text_from_a_scenario_that_looks_like_markup_is_printed_as_written(
    write: Write,
) -> None:
    """A title or an assert with square brackets is the author's text, not rich markup: it
    used to crash ``show`` and ``list`` with a MarkupError traceback."""
    title = "[/] Brackets [bold]stay[/bold] as written \\"
    claim = "A bid of [red]6C[/] outranks 6S [/]."
    text = GOOD.replace("A declarer may be outbid by a higher bid", f"'{title}'")
    path = write("brackets.yaml", text.replace("A bid of 6C outranks 6S.", f"'{claim}'"))
    code, output = _run("show", str(path))
    assert code == 0 and title in output and claim in output, output
    wrong = write("wrong.yaml", path.read_text(encoding="utf-8").replace("to_act: S", "to_act: W"))
    code, output = _run("verify", str(wrong))
    assert code == 1 and title in output and "Traceback" not in output, output
    code, output = _run("list", "--format", "json", str(path))
    assert json.loads(output)[0]["title"] == title
    code, output = _run("list", str(path))
    assert "[/] Brackets [bold]stay[/bold]" in output, output


def test_verify_counts_invalid_files_as_failure(write: Write) -> None:
    good = write("good.yaml", GOOD)
    write("bad.yaml", "id: [")
    code, output = _run("verify", str(good.parent))
    assert code == 1
    assert "1 passed" in output
    assert "bad.yaml:2:1" in output


def test_verify_filters_by_id_and_rejects_unknown_ids(write: Write) -> None:
    path = write("good.yaml", GOOD)
    write("other.yaml", GOOD.replace("ZZ22", "ZZ27").replace("to_act: S", "to_act: W"))
    code, output = _run("verify", str(path.parent), "--id", "ZZ22")
    assert code == 0, output
    code, output = _run("verify", str(path.parent), "--id", "QQQQ")
    assert code == 2
    assert "no scenario with id QQQQ" in output


def test_new_writes_a_valid_skeleton_with_a_fresh_id(tmp_path: Path) -> None:
    for start in ("deck", "auction", "play", "game"):
        code, output = _run(
            "new",
            "--dir",
            str(tmp_path),
            "--area",
            "auction",
            "--new-area",
            "--title",
            f"Start {start}",
            "--rule",
            "bid-order",
            "--start",
            start,
        )
        assert code == 0, output
    files = sorted((tmp_path / "auction").glob("*.yaml"))
    assert len(files) == 4
    ids = {yaml.safe_load(f.read_text())["id"] for f in files}
    assert len(ids) == 4
    code, output = _run("validate", str(tmp_path))
    assert code == 0, output
    code, output = _run("verify", str(tmp_path))
    assert code == 0, output


def test_new_never_overwrites(tmp_path: Path) -> None:
    args = (
        "new",
        "--dir",
        str(tmp_path),
        "--area",
        "a",
        "--new-area",
        "--title",
        "Same",
        "--rule",
        "deck",
    )
    assert _run(*args)[0] == 0
    before = (tmp_path / "a" / "same.yaml").read_text()
    code, output = _run(*args)
    assert code == 2
    assert "already exists" in output
    assert (tmp_path / "a" / "same.yaml").read_text() == before


def test_new_refuses_unknown_rule_anchor(tmp_path: Path) -> None:
    code, output = _run(
        "new", "--dir", str(tmp_path), "--area", "a", "--title", "T", "--rule", "nope"
    )
    assert code == 2
    assert "unknown rule anchor nope" in output


def test_show_renders_the_bundled_worked_example() -> None:
    code, output = _run("show", "W8RK")
    assert code == 0, output
    assert "The seed's worked example" in output
    assert "J♦" in output and "won by W" in output


def test_rules_lists_every_anchor() -> None:
    code, output = _run("rules")
    assert code == 0
    assert "misere-needs-seven" in output and "joker-lead-all-suits-led" in output


def test_file_names_drop_accents_but_keep_letters() -> None:
    from fivehundred.cli.scaffold import slugify

    assert slugify("Misère over 7♠") == "misere-over-7"
    assert slugify("♠♠♠") == "scenario"


def test_bundled_scenarios_rerun_by_id_alone() -> None:
    from fivehundred.scenarios.loading.corpus import load_corpus

    scenario = load_corpus().scenarios[0]
    assert scenario.rerun_command() == f"fivehundred verify --id {scenario.id}"


def test_minted_ids_are_fresh_and_never_all_digits() -> None:
    from fivehundred.cli.scaffold import mint_id
    from fivehundred.scenarios.loading.corpus import ID_PATTERN

    taken = {"2345", "ABCD"}
    minted = {mint_id(taken) for _ in range(3000)}
    assert all(ID_PATTERN.match(i) and not i.isdigit() for i in minted)
    assert not minted & taken


def test_the_suite_is_found_from_a_folder_inside_it(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from fivehundred.resources import bundled_root, suite_root

    suite = tmp_path / "my-suite"
    inside = suite / "scenarios" / "auction"
    inside.mkdir(parents=True)
    monkeypatch.delenv("FIVEHUNDRED_HOME", raising=False)
    monkeypatch.chdir(inside)
    assert suite_root() == suite
    monkeypatch.chdir(tmp_path)  # above the suite: not found, the bundled corpus
    assert suite_root() == bundled_root()
    package = suite / "code" / "pkg"  # a Python package named scenarios is not a suite
    (package / "scenarios").mkdir(parents=True)
    (package / "scenarios" / "__init__.py").write_text("")
    monkeypatch.chdir(package)
    assert suite_root() == suite


def test_the_rerun_command_names_a_suite_given_with_suite(tmp_path: Path) -> None:
    from fivehundred.resources import use_suite
    from fivehundred.scenarios import load_corpus

    area = tmp_path / "scenarios" / "area"
    area.mkdir(parents=True)
    (area / "s.yaml").write_text(GOOD, encoding="utf-8")
    try:
        use_suite(tmp_path)
        (scenario,) = load_corpus().scenarios
        assert scenario.rerun_command() == f"fivehundred --suite {tmp_path} verify --id ZZ22"
    finally:
        use_suite(None)
    assert scenario.rerun_command().startswith("fivehundred verify ")  # no --suite: the file
