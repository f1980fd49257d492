"""Answers every run with valid JSON that does not follow the run-reply schema."""

from _common import answer, messages, send

for message in messages():
    if message.get("cmd") == "run":
        send({"seq": message["seq"], "result": {"steps": "all good"}})
    else:
        send(answer(message))
