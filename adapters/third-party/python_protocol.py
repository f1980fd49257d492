"""The protocol half of the Python adapters for third-party engines (halbrd, vinceau).

Everything here is about the protocol and the user's checkout, nothing about an engine or a
rule: reading the checkout path from its variable (or saying in one line what to do), the
commit it is at, the hello reply, the loop of run messages, and how an engine crash is
reported.  Each adapter beside this file supplies its engine's mapping.  Standard library
only, and nothing from the suite's own package, like the adapters themselves.
"""

import json
import os
import sys
import traceback

PROTOCOL = 1


class NotExpressible(Exception):
    """The engine has no call for what the scenario needs: the scenario is skipped."""


class Engine:
    """Who the engine is, where its checkout is said to be, and where it was tested."""

    def __init__(self, short_name, repository, variable, pinned_commit):
        self.short_name = short_name  # for the log lines and the clone folder
        self.repository = repository
        self.variable = variable
        self.pinned_commit = pinned_commit

    def log(self, text):
        print(f"{self.short_name} adapter: {text}", file=sys.stderr, flush=True)

    def give_up(self, why=""):
        """One line on stderr saying how to get a checkout, then exit 2."""
        folder = f"/tmp/{self.short_name}"
        print(
            f"set {self.variable} to a checkout of {self.repository} at {self.pinned_commit}"
            f"{why}: git clone {self.repository} {folder} && "
            f"git -C {folder} checkout {self.pinned_commit}",
            file=sys.stderr,
        )
        sys.exit(2)

    def checkout(self, marker):
        """The checkout's folder, which must hold the file ``marker``; else give up."""
        root = os.environ.get(self.variable, "")
        if not root:
            self.give_up()
        if not os.path.isfile(os.path.join(root, marker)):
            self.give_up(f" (it is {root!r}, which has no {marker})")
        return root

    def where(self, error):
        """The last frames of a crash as file:line (function), without the source lines (the
        engine's code stays in the engine) and with the checkout's path written as its
        variable, so that a committed report does not depend on where the checkout lives."""
        root = os.path.realpath(os.environ.get(self.variable, "")) + os.sep
        frames = []
        for frame in traceback.extract_tb(error.__traceback__)[-4:]:
            path = os.path.realpath(frame.filename)
            if path.startswith(root):
                path = f"${self.variable}/{path[len(root) :]}"
            else:
                path = os.path.basename(path)
            frames.append(f"{path}:{frame.lineno} ({frame.name})")
        return frames


def checkout_commit(root):
    """The commit the checkout is at, read from its .git folder, or None if unknown."""
    git = os.path.join(root, ".git")
    try:
        with open(os.path.join(git, "HEAD"), encoding="utf-8") as head_file:
            head = head_file.read().strip()
        if not head.startswith("ref: "):
            return head
        ref = head[len("ref: ") :]
        ref_path = os.path.join(git, *ref.split("/"))
        if os.path.isfile(ref_path):
            with open(ref_path, encoding="utf-8") as ref_file:
                return ref_file.read().strip()
        with open(os.path.join(git, "packed-refs"), encoding="utf-8") as packed:
            for line in packed:
                parts = line.split()
                if len(parts) == 2 and parts[1] == ref:
                    return parts[0]
    except OSError:
        return None
    return None


def serve(engine, name, capabilities, load, run_scenario):
    """Load the engine (``load()`` returns the checkout's folder), then answer the runner.

    stdout is kept for the protocol alone: anything the engine prints goes to stderr.
    ``run_scenario`` returns the steps' results or raises NotExpressible (skipped); any
    other exception is the engine crashing (errored, with where it crashed)."""
    protocol_out = sys.stdout
    sys.stdout = sys.stderr
    root = load()
    commit = checkout_commit(root)
    if commit and commit != engine.pinned_commit:
        engine.log(f"the checkout is at {commit}, not at the tested commit {engine.pinned_commit}")
    implementation = {
        "name": name,
        "version": (commit or "unknown")[:7],
        "language": "python",
        "homepage": engine.repository,
    }
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
            command = message.get("cmd")
            if command == "bye":
                return 0
            if command == "hello":
                reply = {
                    "protocol": PROTOCOL,
                    "implementation": implementation,
                    "capabilities": capabilities,
                }
            elif command == "run":
                reply = answer_run(engine, message, run_scenario)
            else:
                raise ValueError(f"unknown cmd {command!r}")
        except Exception as error:
            engine.log(f"cannot answer {line[:200]!r}: {error}")
            return 2
        protocol_out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        protocol_out.flush()
    return 0


def answer_run(engine, message, run_scenario):
    seq = message["seq"]
    try:
        return {"seq": seq, "result": {"steps": run_scenario(message["scenario"])}}
    except NotExpressible as missing:
        return {"seq": seq, "skipped": {"reason": str(missing)}}
    except Exception as error:  # the engine crashed: it could not run this scenario
        return {
            "seq": seq,
            "errored": {
                "message": f"the engine raised {type(error).__name__}: {error}",
                "context": {"where": engine.where(error)},
            },
        }


def check_expressible(scenario, missing_starts, missing_steps):
    """Skip before running anything the engine has no call for (a reply covers a whole
    scenario, so a scenario is not run up to the step the engine cannot take)."""
    start = scenario["setup"]["start"]
    if start in missing_starts:
        raise NotExpressible(missing_starts[start])
    for step in scenario["steps"]:
        for kind, reason in missing_steps.items():
            if kind in step:
                raise NotExpressible(reason)
