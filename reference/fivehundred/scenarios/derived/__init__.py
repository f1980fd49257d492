"""Derived: what is made from loaded scenarios — sentences for people (narration),
coverage of the rulings and of each rule set's points, and the JSON export.

The rule for this package: a subpackage holds modules by what they are for — the format,
the loading of files into it, and what is derived from loaded scenarios.
"""
