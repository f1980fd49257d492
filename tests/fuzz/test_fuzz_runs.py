"""The fuzzer in-process: generators, signatures, shrinking, files, reports and merging.

The implementations under test here are the reference itself and two deliberately wrong
in-process engines (:class:`Misreader`), so nothing starts a process.
"""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from fivehundred.engine import PROFILE_NAMES, VARIANTS, get_profile
from fivehundred.fuzz.cases import materialize
from fivehundred.fuzz.fuzzer import (
    FuzzError,
    FuzzReport,
    Settings,
    Tester,
    fuzz,
    merge,
    reference_tester,
)
from fivehundred.fuzz.generators import GENERATORS, generate, generator_for, generators_for
from fivehundred.fuzz.report import check_scenario_text, render, write_scenarios
from fivehundred.fuzz.signature import Signature, _shapes
from fivehundred.scenarios import (
    ActionStep,
    DealResultStep,
    NominateStep,
    PlayStart,
    SansKittyStep,
    Scenario,
    ScenarioInput,
    scenario_from_document,
)
from fivehundred.verify.reference import InputError, ReferenceSession, observer_names
from fivehundred.verify.runner import ReferenceImplementation, RunOutcome, judge
from fuzz_cli import run_in_process


class Misreader:
    """The reference with one deliberate bug, in-process.

    ``no-omis``: open misère is never listed among the legal calls.
    ``no-nominate``: a nomination is refused (``nomination-not-allowed``) though legal.
    """

    name = "misreader"

    def __init__(self, bug: str) -> None:
        self.bug = bug

    def run(self, scenario: Scenario) -> RunOutcome:
        scenario_input = scenario.input()
        try:
            session = ReferenceSession(scenario_input)
        except InputError as error:
            return RunOutcome(errored=str(error))
        steps: list[dict[str, Any]] = []
        for index, step in enumerate(scenario_input.steps):
            if self.bug == "no-nominate" and isinstance(step, NominateStep):
                steps.append({"outcome": "rejected", "code": "nomination-not-allowed"})
                continue
            out = session.step(step, index)
            observed = out.get("observed")
            if self.bug == "no-omis" and observed and "legal" in observed:
                observed["legal"] = [a for a in observed["legal"] if a != "OMIS"]
            steps.append(out)
        return RunOutcome(result={"steps": steps})

    def close(self) -> None:
        return None


def misreader(bug: str) -> Callable[[], tuple[Tester, Callable[[], None]]]:
    def factory() -> tuple[Tester, Callable[[], None]]:
        implementation = Misreader(bug)
        return Tester(implementation), implementation.close

    return factory


def _report_json(report: FuzzReport) -> dict[str, Any]:
    data = report.as_json()
    for key in ("seconds", "jobs", "shards"):
        data.pop(key)
    return data


# ---- generators --------------------------------------------------------------------------


def test_deals_are_reproducible_from_the_seed() -> None:
    for index in range(len(GENERATORS)):
        assert generate(11, index) == generate(11, index)
    assert [generate(11, i) for i in range(6)] != [generate(12, i) for i in range(6)]


@pytest.mark.slow
def test_every_generated_deal_passes_on_the_reference() -> None:
    keys = observer_names()
    reference = ReferenceImplementation()
    for index in range(len(GENERATORS)):  # each generator once, with every observation
        scenario = materialize(generate(5, index), keys)
        verdict = judge(scenario, reference.run(scenario))
        assert verdict.ok, (index, verdict.mismatches, verdict.message)


@pytest.mark.slow
def test_generators_make_only_positions_the_reference_accepts() -> None:
    # e.g. a mid-deal start after a nominated joker was played has no play start
    for index in range(300):
        generate(3, index)  # raises GeneratorError on a refused position


@pytest.mark.slow
def test_generators_reach_the_contracts_and_the_rejection_codes() -> None:
    codes: Counter[str] = Counter()
    starts: Counter[str] = Counter()
    contracts: set[str] = set()
    for index in range(240):
        case = generate(1, index)
        starts[case.setup.kind] += 1
        if isinstance(case.setup, PlayStart):
            contracts.add(case.setup.contract)
        scenario = materialize(case, ("contract",))
        for step in scenario.steps:
            code = getattr(step, "reject", None)
            if code:
                codes[code] += 1
            expect = getattr(step, "expect", None)
            if expect and expect.get("contract"):
                contracts.add(expect["contract"])
    assert set(starts) == {"deck", "auction", "play", "game"}
    assert {"MIS", "OMIS"} <= contracts
    assert any(c.startswith("10") for c in contracts)
    assert any(c.endswith("NT") for c in contracts)
    wanted = {
        "wrong-phase",
        "deal-over",
        "game-over",
        "not-your-turn",
        "already-passed",
        "bid-not-higher",
        "card-not-held",
        "must-follow-suit",
        "nomination-not-allowed",
        "unexpected-suit-name",
        "discard-needs-three",
        "misere-needs-seven",
    }
    assert wanted <= set(codes), wanted - set(codes)


