"""Prints a log line of its own on standard output before every reply (a common
mistake: the line is not a protocol message), then answers as the reference does.

The handshake passes (the first line is the hello reply); every run reply then
comes after a line that is not JSON, so each scenario kills and restarts it."""

from _common import answer, messages, send

for message in messages():
    if message.get("cmd") == "run":
        send("engine: starting a new game\n")
    send(answer(message))
