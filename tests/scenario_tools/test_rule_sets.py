"""Scenarios of other profiles and toggles: lint checks the table, filters and reports
count by profile, and an adapter receives only the rule sets it declared."""

from __future__ import annotations

import json
import re
import shlex
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner
from fivehundred.cli import main
from fivehundred.scenarios import load_corpus
from fivehundred.scenarios.format.model import SansKittyStep

Write = Callable[[str, str], Path]
ADAPTERS = Path(__file__).resolve().parents[1] / "protocol" / "adapters"

THREE = """\
    id: ZZT2
    title: Three players are dealt ten each
    rules: [deal-packets]
    assert: In the American three-handed game each of three players is dealt ten cards.
    profile: american-3
    setup: {start: deck, dealer: S, deck: ordered}
    steps:
      - expect:
          {phase: auction, to_act: N, hand_sizes: {N: 10, E: 10, S: 10}, scores: {N: 0, E: 0, S: 0}}
      - {seat: N, call: 6S}
      - {seat: E, call: MIS}
      - {seat: S, call: PASS}
      - expect: {phase: kitty, contract: MIS, declarer: E}
"""

NO_MISERE = """\
    id: ZZT3
    title: Without misère the call is refused
    rules: [misere-needs-seven]
    assert: With the no-misère toggle a misère call is refused as a bid the profile lacks.
    variants: [no-misere]
    setup: {start: deck, dealer: W, deck: ordered}
    steps:
      - {seat: N, call: 7S}
      - {seat: E, call: MIS, reject: bid-not-available}
      - expect: {to_act: E, scores: {NS: 0, EW: 0}}
"""

DEFAULT = """\
    id: ZZT4
    title: Misère after a seven
    rules: [misere-needs-seven]
    assert: In the default profile misère may be bid after a seven.
    setup: {start: deck, dealer: W, deck: ordered}
    steps:
      - {seat: N, call: 7S}
      - {seat: E, call: MIS}
"""


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def _json(*args: str) -> tuple[int, object]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, json.loads(result.stdout)


def test_scenarios_of_other_rule_sets_validate_and_pass(write: Write) -> None:
    three = write("three.yaml", THREE)
    write("no-misere.yaml", NO_MISERE)
    code, output = _run("verify", str(three.parent))
    assert code == 0, output
    assert "2 passed, 0 failed" in output
    assert "by profile" in output and "american-3" in output
    scenario = {s.id: s for s in load_corpus([three.parent]).scenarios}["ZZT3"]
    assert scenario.variants == ("no-misere",)
    assert scenario.profile_label == "australian-4+no-misere"


def test_lint_checks_seats_and_sides_against_the_profile(write: Write) -> None:
    bad = THREE.replace("{seat: S, call: PASS}", "{seat: W, call: PASS}").replace(
        "scores: {N: 0, E: 0, S: 0}}", "scores: {NS: 0, E: 0}}"
    )
    path = write("bad.yaml", bad)
    code, output = _run("validate", str(path))
    assert code == 1
    assert "steps[3].seat: american-3 has no seat 'W'; its seats are N, E, S" in output
    assert "steps[0].expect.scores.NS: american-3 has no side 'NS'" in output
    assert "steps[0].expect.scores: give every side of american-3: missing N, S" in output
    assert "Traceback" not in output


def test_lint_checks_cards_and_hands_against_the_profile(write: Write) -> None:
    auction = """\
        id: ZZT5
        title: A six is not a card of the three-handed deck
        rules: [deck]
        assert: The three-handed deck has no sixes.
        profile: three-handed
        setup:
          start: play
          dealer: N
          contract: 6S
          declarer: E
          hands: {N: [6H], E: [AS], W: [KS]}
          tricks: {N: 3, E: 3, S: 3}
        steps:
          - {seat: E, play: AS}
    """
    path = write("cards.yaml", auction)
    code, output = _run("validate", str(path))
    assert code == 1
    assert "setup.hands.N[0]: 6H is not in the three-handed deck" in output
    fixed = auction.replace("[6H]", "[7H]")
    path.write_text(textwrap.dedent(fixed), encoding="utf-8")
    code, output = _run("validate", str(path))
    assert code == 1
    assert "setup.hands.W: three-handed has the seats N, E, S" in output


