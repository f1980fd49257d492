"""Scenarios: the model, loading files through YAML, schema and lint, and the corpus.

The public surface of the stage; its internal modules (``_yaml``, ``_schema``,
``_lint``) are private.

Names are imported on first use (PEP 562): the reference behind ``serve`` needs the
model, not the loading and linting of files, and an adapter or ``serve --one-shot``
starts once per scenario.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._yaml import Mark, SourceMap, YamlSourceError, load_yaml
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
        SansKittyStep,
        Scenario,
        ScenarioInput,
        Setup,
        Step,
        expected_rejection,
    )
    from .parse import ModelError, input_from_json, input_json, scenario_from_document, spelled_deck
    from .positions import PositionError, start_position

_LAZY = {
    "Mark": "._yaml",
    "SourceMap": "._yaml",
    "YamlSourceError": "._yaml",
    "load_yaml": "._yaml",
    "ID_ALPHABET": ".corpus",
    "Corpus": ".corpus",
    "FileResult": ".corpus",
    "display_path": ".corpus",
    "load_corpus": ".corpus",
    "load_file": ".corpus",
    "read_retired_ids": ".corpus",
    "Diagnostic": ".diagnostics",
    "DocPath": ".diagnostics",
    "format_path": ".diagnostics",
    "ORDERED": ".model",
    "ActionStep": ".model",
    "AuctionStart": ".model",
    "CallStep": ".model",
    "Checkpoint": ".model",
    "DealResultStep": ".model",
    "DealStep": ".model",
    "DeckStart": ".model",
    "DiscardStep": ".model",
    "GameStart": ".model",
    "NominateStep": ".model",
    "SansKittyStep": ".model",
    "ObserveStep": ".model",
    "PlayStart": ".model",
    "PlayStep": ".model",
    "RecordedResult": ".model",
    "Scenario": ".model",
    "ScenarioInput": ".model",
    "Setup": ".model",
    "Step": ".model",
    "expected_rejection": ".model",
    "ModelError": ".parse",
    "input_from_json": ".parse",
    "input_json": ".parse",
    "scenario_from_document": ".parse",
    "spelled_deck": ".parse",
    "PositionError": ".positions",
    "start_position": ".positions",
}
"""Each public name and the module that defines it."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


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
    "SansKittyStep",
    "Scenario",
    "ScenarioInput",
    "Setup",
    "SourceMap",
    "Step",
    "YamlSourceError",
    "display_path",
    "expected_rejection",
    "format_path",
    "input_from_json",
    "input_json",
    "load_corpus",
    "load_file",
    "load_yaml",
    "read_retired_ids",
    "scenario_from_document",
    "spelled_deck",
    "start_position",
]
