"""``fivehundred new``: a scenario skeleton (or a dispute record with its paired
skeletons) that validates and passes as written, kept only if it does."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..engine import DEFAULT_PROFILE_NAME, VARIANTS
from ..scenarios.format.vocabulary import STARTS
from .consoles import err_console, out_console, print_diagnostics

if TYPE_CHECKING:
    from ..engine import Profile
    from .scaffold_dispute import Member


@click.command()
@click.option(
    "--area",
    default=None,
    help="Folder under scenarios/, e.g. auction (default for --profile other than the "
    "default: the profile's folder, or variants/ for toggles of the default).",
)
@click.option(
    "--new-area", is_flag=True, help="Allow --area to name an area that does not exist yet."
)
@click.option("--title", required=True, help="Short title of the new scenario (or dispute).")
@click.option(
    "--rule",
    "rules",
    multiple=True,
    required=True,
    help="Rule anchor it illustrates, primary first (repeatable).",
)
@click.option(
    "--start",
    type=click.Choice([start.name for start in STARTS]),
    default="deck",
    help="Kind of starting point for the skeleton.",
)
@click.option(
    "--profile",
    "profiles",
    multiple=True,
    metavar="NAME[+TOGGLE...]",
    help=f"The rule set of the scenario (default: {DEFAULT_PROFILE_NAME}). With --dispute: one "
    f"per answer, repeated, toggles joined by + ({DEFAULT_PROFILE_NAME}+no-misere).",
)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    type=click.Choice(list(VARIANTS)),
    help="A variant toggle of --profile for the new scenario (repeatable).",
)
@click.option(
    "--dispute",
    "dispute_id",
    default=None,
    metavar="ID",
    help="Write the dispute record scenarios/disputes/ID.yaml and one paired scenario "
    "skeleton per --profile (at least two).",
)
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False),
    default=None,
    help="Scenarios root (default: the suite folder's scenarios/; see --suite).",
)
def new(
    area: str | None,
    new_area: bool,
    title: str,
    rules: tuple[str, ...],
    start: str,
    profiles: tuple[str, ...],
    variants: tuple[str, ...],
    dispute_id: str | None,
    directory: str | None,
) -> None:
    """Create a scenario skeleton with a freshly minted id, ready to edit.

    With --dispute ID, create a dispute record and its paired scenarios instead: one
    skeleton per --profile, each starting from that profile's ordered deck.
    """
    from ..resources import scenarios_dir
    from ..scenarios import load_corpus, read_retired_ids

    _check_rules_and_title(rules, title)
    root = Path(directory) if directory else scenarios_dir()
    taken = {s.id for s in load_corpus([root], root).scenarios} | read_retired_ids()
    if dispute_id is not None:
        if variants:
            raise click.UsageError(
                "with --dispute give toggles in --profile, e.g. --profile "
                f"{DEFAULT_PROFILE_NAME}+no-misere"
            )
        _new_dispute(root, dispute_id, title, list(rules), list(profiles), area, new_area, taken)
        return
    profile = _scenario_profile(profiles, variants)
    if area is None:
        area, new_area = _profile_area(profile), True
    _new_scenario(root, area, new_area, title, list(rules), start, profile, taken)


def _check_rules_and_title(rules: tuple[str, ...], title: str) -> None:
    """Usage errors for a rule anchor that does not exist and a title that cannot be one."""
    from ..scenarios.format.rulings import anchor_exists

    bad = [r for r in rules if not anchor_exists(r)]
    if bad:
        raise click.UsageError(f"unknown rule anchor {', '.join(bad)}; see `fivehundred rules`")
    if len(title.strip()) < 3 or len(title) > 200 or not title.isprintable():
        raise click.BadParameter(
            "a title is one line of 3 to 200 printable characters", param_hint="--title"
        )


def _scenario_profile(profiles: tuple[str, ...], variants: tuple[str, ...]) -> Profile:
    """The one rule set of a new scenario: its --profile (default the default profile) with
    its --variant toggles."""
    from .scaffold import ScaffoldError
    from .scaffold_dispute import parse_profile

    if len(profiles) > 1:
        raise click.UsageError("one --profile for a scenario (several only with --dispute)")
    label = "+".join((profiles[0] if profiles else DEFAULT_PROFILE_NAME, *variants))
    try:
        return parse_profile(label)
    except ScaffoldError as error:
        raise click.UsageError(str(error)) from None


def _profile_area(profile: Profile) -> str:
    """Where a scenario goes without --area: its profile's folder, or variants/ for toggles
    of the default profile (the default profile's own scenarios need an area)."""
    if profile.name == DEFAULT_PROFILE_NAME and not profile.variants:
        raise click.UsageError("--area is required for a scenario of the default profile")
    return profile.name if profile.name != DEFAULT_PROFILE_NAME else "variants"


def _new_scenario(
    root: Path,
    area: str,
    new_area: bool,
    title: str,
    rules: list[str],
    start: str,
    profile: Profile,
    taken: set[str],
) -> None:
    """Write the skeleton with a new id, keep it only if it validates, say what is next."""
    from rich.markup import escape

    from ..safety import clean_text
    from ..scenarios import load_file
    from .scaffold import ScaffoldError, area_folder, mint_id, remove_quietly, write_new

    scenario_id = mint_id(taken)
    try:
        folder = area_folder(root, area, create=new_area)
        path = write_new(folder, scenario_id, title, rules, start, profile)
    except (ScaffoldError, FileExistsError) as error:
        raise click.UsageError(str(error)) from None
    except OSError as error:
        raise click.UsageError(f"cannot write the scenario: {error.strerror or error}") from None
    result = load_file(path, root)
    if result.diagnostics or result.scenario is None or result.scenario.title != title:
        remove_quietly(path)
        print_diagnostics(result.diagnostics, err_console())
        raise click.UsageError("the skeleton did not validate, so it was not kept")
    console = out_console()
    shown = clean_text(escape(str(path)))
    console.print(f"created [bold]{shown}[/] with id [bold]{scenario_id}[/]")
    console.print(
        f"next: edit it, then [bold]fivehundred validate {shown}[/] and "
        f"[bold]fivehundred verify --id {scenario_id}[/]"
    )


def _new_dispute(
    root: Path,
    dispute_id: str,
    title: str,
    rules: list[str],
    labels: list[str],
    area: str | None,
    new_area: bool,
    taken: set[str],
) -> None:
    """``new --dispute``: the record and its paired skeletons, each validated."""
    from rich.markup import escape

    from ..safety import clean_text
    from .scaffold import ScaffoldError
    from .scaffold_dispute import write_dispute

    try:
        record_path, members = write_dispute(
            root, dispute_id, title, rules, labels, area, new_area, taken
        )
    except (ScaffoldError, FileExistsError) as error:
        raise click.UsageError(str(error)) from None
    except OSError as error:
        raise click.UsageError(f"cannot write the dispute: {error.strerror or error}") from None
    _keep_if_valid(root, record_path, members)
    console = out_console()
    console.print(f"created [bold]{clean_text(escape(str(record_path)))}[/] (dispute {dispute_id})")
    for member in members:
        shown = clean_text(escape(str(member.path)))
        console.print(
            f"created [bold]{shown}[/] with id [bold]{member.scenario_id}[/] ({member.label})"
        )
    ids = " ".join(f"--id {m.scenario_id}" for m in members)
    console.print(
        "next: write the question, the answers and their sources in the record, then the "
        f"position and the expected results in each scenario; [bold]fivehundred verify {ids}[/] "
        f"and [bold]fivehundred disputes {dispute_id}[/]"
    )


def _keep_if_valid(root: Path, record_path: Path, members: list[Member]) -> None:
    """Load what was written as ``validate`` would; on any problem remove all of it, say
    why, and stop with a usage error."""
    from rich.markup import escape

    from ..scenarios import load_file
    from ..scenarios.loading.disputes import load_dispute_file, pair_problems
    from .scaffold import remove_quietly

    results = [load_file(m.path, root) for m in members]
    record, record_problems = load_dispute_file(record_path)
    diagnostics = [d for r in results for d in r.diagnostics] + record_problems
    scenarios = [r.scenario for r in results if r.scenario is not None]
    problems = [] if record is None else pair_problems(record, scenarios)
    if diagnostics or problems or record is None or len(scenarios) != len(members):
        for path in [record_path, *(m.path for m in members)]:
            remove_quietly(path)
        print_diagnostics(diagnostics, err_console())
        for problem in problems:
            err_console().print(f"dispute: {escape(problem)}")
        raise click.UsageError("the skeletons did not validate, so none was kept")