def test_an_unknown_or_misapplied_toggle_is_a_located_error(write: Write) -> None:
    path = write("toggle.yaml", NO_MISERE.replace("[no-misere]", "[all-pass-no-trumps]"))
    code, output = _run("validate", str(path))
    assert code == 1
    assert "variant all-pass-no-trumps does not apply to profile australian-4" in output
    assert f"{path}:5:" in output
    path.write_text(
        textwrap.dedent(NO_MISERE.replace("[no-misere]", "[no-such]")),
        encoding="utf-8",
    )
    code, output = _run("validate", str(path))
    assert code == 1 and "no-such" in output and "Traceback" not in output


def test_profile_and_variant_filters(write: Write) -> None:
    folder = write("three.yaml", THREE).parent
    write("no-misere.yaml", NO_MISERE)
    write("default.yaml", DEFAULT)
    code, output = _run("list", "--format", "json", "--profile", "american-3", str(folder))
    assert code == 0, output
    assert [row["id"] for row in json.loads(output)] == ["ZZT2"]
    code, output = _run("list", "--format", "json", "--variant", "no-misere", str(folder))
    assert [(r["id"], r["variants"]) for r in json.loads(output)] == [("ZZT3", ["no-misere"])]
    code, output = _run("list", "--format", "json", "--profile", "australian-4", str(folder))
    assert sorted(row["id"] for row in json.loads(output)) == ["ZZT3", "ZZT4"]
    code, output = _run("verify", "--profile", "american-5", str(folder))
    assert code == 2 and "unknown profile american-5; valid profiles:" in output


def test_json_report_counts_by_profile(write: Write) -> None:
    folder = write("three.yaml", THREE).parent
    write("no-misere.yaml", NO_MISERE)
    write("default.yaml", DEFAULT)
    code, report = _json("verify", "--format", "json", str(folder))
    assert code == 0, report
    assert isinstance(report, dict)
    profiles = {p["profile"]: p for p in report["profiles"]}
    assert list(profiles) == ["australian-4", "american-3", "australian-4+no-misere"]
    assert all(p["passed"] == 1 and p["skipped"] == 0 for p in profiles.values())


def _adapter(*capabilities: str) -> str:
    return shlex.join([sys.executable, str(ADAPTERS / "capabilities.py"), *capabilities])


def test_an_adapter_gets_only_the_profiles_and_toggles_it_declared(write: Write) -> None:
    folder = write("three.yaml", THREE).parent
    write("no-misere.yaml", NO_MISERE)
    write("default.yaml", DEFAULT)
    impl = _adapter("australian-4", "yes", "yes", "")
    code, report = _json("verify", "--format", "json", "--impl", impl, str(folder))
    assert isinstance(report, dict)
    reasons = {s["id"]: (s["status"], s["message"]) for s in report["scenarios"]}
    assert reasons["ZZT4"][0] == "passed"
    assert reasons["ZZT2"] == (
        "skipped",
        "profile american-3 is not supported (the implementation declared: australian-4)",
    )
    assert reasons["ZZT3"] == (
        "skipped",
        "variant no-misere of australian-4 is not supported (the implementation declared: none)",
    )
    counts = {p["profile"]: (p["passed"], p["skipped"]) for p in report["profiles"]}
    assert counts == {
        "australian-4": (1, 0),
        "american-3": (0, 1),
        "australian-4+no-misere": (0, 1),
    }
    # Declared, the toggle is sent (the adapter exits 70 on anything undeclared).
    impl = _adapter("australian-4,american-3", "yes", "yes", "", "no-misere")
    code, output = _run("verify", "--impl", impl, str(folder))
    assert code == 0, output
    assert "3 passed, 0 failed, 0 errored, 0 skipped" in output


def test_recorded_results_give_every_sides_tricks_where_players_score_their_own(
    write: Write,
) -> None:
    game = """\
        id: ZZT6
        title: A recorded deal at three
        rules: [deal-score]
        assert: Each opponent scores his own tricks in a recorded three-handed deal.
        profile: three-handed
        setup: {start: game, dealer: S}
        steps:
          - deal_result: {contract: 7S, declarer: N, tricks: TRICKS}
          - expect: {deal_score: {N: -140, E: 30, S: 10}}
    """
    path = write("game.yaml", game.replace("TRICKS", "{N: 6, E: 3, S: 1}"))
    code, output = _run("verify", str(path))
    assert code == 0, output
    path.write_text(textwrap.dedent(game.replace("TRICKS", "6")), encoding="utf-8")
    code, output = _run("validate", str(path))
    assert code == 1
    assert "give the tricks of every side of three-handed (N, E, S)" in output
    path.write_text(textwrap.dedent(game.replace("TRICKS", "{N: 6, E: 3, S: 2}")), encoding="utf-8")
    code, output = _run("validate", str(path))
    assert code == 1
    assert "the tricks of a played deal add up to 10; found 11" in output


