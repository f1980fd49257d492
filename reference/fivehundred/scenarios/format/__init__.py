"""The format: what a scenario says — the typed model, the vocabularies (steps, starts,
observations, codes), the rule anchors it may cite — and the check that the schema parts
generated from the vocabularies are in sync (``python -m fivehundred.scenarios.format.sync``).

The rule for this package: a subpackage holds modules by what they are for — the format,
the loading of files into it, and what is derived from loaded scenarios.
"""
