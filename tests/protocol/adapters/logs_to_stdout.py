"""Prints a log line of its own on standard output before every reply (a common
mistake: the line is not a protocol message), then answers as the reference does:
``logs_to_stdout.py [LOG]``, where each start appends a line to the file ``LOG``.

The handshake passes (the first line is the hello reply); every run reply then
comes after a line that is not JSON, so each scenario kills and restarts it."""

from _common import answer, arguments, messages, send

args = arguments()
if args:
    with open(args[0], "a", encoding="utf-8") as log:
        log.write("start\n")
for message in messages():
    if message.get("cmd") == "run":
        send("engine: starting a new game\n")
    send(answer(message))
