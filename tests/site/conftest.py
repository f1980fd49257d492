"""Markers of the site tests."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: drives a real browser against the built site (tests/site/test_browser.py)"
    )
