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
def _adapters_share_answers(adapter_memo: None) -> None:
    """Every module here starts the adapters of ``adapters/`` (see ``adapter_memo``)."""
