"""Rule components: the rules that differ between rule sets, one family per component.

A profile (:class:`~fivehundred.engine.profile.Profile`) is a composition of these small
frozen values: the table, the pack and deal, the bid ladder, the auction, the misère, the
joker, the start of play, the scoring and the end of the game.  Each holds its family's
settings and the methods that decide its rules, so :class:`~..deal.Deal` and
:class:`~..game.Game` ask a component (``profile.joker.lead_suits(...)``) instead of
branching on a flag, and a toggle replaces or adjusts one component
(:func:`dataclasses.replace`).

Why this shape.  python-chess makes each variant a subclass of its board that overrides
named hooks; that suits variants that are whole games, but toggles here combine freely
(a table plays ``no-misere`` with ``sans-kitty`` with ``pass-may-re-enter``), and one
subclass per combination, or a stack of mixins, would not.  OpenSpiel gives a game a flat
set of named parameters with defaults; that combines freely, but the code that reads the
parameters stays one body branching on all of them (what :class:`Profile` was, with 54
fields).  Components keep OpenSpiel's free combination and python-chess's hooks in one
place: the settings of a family of rules sit beside the methods that read them, and two
toggles combine by replacing different components, or different fields of one (a clash
that cannot combine is declared in the toggle's ``conflicts``).  A toggle that needs a
new rule is a new field and method of one component plus its registry entry.

:data:`COMPONENTS` names the components in a profile's order; the rule points of the
coverage and the generated rule-set tables walk them field by field.
"""

from __future__ import annotations

from typing import Final

from .auction import AllPass, Auction, Next, Procedure
from .ending import GameEnd, GameEndRule
from .joker import JokerRules
from .ladder import Ladder, OutranksBy, by_value
from .misere import MisereRules, OpenMisereShown
from .pack import Pack
from .play import OpeningLead, PlayRules
from .points import ScoringRules
from .table import Rests, Table, skipping

COMPONENTS: Final = (
    "table",
    "pack",
    "ladder",
    "auction",
    "misere",
    "joker",
    "play",
    "scoring",
    "end",
)
"""The attribute of a profile holding each component, in the order they are shown."""

__all__ = [
    "COMPONENTS",
    "AllPass",
    "Auction",
    "GameEnd",
    "GameEndRule",
    "JokerRules",
    "Ladder",
    "MisereRules",
    "Next",
    "OpenMisereShown",
    "OpeningLead",
    "OutranksBy",
    "Pack",
    "PlayRules",
    "Procedure",
    "Rests",
    "ScoringRules",
    "Table",
    "by_value",
    "skipping",
]
