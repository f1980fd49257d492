"""The engine code only the other rule sets run: lines and functions to mutate.

Runs the bundled scenarios of the default profile (no toggles) through the reference under
coverage, then those of every other rule set, and prints the engine's lines the second
run executes and the first does not, grouped by function, with the mutmut name patterns
that select those functions' mutants (``benchmarks/mutation.sh PATTERN…``; results in
``benchmarks/mutation-rule-sets.md``).

    python benchmarks/rule_set_lines.py
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import coverage

ENGINE = Path(__file__).resolve().parents[1] / "reference" / "fivehundred" / "engine"


def _lines(keep: Callable[[object], bool]) -> dict[str, set[int]]:
    """The engine lines executed by the scenarios ``keep`` accepts, by file name."""
    cov = coverage.Coverage(data_file=None, include=[str(ENGINE / "*.py")])
    cov.start()
    from fivehundred.scenarios import load_corpus
    from fivehundred.verify.runner import ReferenceImplementation, judge

    reference = ReferenceImplementation()
    for scenario in load_corpus().scenarios:
        if keep(scenario):
            judge(scenario, reference.run(scenario))
    cov.stop()
    data = cov.get_data()
    return {Path(f).name: set(data.lines(f) or ()) for f in data.measured_files()}


def _functions(path: Path, lines: set[int]) -> dict[str, int]:
    """For each innermost function (``Class.method`` for methods) holding some of
    ``lines``, how many it holds."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, owner: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, child.name)
            elif isinstance(child, ast.FunctionDef):
                inside = {n for n in lines if child.lineno <= n <= (child.end_lineno or 0)}
                if inside:
                    name = f"{owner}.{child.name}" if owner else child.name
                    found[name] = len(inside)

    visit(ast.parse(path.read_text("utf-8")), "")
    return found


def _pattern(module: str, function: str) -> str:
    """mutmut's name pattern for a function's mutants."""
    if "." in function:
        owner, method = function.split(".")
        return f"fivehundred.engine.{module}.xǁ{owner}ǁ{method}__mutmut_*"
    return f"fivehundred.engine.{module}.x_{function}__mutmut_*"


def main() -> None:
    from fivehundred.scenarios.derived.coverage import is_default_profile

    default = _lines(lambda s: is_default_profile(s))  # type: ignore[arg-type]
    other = _lines(lambda s: not is_default_profile(s))  # type: ignore[arg-type]
    total = 0
    for name in sorted(other):
        extra = other[name] - default.get(name, set())
        if not extra:
            continue
        total += len(extra)
        for function, count in sorted(_functions(ENGINE / name, extra).items()):
            print(f"{name:12} {function:28} {count:3}  {_pattern(name[:-3], function)}")
    print(f"{total} engine lines run only by the scenarios of the other rule sets")


if __name__ == "__main__":
    main()
