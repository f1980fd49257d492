"""Dies before reading anything: the handshake fails, a broken adapter."""

import sys

sys.stderr.write("crash_at_start: cannot find my engine, giving up\n")
sys.exit(3)
