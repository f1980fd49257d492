"""The conformance results page: reports read against the corpus (no site build)."""

from __future__ import annotations

import copy
import importlib.util
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from fivehundred.scenarios import Scenario
from fivehundred.scenarios.loading.corpus import load_corpus
from fivehundred.site.results import (
    PROJECT_REPORTS,
    Report,
    ReportError,
    State,
    cell,
    load_reports,
    read_report,
    report_from_document,
    results_markdown,
)

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "results"


@pytest.fixture(scope="module")
def scenarios() -> list[Scenario]:
    return load_corpus().scenarios


@pytest.fixture(scope="module")
def reference_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads((RESULTS / "reference.json").read_text("utf-8"))
    return document


def _entry(document: dict[str, Any], scenario_id: str) -> dict[str, Any]:
    entry: dict[str, Any] = next(e for e in document["scenarios"] if e["id"] == scenario_id)
    return entry


def test_the_committed_reports_load_the_project_s_own_first() -> None:
    reports, problems = load_reports(RESULTS)
    assert problems == []
    own = [name for name, _ in PROJECT_REPORTS]
    assert [r.file for r in reports[: len(own)]] == [f"results/{name}" for name in own]
    assert reports[0].mode == "in-process" and reports[1].language == "javascript"


def test_each_state_is_said_plainly_and_unchecked_is_never_passed(
    reference_document: dict[str, Any], scenarios: list[Scenario]
) -> None:
    document = copy.deepcopy(reference_document)
    a, b, c, d, e, f = scenarios[:6]
    _entry(document, a.id)["unchecked"] = [
        {"step": 0, "step_number": 1, "what": "legal", "why": "no legal actions"}
    ]
    _entry(document, b.id)["status"] = "failed"
    _entry(document, c.id)["status"] = "errored"
    _entry(document, d.id)["status"] = "skipped"
    _entry(document, e.id)["title"] = "A title the scenario had before an edit"
    document["scenarios"] = [x for x in document["scenarios"] if x["id"] != f.id]
    report = report_from_document(document, "results/x.json")
    assert [report.state(s) for s in (a, b, c, d, e, f)] == [
        State.PARTLY,
        State.FAILED,
        State.ERRORED,
        State.SKIPPED,
        State.NOT_RUN,
        State.NOT_RUN,
    ]
    assert report.state(scenarios[6]) == State.PASSED


def _cell(states: list[State]) -> str:
    """A cell with its no-break spaces as spaces (they only keep a count together)."""
    return cell(states).replace("\u00a0", " ")


def test_cells_tick_only_when_everything_passed_in_full() -> None:
    assert _cell([State.PASSED, State.PASSED]) == "✔ 2 passed"
    partly = _cell([State.PASSED, State.PARTLY])
    assert "✔" not in partly and "1 partly checked" in partly and "1 passed" in partly
    assert _cell([State.NOT_RUN]) == "1 not run"
    assert _cell([State.SKIPPED, State.SKIPPED]) == "2 skipped"
    failed = _cell([State.PASSED, State.FAILED, State.ERRORED])
    assert failed.startswith("✘ 1 failed · 1 errored"), failed  # the worst first
    assert "1 passed" in failed
    assert cell([]) == "—"
    assert "\u00a0" in cell([State.FAILED]) and "\u00a0· " in cell([State.FAILED, State.PASSED])


def test_the_matrix_has_a_column_per_report_and_a_row_per_ruling(
    reference_document: dict[str, Any], scenarios: list[Scenario]
) -> None:
    good = report_from_document(reference_document, "results/reference.json")
    document = copy.deepcopy(reference_document)
    document["implementation"] = {"name": "other", "version": "0.1", "language": "c"}
    target = next(s for s in scenarios if s.rules[0] == "deck")
    _entry(document, target.id)["status"] = "failed"
    other = report_from_document(document, "results/other.json")
    rows = [("deck", "[The deck](rules/deck.md#deck)"), ("no-ties", "[No ties](x.md#no-ties)")]
    text = results_markdown([good, other], scenarios, rows, {"results/other.json": "o.json"})
    page = _html(text)
    # a long name may break after a hyphen
    shown = good.label.replace("-", "-<wbr>")
    assert f"<th>{shown}</th>\n<th>other 0.1</th>" in page
    deck_row = next(line for line in text.splitlines() if line.startswith("| [The deck]"))
    cited = sum(1 for s in scenarios if "deck" in s.rules)
    assert f"| {cited} | ✔ {cited} passed | ✘ " in deck_row.replace("\u00a0", " ")
    assert "[`results/other.json`](o.json)" in text
    assert "`results/reference.json`" in text


