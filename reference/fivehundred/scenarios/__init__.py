"""Scenarios: the model, loading files through YAML, schema and lint, and the corpus.

The public surface of the stage; its internal modules (``_yaml``, ``_schema``,
``_lint``) are private.
"""

from ._yaml import Mark, SourceMap
from .corpus import (
    ID_ALPHABET,
    Corpus,
    FileResult,
    display_path,
    load_corpus,
    load_file,
    read_retired_ids,
)
from .diagnostics import Diagnostic, DocPath, format_path
from .model import (
    ORDERED,
    ActionStep,
    AuctionStart,
    CallStep,
    Checkpoint,
    DealResultStep,
    DealStep,
    DeckStart,
    DiscardStep,
    GameStart,
    NominateStep,
    ObserveStep,
    PlayStart,
    PlayStep,
    RecordedResult,
    Scenario,
    ScenarioInput,
    Setup,
    Step,
    expected_rejection,
)
from .parse import ModelError, input_from_json, input_json, scenario_from_document, spelled_deck
from .positions import PositionError, start_position

__all__ = [
    "ID_ALPHABET",
    "ORDERED",
    "ActionStep",
    "AuctionStart",
    "CallStep",
    "Checkpoint",
    "Corpus",
    "DealResultStep",
    "DealStep",
    "DeckStart",
    "Diagnostic",
    "DiscardStep",
    "DocPath",
    "FileResult",
    "GameStart",
    "Mark",
    "ModelError",
    "NominateStep",
    "ObserveStep",
    "PlayStart",
    "PlayStep",
    "PositionError",
    "RecordedResult",
    "Scenario",
    "ScenarioInput",
    "Setup",
    "SourceMap",
    "Step",
    "display_path",
    "expected_rejection",
    "format_path",
    "input_from_json",
    "input_json",
    "load_corpus",
    "load_file",
    "read_retired_ids",
    "scenario_from_document",
    "spelled_deck",
    "start_position",
]
