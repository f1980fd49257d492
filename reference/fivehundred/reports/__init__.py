"""Reports of a verification run: the human text report and the machine formats.

:data:`REPORT_FORMATS` is the one list of formats; the command line offers exactly
these, and :mod:`.formats` renders each of them but ``text`` (:mod:`.text`).  This
module imports nothing heavy, so the command line can read the list at start-up.
"""

REPORT_FORMATS: dict[str, str] = {
    "text": "for a person: failures with a rerun command, a table by area, a summary line",
    "json": "for scripts and dashboards (schema/report.schema.json)",
    "junit": "JUnit XML, for CI test tabs",
    "tap": "TAP 13, for TAP harnesses",
    "markdown": "for an implementation's README or a pull request",
}

__all__ = ["REPORT_FORMATS"]
