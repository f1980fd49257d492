"""Parameter types shared by the commands: every option that takes seconds takes them the
same way, so ``nan``, ``inf``, ``-1`` or ``1e308`` is a usage error wherever it is given
(site/limits.md), never a wait that cannot end or a traceback from the adapter runner."""

from __future__ import annotations

import math

import click

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
