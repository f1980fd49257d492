"""Answers correctly, then crashes on the run after the first N (default 1) of each process."""

import sys

from _common import answer, arguments, messages, send

limit = int((arguments() or ["1"])[0])
runs = 0
for message in messages():
    if message.get("cmd") == "run":
        runs += 1
        if runs > limit:
            sys.stderr.write(f"crash_mid_run: crashing on run {runs}\n")
            sys.stderr.flush()
            sys.exit(70)
    send(answer(message))
