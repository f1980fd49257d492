"""Third-party engines on the conformance page: ``engine.json`` and ``deviations.yaml``
read and checked against the engine's report, the page's headline and families, and
the command that regenerates a report from a checkout.

The engine here is a sample made in a temporary folder (``sample_engine.py``): the real
engines' files and reports come with their adapters.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from fivehundred.scenarios import Scenario
from fivehundred.scenarios.loading.corpus import load_corpus
from fivehundred.site.engines import family_problems, load_third_party, read_deviations
from fivehundred.site.results import load_engines, load_reports, main, results_markdown
from sample_engine import REPO, engine_json, family, sample_report, write_engine

IDS: list[str] = [
    e["id"] for e in json.loads((REPO / "results/reference.json").read_text())["scenarios"]
]
FAILED, OTHER_FAILED, ERRORED = IDS[:5], IDS[5:8], IDS[8:10]
SKIPPED = {i: "it cannot set up a play start" for i in IDS[20:32]} | {IDS[40]: "no scores"}


@pytest.fixture(scope="module")
def scenarios() -> list[Scenario]:
    return load_corpus().scenarios


def _sample(root: Path, families: list[dict[str, object]] | None = None) -> None:
    if families is None:
        families = [
            family("dealer-never-rotates", "The dealer never rotates.", FAILED),
            family("misere-above-10h", "Open misère ranks above ten hearts.", OTHER_FAILED),
        ]
    report = sample_report("sample", [*FAILED, *OTHER_FAILED], ERRORED, SKIPPED)
    write_engine(root, "sample", families, report)


def _problems(root: Path) -> list[str]:
    reports, problems = load_reports(root / "results")
    assert problems == []
    return load_engines(root, reports)[1]


def test_families_that_cover_every_failure_once_are_accepted(tmp_path: Path) -> None:
    _sample(tmp_path)
    assert _problems(tmp_path) == []
    (engine,) = load_third_party(tmp_path)[0]
    assert [f.id for f in engine.families] == ["dealer-never-rotates", "misere-above-10h"]


def test_a_failure_in_no_family_in_two_or_a_family_scenario_that_passed_is_a_problem(
    tmp_path: Path,
) -> None:
    passed = IDS[50]
    _sample(
        tmp_path,
        [
            family("one", "The dealer never rotates.", [*FAILED[:4], passed]),
            family("two", "Open misère ranks above ten hearts.", [FAILED[0], *OTHER_FAILED]),
            family("three", "A crash.", [ERRORED[0]]),  # an errored scenario may be in one
        ],
    )
    problems = _problems(tmp_path)
    where = "adapters/third-party/sample/deviations.yaml"
    assert all(p.startswith(where) for p in problems)
    assert any(f"{FAILED[0]} is in two families, one and two" in p for p in problems)
    assert any(f"lists {passed}, which passed in results/sample.json" in p for p in problems)
    assert any(
        f"1 scenarios failed in results/sample.json but are in no family: {FAILED[4]}" in p
        for p in problems
    )
    assert len(problems) == 3


def test_a_family_scenario_missing_from_the_report_is_a_problem() -> None:
    from fivehundred.site.engines import Engine, Family, ThirdParty

    statuses = {"AAAA": "failed"}
    sample = ThirdParty(
        Engine(**{**engine_json("s"), "system_packages": ()}),  # type: ignore[arg-type]
        (Family("f", "It is wrong.", (), ("BBBB",), ("AAAA", "BBBB")),),
        "d.yaml",
    )
    problems = family_problems(sample, statuses, "results/s.json")
    assert problems == ["d.yaml: family f lists BBBB, which results/s.json does not have"]


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("engine: sample\nfamilies:\n  - id: Bad Id\n", "3:5", "families[0]"),
        (
            "engine: sample\nfamilies:\n  - {id: a, sentence: It is wrong., rulings: [], "
            "examples: [ZZZZ], scenarios: [AAAA]}\n",
            "3:60",  # the examples
            "the examples ZZZZ are not among its scenarios",
        ),
        ("engine: sample\nfamilies: [\n", "3:1", "expected"),
        (
            "engine: sample\nfamilies:\n  - id: a\n    sentence: It is wrong.\n"
            "    rulings: [dealer-rotation, dealer-rotates]\n    examples: [AAAA]\n"
            "    scenarios: [AAAA]\n",
            "5:32",  # the second ruling
            "no rule anchor 'dealer-rotates'; did you mean dealer-rotation",
        ),
        (
            "engine: sample\nfamilies:\n  - {id: a, sentence: no full stop, rulings: [], "
            "examples: [AAAA], scenarios: [AAAA]}\n",
            "3:23",  # the sentence
            "sentence",
        ),
    ],
)
def test_a_bad_deviations_file_is_located(
    tmp_path: Path, text: str, where: str, message: str
) -> None:
    from fivehundred.site.engines import EngineError

    path = tmp_path / "deviations.yaml"
    path.write_text(text)
    with pytest.raises(EngineError) as caught:
        read_deviations(path, "x/deviations.yaml")
    shown = str(caught.value)
    assert shown.startswith("x/deviations.yaml:") and message in shown, shown
    assert shown.split(":")[1:3] == where.split(":"), shown


def test_a_bad_engine_json_is_a_problem_naming_it(tmp_path: Path) -> None:
    _sample(tmp_path)
    path = tmp_path / "adapters/third-party/sample/engine.json"
    path.write_text(json.dumps({**engine_json("sample"), "commit": "f360427"}))
    engines, problems = load_third_party(tmp_path)
    assert engines == []
    assert problems[0].startswith("adapters/third-party/sample/engine.json: commit:"), problems


def test_the_page_shows_a_headline_and_the_families_of_each_engine(
    tmp_path: Path, scenarios: list[Scenario]
) -> None:
    _sample(tmp_path)
    reports, _ = load_reports(tmp_path / "results")
    engines, _ = load_engines(tmp_path, reports)
    page = results_markdown(
        reports, scenarios, [("dealer-rotation", "the dealer")], {}, engines, lambda i: f"s/{i}.md"
    )
    total = len(scenarios)
    skipped = len(SKIPPED)
    recorded = {
        e["id"]: (e["title"], tuple(e["rules"]))
        for e in json.loads((REPO / "results/reference.json").read_text())["scenarios"]
    }
    not_run = sum(1 for s in scenarios if recorded.get(s.id) != (s.title, tuple(s.rules)))
    checked = total - skipped - len(ERRORED) - not_run
    assert "### example/sample {#engine-sample}" in page
    assert f"**Checked {checked} of {total} scenarios**" in page
    assert f"{len(FAILED) + len(OTHER_FAILED)} failed" in page and "2 errored" in page
    assert (
        f"{skipped} skipped (12 because it cannot set up a play start; 1 because no scores)" in page
    )
    assert f"`{COMMIT_SHORT}`" in page and "https://github.com/example/sample/tree/" in page
    first = f"[{FAILED[0]}](s/{FAILED[0]}.md), [{FAILED[1]}](s/{FAILED[1]}.md)"
    assert f"- The dealer never rotates: 5 scenarios, e.g. {first}." in page
    assert "- Open misère ranks above ten hearts: 3 scenarios, e.g." in page
    header = next(line for line in page.splitlines() if line.startswith("| ruling"))
    assert "[sample](#engine-sample)" in header
    assert page.count("results/sample.json") == 1  # in its section, not in the project's list


COMMIT_SHORT = engine_json("x")["commit"][:7]


def test_check_exits_1_naming_what_does_not_fit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "scenarios").mkdir()
    _sample(tmp_path)
    assert main(["--root", str(tmp_path), "--check"]) == 0
    _sample(tmp_path, [family("one", "The dealer never rotates.", FAILED)])
    assert main(["--root", str(tmp_path), "--check"]) == 1
    err = capsys.readouterr().err
    assert "3 scenarios failed in results/sample.json but are in no family: " in err


# ---- regenerating a report from a checkout -----------------------------------------------

FAKE_ADAPTER = """\
import os, sys
sys.path.insert(0, {adapters!r})
if not os.path.isdir(os.environ.get("FIVEHUNDRED_SAMPLE_PATH", "")):
    sys.stderr.write("set FIVEHUNDRED_SAMPLE_PATH to a checkout of example/sample\\n")
    sys.exit(2)
