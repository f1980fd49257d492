"""Loading: from files to checked models — safe YAML with source positions, parsing,
the schema, lint (with the starting positions it asks the engine for), the cache, the
corpus of a suite folder, the diagnostics each problem becomes, and dispute records.

The rule for this package: a subpackage holds modules by what they are for — the format,
the loading of files into it, and what is derived from loaded scenarios.
"""
