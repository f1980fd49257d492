"""Answers every run with one line of N MiB (default 17, over the 16 MiB cap), no newline
until the end."""

import sys

from _common import answer, arguments, messages, send

mebibytes = int((arguments() or ["17"])[0])
for message in messages():
    if message.get("cmd") == "run":
        chunk = b" " * (1 << 20)
        for _ in range(mebibytes):
            sys.stdout.buffer.write(chunk)
        sys.stdout.buffer.write(b"{}\n")
        sys.stdout.flush()
    else:
        send(answer(message))
