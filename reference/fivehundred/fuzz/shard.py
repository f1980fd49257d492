"""A fuzz report read back from a file, for ``fivehundred fuzz merge``: input from outside.

A shard's JSON report travels between CI jobs and machines, so it is read as any file from
outside is (site/limits.md): through the strict reader of :mod:`fivehundred.safety` (a
regular file of at most 1 MiB, strict JSON, each key once, nesting and numbers bounded),
then checked here for its shape, each field where it is found, before the report is
built.  Counts are bounded so that a few bytes cannot ask for a billion-entry range, and
nothing in it names a file: the names ``merge --out`` writes are made by the suite.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..safety import (
    MAX_FUZZ_DEALS,
    MAX_FUZZ_JOBS,
    MAX_FUZZ_SHARDS,
    FileRefused,
    JsonRefused,
    clean_name,
    read_json_file,
)
from .fuzzer import REPORT_VERSION, FuzzReport
from .write import scenario_filename

__all__ = ["ShardRefused", "checked_report", "read_shards"]

STOPS = ("deals", "time", "interrupted")

_SHARD = re.compile(r"([1-9][0-9]{0,8})/([1-9][0-9]{0,8})")


class ShardRefused(ValueError):
    """A file that is not a fuzz report this suite can merge, with where and why."""


def _where(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "(document)"


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if value is None:
        return "null"
    return {dict: "a mapping", list: "a list", str: "a string", int: "a whole number"}.get(
        type(value), "a number"
    )


def _fail(path: tuple[str | int, ...], expected: str, value: Any) -> ShardRefused:
    return ShardRefused(f"{_where(path)}: expected {expected}, found {_kind(value)}")


def _field(data: Mapping[str, Any], key: str, path: tuple[str | int, ...]) -> Any:
    if key not in data:
        raise ShardRefused(f"{_where(path) + '.' if path else ''}{key}: missing")
    return data[key]


def _mapping(value: Any, path: tuple[str | int, ...]) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise _fail(path, "a mapping", value)
    return value


def _list(value: Any, path: tuple[str | int, ...]) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(path, "a list", value)
    return value


def _text(value: Any, path: tuple[str | int, ...]) -> str:
    if not isinstance(value, str):
        raise _fail(path, "a string", value)
    return value


def _whole(
    value: Any, path: tuple[str | int, ...], low: int | None, high: int | None = None
) -> int:
    """A whole number (never ``true``), from ``low`` to ``high`` where given."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(path, "a whole number", value)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (
            f"{low:,} to {high:,}" if low is not None and high is not None else f"{low:,} or more"
        )
        raise ShardRefused(f"{_where(path)}: {str(value)[:40]} is out of range ({bounds})")
    return value


def _runs(value: Any) -> int:
    """How many deal indices the ``[first, last, step]`` runs hold (never expanded here)."""
    total = 0
    for number, run in enumerate(_list(value, ("indices",))):
        where: tuple[str | int, ...] = ("indices", number)
        items = _list(run, where)
        if len(items) != 3:
            raise ShardRefused(f"{_where(where)}: expected [first, last, step]")
        first, last, step = (_whole(v, (*where, i), 0) for i, v in enumerate(items))
        if last < first or (step == 0) != (first == last) or (step and (last - first) % step):
            raise ShardRefused(
                f"{_where(where)}: [{first}, {last}, {step}] is not a run of deal indices"
            )
        total += 1 if step == 0 else (last - first) // step + 1
        if total > MAX_FUZZ_DEALS:
            raise ShardRefused(f"indices: more than {MAX_FUZZ_DEALS:,} deals (the limit of a run)")
    return total


def _family(value: Any, number: int) -> None:
    where: tuple[str | int, ...] = ("families", number)
    family = _mapping(value, where)
    signature = _mapping(_field(family, "signature", where), (*where, "signature"))
    for key in ("kind", "check", "expected", "actual"):
        _text(_field(signature, key, (*where, "signature")), (*where, "signature", key))
    _whole(_field(family, "count", where), (*where, "count"), 1, MAX_FUZZ_DEALS)
    _whole(_field(family, "first", where), (*where, "first"), 0)
    _text(_field(family, "generator", where), (*where, "generator"))
    for key in ("scenario_id", "scenario", "filename", "start"):
        if key in family:
            _text(family[key], (*where, key))
    for index, ruling in enumerate(_list(family.get("rulings", []), (*where, "rulings"))):
        _text(ruling, (*where, "rulings", index))
    for key in ("original_actions", "shrunk_actions"):
        if key in family:
            _whole(family[key], (*where, key), 0)
    if family.get("start_tricks") is not None:
        _whole(family["start_tricks"], (*where, "start_tricks"), 0)
    if not isinstance(family.get("verified", False), bool):
        raise _fail((*where, "verified"), "true or false", family["verified"])


