"""Answers hello claiming protocol 2: the handshake fails."""

from _common import answer, messages, send

for message in messages():
    reply = answer(message)
    if message.get("cmd") == "hello":
        reply["protocol"] = 2
    send(reply)
