"""Parameter types shared by the commands: every option that takes seconds takes them the
same way, so ``nan``, ``inf``, ``-1`` or ``1e308`` is a usage error wherever it is given
(site/limits.md), never a wait that cannot end or a traceback from the adapter runner; and
every ``-o`` file is checked the same way, so no report replaces a file of the suite."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from ..engine import PROFILE_NAMES, VARIANTS
from ..resources import SuiteError, scenarios_dir
from ..safety import MAX_TIMEOUT


class Seconds(click.ParamType):  # type: ignore[type-arg]
    """A number of seconds: finite, above zero, at most a day (site/limits.md)."""

    name = "seconds"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        if isinstance(value, float):
            number = value
        else:
            try:
                number = float(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(number) or number <= 0 or number > MAX_TIMEOUT:
            self.fail(
                f"{value!r} is not a number of seconds above 0 and at most "
                f"{MAX_TIMEOUT:g} (one day)",
                param,
                ctx,
            )
        return number


class OutputFile(click.Path):
    """A file a report or an export is written to (``-o``): never an existing YAML file
    or a file of the suite's ``scenarios/`` folder, which a typo would otherwise replace
    with a report (``--write-expectations`` has ``--force`` for the one file it may
    replace on purpose)."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("an empty file name; expected the file to write", param, ctx)
        path = super().convert(value, param, ctx)
        assert isinstance(path, Path)  # path_type=Path
        if not path.is_file():
            return path
        resolved = path.resolve()
        if resolved.suffix.lower() in (".yaml", ".yml"):
            self.fail(
                f"{path} is a YAML file, as scenarios and dispute records are; no report is "
                "written over one (choose another file)",
                param,
                ctx,
            )
        try:
            suite = scenarios_dir().resolve()
        except (SuiteError, OSError):
            return path
        if resolved.is_relative_to(suite):
            self.fail(
                f"{path} is a file of the suite's scenarios/ folder; no report is written "
                "over one (choose another file)",
                param,
                ctx,
            )
        return path


class OutputFolder(click.Path):
    """A folder files are written into (``fuzz --out``): an empty name is a usage error,
    as it is for ``-o``, rather than the current folder (``Path("")`` is ``.``)."""

    def __init__(self) -> None:
        super().__init__(file_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("an empty folder name; expected the folder to write into", param, ctx)
        return super().convert(value, param, ctx)


def existing_paths(paths: Sequence[str]) -> list[Path] | None:
    import os

    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        raise click.UsageError(f"no such file or directory: {', '.join(missing)}")
    return [Path(p) for p in paths] or None


def selection_options(function: Callable[..., None]) -> Callable[..., None]:
    """The options that pick scenarios (``--id``, ``--area``, ``--tag``, ``--rule``,
    ``--profile``, ``--variant``), handed to the command as one ``selection``."""

    @functools.wraps(function)
    def with_selection(
        *args: Any,
        ids: tuple[str, ...],
        areas: tuple[str, ...],
        tags: tuple[str, ...],
        rules: tuple[str, ...],
        profiles: tuple[str, ...],
        variants: tuple[str, ...],
        **kwargs: Any,
    ) -> None:
        from ..verify.runner import Selection

        selection = Selection(ids, areas, tags, rules, profiles, variants)
        function(*args, selection=selection, **kwargs)

    command: Callable[..., None] = with_selection
    for option in reversed(
        [
            click.option("--id", "ids", multiple=True, help="Only this scenario id (repeatable)."),
            click.option("--area", "areas", multiple=True, help="Only this area, e.g. auction."),
            click.option("--tag", "tags", multiple=True, help="Only scenarios with this tag."),
            click.option(
                "--rule", "rules", multiple=True, help="Only scenarios citing this anchor."
            ),
            click.option(
                "--profile",
                "profiles",
                multiple=True,
                type=click.Choice(PROFILE_NAMES),
                help="Only scenarios of this profile (rule set), with or without toggles.",
            ),
            click.option(
                "--variant",
                "variants",
                multiple=True,
                type=click.Choice(list(VARIANTS)),
                help="Only scenarios that switch on this variant toggle (repeatable: all).",
            ),
        ]
    ):
        command = option(command)
    return command
