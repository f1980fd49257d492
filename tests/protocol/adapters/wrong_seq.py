"""Answers every run correctly but with the wrong sequence number."""

from _common import answer, messages, send

for message in messages():
    reply = answer(message)
    if message.get("cmd") == "run":
        reply["seq"] += 1
    send(reply)