# ---- signatures --------------------------------------------------------------------------


def test_a_wrong_seat_is_named_by_where_it_sits() -> None:
    assert _shapes("to_act", "N", "E") == ("a seat", "the seat to its left")
    assert _shapes("to_act", "S", "N") == ("a seat", "its partner")
    assert _shapes("to_act", "N", None) == ("a seat", "null")
    assert _shapes("legal", ["PASS", "OMIS"], ["PASS"]) == ("missing omis", "nothing extra")
    assert _shapes("kitty", ["AS", "KS", "QS"], ["AS", "KS"]) == ("list of 3", "list of 2")


# ---- finding, shrinking, writing ----------------------------------------------------------


@pytest.mark.parametrize("bug", ["no-omis", "no-nominate"])
def test_a_misreading_is_found_shrunk_and_written_as_a_failing_scenario(bug: str) -> None:
    report = fuzz(misreader(bug), Settings(seed=4, deals=12), name=bug)
    assert report.families, "the bug was not found"
    for family in report.families.values():
        assert family.verified
        assert family.scenario_id and family.filename.endswith(".yaml")
        assert "tags: [fuzz]" in family.scenario and "seed 4" in family.scenario
        assert check_scenario_text(family.scenario) == []  # valid, passes on the reference
        # small: a play start of at most three tricks, or at most six calls
        assert family.shrunk_actions <= 12, family.scenario
        # (a nomination comes before the first trick: its play start keeps every card)
        if family.start == "play" and family.signature.kind != "nominate":
            assert family.start_tricks is not None and family.start_tricks <= 3
    # and each written scenario fails on the misreading with its family's signature
    tester = Tester(Misreader(bug))
    for family in report.families.values():
        scenario = scenario_from_document(yaml.safe_load(family.scenario))
        found = tester.run(scenario)
        assert found is not None and found.signature == family.signature


class Interrupting(Misreader):
    """The ``no-omis`` misreader, with Ctrl-C pressed at its first run after a disagreement
    (while that disagreement is being shrunk)."""

    def __init__(self) -> None:
        super().__init__("no-omis")
        self.found = False
        self.runs_after = 0

    def run(self, scenario: Scenario) -> RunOutcome:
        outcome = super().run(scenario)
        if self.found:
            self.runs_after += 1
            if self.runs_after == 1:
                raise KeyboardInterrupt
        elif judge(scenario, outcome).mismatches:
            self.found = True
        return outcome


def test_ctrl_c_while_shrinking_keeps_the_family() -> None:
    def factory() -> tuple[Tester, Callable[[], None]]:
        implementation = Interrupting()
        return Tester(implementation), implementation.close

    report = fuzz(factory, Settings(seed=4, deals=36), name="interrupted")
    assert report.stopped == "interrupted"
    assert report.deals >= 1 and len(report.families) == 1
    (family,) = report.families.values()
    assert not family.verified and family.scenario
    assert check_scenario_text(family.scenario) == []
    assert "(interrupted)" in render(report, "text")


@pytest.mark.slow
def test_shards_merge_exactly_as_one_run() -> None:
    settings = Settings(seed=9, deals=30)
    whole = fuzz(misreader("no-omis"), settings, name="m")
    parts = [
        fuzz(misreader("no-omis"), Settings(seed=9, deals=30, shard=(i, 3)), name="m")
        for i in (1, 2, 3)
    ]
    assert all(p.deals == 10 for p in parts)
    # through JSON, as CI artifacts would travel
    parts = [FuzzReport.from_json(json.loads(json.dumps(p.as_json()))) for p in parts]
    merged = merge(list(reversed(parts)))
    assert whole.families
    assert _report_json(merged) == _report_json(whole)


def test_overlapping_or_foreign_reports_are_refused() -> None:
    one = fuzz(reference_tester, Settings(seed=1, deals=4), name="r")
    other = fuzz(reference_tester, Settings(seed=2, deals=4), name="r")

    with pytest.raises(FuzzError, match="overlap"):
        merge([one, one])
    with pytest.raises(FuzzError, match="seed"):
        merge([one, other])


