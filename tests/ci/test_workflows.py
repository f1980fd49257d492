"""The GitHub workflows keep the project's promises: each step that runs the project's code
runs a command README.md or CONTRIBUTING.md documents (no hidden second way of doing a
thing); every action is pinned by commit; every workflow states its permissions; the fuzz
matrix covers every profile; CI runs the supported Pythons.  actionlint, zizmor and the
workflow schema (``.ci/run``) check the rest."""

from __future__ import annotations

import re
import tomllib

import pytest
from ci_scripts import (
    ROOT,
    documented_commands,
    runs_project_code,
    signature,
    simple_commands,
    step_named,
    steps,
    workflows,
)
from fivehundred.engine.profile import PROFILE_NAMES

DOCUMENTS = (ROOT / "README.md", ROOT / "CONTRIBUTING.md")
WORKFLOWS = workflows()


def _documented() -> dict[tuple[str, ...], list[frozenset[str]]]:
    ways: dict[tuple[str, ...], list[frozenset[str]]] = {}
    for words in documented_commands(*DOCUMENTS):
        head, options = signature(words)
        ways.setdefault(head, []).append(options)
    return ways


def _undocumented(words: list[str], ways: dict[tuple[str, ...], list[frozenset[str]]]) -> bool:
    head, options = signature(words)
    return not any(options <= known for known in ways.get(head, []))


def test_the_five_workflows_are_there() -> None:
    assert set(WORKFLOWS) == {"ci.yml", "fuzz.yml", "engines.yml", "site.yml", "release.yml"}


def test_every_step_that_runs_project_code_runs_a_documented_command() -> None:
    ways = _documented()
    checked, hidden = 0, []
    for name, workflow in WORKFLOWS.items():
        for job, step in steps(workflow):
            for words in simple_commands(step.get("run", "")):
                if runs_project_code(words):
                    checked += 1
                    if _undocumented(words, ways):
                        hidden.append(f"{name} {job} {step.get('name', '')!r}: {' '.join(words)}")
    assert checked >= 20, f"only {checked} project commands found in the workflows"
    assert not hidden, "commands the README and CONTRIBUTING.md do not document:\n" + "\n".join(
        hidden
    )


def test_an_undocumented_option_or_command_is_caught() -> None:
    """The check above can fail: an option no document gives, or a command none shows."""
    ways = _documented()
    assert not _undocumented(["fivehundred", "verify", "--impl", "$X"], ways)
    assert _undocumented(["fivehundred", "verify", "--impl", "$X", "--hidden"], ways)
    assert _undocumented(["python", "-m", "fivehundred.secret"], ways)
    assert _undocumented(["bash", ".ci/other"], ways)
    assert runs_project_code(["/tmp/venv/bin/fivehundred", "verify"])
    assert not runs_project_code(["python", "-m", "venv", "x"])
    assert not runs_project_code(["git", "clone", "x"])


def test_commands_inside_substitutions_and_conditions_are_read() -> None:
    script = 'echo "x=$(python3 .ci/engines.py list)"\nif fivehundred verify; then :; fi'
    commands = list(simple_commands(script))
    assert ["python3", ".ci/engines.py", "list"] in commands
    assert ["fivehundred", "verify"] in commands


def test_every_action_is_pinned_by_commit_with_its_version_in_a_comment() -> None:
    pinned = re.compile(r"^\s*(?:- )?uses: [\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*$")
    for path in sorted((ROOT / ".github" / "workflows").glob("*.yml")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(r"^\s*(?:- )?uses:", line):
                assert pinned.match(line), f"{path.name}:{number}: {line.strip()}"


def test_every_workflow_states_its_permissions_and_pull_requests_get_no_secret() -> None:
    for name, workflow in WORKFLOWS.items():
        assert workflow.get("permissions") == {"contents": "read"}, name
        text = (ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8")
        triggers = workflow.get("on", workflow.get(True))
        if "pull_request" in triggers or "pull_request_target" in triggers:
            assert "pull_request_target" not in triggers, name
            assert "secrets." not in text, f"{name} runs on pull requests and names a secret"
        for job_id, job in workflow["jobs"].items():
            for granted in (job.get("permissions") or {}).values():
                assert granted in ("read", "write"), f"{name} {job_id}"


def test_the_fuzz_matrix_covers_every_profile_in_every_shard() -> None:
    fuzz = WORKFLOWS["fuzz.yml"]
    shards = int(fuzz["env"]["SHARDS"])
    matrix = fuzz["jobs"]["shard"]["strategy"]["matrix"]
    assert matrix["profile"] == list(PROFILE_NAMES)
    assert matrix["shard"] == list(range(1, shards + 1))
    assert f"/{shards}" in fuzz["jobs"]["shard"]["name"]
    merge = fuzz["jobs"]["merge"]["strategy"]["matrix"]
    assert merge["profile"] == list(PROFILE_NAMES)
    assert merge["implementation"] == [i["name"] for i in matrix["implementation"]]
    commands = {i["name"]: i["command"] for i in matrix["implementation"]}
    assert commands == {
        "reference": "fivehundred serve",
        "independent-js": "node adapters/independent-js/adapter.js",
    }
    assert (ROOT / "adapters" / "independent-js" / "adapter.js").is_file()


def test_ci_runs_the_ci_script_on_every_supported_python_and_the_user_install() -> None:
    ci = WORKFLOWS["ci.yml"]
    suite = ci["jobs"]["suite"]
    pythons = suite["strategy"]["matrix"]["python"]
    assert pythons == ["3.11", "3.12", "3.13"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["requires-python"] == f">={pythons[0]}"
    assert any(step.get("run") == "bash .ci/run" for step in suite["steps"])
    user = step_named(ci, "Install as a user does")["run"]
    assert "-m pip install ." in user and "[dev]" not in user
    outside = step_named(ci, "fivehundred verify, from a folder that is not the checkout")
    assert outside["working-directory"] == "${{ runner.temp }}"
    assert "fivehundred verify" in outside["run"]


def test_the_site_is_built_strictly_and_deployed_from_main_with_its_address() -> None:
    site = WORKFLOWS["site.yml"]
    build = step_named(site, "Build the site strictly")
    assert build["run"] == "mkdocs build --strict"
    assert "steps.pages.outputs.base_url" in build["env"]["SITE_URL"]
    assert "SITE_URL" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    deploy = site["jobs"]["deploy"]
    assert "refs/heads/main" in deploy["if"]
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}


@pytest.mark.parametrize("name", ["release.yml"])
def test_the_release_publishes_by_trusted_publishing_only(name: str) -> None:
    release = WORKFLOWS[name]
    publish = release["jobs"]["publish"]
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    text = (ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8")
    assert "password" not in text and "secrets." not in text
    notes = step_named(
        release,
        "The release notes (the tag's version must be the package's, with a change-log section)",
    )
    assert ".ci/release_notes.py" in notes["run"] and "--check" in notes["run"]
