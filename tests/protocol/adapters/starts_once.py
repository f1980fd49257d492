"""Starts properly once (``starts_once.py FLAG_FILE``), crashes on its first run, and
can never start again: the runner must stop restarting it and not hang."""

import sys
from pathlib import Path

from _common import answer, arguments, messages, send

flag = Path(arguments()[0])
if flag.exists():
    sys.stderr.write("starts_once: already started once, refusing\n")
    sys.exit(4)
flag.write_text("started")
for message in messages():
    if message.get("cmd") == "run":
        sys.exit(70)
    send(answer(message))
