"""The documentation site: Markdown generated from the scenarios (:mod:`.generator`), the
dispute records behind the clause markers (:mod:`.disputes`) and the conformance results
page read from the JSON reports in ``results/`` (:mod:`.results`, also the command
``python -m fivehundred.site.results`` that refreshes the project's own reports).

:mod:`.mkdocs_hooks` is the thin layer mkdocs loads by path (``mkdocs.yml``); it is
the only module of the package that imports mkdocs, and nothing imports it.
"""
