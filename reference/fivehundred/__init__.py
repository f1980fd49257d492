"""Five Hundred: reference rules engine and conformance suite."""

__version__ = "1.7.0"
SUITE_VERSION = __version__
PROTOCOL_VERSION = 1
