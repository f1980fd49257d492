"""Scenarios: the format, the loading of files into it, and what is derived from them.

The rule for this package: a subpackage holds modules by what they are for.  ``format/``
is what a scenario says (model, vocabulary, rule anchors, and what a located problem is);
``loading/`` goes from files to checked models (YAML, parsing, schema, lint, positions,
cache, corpus, dispute records); ``derived/`` is what is made from loaded scenarios
(sentences, coverage, rule points, export).  Each reads only the ones before it, which an
import contract checks.  This module is the public surface of the stage; the loading's
internal modules (``_yaml``, ``_schema``, ``_lint``, ``_cache``) are private.

Names are imported on first use (PEP 562): the reference behind ``serve`` needs the
model, not the loading and linting of files, and an adapter or ``serve --one-shot``
starts once per scenario.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .format.diagnostics import Diagnostic, DocPath, Mark, format_path
    from .format.model import (
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
    from .loading._yaml import SourceMap, YamlSourceError, load_yaml
    from .loading.corpus import (
        ID_ALPHABET,
        Corpus,
        FileResult,
        display_path,
        load_corpus,
        load_file,
        read_retired_ids,
    )
    from .loading.parse import (
        ModelError,
        input_from_json,
        input_json,
        scenario_from_document,
        spelled_deck,
    )
    from .loading.positions import PositionError, start_position

_LAZY = {
    "Mark": ".format.diagnostics",
    "SourceMap": ".loading._yaml",
    "YamlSourceError": ".loading._yaml",
    "load_yaml": ".loading._yaml",
    "ID_ALPHABET": ".loading.corpus",
    "Corpus": ".loading.corpus",
    "FileResult": ".loading.corpus",
    "display_path": ".loading.corpus",
    "load_corpus": ".loading.corpus",
    "load_file": ".loading.corpus",
    "read_retired_ids": ".loading.corpus",
    "Diagnostic": ".format.diagnostics",
    "DocPath": ".format.diagnostics",
    "format_path": ".format.diagnostics",
    "ORDERED": ".format.model",
    "ActionStep": ".format.model",
    "AuctionStart": ".format.model",
    "CallStep": ".format.model",
    "Checkpoint": ".format.model",
    "DealResultStep": ".format.model",
    "DealStep": ".format.model",
    "DeckStart": ".format.model",
    "DiscardStep": ".format.model",
    "GameStart": ".format.model",
    "NominateStep": ".format.model",
    "SansKittyStep": ".format.model",
    "ObserveStep": ".format.model",
    "PlayStart": ".format.model",
    "PlayStep": ".format.model",
    "RecordedResult": ".format.model",
    "Scenario": ".format.model",
    "ScenarioInput": ".format.model",
    "Setup": ".format.model",
    "Step": ".format.model",
    "expected_rejection": ".format.model",
    "ModelError": ".loading.parse",
    "input_from_json": ".loading.parse",
    "input_json": ".loading.parse",
    "scenario_from_document": ".loading.parse",
    "spelled_deck": ".loading.parse",
    "PositionError": ".loading.positions",
    "start_position": ".loading.positions",
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
