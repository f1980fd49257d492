"""A correct adapter declaring chosen capabilities: ``PROFILES LEGAL CODES``.

For example ``capabilities.py australian-4 no no`` lists no legal actions and
reports no rejection codes (it answers ``rejected`` without a code).
"""

from _common import answer, arguments, messages, send

args = [*arguments(), *["australian-4", "yes", "yes"][len(arguments()) :]]
profiles, legal, codes = args[0].split(","), args[1] == "yes", args[2] == "yes"
for message in messages():
    reply = answer(message)
    if message.get("cmd") == "hello":
        reply["capabilities"] = {"profiles": profiles, "legal_actions": legal, "error_codes": codes}
        reply["implementation"]["name"] = "capabilities-adapter"
    elif not codes and "result" in reply:
        for step in reply["result"]["steps"]:
            step.pop("code", None)
    send(reply)