def _html(markdown_text: str) -> str:
    import markdown

    return markdown.markdown(markdown_text, extensions=["tables", "md_in_html"])


def test_what_a_report_says_about_itself_is_shown_as_plain_text(
    reference_document: dict[str, Any], scenarios: list[Scenario]
) -> None:
    document = copy.deepcopy(reference_document)
    document["implementation"] = {
        "name": "[click](http://example.org) *bold* <b>x</b> a|b",
        "version": "1\n2",
        "language": "`c`",
    }
    report = report_from_document(document, "results/odd.json")
    page = _html(results_markdown([report], scenarios, [("deck", "deck")], {}))
    assert "<a " not in page and "<em>bold</em>" not in page and "<b>" not in page
    assert "<code>c</code>" not in page and "(`c`)" in page
    assert "[click](http://example.org) *bold* &lt;b&gt;x&lt;/b&gt; a&#124;b 1 2" in page


def test_no_report_says_so(scenarios: list[Scenario]) -> None:
    assert "No report" in results_markdown([], scenarios, [], {})


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("broken.json", "{not json", "results/broken.json:1:2: not a JSON report"),
        ("nan.json", '{"a": NaN}', "results/nan.json: not a JSON report"),
        ("latin.json", "\udcff", "results/latin.json: not a JSON report"),
        ("other.json", '{"name": "x"}', "results/other.json: not a report of `fivehundred"),
        ("notes.txt", "hello", "results/notes.txt: not a report"),
        ("report.yaml", "a: 1", "results/report.yaml: not a report"),
        ("My `Engine`.json", "{}", "results/My `Engine`.json: a report's file name"),
    ],
)
def test_a_file_that_is_not_a_report_is_a_problem_naming_it(
    tmp_path: Path, name: str, content: str, message: str
) -> None:
    (tmp_path / name).write_bytes(content.encode("utf-8", "surrogateescape"))
    (tmp_path / "README.md").write_text("The reports.\n", encoding="utf-8")
    reports, problems = load_reports(tmp_path)
    assert reports == []
    assert len(problems) == 1 and problems[0].startswith(message), problems


def _small_copy(document: dict[str, Any]) -> dict[str, Any]:
    """A copy with the first few scenarios only: an invalid report is described by walking
    all of it with jsonschema, and a few entries show the message as well as 800 do."""
    small = {**document, "scenarios": document["scenarios"][:5]}
    copied: dict[str, Any] = copy.deepcopy(small)
    return copied


def test_a_report_of_another_suite_version_says_so(
    tmp_path: Path, reference_document: dict[str, Any]
) -> None:
    document = _small_copy(reference_document)
    document["suite"]["version"] = "0.9.0"
    del document["rules"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(ReportError, match=r"results/old\.json: .*made with suite 0\.9\.0"):
        read_report(path, "results/old.json")


def test_a_report_with_a_wrong_field_names_the_field(
    tmp_path: Path, reference_document: dict[str, Any]
) -> None:
    document = _small_copy(reference_document)
    document["scenarios"][3]["status"] = "sort-of"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(ReportError, match=r"results/mine\.json: .*scenarios\[3\]\.status"):
        read_report(path, "results/mine.json")


def _hooks() -> Any:
    path = REPO / "reference" / "fivehundred" / "site" / "mkdocs_hooks.py"
    spec = importlib.util.spec_from_file_location("fh_hooks_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while defining
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


@pytest.mark.slow  # the mkdocs configuration and hook: a part of the site build
def test_a_bad_file_stops_the_build_with_an_error_naming_it(tmp_path: Path) -> None:
    from mkdocs.config import load_config
    from mkdocs.exceptions import PluginError

    (tmp_path / "scenarios").symlink_to(REPO / "scenarios")
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "theirs.json").write_text("[]", encoding="utf-8")
    shutil.copy2(RESULTS / "reference.json", tmp_path / "results" / "reference.json")
    config = load_config(str(REPO / "mkdocs.yml"))
    config.config_file_path = str(tmp_path / "mkdocs.yml")
    hooks = _hooks()
    with pytest.raises(PluginError) as raised:
        hooks.on_config(config)
    message = str(raised.value)
    assert "results/theirs.json: not a report" in message
    assert "reference.json" not in message
    (tmp_path / "results" / "theirs.json").unlink()
    hooks.on_config(config)
    assert [r.file for r in hooks._State.reports] == ["results/reference.json"]


def test_reports_are_read_into_plain_data(reference_document: dict[str, Any]) -> None:
    report = report_from_document(reference_document, "results/reference.json")
    assert isinstance(report, Report)
    assert report.capabilities.startswith("profiles ") and "australian-4" in report.capabilities
    assert len(report.results) == len(reference_document["scenarios"])
