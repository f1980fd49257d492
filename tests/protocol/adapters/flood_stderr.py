"""Answers correctly after writing N MiB (default 4) to stderr on every run.

The runner must drain stderr while it writes and reads, or this adapter blocks on a
full pipe and the run deadlocks; and it must keep only a bounded tail.
"""

import sys

from _common import answer, arguments, messages, send

mebibytes = int((arguments() or ["4"])[0])
block = ("flood " * 170 + "\n").encode() * 1024  # about 1 MiB
for message in messages():
    if message.get("cmd") == "run":
        for _ in range(mebibytes):
            sys.stderr.buffer.write(block)
        sys.stderr.buffer.write(b"flood_stderr: the last line of the flood\n")
        sys.stderr.flush()
    send(answer(message))
