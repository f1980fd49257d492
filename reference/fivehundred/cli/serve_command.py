"""``fivehundred serve``: the reference engine behind protocol v1 on stdin and stdout.

Started once per scenario under ``--one-shot``: it imports nothing it does not use.
"""

from __future__ import annotations

import sys

import click


@click.command()
@click.option("--one-shot", is_flag=True, help="Answer a single message, then exit.")
def serve(one_shot: bool) -> None:
    """Serve the reference engine over protocol v1 on stdin and stdout.

    This is what `fivehundred verify --impl 'fivehundred serve'` talks to, and a
    working example of an adapter (site/protocol.md).
    """
    from ..verify.serve import serve as serve_protocol

    sys.exit(serve_protocol(sys.stdin.buffer, sys.stdout.buffer, one_shot=one_shot))
