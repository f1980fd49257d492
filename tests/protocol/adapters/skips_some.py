"""A partial implementation with one fault: ``skips_some.py [STARTS]``.

It skips every scenario whose start is not in ``STARTS`` (comma-separated; default
``deck,auction``) with its own ``skipped`` reply, as an engine that can only deal from
a deck or a dealt hand would.  With ``--declare`` it also declares those starts in its
hello reply (``capabilities.starts``), so the runner never sends the others.  Its fault:
a call of ten no trumps is refused (``bid-not-available``); everything else is
answered as the reference answers it.
"""

from _common import answer, arguments, messages, send

args = arguments()
declare = "--declare" in args
args = [a for a in args if a != "--declare"]
starts = (args[0] if args else "deck,auction").split(",")
for message in messages():
    reply = answer(message)
    if message.get("cmd") == "hello" and declare:
        reply["capabilities"]["starts"] = starts
    if message.get("cmd") == "run":
        scenario = message["scenario"]
        start = scenario["setup"]["start"]
        if start not in starts:
            reply = {"seq": message["seq"], "skipped": {"reason": f"no {start} start"}}
        else:
            for step, result in zip(scenario["steps"], reply["result"]["steps"], strict=True):
                if step.get("call") == "10NT" and result.get("outcome") == "accepted":
                    result.update(outcome="rejected", code="bid-not-available")
    send(reply)
