"""Comparing results with expectations: only what is stated, sets as sets."""

from __future__ import annotations

from typing import Any

from fivehundred.scenarios import Scenario, input_json, scenario_from_document
from fivehundred.verify.reference import run_input
from fivehundred.verify.verdict import Status, compare


def _scenario(steps: list[dict[str, Any]], setup: dict[str, Any] | None = None) -> Scenario:
    return scenario_from_document(
        {
            "id": "ZZ30",
            "title": "verdict test",
            "rules": ["follow-suit"],
            "assert": "Following suit is compulsory.",
            "setup": setup
            or {
                "start": "play",
                "dealer": "W",
                "contract": "6S",
                "declarer": "N",
                "leader": "N",
                "tricks": {"NS": 4, "EW": 4},
                "hands": {
                    "N": ["AH", "KH"],
                    "E": ["QH", "5C"],
                    "S": ["10H", "9H"],
                    "W": ["6D", "5D"],
                },
            },
            "steps": steps,
        }
    )


def _verdict(steps: list[dict[str, Any]], lenient: bool = False) -> Any:
    scenario = _scenario(steps)
    return compare(scenario, run_input(scenario.input()), lenient)


def test_sets_are_compared_without_order() -> None:
    assert _verdict([{"seat": "N", "play": "AH"}, {"expect": {"legal": ["QH"]}}]).ok
    assert _verdict([{"expect": {"legal": ["KH", "AH"], "hands": {"N": ["KH", "AH"]}}}]).ok


def test_only_the_seats_given_are_compared() -> None:
    verdict = _verdict([{"expect": {"hands": {"W": ["5D", "6D"]}, "hand_sizes": {"E": 2}}}])
    assert verdict.status is Status.PASSED


def test_a_wrong_observation_is_a_mismatch_with_both_values() -> None:
    verdict = _verdict([{"seat": "N", "play": "AH"}, {"expect": {"to_act": "S"}}])
    assert verdict.status is Status.FAILED
    (mismatch,) = verdict.mismatches
    assert (mismatch.step, mismatch.what, mismatch.expected, mismatch.actual) == (
        1,
        "to_act",
        "S",
        "E",
    )


def test_an_expected_rejection_that_is_accepted_fails() -> None:
    verdict = _verdict([{"seat": "N", "play": "AH", "reject": "must-follow-suit"}])
    assert verdict.status is Status.FAILED
    assert verdict.mismatches[0].actual == "accepted"


def test_a_wrong_code_fails_unless_lenient() -> None:
    steps = [{"seat": "N", "play": "AH"}, {"seat": "E", "play": "5C", "reject": "not-your-turn"}]
    strict = _verdict(steps)
    assert strict.status is Status.FAILED
    assert strict.mismatches[0].actual == "rejected must-follow-suit"
    assert _verdict(steps, lenient=True).ok


def test_trick_fields_not_given_are_not_compared() -> None:
    steps = [{"seat": "N", "play": "AH"}, {"expect": {"trick": {"led": "H"}}}]
    assert _verdict(steps).ok
    steps = [{"seat": "N", "play": "AH"}, {"expect": {"trick": {"cards": {"N": "KH"}}}}]
    assert not _verdict(steps).ok


def test_missing_observation_and_wrong_step_count() -> None:
    scenario = _scenario([{"expect": {"to_act": "N"}}])
    verdict = compare(scenario, {"steps": [{"observed": {}}]})
    assert verdict.mismatches[0].actual == "(not reported)"
    assert compare(scenario, {"steps": []}).status is Status.ERRORED
    assert compare(scenario, {"steps": [{"outcome": "maybe"}]}).status is Status.ERRORED


def test_a_step_result_of_the_wrong_kind_says_which_kind_was_due() -> None:
    checkpoint = _scenario([{"expect": {"to_act": "N"}}])
    wrong = compare(checkpoint, {"steps": [{"outcome": "accepted"}]})
    assert wrong.status is Status.ERRORED
    assert (
        wrong.message
        == "step 1 is a checkpoint: no `observed` returned (the reply gave an `outcome`)"
    )
    action = _scenario([{"seat": "N", "play": "AH"}])
    wrong = compare(action, {"steps": [{"observed": {"to_act": "E"}}]})
    assert wrong.message == "step 1 is an action: no `outcome` returned (the reply gave `observed`)"
    bad = compare(action, {"steps": [{"outcome": "maybe"}]})
    assert bad.message == "step 1: outcome 'maybe' is not accepted or rejected"


def test_a_refused_action_leaves_observations_unchanged() -> None:
    steps = [
        {"seat": "N", "play": "AH"},
        {"seat": "E", "play": "5C", "reject": "must-follow-suit"},
        {"expect": {"to_act": "E", "hands": {"E": ["QH", "5C"]}, "trick": {"cards": {"N": "AH"}}}},
    ]
    assert _verdict(steps).ok