def test_reports_render_in_every_format() -> None:
    report = fuzz(misreader("no-omis"), Settings(seed=4, deals=12), name="m")
    data = json.loads(render(report, "json"))
    assert data["deals"] == 12 and data["families"]
    family = data["families"][0]
    assert Signature.from_json(family["signature"]).describe() == family["describe"]
    markdown = render(report, "markdown")
    assert markdown.startswith("# Fuzz report") and "```yaml" in markdown
    assert "families" in render(report, "text")


def test_a_run_never_replaces_a_scenario_file_edited_since_an_earlier_run(
    tmp_path: Path,
) -> None:
    """The file names come from the seed and the deal, so a second run writes the same
    names: an unchanged file is written again, an edited one is kept and said so."""
    report = fuzz(misreader("no-omis"), Settings(seed=4, deals=12), name="m")
    first = write_scenarios(report, tmp_path)
    assert first and not any(w.kept for w in first)
    edited = first[0].path
    edited.write_text(edited.read_text() + "# my notes\n", encoding="utf-8")
    again = write_scenarios(report, tmp_path)
    assert [w.kept for w in again] == [True] + [False] * (len(again) - 1)
    assert edited.read_text().endswith("# my notes\n")


# ---- the command line ------------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_in_process("fuzz", *args)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shard", "3/2"], "--shard"),
        (["--shard", "x"], "--shard"),
        (["--profile", "nope"], "unknown profile"),
        (["--variant", "nope"], "unknown variant 'nope'"),
        (["--variant", "all-pass-no-trumps"], "does not apply to profile australian-4"),
        (["--variant", "no-misere", "--variant", "blind-misere"], "cannot be combined"),
        (["--profile", "american-3", "--variant", "deck-24"], "does not apply"),
        (["--jobs", "0"], "--jobs"),
        (["--jobs", "10000"], "--jobs: at most 64"),
        (["--deals", "0"], "--deals: must be at least 1"),
        (["--impl", "'unbalanced"], "--impl"),
        (["--time", "nan"], "--time"),
        (["--time", "-5"], "--time"),
        (["--timeout", "inf"], "--timeout"),
        (["--startup-timeout", "0"], "--startup-timeout"),
    ],
)
def test_bad_options_are_usage_errors(args: list[str], message: str) -> None:
    done = _cli(*args)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr


