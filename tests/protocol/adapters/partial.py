"""A partly wrong implementation: ``partial.py FAIL_IDS ERROR_IDS SKIP_IDS`` (comma lists).

Scenarios in FAIL_IDS get every accepted action answered as rejected (a failure
with mismatches); ERROR_IDS get an errored reply with context; SKIP_IDS a skipped
reply.  Everything else is answered correctly.  Used for expectations files and
for every report format.
"""

from _common import answer, arguments, messages, send

args = [*arguments(), "", "", ""]
fail, error, skip = (set(filter(None, a.split(","))) for a in args[:3])
for message in messages():
    reply = answer(message)
    if message.get("cmd") == "run":
        scenario_id = message["scenario"]["id"]
        if scenario_id in fail:
            for step in reply["result"]["steps"]:
                if step.get("outcome") == "accepted":
                    step.update(outcome="rejected", code="wrong-phase")
        elif scenario_id in error:
            reply = {
                "seq": message["seq"],
                "errored": {"message": "not implemented", "context": {"feature": "x"}},
            }
        elif scenario_id in skip:
            reply = {"seq": message["seq"], "skipped": {"reason": "no open misère yet"}}
    send(reply)
