"""Hangs on the Nth run of each process (default 2), or at hello with ``hello``.

Before hanging it starts a grandchild that would sleep for a long time, to prove
that the runner kills the adapter's whole process group, not just the adapter.
"""

import subprocess
import sys
import time

from _common import answer, arguments, messages, send

args = arguments()
when = args[0] if args else "2"


def hang() -> None:
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", *sys.argv[1:]])
    sys.stderr.write("hang: sleeping instead of answering\n")
    sys.stderr.flush()
    time.sleep(600)


runs = 0
for message in messages():
    if message.get("cmd") == "hello" and when == "hello":
        hang()
    if message.get("cmd") == "run":
        runs += 1
        if str(runs) == when:
            hang()
    send(answer(message))
