"""Loading scenario files: safe YAML, schema and lint errors with exact positions."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from fivehundred.scenarios.format.diagnostics import format_path
from fivehundred.scenarios.loading.corpus import area_of, load_corpus, load_file
from scenario_texts import GOOD

Write = Callable[[str, str], Path]


def _only(path: Path) -> list[str]:
    result = load_file(path, path.parent.parent)
    return [f"{d.line}:{d.column} {d.path} {d.kind}: {d.message}" for d in result.diagnostics]


def test_a_good_file_loads_with_its_area(write: Write) -> None:
    path = write("good.yaml", GOOD)
    result = load_file(path, path.parent.parent)
    assert result.diagnostics == []
    assert result.scenario is not None
    assert result.scenario.id == "ZZ22"
    assert result.scenario.area == "area"


def test_the_area_is_the_first_folder_below_the_root_however_the_path_is_spelled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "suite" / "auction").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "suite" / "linked").symlink_to(tmp_path / "elsewhere")
    monkeypatch.chdir(tmp_path)
    root = Path("suite")
    assert area_of(Path("suite/auction/a.yaml"), root) == "auction"
    assert area_of(Path("suite/../suite/auction/a.yaml"), root) == "auction"
    assert area_of(tmp_path / "suite" / "auction" / "a.yaml", root) == "auction"
    assert area_of(Path("suite/linked/b.yaml"), root) == "linked"  # the link, as written
    assert area_of(Path("suite/a.yaml"), root) == ""  # straight under the root: no area
    assert area_of(tmp_path / "elsewhere" / "c.yaml", root) == "elsewhere"  # outside it


def test_unknown_card_is_reported_at_its_line_and_column(write: Write) -> None:
    path = write("bad.yaml", GOOD.replace("{seat: E, call: 6C}", "{seat: E, call: 6X}"))
    (message,) = _only(path)
    assert message.startswith('11:21 steps[1].call schema: found "6X"')
    assert "expected a call" in message


def test_unknown_key_points_at_the_key(write: Write) -> None:
    path = write("bad.yaml", GOOD.replace("title:", "colour: red\ntitle:"))
    (message,) = _only(path)
    assert message.startswith("2:1 colour schema: unknown key 'colour'")


def test_mistyped_names_get_the_nearest_ones(write: Write) -> None:
    """A closed list's value, a key, and a step whose kind key is mistyped (the step is
    judged as the kind it evidently means, not as every kind at once)."""
    text = GOOD.replace("{seat: E, call: 6C}", "{sate: E, call: 6C}")
    text = text.replace("to_act: S}", "to_act: S}\n  - {seat: S, call: 6C, reject: not-your-trun}")
    text = text.replace("title:", "titel: x\ntitle:")
    messages = _only(write("typos.yaml", text))
    assert messages[0].startswith("2:1 titel schema: unknown key 'titel'; did you mean title?;")
    assert messages[1:] == [
        "12:5 steps[1] schema: 'seat' is a required property",
        "12:6 steps[1].sate schema: unknown key 'sate'; did you mean seat?; expected one of: "
        "call, discard, names, nominate, note, play, reject, sans_kitty, seat",
        '14:33 steps[3].reject schema: found "not-your-trun"; did you mean not-your-turn?; '
        "expected a rejection code from the suite's closed list.",
    ]


def test_card_spelled_with_t_gets_a_hint(write: Write) -> None:
    text = GOOD.replace("  deck: ordered\n", "  deck: [TH]\n")
    (message,) = _only(write("hint.yaml", text))
    assert message.startswith("8:10 setup.deck[0] schema: expected a card")
    assert "(did you mean 10H?)" in message


def test_invalid_yaml_is_reported_with_position(write: Write) -> None:
    path = write("broken.yaml", "id: ZZ22\ntitle: [unclosed\n")
    (message,) = _only(path)
    assert message.startswith("3:1 (document) yaml: not valid YAML")
    assert "indentation" not in message  # a bracket left open, not a misplaced line


def test_a_misindented_line_is_called_an_indentation_problem(write: Write) -> None:
    text = GOOD.replace("  deck: ordered\n", "   deck: ordered\n")
    assert text != GOOD
    (message,) = _only(write("indent.yaml", text))
    assert "not valid YAML: mapping values are not allowed" in message
    assert "most often indentation: check this line and the one above it" in message


def test_an_unquoted_colon_in_a_value_is_called_so(write: Write) -> None:
    title = next(line for line in GOOD.splitlines() if line.startswith("title: "))
    for spoiled in (
        title.replace("title: ", "title: Spades: "),  # a colon inside the value
        f"{title}:",  # a colon that ends it
        f"{title}\n  carried on: to the next line",  # prose carried on to the next line
    ):
        (message,) = _only(write("colon.yaml", GOOD.replace(title, spoiled)))
        assert "a value that holds ': ' must be quoted" in message, spoiled
        assert "indentation" not in message


def test_duplicate_keys_are_refused(write: Write) -> None:
    path = write("dup.yaml", GOOD + "title: again\n")
    (message,) = _only(path)
    assert "duplicate key 'title' (first at line 2, column 1)" in message


def test_yaml_cannot_construct_python_objects(write: Write) -> None:
    path = write(
        "evil.yaml",
        GOOD.replace("title: A", "title: !!python/object/apply:os.system ['echo pwned']\n#"),
    )
    (message,) = _only(path)
    assert "yaml" in message
    assert "could not determine a constructor" in message or "not valid YAML" in message


def test_empty_file(write: Write) -> None:
    path = write("empty.yaml", "")
    (message,) = _only(path)
    assert "the file is empty" in message


def test_lint_reports_cards_outside_the_deck_and_duplicates(write: Write) -> None:
    text = """\
    id: ZZ23
    title: Lint catches impossible hands
    rules: [follow-suit]
    assert: A card can be held by one player only.
    setup:
      start: play
      dealer: W
      contract: 6S
      declarer: N
      leader: N
      tricks: {NS: 5, EW: 4}
      hands: {N: [AS], E: [AS], S: [3S], W: [KH]}
    steps:
      - {seat: N, play: AS}
    """
    path = write("lint.yaml", text)
    messages = _only(path)
    assert any(
        "12:24 setup.hands.E[0] lint: AS appears twice (also at setup.hands.N[0])" in m
        for m in messages
    ), messages
    assert any(
        "12:33 setup.hands.S[0] lint: 3S is not in the australian-4 deck" in m for m in messages
    ), messages


def test_keys_that_are_not_text_are_reported_at_their_place_never_as_a_traceback(
    write: Write,
) -> None:
    """Found by the hostile fuzz test: a path through a ``null`` key crashed the report."""
    path = write("keys.yaml", GOOD + '"": {null: 0.0, true: 1}\n')
    messages = _only(path)
    assert any('"".null' in m and "decimal number 0.0" in m for m in messages), messages
    assert any("a key must be text; found null" in m for m in messages), messages
    assert format_path(("", None, True, 2, date(2026, 12, 1))) == '"".null.true[2].2026-12-01'


def test_lint_reports_a_score_no_game_can_reach(write: Write) -> None:
    """Every value and trick point is a multiple of 10, so a side can never stand at 485."""
    text = GOOD.replace("  deck: ordered\n", "  deck: ordered\n  scores: {NS: 485, EW: 480}\n")
    messages = _only(write("lint.yaml", text))
    assert any(
        "setup.scores.NS lint: no game of australian-4 reaches 485: every score is a multiple "
        "of 10" in m
        for m in messages
    ), messages
    assert not any("scores.EW" in m for m in messages), messages


def test_lint_reports_unknown_rule_anchor_and_style(write: Write) -> None:
    text = GOOD.replace("rules: [bid-must-outrank]", "rules: [bid-must-outrank, no-such]")
    text = text.replace("assert: A bid", "assert: Test that a bid should")
    messages = _only(write("lint.yaml", text))
    assert any("rules[1] lint: no rule anchor 'no-such'" in m for m in messages)
    assert any("assert lint: state the behaviour as a fact" in m for m in messages)


def test_lint_reports_setups_the_engine_refuses(write: Write) -> None:
    text = """\
    id: ZZ24
    title: Tricks must add up
    rules: [follow-suit]
    assert: Tricks won add up to the tricks played.
    setup:
      start: play
      dealer: W
      contract: 6S
      declarer: N
      leader: N
      tricks: {NS: 1, EW: 1}
      hands: {N: [AS], E: [KS], S: [QS], W: [KH]}
    steps:
      - {seat: N, play: AS}
    """
    (message,) = _only(write("lint.yaml", text))
    assert "setup lint: hands of 1 cards mean 9 tricks played" in message


def test_lint_reports_impossible_step_order(write: Write) -> None:
    text = GOOD.replace(
        "  - {seat: E, call: 6C}\n",
        "  - {seat: E, call: 6C}\n  - {seat: N, play: AS}\n  - {seat: S, call: 7S}\n",
    )
    messages = _only(write("order.yaml", text))
    assert any(
        "steps[2].play lint: a play needs the auction and the discard" in m for m in messages
    ), messages


def test_refused_steps_are_exempt_from_order_lint(write: Write) -> None:
    text = GOOD.replace(
        "  - {seat: E, call: 6C}\n",
        "  - {seat: E, call: 6C}\n  - {seat: S, play: AS, reject: wrong-phase}\n",
    )
    assert _only(write("order.yaml", text)) == []


def test_one_bad_file_does_not_stop_the_others(write: Write) -> None:
    good = write("good.yaml", GOOD)
    write("bad.yaml", "id: [")
    write("other.yaml", GOOD.replace("ZZ22", "ZZ25"))
    corpus = load_corpus([good.parent], good.parent.parent)
    assert sorted(s.id for s in corpus.scenarios) == ["ZZ22", "ZZ25"]
    assert [f.path.name for f in corpus.invalid_files] == ["bad.yaml"]


def test_duplicate_ids_across_files_are_reported(write: Write) -> None:
    first = write("a.yaml", GOOD)
    write("b.yaml", GOOD)
    corpus = load_corpus([first.parent], first.parent.parent)
    assert len(corpus.scenarios) == 1
    (diagnostic,) = corpus.diagnostics
    assert diagnostic.kind == "corpus"
    assert "id ZZ22 is already used by" in diagnostic.message
    assert (diagnostic.line, diagnostic.column) == (1, 5)


def test_lint_refuses_a_misere_result_play_cannot_produce(write: Write) -> None:
    text = """\
    id: ZZ28
    title: A lost misere ends at one trick
    rules: [misere-score]
    assert: A misère ends when the declarer wins a trick.
    setup: {start: game, dealer: N}
    steps:
      - deal_result: {contract: MIS, declarer: N, tricks: 2}
    """
    (message,) = _only(write("misere.yaml", text))
    assert message.startswith("7:55 steps[0].deal_result.tricks lint: a misère ends")
