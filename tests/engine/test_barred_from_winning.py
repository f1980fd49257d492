"""Seed 003's bar (``GameEnd.barred_at``): a three-handed player who has once fallen to −500
never wins afterwards, and a table where everyone has fallen cannot win at all."""

from __future__ import annotations

import pytest
from fivehundred.engine import Game, SetupError, profile_named
from fivehundred.engine.rejections import Code, IllegalAction
from fivehundred.engine.scoring import THROWN_IN
from fivehundred.engine.seats import Seat

THREE = profile_named("three-handed")
MAY_WIN = profile_named("three-handed", ["fallen-player-may-win"])


def test_a_game_where_every_player_has_fallen_is_refused_as_a_start() -> None:
    with pytest.raises(SetupError, match="nobody could win"):
        Game(THREE, Seat(0), [-500, -600, -700])
    assert not Game(MAY_WIN, Seat(0), [-500, -600, -700]).over


def test_a_player_below_the_bar_at_the_start_is_barred_and_the_others_are_not() -> None:
    game = Game(THREE, Seat(0), [-520, 0, 100])
    assert game.barred == {0}
    assert not game.over
    assert Game(MAY_WIN, Seat(0), [-520, 0, 100]).barred == set()


def test_once_every_player_is_barred_no_further_deal_is_recorded() -> None:
    game = Game(THREE, Seat(0), [-520, -510, 0])
    game.barred.add(2)  # as if the third had fallen in an earlier deal and climbed back
    assert game.over and game.winner is None
    with pytest.raises(IllegalAction) as refused:
        game.record(THROWN_IN)
    assert refused.value.rejection.code is Code.GAME_OVER
    assert "nobody can win" in refused.value.rejection.message
