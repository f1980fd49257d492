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
    """The names of the cases the campaign found to have modified a watched file (and
    nothing else wrong: a case whose own action failed would be blamed for that)."""
    tally = campaign.Tally()
    for case in cases:
        campaign.run_case(case, tally)
    assert (tally.traceback, tally.hang, tally.leftover, tally.wrong) == (0, 0, 0, 0), tally
    assert all(": modified [" in line for line in tally.failures), tally.failures
    return [line.split(" / ")[1].split(": modified")[0] for line in tally.failures]


def test_each_kind_of_change_is_blamed_on_the_case_that_made_it(
    watched: Path, tmp_path: Path
) -> None:
    one = watched / "area" / "one.yaml"
    new_folder = watched / "area" / "made"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "in.yaml").write_text("z")
    linked = outside / "link-to-one.yaml"  # the same file, reached from outside the repository
    blamed = _blamed(
        _case("reads only", lambda: one.read_text()),
        _case("rewrites in place", lambda: one.write_text("id: BBBB\n")),  # same size
        _case("does nothing", lambda: None),
        _case("adds a file", lambda: (watched / "area" / "two.yaml").write_text("x")),
        _case("makes a folder", lambda: new_folder.mkdir()),
        _case("writes in the new folder", lambda: (new_folder / "three.yaml").write_text("y")),
        _case("moves a file in", lambda: (outside / "in.yaml").rename(new_folder / "in.yaml")),
        _case("moves a file out", lambda: (new_folder / "in.yaml").rename(outside / "out.yaml")),
        _case("links it from outside", lambda: linked.hardlink_to(one)),
        _case("writes through the link", lambda: linked.write_text("id: DDDD\n")),
        _case("makes it unreadable", lambda: one.chmod(0)),
        _case("removes a file", lambda: (watched / "area" / "two.yaml").unlink()),
        _case("does nothing again", lambda: None),
    )
    assert blamed == [
        "rewrites in place",
        "adds a file",
        "writes in the new folder",
        "moves a file in",
        "moves a file out",
        "writes through the link",
        "makes it unreadable",
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
