"""What implementers receive never changes by accident.

The export and the run messages of the 219 scenarios that existed before the package
was restructured were stored (gzipped) from that version; today's encoder must give
the very same bytes for each of them.  Scenarios added since are not in the fixture.

A fixture entry changes only on purpose, re-recorded from the changed scenario and named
here: BZSC, SWXQ, ZE27 and 22Y4 (their `rules` citations) and GBH4 (East
and West held spades that seven spade leads could not have left them; now hearts), after
outside audits of the corpus; then D58Y, VWFA, ZB2X, 25CQ, 83AD, GBH4, 56VC, SWXQ,
3VTA and PA8G, whose misère positions put on lead a seat whose side had won none of the
tricks played (the winner of a trick leads the next: no deal reaches them), rewritten with a
defender on lead or at the first trick; and P32T, whose `suits_led` (spades and hearts only)
no seven tricks could have been played with its hands: clubs are now led too; and the
`rules` of JR6G (dealer-rotation, the clockwise order, for follow-suit) and 24WK
(nominated-joker for misere-joker), which cited rulings their steps do not exercise; 4NKT
(no longer cites opening-lead, which it does not test) and Y5H8 (South's card is refused
too, as its assert says of every other seat); and, after further audits, SDVC
(no longer cites misere-joker: no joker is played) and SQP9 (South, the misère partner, who
sits out from the auction on, now holds the ten cards the partner keeps, not three) and
CJ2G (checks that nothing is exposed while the first trick is still being played); then
SDTG (cites deal-packets, which its hands check), ZY5J (no longer cites suitless-joker: its
joker is never played) and 56VC (North's heart is refused before the joker is played, as
its explanation says North must); BZSC (a discard is refused too, as its explanation says)
and S9SV (cites suitless-joker-following, which its legal list checks); PKPK (seven tricks of
spades alone cannot be played while North keeps a spade: diamonds were led too), JR6G (no
longer cites opening-lead) and CPSG (the nine tricks are North–South's, not South's); and
BAPE (cites misere-needs-seven, which its legal list checks).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from fivehundred.scenarios import input_json
from fivehundred.scenarios.derived.export import export_corpus
from fivehundred.verify import protocol as p
from protocol_helpers import corpus

FIXTURES = Path(__file__).parent / "fixtures"


def _stored_export() -> dict[str, object]:
    with gzip.open(FIXTURES / "export-before-restructure.json.gz", "rt", encoding="utf-8") as f:
        document: dict[str, object] = json.load(f)
    return document


def test_the_export_of_every_stored_scenario_is_unchanged() -> None:
    stored = _stored_export()
    today = export_corpus(corpus())
    by_id = {entry["id"]: entry for entry in today["scenarios"]}
    entries = stored["scenarios"]
    assert isinstance(entries, list) and len(entries) == 219
    for entry in entries:
        # Tags are labels for filtering and may grow (dispute tags were added since);
        # everything an implementation is given or judged on must be as it was.
        now = dict(by_id[entry["id"]], tags=entry["tags"])
        assert set(entry["tags"]) <= set(by_id[entry["id"]]["tags"]), entry["id"]
        assert json.dumps(now, indent=2, ensure_ascii=False) == json.dumps(
            entry, indent=2, ensure_ascii=False
        ), entry["id"]
    assert today["comparison"] == stored["comparison"]
    assert today["suite"]["protocol"] == stored["suite"]["protocol"]  # the version moves on


def test_every_stored_run_message_is_encoded_byte_for_byte_as_before() -> None:
    with gzip.open(FIXTURES / "run-messages-before-restructure.jsonl.gz", "rb") as f:
        lines = f.read().splitlines(keepends=True)
    by_id = {s.id: s for s in corpus()}
    runs = [json.loads(line) for line in lines if b'"cmd":"run"' in line]
    assert len(runs) == 219
    for line, message in zip([x for x in lines if b'"cmd":"run"' in x], runs, strict=True):
        scenario = by_id[message["scenario"]["id"]]
        assert p.encode(p.run(message["seq"], input_json(scenario.input()))) == line