def test_validate_checks_the_dispute_records_beside_the_scenarios(tmp_path: Path) -> None:
    suite = Path(__file__).resolve().parents[2] / "scenarios"
    (tmp_path / "area").mkdir()
    (tmp_path / "area" / "default.yaml").write_text(textwrap.dedent(DEFAULT), encoding="utf-8")
    (tmp_path / "disputes").mkdir()
    record = (suite / "disputes" / "all-pass.yaml").read_text(encoding="utf-8")
    record = re.sub(r"(?m)^scenarios: .*$", "scenarios: [ZZT4, ZZZZ]", record)
    (tmp_path / "disputes" / "all-pass.yaml").write_text(record, encoding="utf-8")
    code, output = _run("validate", str(tmp_path))
    assert code == 1
    assert "all-pass.yaml:24:19: scenarios[1]: scenario ZZZZ does not exist" in output
    assert (
        "all-pass.yaml:24:13: scenarios[0]: scenario ZZT4 lacks the tag dispute-all-pass" in output
    )
    assert "1 files, 1 valid, 0 invalid, 1 dispute records, 3 problems" in output
    # The records folder or one record by itself, in no scenarios/ folder: the schema and
    # lint are checked, and the output says the pairs could not be.
    for given in (tmp_path / "disputes", tmp_path / "disputes" / "all-pass.yaml"):
        code, output = _run("validate", str(given))
        assert code == 0, output
        assert "0 files, 0 valid, 0 invalid, 1 dispute records, 0 problems" in output
        assert "were not checked: no scenarios/ folder holds them" in output
    # Under a scenarios/ folder, the records are checked against the scenarios there.
    suite = tmp_path / "elsewhere" / "scenarios"
    suite.mkdir(parents=True)
    for name in ("area", "disputes"):
        (tmp_path / name).rename(suite / name)
    code, output = _run("validate", str(suite / "disputes" / "all-pass.yaml"))
    assert code == 1, output
    assert "scenarios[1]: scenario ZZZZ does not exist" in output


def test_the_resting_dealer_holds_no_cards_and_declares_nothing(write: Write) -> None:
    auction = """\
        id: ZZT7
        title: The resting dealer is given cards
        rules: [deal-packets]
        assert: Under dealer-sits-out the dealer's hand at the auction is empty.
        profile: american-4
        variants: [dealer-sits-out]
        setup:
          start: auction
          dealer: W
          hands:
            N: [AS, KS, QS, 10C, 9C, 8C, 7C, AH, KH, QH]
            E: [JS, 10S, 9S, AD, KD, QD, JD, JH, 10H, 9H]
            S: [8S, 7S, AC, 10D, 9D, 8D, 7D, 8H, 7H, JK]
            W: WEST
          kitty: KITTY
        steps:
          - expect: {to_act: N}
    """
    path = write("auction.yaml", auction.replace("WEST", "[KC]").replace("KITTY", "[QC, JC]"))
    code, output = _run("validate", str(path))
    assert code == 1
    assert "setup.hands.W: the dealer sits out this deal: give []" in output
    fixed = auction.replace("WEST", "[]").replace("KITTY", "[KC, QC, JC]")
    path.write_text(textwrap.dedent(fixed), encoding="utf-8")
    code, output = _run("verify", str(path))
    assert code == 0, output
    game = """\
        id: ZZT8
        title: A recorded deal declared by the resting dealer
        rules: [deal-score]
        assert: The resting dealer declares nothing.
        profile: american-4
        variants: [dealer-sits-out]
        setup: {start: game, dealer: W}
        steps:
          - deal_result: {contract: 6S, declarer: W, tricks: {N: 2, E: 2, S: 0, W: 6}}
          - expect: {dealer: N}
    """
    path = write("game.yaml", game)
    code, output = _run("verify", str(path))
    assert code != 0
    assert "steps[0].deal_result.declarer: W deals and sits out this deal" in output
    assert "Traceback" not in output


def test_no_scenario_of_the_plain_default_game_needs_a_toggles_vocabulary() -> None:
    """An adapter of the default game that declares no toggle is sent every scenario of
    the plain default profile, so none of them may carry an action only a toggle defines
    (the runner would have to skip it, and such an adapter could never be conformant)."""
    plain = [
        s for s in load_corpus().scenarios if s.profile in (None, "australian-4") and not s.variants
    ]
    assert len(plain) > 500
    offending = [s.id for s in plain if any(isinstance(step, SansKittyStep) for step in s.steps)]
    assert offending == []
