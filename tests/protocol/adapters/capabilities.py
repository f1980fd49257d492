"""A correct adapter declaring chosen capabilities:
``PROFILES LEGAL CODES [OBSERVATIONS [VARIANTS]]``.

For example ``capabilities.py australian-4 no no`` lists no legal actions and
reports no rejection codes (it answers ``rejected`` without a code);
``capabilities.py australian-4 no no phase,to_act,scores`` also declares that it can
report only those three observations (it fails the run if asked for another).
``VARIANTS`` (comma-separated) are the toggles it declares; it exits with status 70
if it is sent a scenario of a profile or with a toggle it did not declare.
"""

import sys

from _common import answer, arguments, messages, send

args = [*arguments(), *["australian-4", "yes", "yes", "", ""][len(arguments()) :]]
profiles, legal, codes = args[0].split(","), args[1] == "yes", args[2] == "yes"
observations = [k for k in args[3].split(",") if k] or None
variants = [v for v in args[4].split(",") if v]
for message in messages():
    if message.get("cmd") == "run":
        scenario = message["scenario"]
        undeclared = [v for v in scenario.get("variants", []) if v not in variants]
        if scenario["profile"] not in profiles or undeclared:
            print(
                f"sent an undeclared profile or toggle: {scenario['profile']} {undeclared}",
                file=sys.stderr,
            )
            sys.exit(70)
        asked = {k for step in message["scenario"]["steps"] for k in step.get("observe", ())}
        refused = asked - set(observations or asked)
        if not legal:
            refused |= asked & {"legal", "legal_count", "perft"}
        if refused:
            print(f"asked for undeclared observations {sorted(refused)}", file=sys.stderr)
            sys.exit(70)
    reply = answer(message)
    if message.get("cmd") == "hello":
        reply["capabilities"] = {"profiles": profiles, "legal_actions": legal, "error_codes": codes}
        if observations is not None:
            reply["capabilities"]["observations"] = observations
        if variants:
            reply["capabilities"]["variants"] = variants
        reply["implementation"]["name"] = "capabilities-adapter"
    elif not codes and "result" in reply:
        for step in reply["result"]["steps"]:
            step.pop("code", None)
    send(reply)
