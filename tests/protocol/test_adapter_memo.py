"""The test adapters' memo of the reference's answers (``adapters/_common.py``) answers what
the reference answers: the same reply under the message's own seq, and no answer where the
reference gives none (a run whose seq it refuses)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from fivehundred.scenarios.loading.parse import input_json
from fivehundred.verify.serve import handle
from protocol_helpers import ADAPTERS, PYTHON, corpus

pytestmark = pytest.mark.slow  # starts adapter processes


def _adapter(memo: Path, *messages: dict[str, object]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, str(ADAPTERS / "crash_mid_run.py"), "99"],
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        env={"ADAPTER_MEMO": str(memo), "PATH": "/usr/bin:/bin"},
        timeout=60,
        check=False,
    )


def _run(seq: object) -> dict[str, object]:
    return {"cmd": "run", "seq": seq, "scenario": input_json(corpus()[0].input())}


def test_an_answer_from_the_memo_is_the_references_under_the_messages_seq(
    tmp_path: Path,
) -> None:
    first = _adapter(tmp_path, {"cmd": "hello", "protocol": 1}, _run(1))
    assert first.returncode == 0, first.stderr
    assert list(tmp_path.glob("*.json"))  # the answers were kept
    again = _adapter(tmp_path, {"cmd": "hello", "protocol": 1}, _run(7))
    hello, run = (json.loads(line) for line in again.stdout.splitlines())
    assert hello == handle({"cmd": "hello", "protocol": 1})
    assert run == handle(_run(7)) and run["seq"] == 7


@pytest.mark.parametrize("seq", [0, -1, "1", 1.0, True, None])
def test_a_run_the_reference_refuses_is_refused_with_the_answer_in_the_memo(
    seq: object, tmp_path: Path
) -> None:
    assert _adapter(tmp_path, _run(1)).returncode == 0  # the memo holds this run's answer
    refused = _adapter(tmp_path, _run(seq))
    assert refused.returncode != 0 and refused.stdout == ""
    assert "without a valid seq" in refused.stderr


def test_a_kept_answer_to_another_message_under_the_same_name_is_not_used(
    tmp_path: Path,
) -> None:
    """Files are named by a CRC, which can collide: a file whose message is not this one
    (here the same file with its message and answer changed) is passed over."""
    assert _adapter(tmp_path, _run(1)).returncode == 0
    (kept,) = tmp_path.glob("*.json")
    collided = json.loads(kept.read_text())
    collided["message"] = collided["message"].replace('"run"', '"other"')
    collided["reply"] = {"seq": 1, "errored": {"message": "the other message's answer"}}
    kept.write_text(json.dumps(collided))
    again = _adapter(tmp_path, _run(3))
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == handle(_run(3))
