"""Shakes hands, then answers every run with a line that is not JSON."""

from _common import answer, messages, send

for message in messages():
    if message.get("cmd") == "run":
        send("engine ready, dealing now (a log line printed to stdout by mistake)\n")
    else:
        send(answer(message))