def test_input_never_contains_expectations() -> None:
    scenario = _scenario(
        [
            {"seat": "N", "play": "AH", "note": "lead"},
            {"seat": "E", "play": "5C", "reject": "must-follow-suit"},
            {"expect": {"to_act": "E"}},
        ]
    )
    steps = input_json(scenario.input())["steps"]
    assert steps == [
        {"seat": "N", "play": "AH"},
        {"seat": "E", "play": "5C"},
        {"observe": ["to_act"]},
    ]


def test_ordered_deck_is_spelled_out_in_the_input() -> None:
    scenario = _scenario(
        [{"expect": {"to_act": "N"}}], {"start": "deck", "dealer": "W", "deck": "ordered"}
    )
    deck = input_json(scenario.input())["setup"]["deck"]
    assert len(deck) == 43
    assert deck[:3] == ["AS", "KS", "QS"]
    assert deck[-1] == "JK"


def test_a_rejection_without_a_code_says_so() -> None:
    scenario = _scenario([{"seat": "N", "play": "AH"}])
    verdict = compare(scenario, {"steps": [{"outcome": "rejected"}]})
    assert verdict.mismatches[0].actual == "rejected (no code given)"
    assert verdict.mismatches[0].number == 1  # people count steps from 1


def test_a_trick_mismatch_shows_only_the_fields_that_differ() -> None:
    scenario = _scenario(
        [
            {"seat": "N", "play": "AH"},
            {"seat": "E", "play": "QH"},
            {"seat": "S", "play": "10H"},
            {"seat": "W", "play": "6D"},
            {
                "expect": {
                    "last_trick": {
                        "leader": "N",
                        "led": "H",
                        "cards": {"N": "AH", "E": "QH", "S": "10H", "W": "6D"},
                        "winner": "E",
                    },
                    "hands": {"N": ["KH"], "E": ["5C"]},
                }
            },
        ]
    )
    result = run_input(scenario.input())
    result["steps"][4]["observed"]["hands"] = {"N": ["KH"], "E": ["5D"]}
    verdict = compare(scenario, result)
    by_key = {m.what: m for m in verdict.mismatches}
    assert by_key["last_trick"].expected == {"winner": "E"}
    assert by_key["last_trick"].actual == {"winner": "N"}
    assert by_key["hands"].expected == {"E": ["5C"]} and by_key["hands"].actual == {"E": ["5D"]}


def test_unsupported_observations_and_lenient_codes_are_unchecked() -> None:
    scenario = _scenario(
        [
            {"seat": "E", "play": "QH", "reject": "not-your-turn"},
            {"expect": {"to_act": "N", "legal": ["AH", "KH"]}},
        ]
    )
    result = {"steps": [{"outcome": "rejected"}, {"observed": {"to_act": "N"}}]}
    verdict = compare(scenario, result, True, {"legal": "no legal lists"})
    assert verdict.status is Status.PASSED
    assert [(u.number, u.what) for u in verdict.unchecked] == [
        (1, "rejection code"),
        (2, "legal"),
    ]
    assert verdict.checks == 2  # the outcome of step 1 and to_act


def test_a_scenario_already_sent_is_awaited_even_after_the_deadline() -> None:
    """Past the run's deadline a scenario is not sent, but one the adapter was already sent
    ahead is run (its reply awaited), never reported as never sent."""
    from fivehundred.verify.runner import InProcess, RunOutcome, run_scenarios

    first, second, third = (_scenario([{"expect": {"to_act": "N"}}]) for _ in range(3))

    class SentAhead(InProcess):
        name = "sent-ahead"

        def __init__(self) -> None:
            self.ran: list[Scenario] = []

        def has_in_flight(self, scenario: Scenario) -> bool:
            return scenario is second

        def run(self, scenario: Scenario) -> RunOutcome:
            self.ran.append(scenario)
            return RunOutcome(errored="no reply before the run's --max-time ran out")

    adapter = SentAhead()
    summary = run_scenarios([first, second, third], adapter, deadline=0.0, out_of_time="not run")
    assert adapter.ran == [second]
    messages = [r.verdict.message for r in summary.reports]
    assert messages[0] == messages[2] == "not run"
    assert messages[1].startswith("no reply before")


def test_only_the_implementations_own_errors_say_the_protocol_works() -> None:
    """The broken-adapter advice: every answered scenario came back `errored` by the
    implementation itself; the ones --max-time cut short or never sent do not count."""
    from fivehundred.verify.verdict import REPORTED_ERROR, Verdict
    from fivehundred.verify.verification import Entry, Outcome, only_reported_errors

    scenario = _scenario([{"expect": {"to_act": "N"}}])

    def errored(message: str) -> Entry:
        return Entry(scenario, Verdict(Status.ERRORED, message=message), 0.0, None, Outcome.ERRORED)

    own = errored(f"{REPORTED_ERROR}not written yet")
    cut = errored("no reply before the run's --max-time ran out; the adapter was killed")
    unsent = errored("not run: the run's --max-time of 1 s ran out")
    assert only_reported_errors([own, cut, unsent])
    assert not only_reported_errors([cut, unsent])  # nothing answered at all
    assert not only_reported_errors([own, errored("the reply has seq 3; expected 2")])
