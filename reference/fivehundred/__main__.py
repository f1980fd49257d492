"""``python -m fivehundred``: the command line."""

from .cli import main

main()
