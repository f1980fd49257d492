"""The ``fivehundred`` command line (nothing else in the package imports it).

The rule for this package: main.py only wires commands; each command lives in its own
module (``<name>_command.py``), and what several commands share (option types, consoles,
finding scenarios, scaffolding) lives in modules named for what it is.
"""

from .main import main

__all__ = ["main"]
