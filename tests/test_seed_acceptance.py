"""The course's acceptance check: the seed lesson's own cells, run by the script that ships with
them, against the finished and starter files that `lab_check --where 10` names.

The cells and their runner live in the shared folder beside the project (../shared), which CI
lays out next to every clone; elsewhere there is nothing to run and the test says so.
"""

import subprocess
import sys

import pytest

from conftest import LESSON_10, PROJECT

RUNNER = PROJECT.parent / "shared" / "acceptance" / "seed_cells" / "run.py"


def test_every_seed_cell_prints_what_the_lesson_shows():
    assert RUNNER.is_file(), f"{RUNNER} is missing: the suite runs beside ../shared"

    run = subprocess.run([sys.executable, str(RUNNER), str(PROJECT), str(LESSON_10 / "finished.py"),
                          str(LESSON_10 / "starter.py")], capture_output=True, text=True, timeout=600)

    assert run.returncode == 0 and run.stdout.strip().endswith("13 passed, 0 failed"), \
        f"{run.stdout}\n{run.stderr}"
