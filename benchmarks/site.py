"""Build time of the documentation site, cold and after editing one scenario.

The site is built from a copy of the repository's site sources (``mkdocs.yml``,
``site/``, ``schema/``, the hook) with a scenario corpus grown to ``--scenarios``
files: every real scenario, then copies of them under fresh ids, so the figures
hold for a corpus larger than today's.  Two builds are timed in one process, as
``mkdocs serve`` does them:

1. a full build: load the configuration, run the hook, render every page;
2. a rebuild after one scenario file has changed (its title and explanation edited):
   the configuration is loaded again and the whole site built again, as ``mkdocs
   serve`` does on every change; what the hook cached in the first build (each
   page's rendering, keyed by a hash of its Markdown, its search entries and its
   whole HTML file) is reused for what did not change.

``--no-cache`` clears that cache between the builds, for the figure without it.
``--only-language en`` builds one language of the site (the i18n plugin's
``build_only_locale``), for the figure of one edition.
Targets: both languages built in under 30 s of CPU (one language: under 20 s) with 500
or more scenarios; a rebuild under 5 s.

    python benchmarks/site.py
    python benchmarks/site.py --scenarios 800 --rebuilds 3
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")

REPO = Path(__file__).resolve().parents[1]
HOOKS = REPO / "reference" / "fivehundred" / "site" / "mkdocs_hooks.py"
ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
_ID_LINE = re.compile(r"^id: *(\S+) *$", re.MULTILINE)
_TITLE_LINE = re.compile(r"^title: *(.+)$", re.MULTILINE)


def _fresh_ids(taken: set[str]) -> list[str]:
    """Ids in the scenario alphabet, never all digits, not in ``taken`` (deterministic)."""
    out = []
    for a in ALPHABET[8:]:  # a letter first: never an all-digit id
        for b in ALPHABET:
            for c in ALPHABET:
                for d in ALPHABET:
                    candidate = a + b + c + d
                    if candidate not in taken:
                        out.append(candidate)
                        if len(out) >= 5000:
                            return out
    return out


def make_tree(target: Path, scenarios: int, only_language: str | None = None) -> list[Path]:
    """A copy of the site sources with at least ``scenarios`` scenario files (and, with
    ``only_language``, a configuration that builds that language alone)."""
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    if only_language is not None:
        plugin = "  - i18n:\n"
        if plugin not in config:
            raise SystemExit("mkdocs.yml has no i18n plugin: the site has one language")
        config = config.replace(plugin, f"{plugin}      build_only_locale: {only_language}\n", 1)
    (target / "mkdocs.yml").write_text(config, encoding="utf-8")
    shutil.copy2(REPO / "CHANGELOG.md", target / "CHANGELOG.md")  # the change log page shows it
    for folder in ("site", "schema", "results"):
        if (REPO / folder).is_dir():
            shutil.copytree(REPO / folder, target / folder)
    hooks = target / HOOKS.parent.relative_to(REPO)
    hooks.mkdir(parents=True)
    shutil.copy2(HOOKS, hooks / HOOKS.name)
    shutil.copytree(REPO / "scenarios", target / "scenarios")
    disputes = target / "scenarios" / "disputes"
    originals = sorted(
        p for p in (target / "scenarios").rglob("*.yaml") if disputes not in p.parents
    )
    taken = set()
    for path in originals:
        match = _ID_LINE.search(path.read_text(encoding="utf-8"))
        if match:
            taken.add(match.group(1))
    retired = target / "scenarios" / "retired-ids.txt"
    if retired.is_file():
        taken |= set(re.findall(r"\b[0-9A-Z]{4}\b", retired.read_text(encoding="utf-8")))
    fresh = iter(_fresh_ids(taken))
    files = list(originals)
    copy = 0
    while len(files) < scenarios:
        copy += 1
        for path in originals:
            if len(files) >= scenarios:
                break
            text = path.read_text(encoding="utf-8")
            text = _ID_LINE.sub(f"id: {next(fresh)}", text, count=1)
            new = path.with_name(f"{path.stem}-copy-{copy}.yaml")
            new.write_text(text, encoding="utf-8")
            files.append(new)
    return files


def build_once(config_file: Path, site_dir: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one build (load the configuration, then build).

    The CPU time is this process's own: on a shared machine it is the steadier figure."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    start, cpu = time.perf_counter(), time.process_time()
    config = load_config(str(config_file), site_dir=str(site_dir))
    build(config)
    return time.perf_counter() - start, time.process_time() - cpu


def edit(path: Path, round_: int) -> None:
    text = path.read_text(encoding="utf-8")
    text = _TITLE_LINE.sub(f"title: An edited title, round {round_}", text, count=1)
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenarios", type=int, default=500, help="corpus size (default 500)")
    parser.add_argument("--rebuilds", type=int, default=2, help="rebuilds after an edit")
    parser.add_argument("--no-cache", action="store_true", help="clear the cache first")
    parser.add_argument(
        "--only-language", metavar="LOCALE", help="build this language only (en, ru)"
    )
    args = parser.parse_args(argv)

    import logging

    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    from fivehundred.site import generator as site_generator

    with tempfile.TemporaryDirectory(prefix="fh-site-bench-") as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        files = make_tree(root, args.scenarios, args.only_language)
        out = Path(tmp) / "out"
        os.chdir(root)
        wall, cpu = build_once(root / "mkdocs.yml", out)
        pages = sum(1 for _ in out.rglob("index.html"))
        print(f"scenarios: {len(files)}, pages: {pages}", flush=True)
        target = 30 if args.only_language is None else 20
        print(f"full build: {wall:.2f} s wall, {cpu:.2f} s CPU (target < {target} s)", flush=True)
        edited = files[len(files) // 2]
        for round_ in range(1, args.rebuilds + 1):
            if args.no_cache:
                site_generator.RENDER_CACHE.clear()
            edit(edited, round_)
            wall, cpu = build_once(root / "mkdocs.yml", out)
            label = "rebuild, no cache" if args.no_cache else "rebuild"
            print(
                f"{label} after editing {edited.name}: {wall:.2f} s wall, {cpu:.2f} s CPU "
                "(target < 5 s)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
