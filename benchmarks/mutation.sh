#!/bin/sh
# Mutation testing of the reference engine with the bundled scenarios as the only killing
# suite (configuration: [tool.mutmut] in pyproject.toml; results: benchmarks/mutation.md,
# summary on the site's benchmarks page, site/benchmarks.md, "Mutation testing").
# Slow (its duration: site/benchmarks.md) and not part of CI. Needs mutmut 3 (the `dev` extra).
#   benchmarks/mutation.sh                 # the whole run, two workers, at low priority
#   benchmarks/mutation.sh 'fivehundred.engine.deal*'   # only some mutants
#   mutmut results / mutmut show NAME      # afterwards, with `src` linked as below
# mutmut names a module by its path under ./ or src/, so `src` is linked to `reference`
# while it runs (both `src` and `mutants/` are git-ignored).
set -eu
cd "$(dirname "$0")/.."
[ -e src ] || ln -s reference src
# mutmut copies a source file into mutants/ only when no copy is there, and measures the
# covered lines (mutate_only_covered_lines) on that copy. After a first run the copy is
# the mutated file, whose line numbers are not the source's, so a file regenerated in a
# later run got its mutants on the wrong lines (deal.py: 310 instead of 768). Removing the
# copies makes mutmut copy the sources again (mtimes kept), measure them, and regenerate
# every file; the results of functions whose code did not change are kept.
[ ! -d mutants/src ] || find mutants/src -name '*.py' -delete
# Each mutant imports the engine anew, from mutated files ten times the size of the
# sources: without bytecode caches every mutant would compile them again (seconds each).
unset PYTHONDONTWRITEBYTECODE
exec nice -n 19 mutmut run --max-children "${MUTATION_CHILDREN:-2}" "$@"
