"""Lets ``pytest`` collect every scenario under scenarios/ as a test item named by its id."""

from fivehundred.pytest_plugin import pytest_collect_file

__all__ = ["pytest_collect_file"]
