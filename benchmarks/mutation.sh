#!/bin/sh
# Mutation testing of the reference engine with the bundled scenarios as the only killing
# suite (configuration: [tool.mutmut] in pyproject.toml; results: README, "Mutation testing").
# Slow (over an hour on a shared 2-core machine) and not part of CI. Needs mutmut 3 (the `dev` extra).
#   benchmarks/mutation.sh                 # the whole run, one worker, at low priority
#   benchmarks/mutation.sh 'fivehundred.engine.deal*'   # only some mutants
#   mutmut results / mutmut show NAME      # afterwards, with `src` linked as below
# mutmut names a module by its path under ./ or src/, so `src` is linked to `reference`
# while it runs (both `src` and `mutants/` are git-ignored).
set -eu
cd "$(dirname "$0")/.."
[ -e src ] || ln -s reference src
exec nice -n 19 mutmut run --max-children 1 "$@"
