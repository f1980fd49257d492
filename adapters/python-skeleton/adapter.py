#!/usr/bin/env python3
"""Five Hundred conformance suite: a protocol v1 adapter skeleton for Python.

It speaks the whole protocol (site/protocol.md) and implements no rules: every
scenario is answered "skipped" until the five functions under "YOUR ENGINE" are
filled in.  Standard library only; Python 3.9 or later.

    fivehundred verify --impl 'python3 adapters/python-skeleton/adapter.py'
    fivehundred verify --impl 'python3 adapters/python-skeleton/adapter.py' --one-shot

stdout carries protocol messages only, one JSON object per line.  Write logs and
debugging output to stderr (log() below): the runner keeps its tail for reports.
"""

import json
import sys
import traceback

PROTOCOL = 1

# Who you are; shown in every report.
IMPLEMENTATION = {
    "name": "python-skeleton",
    "version": "0.0.0",
    "language": "python",
    # "homepage": "https://example.org/my-five-hundred",
}

# What you can do.  The runner checks as much as you declare:
# - profiles: the forms of the game you implement (other scenarios are skipped);
# - legal_actions: True once observe(state, "legal") works (until then the runner never
#   asks for legal or legal_count and reports them as unchecked);
# - error_codes: True once rejections carry the suite's codes (until then only accepted
#   versus rejected is compared, and each expected code is reported unchecked);
# - observations (optional): the observation keys observe() can answer so far; the
#   runner asks only for these and reports the rest as unchecked.  Delete the entry once
#   every observation works;
# - starts (optional): the kinds of start set_up() can make, of "deck", "auction",
#   "play" and "game"; scenarios with another start are skipped without being sent, and
#   fuzz generates only those (["auction"] for an engine of the bidding alone).
CAPABILITIES = {
    "profiles": ["australian-4"],
    "legal_actions": False,
    "error_codes": False,
    "observations": ["phase", "to_act"],
}


class NotImplementedYet(Exception):
    """Raise this for a feature you do not have yet: the scenario is reported as
    skipped, with the message as the reason.  Any other exception makes it errored."""


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


# ---- YOUR ENGINE ---------------------------------------------------------------------
# Notation is the scenario notation, unchanged: seats N E S W, cards like "AS", "10H",
# "JK", bids "6S" … "10NT", "MIS", "OMIS", calls add "PASS", suits S C D H.


def set_up(profile, setup):
    """Build a game from scenario["setup"] and return your state.

    setup["start"] is deck, auction, play or game; a deck is already spelled out card
    by card, top card first.  site/scenario-format.md says what a play start tells you
    about the deal so far (and what it does not)."""
    raise NotImplementedYet(f"starting a {profile} scenario at {setup['start']}")


def act(state, step):
    """One action: step has "seat" and exactly one of "call", "discard" (three cards),
    "nominate" (a suit) or "play" (a card, with "names" for a suitless joker lead).
    Return {"outcome": "accepted"} or {"outcome": "rejected", "code": "must-follow-suit"}
    (leave "code" out while error_codes is False).  A rejected action changes nothing."""
    raise NotImplementedYet("actions")


def new_deal(state, deck):
    """A new deal by the current dealer from this deck (only between deals of a game).
    An engine that cannot take an ordered deck raises NotImplementedYet (site/protocol.md)."""
    raise NotImplementedYet("deal steps")


def record_deal_result(state, result):
    """Record a whole deal at game level: "thrown-in" or {contract, declarer, tricks}."""
    raise NotImplementedYet("deal_result steps")


def observe(state, key):
    """The current value of one observation (site/scenario-format.md, Observations).
    Only the keys in CAPABILITIES["observations"] are asked for, when that list is given."""
    raise NotImplementedYet(f"observation {key}")


# ---- THE PROTOCOL (no need to change anything below) -----------------------------------


def run_scenario(scenario):
    state = set_up(scenario["profile"], scenario["setup"])
    results = []
    for step in scenario["steps"]:
        if "observe" in step:
            results.append({"observed": {key: observe(state, key) for key in step["observe"]}})
        elif "deal" in step:
            results.append(new_deal(state, step["deal"]))
        elif "deal_result" in step:
            results.append(record_deal_result(state, step["deal_result"]))
        else:
            results.append(act(state, step))
    return {"steps": results}


def answer(message):
    """The reply to one message, or None for bye."""
    command = message.get("cmd")
    if command == "hello":
        return {
            "protocol": PROTOCOL,
            "implementation": IMPLEMENTATION,
            "capabilities": CAPABILITIES,
        }
    if command == "bye":
        return None
    if command != "run":
        raise ValueError(f"unknown cmd {command!r}")
    seq = message["seq"]
    try:
        return {"seq": seq, "result": run_scenario(message["scenario"])}
    except NotImplementedYet as missing:
        return {"seq": seq, "skipped": {"reason": f"not implemented: {missing}"}}
    except Exception as error:  # your engine's bug: errored, with the traceback
        return {
            "seq": seq,
            "errored": {
                "message": f"{type(error).__name__}: {error}",
                "context": {
                    "id": message["scenario"].get("id"),
                    "traceback": traceback.format_exc(),
                },
            },
        }


def main():
    for line in sys.stdin:  # one message per line; the loop ends at end of input
        if not line.strip():
            continue
        try:
            reply = answer(json.loads(line))
        except Exception as error:
            log(f"python-skeleton: cannot answer {line[:200]!r}: {error}")
            return 2
        if reply is None:  # bye
            return 0
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()  # an unflushed reply is a reply the runner never sees
    return 0


if __name__ == "__main__":
    sys.exit(main())
