"""The documentation site: Markdown generated from the scenarios (:mod:`.generator`).

:mod:`.mkdocs_hooks` is the thin layer mkdocs loads by path (``mkdocs.yml``); it is
the only module of the package that imports mkdocs, and nothing imports it.
"""
