"""Logs the ``seq`` of every run message it receives, one line per process start.

``seq_log.py LOG`` appends ``start`` and then each run's seq to the file LOG, and answers
like the reference; the first process started for LOG (the log is still empty) never
answers its first run, so the runner times out, restarts it and carries on.  The log then
shows the numbers each adapter process was given.  With LOG created beforehand, every
process answers at once, and the log shows how far a run has got.
"""

import time
from pathlib import Path

from _common import answer, arguments, messages, send

log = Path(arguments()[0])
first_process = not log.exists()
with log.open("a") as out:
    out.write("start\n")
for message in messages():
    if message.get("cmd") == "run":
        with log.open("a") as out:
            out.write(f"{message['seq']}\n")
        if first_process:
            time.sleep(600)  # killed by the runner's --timeout
    send(answer(message))
