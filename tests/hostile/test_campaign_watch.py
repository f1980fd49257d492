"""The campaign's watch on the repository (``campaign.py``) sees every kind of change a
case could make to a watched folder, and blames the case that made it.

The campaign snapshots the repository only after a case that inotify saw write into it;
a watch that missed a write would let a case that spoils the bundled scenarios pass.
Here the watched folder is a temporary one, and the cases are small functions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import campaign
import pytest


@pytest.fixture
def watched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "repo"
    (folder / "area").mkdir(parents=True)
    (folder / "area" / "one.yaml").write_text("id: AAAA\n")
    monkeypatch.setattr(campaign, "WATCHED", (folder,))
    monkeypatch.setattr(campaign, "_repo_snapshot", {})
    watch = campaign._watch_repository()
    assert watch is not None, "inotify is not available on this machine"
    monkeypatch.setattr(campaign, "_repo_watch", watch)
    yield folder


def _case(name: str, action: Callable[[], None]) -> campaign.Case:
    def run(folder: Path, marker: str) -> campaign.Result:
        action()
        return campaign.Result(0, "", "")

    return campaign.Case("test", name, run, lambda result, folder: None)


def _blamed(*cases: campaign.Case) -> list[str]:
    """The names of the cases the campaign found to have modified a watched file."""
    tally = campaign.Tally()
    for case in cases:
        campaign.run_case(case, tally)
    return [line.split(" / ")[1].split(":")[0] for line in tally.failures]


def test_each_kind_of_change_is_blamed_on_the_case_that_made_it(watched: Path) -> None:
    one = watched / "area" / "one.yaml"
    new_folder = watched / "area" / "made"
    blamed = _blamed(
        _case("reads only", lambda: one.read_text()),
        _case("rewrites in place", lambda: one.write_text("id: BBBB\n")),  # same size
        _case("does nothing", lambda: None),
        _case("adds a file", lambda: (watched / "area" / "two.yaml").write_text("x")),
        _case("makes a folder", lambda: new_folder.mkdir()),
        _case("writes in the new folder", lambda: (new_folder / "three.yaml").write_text("y")),
        _case("removes a file", lambda: one.unlink()),
        _case("does nothing again", lambda: None),
    )
    assert blamed == [
        "rewrites in place",
        "adds a file",
        "writes in the new folder",
        "removes a file",
    ]


def test_without_inotify_every_case_is_checked_by_a_snapshot(
    watched: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(campaign, "_repo_watch", None)
    one = watched / "area" / "one.yaml"
    blamed = _blamed(
        _case("does nothing", lambda: None),
        _case("rewrites in place", lambda: one.write_text("id: CCCC\n")),
    )
    assert blamed == ["rewrites in place"]
