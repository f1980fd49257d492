"""The fixed Russian words of the game (``terms_ru.yaml``), as data and as a table.

One idea, one word: a rulebook that says *прикуп* on one page and *вдова* on the next
makes a reader wonder whether they are two things.  ``terms_ru.yaml`` fixes the Russian
word for each term of the English rulebook and lists the synonyms the Russian pages
must not use; the glossary shows the table (the ``<!-- fivehundred:terms-ru -->``
marker, filled by the site hook) and the tests check every Russian page against it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

TERMS_FILE = Path(__file__).with_name("terms_ru.yaml")
TERMS_MARKER = "<!-- fivehundred:terms-ru -->"


@dataclass(frozen=True)
class Term:
    """One term: the English words, the Russian word fixed for them, the synonyms not used."""

    english: str
    russian: str
    forbidden: tuple[str, ...]


class TermsError(ValueError):
    """The term list is not in the expected shape (says where and what)."""


@cache
def russian_terms(path: Path = TERMS_FILE) -> tuple[Term, ...]:
    """The terms of ``terms_ru.yaml``, checked for shape."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    entries = data.get("terms") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise TermsError(f"{path}: expected a mapping with a list under 'terms'")
    out: list[Term] = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise TermsError(f"{path}: term {number}: expected a mapping, found {entry!r}")
        english, russian, forbidden = entry.get("en"), entry.get("ru"), entry.get("forbidden")
        if not isinstance(english, str) or not isinstance(russian, str):
            raise TermsError(f"{path}: term {number}: 'en' and 'ru' must be strings")
        if not isinstance(forbidden, list) or not all(isinstance(f, str) for f in forbidden):
            raise TermsError(f"{path}: term {number} ({english}): 'forbidden' must be a list")
        out.append(Term(english, russian, tuple(forbidden)))
    return tuple(out)


def forbidden_pattern(word: str) -> re.Pattern[str]:
    """A forbidden entry as a pattern: a whole word, or a stem when it ends in ``*``."""
    stem = word.endswith("*")
    body = re.escape(word.rstrip("*")).replace(r"\ ", r"\s+")
    tail = r"\w*" if stem else r"(?!\w)"
    return re.compile(rf"(?<!\w){body}{tail}", re.IGNORECASE)


def forbidden_uses(text: str, terms: tuple[Term, ...]) -> list[tuple[str, str, str]]:
    """Every use of a forbidden synonym in ``text``: (word found, its entry, fixed term)."""
    found: list[tuple[str, str, str]] = []
    for term in terms:
        for word in term.forbidden:
            for match in forbidden_pattern(word).finditer(text):
                found.append((match.group(0), word, term.russian))
    return found


def terms_table(terms: tuple[Term, ...]) -> str:
    """The glossary's table of fixed words (Markdown)."""
    lines = ["| английский | наше слово | не используем |", "|---|---|---|"]
    for term in terms:
        avoided = ", ".join(
            w.rstrip("*") + ("…" if w.endswith("*") else "") for w in term.forbidden
        )
        lines.append(
            f"| {html.escape(term.english)} | **{html.escape(term.russian)}** | "
            f"{html.escape(avoided) or '—'} |"
        )
    return "\n".join(lines)
