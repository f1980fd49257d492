"""The dispute records in another language, for the disputes page and the clause markers.

A dispute record (``scenarios/disputes/<id>.yaml``) is the one source of what a dispute
is; its title, question and answer summaries are English.  ``disputes_<lang>.yaml`` next to
this module gives them in another language, keyed by dispute id and answer id, and the
site hook builds that language's pages from records with those texts put in.  The notes
stay English (the Russian page says so).  :func:`translation_problems` lists a record or
an answer with no translation and a translation of nothing, so a new record cannot reach
the Russian site in English unnoticed (the tests call it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from fivehundred.scenarios.loading.disputes import Dispute

from .translation import DEFAULT_LANGUAGE


def translations_file(language: str) -> Path:
    return Path(__file__).with_name(f"disputes_{language}.yaml")


@cache
def dispute_texts(language: str) -> dict[str, Any]:
    """The translated texts of one language (empty for English or when there is no file)."""
    path = translations_file(language)
    if language == DEFAULT_LANGUAGE or not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping of dispute ids, found {type(data).__name__}")
    return data


def localised_disputes(records: Sequence[Dispute], language: str) -> list[Dispute]:
    """The records with their title, question and summaries in ``language`` where given."""
    texts = dispute_texts(language)
    out = []
    for record in records:
        text = texts.get(record.id)
        if not isinstance(text, dict):
            out.append(record)
            continue
        given = text.get("answers")
        summaries: dict[str, Any] = given if isinstance(given, dict) else {}
        answers = tuple(
            dataclasses.replace(a, summary=str(summaries.get(a.id, a.summary)))
            for a in record.answers
        )
        out.append(
            dataclasses.replace(
                record,
                title=str(text.get("title", record.title)),
                question=str(text.get("question", record.question)),
                answers=answers,
            )
        )
    return out


def translation_problems(records: Sequence[Dispute], language: str) -> list[str]:
    """What the language's file lacks or has in excess, one sentence each."""
    texts = dispute_texts(language)
    where = translations_file(language).name
    problems = []
    known = {r.id for r in records}
    for record in records:
        text = texts.get(record.id)
        if not isinstance(text, dict):
            problems.append(f"{where}: no text for dispute {record.id!r}")
            continue
        for field in ("title", "question"):
            if not isinstance(text.get(field), str) or not text[field].strip():
                problems.append(f"{where}: dispute {record.id!r} has no {field}")
        summaries = text.get("answers")
        summaries = summaries if isinstance(summaries, dict) else {}
        ids = {a.id for a in record.answers}
        problems += [
            f"{where}: dispute {record.id!r}: no summary for answer {a!r}"
            for a in sorted(ids - set(summaries))
        ]
        problems += [
            f"{where}: dispute {record.id!r}: answer {a!r} is not in the record"
            for a in sorted(set(summaries) - ids)
        ]
    problems += [f"{where}: no dispute record {i!r}" for i in sorted(set(texts) - known)]
    return problems