def _skipped(value: Any, deals: int) -> None:
    """The deals the implementation skipped: a count, and counts by generator and by
    reason, each at most the report's deals (absent from reports made before skips were
    counted)."""
    skipped = _mapping(value, ("skipped",))
    if "deals" in skipped:
        _whole(skipped["deals"], ("skipped", "deals"), 0, deals)
    for key in ("by_generator", "reasons"):
        counts = _mapping(skipped.get(key, {}), ("skipped", key))
        for name, count in counts.items():
            _whole(count, ("skipped", key, name), 0, deals)


def checked_report(data: Any) -> FuzzReport:
    """The report a shard's JSON holds, every field checked first (:class:`ShardRefused`)."""
    top = _mapping(data, ())
    _check_run(top)
    deals = _check_counts(top)
    _check_deals(top, deals)
    report = FuzzReport.from_json(top)
    for found in report.families.values():  # the name is the suite's, never the report's
        signature = found.signature
        found.filename = scenario_filename(found.scenario_id, signature.kind, signature.check) or ""
    return report


def _check_run(top: Mapping[str, Any]) -> None:
    """What ran: the report's version, the implementation and the rules, the seed and
    the shards."""
    if top.get("fivehundred_fuzz_report") != REPORT_VERSION:
        raise ShardRefused(f"not a fivehundred fuzz report (version {REPORT_VERSION})")
    for key in ("implementation", "command", "profile", "stopped"):
        _text(_field(top, key, ()), (key,))
    if top["stopped"] not in STOPS:
        raise ShardRefused(f"stopped: expected one of {', '.join(STOPS)}")
    for index, variant in enumerate(_list(top.get("variants", []), ("variants",))):
        _text(variant, ("variants", index))
    _whole(_field(top, "seed", ()), ("seed",), None)
    for index, shard in enumerate(_list(_field(top, "shards", ()), ("shards",))):
        match = _SHARD.fullmatch(_text(shard, ("shards", index)))
        if match is None or not int(match[1]) <= int(match[2]) <= MAX_FUZZ_SHARDS:
            raise ShardRefused(
                f"shards[{index}]: {clean_name(shard)!r} is not a shard I/N with 1 <= I <= N "
                f"<= {MAX_FUZZ_SHARDS:,}"
            )


def _check_counts(top: Mapping[str, Any]) -> int:
    """The counts, the seconds and the jobs; the number of deals is returned."""
    deals = _whole(_field(top, "deals", ()), ("deals",), 0, MAX_FUZZ_DEALS)
    _whole(_field(top, "disagreeing", ()), ("disagreeing",), 0, deals)
    for key, count in _mapping(_field(top, "by_generator", ()), ("by_generator",)).items():
        _whole(count, ("by_generator", key), 0, deals)
    seconds = _field(top, "seconds", ())
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
        raise _fail(("seconds",), "a number of seconds, 0 or more", seconds)
    _whole(_field(top, "jobs", ()), ("jobs",), 1, MAX_FUZZ_JOBS)
    return deals


def _check_deals(top: Mapping[str, Any], deals: int) -> None:
    """The generators chosen, the skipped deals, the deals' indices and the families."""
    for index, name in enumerate(_list(top.get("generators", []), ("generators",))):
        _text(name, ("generators", index))
    _skipped(top.get("skipped", {}), deals)
    if _runs(_field(top, "indices", ())) != deals:
        raise ShardRefused(f"indices: the runs do not hold the {deals} deals the report counts")
    for number, family in enumerate(_list(_field(top, "families", ()), ("families",))):
        _family(family, number)


def read_shards(paths: tuple[str, ...]) -> list[FuzzReport]:
    """The reports of the shard files, each read strictly and checked; together they may
    hold at most :data:`MAX_FUZZ_DEALS` deals.  Raises :class:`ShardRefused` naming the file."""
    reports: list[FuzzReport] = []
    for name in paths:
        shown = clean_name(name)
        try:
            reports.append(checked_report(read_json_file(Path(name))))
        except (FileRefused, JsonRefused, ShardRefused) as error:
            raise ShardRefused(
                f"{shown}: not a readable fuzz report: {clean_name(str(error))}"
            ) from None
        except (ValueError, KeyError, TypeError) as error:  # a field the check let through
            why = clean_name(repr(error))[:200]
            raise ShardRefused(f"{shown}: not a readable fuzz report ({why})") from None
        if sum(r.deals for r in reports) > MAX_FUZZ_DEALS:
            raise ShardRefused(
                f"{shown}: the shards hold more than {MAX_FUZZ_DEALS:,} deals together (the limit "
                "of a run)"
            )
    return reports