def test_fuzzing_the_reference_in_process_from_the_command_line() -> None:
    done = _cli("--deals", "6", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["deals"] == 6


def test_a_shard_with_no_deal_says_nothing_was_checked() -> None:
    done = _cli("--deals", "2", "--shard", "3/3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("No deal was run (seed 0): nothing was checked.")
    assert "agreed" not in done.stdout
    spent = _cli("--time", "0.000001")  # the budget is gone before the first deal
    assert spent.returncode == 1, spent.stdout
    assert "nothing was checked" in spent.stdout + spent.stderr


def test_a_missing_adapter_is_a_broken_adapter_not_a_traceback() -> None:
    done = _cli("--impl", "/nonexistent/adapter", "--deals", "1")
    assert done.returncode == 3
    assert "handshake" in done.stderr and "Traceback" not in done.stderr


# ---- every profile and every toggle --------------------------------------------------------

RULE_SETS = [(name, ()) for name in PROFILE_NAMES] + [
    (profile, (variant.name,))
    for variant in VARIANTS.values()
    for profile in variant.applies_to[:1]
]
# Every profile in the fast tier; each toggle (there are over twenty) only in the full run.
RULE_SET_PARAMS = [
    pytest.param(p, v, id="+".join((p, *v)), marks=[pytest.mark.slow] if v else [])
    for p, v in RULE_SETS
]


@pytest.mark.parametrize(("profile", "variants"), RULE_SET_PARAMS)
def test_the_reference_finds_nothing_in_itself_under_every_rule_set(
    profile: str, variants: tuple[str, ...]
) -> None:
    generators = generators_for(profile, variants)
    settings = Settings(seed=3, profile=profile, variants=variants, deals=len(generators))
    report = fuzz(reference_tester, settings, name="reference")
    assert report.deals == len(generators)
    assert "generator-error" not in report.by_generator, report.by_generator
    assert report.families == {}
    assert f"No disagreement in {len(generators)} deals" in render(report, "text")
    assert report.variants == variants
    for index in range(len(generators)):
        case = generate(3, index, profile, variants)
        assert (case.profile, case.variants) == (profile, variants)
        seats = set(get_profile(profile, variants).seat_names)
        assert {s.seat for s in case.actions if isinstance(s, ActionStep)} <= seats


def test_generators_that_do_not_apply_are_skipped() -> None:
    names = {name for name, _ in generators_for("australian-4", ("no-misere",))}
    assert "contract-misere" not in names and "contract-open-misere" not in names
    assert "contract-open-misere" not in {n for n, _ in generators_for("american-4")}
    assert "joker-endgame" not in {n for n, _ in generators_for("american-2", ("deck-24",))}
    assert [n for n, _ in generators_for()] == [n for n, _ in GENERATORS]


def test_recorded_results_give_tricks_by_side_beyond_two_sides() -> None:
    found = False
    for index in range(60):
        case = generate(5, index, "american-3")
        for step in case.actions:
            result = step.result if isinstance(step, DealResultStep) else None
            if result is not None and not isinstance(result, str) and result.contract != "MIS":
                assert isinstance(result.tricks, Mapping)
                assert set(result.tricks) == {"N", "E", "S"}
                found = True
    assert found


def test_a_toggle_run_writes_scenarios_that_carry_the_toggles() -> None:
    settings = Settings(seed=4, deals=8, variants=("blind-misere",))
    report = fuzz(misreader("no-omis"), settings, name="m")
    assert report.families, "the bug was not found"
    assert report.as_json()["variants"] == ["blind-misere"]
    assert "australian-4+blind-misere" in render(report, "text")
    for family in report.families.values():
        assert "variants: [blind-misere]" in family.scenario
        assert "--variant blind-misere" in family.scenario
        assert check_scenario_text(family.scenario) == []
        scenario = scenario_from_document(yaml.safe_load(family.scenario))
        assert scenario.variants == ("blind-misere",)
    again = FuzzReport.from_json(json.loads(json.dumps(report.as_json())))
    assert again.variants == ("blind-misere",)
    plain = fuzz(reference_tester, Settings(seed=4, deals=2, shard=(2, 2)), name="m")
    with pytest.raises(FuzzError, match="variants"):
        merge([again, plain])


def test_fuzzing_a_profile_and_a_toggle_from_the_command_line() -> None:
    done = _cli(
        "--profile", "american-3", "--variant", "all-pass-no-trumps", "--deals", "4",
        "--format", "json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["profile"], data["variants"], data["deals"]) == (
        "american-3",
        ["all-pass-no-trumps"],
        4,
    )


@pytest.mark.parametrize("profile", ["american-2", "american-5", "american-6"])
def test_steered_contracts_are_reached_at_other_tables(profile: str) -> None:
    reached: dict[str, set[str]] = {}
    for index in range(60):
        name = generator_for(index, profile)
        if name not in ("contract-misere", "contract-no-trumps", "contract-slam"):
            continue
        case = generate(1, index, profile)
        session = ReferenceSession(ScenarioInput("X", case.profile, case.setup, ()))
        for number, step in enumerate(case.actions):
            session.step(step, number)
            deal = session.deal
            if deal is not None and deal.contract is not None:
                reached.setdefault(name, set()).add(deal.contract.token)
    assert "MIS" in reached["contract-misere"]
    assert any(t.endswith("NT") for t in reached["contract-no-trumps"])
    assert any(t.startswith("10") for t in reached["contract-slam"])


def test_generators_take_and_refuse_sans_kitty_under_its_toggle() -> None:
    """Under sans-kitty the generators announce it at the kitty (one choice among hundreds,
    so it is given its own chance) and also try it where it is refused."""
    variants = ("sans-kitty",)
    outcomes: Counter[str | None] = Counter()
    for index in range(2 * len(generators_for("australian-4", variants))):
        case = generate(5, index, "australian-4", variants)
        for step in materialize(case, ("contract",)).steps:
            if isinstance(step, SansKittyStep):
                outcomes[step.reject] += 1
    assert outcomes[None] > 0 and set(outcomes) - {None}, outcomes


def test_a_worker_error_the_parent_could_not_rebuild_arrives_as_its_text() -> None:
    """ModelError takes two arguments, so its pickle cannot be loaded again: the parent of
    a --jobs run would report a TypeError about unpickling instead of the real error."""
    from multiprocessing import Pipe

    from fivehundred.fuzz.fuzzer import _reply
    from fivehundred.scenarios.loading.parse import ModelError

    mine, theirs = Pipe()
    _reply(theirs, ("raised", ModelError("steps[3]", "a bug")))
    _reply(theirs, ("raised", ValueError("plain")))
    kind, first = mine.recv()
    assert kind == "raised" and type(first) is RuntimeError
    assert str(first) == "ModelError: steps[3]: a bug"
    assert repr(mine.recv()[1]) == repr(ValueError("plain"))  # a plain one goes as it is
