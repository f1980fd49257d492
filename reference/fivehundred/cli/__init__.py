"""The ``fivehundred`` command line (nothing else in the package imports it)."""

from .main import main

__all__ = ["main"]
