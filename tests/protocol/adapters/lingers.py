"""Answers correctly, then stays running after its input ends (a one-shot adapter must exit
once it has replied): the runner kills it after its grace period and says so once, with
the time it cost."""

import time

from _common import answer, messages, send

for message in messages():
    send(answer(message))
time.sleep(60)
