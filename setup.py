"""Build hook: the wheel carries the JSON Schemas and the bundled scenarios.

They live at the top of the repository (``schema/``, ``scenarios/``), where
implementers and editors find them; a built wheel copies them into
``fivehundred/_data/`` so that an installed package works from any folder.  An
editable install reads them from the checkout instead (see ``fivehundred.resources``).
Everything else about the build is in ``pyproject.toml``.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA_FOLDERS = ("schema", "scenarios")


class BuildWithSuiteData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "fivehundred" / "_data"
        shutil.rmtree(target, ignore_errors=True)  # never ship a file deleted since the last build
        for folder in DATA_FOLDERS:
            shutil.copytree(Path(folder), target / folder, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildWithSuiteData})
