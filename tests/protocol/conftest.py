"""Fixtures for the protocol tests: a unique marker per test and a leak check after it,
and one folder per module where the test adapters keep the reference's answers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from protocol_helpers import assert_no_children, assert_no_process_left, new_marker


@pytest.fixture
def marker() -> Iterator[str]:
    """A token passed to every adapter a test starts; none may be running afterwards."""
    token = new_marker()
    yield token
    assert_no_process_left(token)
    assert_no_children()


@pytest.fixture(autouse=True, scope="module")
def _shared_reference_answers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The adapters of ``adapters/`` keep the reference's answers here (``_common.py``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ADAPTER_MEMO", str(tmp_path_factory.mktemp("memo")))
        yield
