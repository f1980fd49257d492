"""Verification: running scenarios on an implementation and judging the results.

The reference executor, verdicts, whole runs with expectations files, protocol v1,
the adapter process and the reference behind the protocol (``serve``).  Its
internal module ``_process`` is private.
"""
