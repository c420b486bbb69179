"""Every written lab of the course, held to what "done" means for a lab (../shared/LESSON.md):
its tests tell right answers from wrong (`lab-check --verify`), its notebook runs on a real
kernel on the finished harness and on the starter without a traceback, and its text has the
anatomy of the seed lesson.

Lessons 10, 11, 16 and checkpoint B have suites of their own that prove the first two with
more to say (tests/test_lesson11.py and the rest), so they are not proved twice here; every
other lab is proved here, once.
"""

import subprocess
import sys

import pytest

from lab.course import order as course, lesson_files as lessons
import notebooks
from conftest import PROJECT

ANATOMY = PROJECT.parent / "shared" / "checks" / "lesson_anatomy.py"
OWN_SUITES = {10, 11, 16, "B"}  # labs whose proofs live in their own test files

WRITTEN = [lab for lab in course.labs() if lab.written]
HERE = [lab for lab in WRITTEN if lab.id not in OWN_SUITES]


def label(lab):
    return lab.label


def lab_check(*args):
    return subprocess.run([sys.executable, "-m", "lab.lab_check", *args], cwd=PROJECT,
                          capture_output=True, text=True, timeout=900)


@pytest.mark.parametrize("lab", HERE, ids=label)
def test_verify_proves_the_labs_tests_tell_right_answers_from_wrong(lab):
    run = lab_check("--verify", lab.label)

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert run.stdout.rstrip().endswith(" 0 surprises."), run.stdout


@pytest.mark.parametrize("harness", ["finished", "starter"])
@pytest.mark.parametrize("lab", HERE, ids=label)
def test_the_notebook_runs_without_a_traceback(lab, harness):
    lesson = lessons.lesson(lab.id)

    nb = notebooks.run(lesson, getattr(lesson, harness))

    errors = [(c.get("id"), o.ename, o.evalue) for c in nb.cells for o in c.get("outputs", [])
              if o.output_type == "error"]
    assert errors == [], f"on the {harness}, cells raised: {errors}"


@pytest.mark.parametrize("lab", WRITTEN, ids=label)
def test_the_lab_has_the_anatomy_of_the_seed_lesson(lab):
    assert ANATOMY.is_file(), f"{ANATOMY} is missing: the suite runs beside ../shared"

    run = subprocess.run([sys.executable, str(ANATOMY), str(lab.folder)], capture_output=True,
                         text=True, timeout=60)

    assert run.returncode == 0, run.stdout + run.stderr