sys.argv[1:] = ["deck,auction,play,game"]
exec(open({skips!r}).read())
"""


def _checkout(folder: Path) -> str:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(folder), *args], capture_output=True, text=True, check=True
        ).stdout.strip()

    folder.mkdir()
    git("init", "-q")
    (folder / "engine.rb").write_text("# the engine\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "engine")
    return git("rev-parse", "HEAD")


@pytest.mark.slow
def test_one_command_regenerates_an_engine_s_report_from_a_checkout(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "scenarios").symlink_to(REPO / "scenarios")
    commit = _checkout(tmp_path / "sample")
    adapters = REPO / "tests" / "protocol" / "adapters"
    script = root / "adapters/third-party/sample/adapter.py"
    _sample(root, [])
    (root / "results/sample.json").unlink()
    script.write_text(
        FAKE_ADAPTER.format(adapters=str(adapters), skips=str(adapters / "skips_some.py"))
    )
    engine = {
        **engine_json("sample"),
        "commit": commit,
        "command": shlex.join([sys.executable, "adapters/third-party/sample/adapter.py"]),
        "system_packages": ["python3"],
    }
    (root / "adapters/third-party/sample/engine.json").write_text(json.dumps(engine))

    def regenerate(checkout: Path, engine: str = "sample") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "fivehundred.site.results",
                "--engine",
                engine,
                "--checkout",
                str(checkout),
            ],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

    wrong = regenerate(tmp_path / "elsewhere")
    assert wrong.returncode == 2 and "git clone https://github.com/example/sample" in wrong.stderr
    done = regenerate(tmp_path / "sample")
    assert "FIVEHUNDRED_SAMPLE_PATH=" in done.stdout and "fivehundred verify --impl" in done.stdout
    report = json.loads((root / "results/sample.json").read_text())
    assert report["implementation"]["name"] == "fivehundred-reference"  # the fake's hello
    failed = [e["id"] for e in report["scenarios"] if e["status"] == "failed"]
    assert failed  # ten no trumps refused
    # the families (none) no longer fit the new report: said, and exit 1
    assert done.returncode == 1
    assert f"{len(failed)} scenarios failed in results/sample.json but are in no family" in (
        done.stderr
    )
    typo = regenerate(tmp_path / "sample", "sampel")
    assert typo.returncode == 2 and "did you mean sample?" in typo.stderr
    # a path that reaches an engine.json all the same is a name of no engine, never run
    (root / "elsewhere").mkdir()
    (root / "elsewhere/engine.json").write_text(json.dumps(engine))
    around = regenerate(tmp_path / "sample", "../../elsewhere")
    assert around.returncode == 2 and "no engine '../../elsewhere'" in around.stderr
    assert "fivehundred verify" not in around.stdout
