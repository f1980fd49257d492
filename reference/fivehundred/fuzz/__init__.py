"""Differential fuzzing: random deals run on an implementation and on the reference, each
disagreement grouped by its signature and shrunk to a scenario file ready to file.

``generators`` make seeded cases, ``cases`` turns a case into a scenario through the
reference, ``signature`` names a disagreement, ``shrink`` makes it small, ``fuzzer`` runs
and merges, ``report`` renders and writes.  ``perft`` counts legal action sequences.
"""
