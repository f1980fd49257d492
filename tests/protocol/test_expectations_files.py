"""Expectations files: expected failures, unexpected passes, skips, and writing one.

An implementer's CI must fail only on changes: a listed failure that still fails is
fine, a listed failure that now passes fails the run until the file is updated, and
``--write-expectations`` produces a file that makes the same run pass.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from mixed_run import mixed_run
from protocol_helpers import adapter, by_id, cli_here, id_options, sample

pytestmark = pytest.mark.slow  # starts processes or builds the site


def test_outcomes_read_against_the_file(tmp_path: Path, marker: str) -> None:
    mixed, chosen = mixed_run(tmp_path, marker)
    run = cli_here(
        *mixed.options(chosen), "--expectations", str(mixed.expectations), "--format", "json"
    )
    assert run.code == 1
    entries = by_id(run.json())
    outcome = {i: entries[i]["outcome"] for i in mixed.ids}
    assert outcome == {
        mixed.expected_failure: "expected-failure",
        mixed.failure: "failed",
        mixed.error: "errored",
        mixed.skip: "skipped",
        mixed.unexpected_pass: "unexpected-pass",
        mixed.passing: "passed",
    }
    assert entries[mixed.expected_failure]["expected_status"] == "failed"
    assert entries[mixed.expected_failure]["fails_run"] is False
    assert entries[mixed.unexpected_pass]["fails_run"] is True
    assert "not implemented" in entries[mixed.error]["message"]
    assert '"feature": "x"' in entries[mixed.error]["message"]


def test_an_expected_failure_does_not_fail_the_run(tmp_path: Path, marker: str) -> None:
    mixed, chosen = mixed_run(tmp_path, marker)
    only = [s for s in chosen if s.id in (mixed.expected_failure, mixed.passing)]
    run = cli_here(*mixed.options(only), "--expectations", str(mixed.expectations))
    assert run.code == 0, run.stdout
    assert "1 expected failures" in run.stdout


def test_an_unexpected_pass_fails_the_run_unless_allowed(tmp_path: Path, marker: str) -> None:
    mixed, chosen = mixed_run(tmp_path, marker)
    only = [s for s in chosen if s.id == mixed.unexpected_pass]
    run = cli_here(*mixed.options(only), "--expectations", str(mixed.expectations))
    assert run.code == 1
    assert "UNEXPECTED PASS" in run.stdout
    assert "was broken, now fixed" in run.stdout
    allowed = cli_here(
        *mixed.options(only), "--expectations", str(mixed.expectations), "--allow-unexpected-pass"
    )
    assert allowed.code == 0


def test_a_different_failure_than_listed_fails_the_run(tmp_path: Path, marker: str) -> None:
    mixed, chosen = mixed_run(tmp_path, marker)
    listed = tmp_path / "listed.json"
    listed.write_text(json.dumps({mixed.error: {"status": "fail", "reason": "wrong answer"}}))
    only = [s for s in chosen if s.id == mixed.error]
    run = cli_here(*mixed.options(only), "--expectations", str(listed), "--format", "json")
    assert run.code != 0
    assert by_id(run.json())[mixed.error]["outcome"] == "errored"


def test_expected_errors_alone_are_not_a_checked_run(tmp_path: Path, marker: str) -> None:
    """Errored scenarios compared nothing, even when the file expects them to error: a run
    of nothing else has checked nothing, says so and does not pass."""
    chosen = sample(2)
    ids = ",".join(s.id for s in chosen)
    listed = tmp_path / "errors.yaml"
    listed.write_text(
        "".join(f"{s.id}: {{status: error, reason: not written yet}}\n" for s in chosen)
    )
    command = adapter("partial.py", "", ids, "", marker=marker)
    run = cli_here(
        "verify", "--impl", command, *id_options(chosen), "--expectations", str(listed),
        "--format", "json",
    )  # fmt: skip
    report = run.json()
    assert report["totals"]["expected_failures"] == 2
    assert run.code == 1, run.stdout
    assert report["coverage"]["nothing_checked"] is True
    assert report["coverage"]["ran"] == 2 and report["coverage"]["checked"] == 0
    assert report["coverage"]["headline"].startswith(
        "Nothing was checked: checked 0 of 2 scenarios; 2 errored, so nothing in them was compared"
    )


def test_skip_means_never_sent(tmp_path: Path, marker: str) -> None:
    chosen = sample(2)
    listed = tmp_path / "skip.yaml"
    listed.write_text(
        "".join(f"{s.id}: {{status: skip, reason: crashes the engine}}\n" for s in chosen)
    )
    # This adapter crashes on any run: the run passes only if nothing is sent.
    command = adapter("crash_mid_run.py", "0", marker=marker)
    run = cli_here(
        "verify",
        "--impl",
        command,
        *id_options(chosen),
        "--expectations",
        str(listed),
        "--format",
        "json",
    )
    report = run.json()
    assert report["totals"]["skipped"] == 2 and report["totals"]["errored"] == 0
    assert all("crashes the engine" in e["message"] for e in report["scenarios"])
    # Nothing was sent, so nothing was checked: that is never a passing run.
    assert run.code == 1, run.stdout
    assert report["coverage"]["nothing_checked"] is True
    assert report["coverage"]["headline"].startswith("Nothing was checked: checked 0 of 2")


def test_unknown_ids_are_warned_about(tmp_path: Path) -> None:
    listed = tmp_path / "unknown.yaml"
    listed.write_text("ZZZZ: {status: fail, reason: typo}\n")
    chosen = sample(1)
    run = cli_here("verify", *id_options(chosen), "--expectations", str(listed), "--format", "json")
    assert run.code == 0
    assert "warning" in run.stderr and "ZZZZ" in run.stderr
    assert any("ZZZZ" in w for w in run.json()["warnings"])


def test_an_invalid_file_is_a_usage_error_with_the_place(tmp_path: Path) -> None:
    listed = tmp_path / "bad.yaml"
    listed.write_text("7QK2: {status: broken}\nlower: {status: fail, reason: x}\n")
    run = cli_here("verify", "--expectations", str(listed))
    assert run.code == 2
    assert "not a valid expectations file" in run.stderr
    assert "7QK2: 'reason' is a required property" in run.stderr
    assert "'broken' is not one of" in run.stderr
    assert "Traceback" not in run.stderr
    listed.write_text("a: [b\n")
    run = cli_here("verify", "--expectations", str(listed))
    assert run.code == 2 and "not valid YAML" in run.stderr and "bad.yaml:" in run.stderr


def test_write_expectations_round_trip(tmp_path: Path, marker: str) -> None:
    mixed, chosen = mixed_run(tmp_path, marker)
    for name in ("written.yaml", "written.json"):
        target = tmp_path / name
        first = cli_here(*mixed.options(chosen), "--write-expectations", str(target))
        assert first.code == 1
        assert f"wrote 3 expectations to {target}" in first.stderr
        text = target.read_text()
        document = json.loads(text) if name.endswith(".json") else yaml.safe_load(text)
        assert {k: v["status"] for k, v in document.items()} == {
            mixed.expected_failure: "fail",
            mixed.failure: "fail",
            mixed.error: "error",
        }
        assert all(v["reason"] for v in document.values())
        again = cli_here(*mixed.options(chosen), "--expectations", str(target), "--format", "json")
        assert again.code == 0, again.stdout
        assert again.json()["totals"]["expected_failures"] == 3


def test_write_expectations_never_overwrites_without_force(tmp_path: Path, marker: str) -> None:
    mixed, chosen = mixed_run(tmp_path, marker)
    target = tmp_path / "mine.yaml"
    target.write_text("# hand-edited\n")
    refused = cli_here(*mixed.options(chosen), "--write-expectations", str(target))
    assert refused.code == 2 and "--force" in refused.stderr
    assert target.read_text() == "# hand-edited\n"
    forced = cli_here(*mixed.options(chosen), "--write-expectations", str(target), "--force")
    assert forced.code == 1
    assert mixed.failure in yaml.safe_load(target.read_text())


def test_writing_keeps_reasons_links_and_skips(tmp_path: Path, marker: str) -> None:
    mixed, chosen = mixed_run(tmp_path, marker)
    previous = tmp_path / "previous.yaml"
    previous.write_text(
        yaml.safe_dump(
            {
                mixed.expected_failure: {
                    "status": "fail",
                    "reason": "mine",
                    "link": "https://x.y/1",
                },
                mixed.passing: {"status": "skip", "reason": "slow"},
                "7QK2": {"status": "error", "reason": "not selected in this run"},
            }
        )
    )
    target = tmp_path / "next.yaml"
    cli_here(
        *mixed.options(chosen), "--expectations", str(previous), "--write-expectations", str(target)
    )
    written = yaml.safe_load(target.read_text())
    assert written[mixed.expected_failure] == {
        "status": "fail",
        "reason": "mine",
        "link": "https://x.y/1",
        "step": written[mixed.expected_failure]["step"],
        "check": written[mixed.expected_failure]["check"],
    }
    assert written[mixed.expected_failure]["step"] >= 1
    assert written[mixed.passing] == {"status": "skip", "reason": "slow"}
    assert written["7QK2"]["reason"] == "not selected in this run"
    assert written[mixed.failure]["status"] == "fail"


def test_a_forced_rewrite_keeps_comments_and_hand_edited_reasons(
    tmp_path: Path, marker: str
) -> None:
    mixed, chosen = mixed_run(tmp_path, marker)
    target = tmp_path / "known.yaml"
    first = cli_here(*mixed.options(chosen), "--write-expectations", str(target))
    assert first.code == 1
    text = target.read_text()
    text = text.replace(
        f"{mixed.failure}:", f"# the scorer is being rewritten\n{mixed.failure}:", 1
    )
    edited = yaml.safe_load(text)
    edited_reason = "hand-written: follow-suit check is missing"
    text = text.replace(str(edited[mixed.failure]["reason"]), edited_reason)
    target.write_text("# my engine's known failures\n" + text)
    # No --expectations: the file being rewritten is itself the previous version.
    again = cli_here(*mixed.options(chosen), "--write-expectations", str(target), "--force")
    assert again.code == 1
    rewritten = target.read_text()
    assert rewritten.startswith("# my engine's known failures\n")
    assert "# the scorer is being rewritten" in rewritten
    assert yaml.safe_load(rewritten)[mixed.failure]["reason"] == edited_reason
    # And with --expectations pointing at it, the run is green and nothing moves.
    green = cli_here(
        *mixed.options(chosen),
        "--expectations",
        str(target),
        "--write-expectations",
        str(target),
        "--force",
    )
    assert green.code == 0, green.stdout
    assert target.read_text() == rewritten


def test_a_failure_at_another_step_is_a_changed_failure(tmp_path: Path, marker: str) -> None:
    mixed, chosen = mixed_run(tmp_path, marker)
    target = tmp_path / "known.yaml"
    cli_here(*mixed.options(chosen), "--write-expectations", str(target))
    document = yaml.safe_load(target.read_text())
    document[mixed.failure]["step"] = 99
    target.write_text(yaml.safe_dump(document))
    run = cli_here(*mixed.options(chosen), "--expectations", str(target), "--format", "json")
    assert run.code == 1
    entry = by_id(run.json())[mixed.failure]
    assert entry["outcome"] == "changed-failure" and entry["fails_run"] is True
    assert "listed as failing first at step 99" in entry["changed_failure"]
    assert by_id(run.json())[mixed.expected_failure]["outcome"] == "expected-failure"


def test_nothing_is_written_for_an_adapter_that_failed_its_handshake(
    tmp_path: Path, marker: str
) -> None:
    target = tmp_path / "known.yaml"
    command = adapter("bad_hello.py", marker=marker)
    run = cli_here(
        "verify", "--impl", command, *id_options(sample(2)), "--write-expectations", str(target)
    )
    assert run.code == 3
    assert "nothing written, the adapter failed its handshake" in run.stderr
    assert not target.exists()
