"""Every written lab of the course, held to the lab proof (`lab-check --prove`, lab/cli/prove.py),
step by step: its generated files are what their sources make, its folder has a lesson's
anatomy (lab.course.anatomy), its tests tell right answers from wrong (`lab-check --verify`), a
reader whose file is at any later lab is given the lab's finished harness and told so, and its
notebook runs on a real kernel, without a traceback, on its starter, on its finished file and
on every harness the picker chooses for a later lab's file.

The notebook runs are the suite's own (tests/notebooks.py: one execution a suite run, shared by
every test that asks): a later file that has moved past a lab is run on the lab's finished
harness, so it costs no kernel of its own. Lessons 10, 11, 16 and checkpoint B have suites of
their own that verify them and run their notebooks on their own files with more to say
(tests/test_lesson11.py and the rest), so those two steps are not taken twice here.
"""

import re
import subprocess
import sys

import pytest

from lab.course import anatomy, order as course, lesson_files as lessons
from lab.notebook import kernel
from lab.cli import prove as proof
import notebooks
from conftest import PROJECT

OWN_SUITES = {10, 11, 16, "B"}  # labs verified, and run on their own files, in their own tests

WRITTEN = [lab for lab in course.labs() if lab.written]
HERE = [lab for lab in WRITTEN if lab.id not in OWN_SUITES]
LESSONS_WITH_LATER_LABS = [lab for lab in WRITTEN if not lab.is_checkpoint
                           and proof.later_files(lab)]


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

    nb = notebooks.on(lesson, getattr(lesson, harness))

    errors = kernel.errors(nb)
    assert errors == [], f"on the {harness}, cells raised: {errors}"


@pytest.mark.parametrize("lab", WRITTEN, ids=label)
def test_the_labs_generated_files_are_what_their_sources_make(lab):
    step = proof.composed(lab)

    assert step.ok, "\n".join(step.problems)


@pytest.mark.parametrize("lab", WRITTEN, ids=label)
def test_the_lab_has_the_anatomy_of_a_lesson(lab):
    problems = anatomy.problems(lab)

    assert problems == [], f"lab {lab.label} is short of a lesson's anatomy:\n" + "\n".join(problems)


@pytest.mark.parametrize("lab", WRITTEN, ids=label)
def test_a_reader_whose_file_is_at_a_later_lab_gets_this_labs_finished_harness_and_is_told(lab):
    step, chosen = proof.moved_on_step(lab)

    assert step.ok, "\n".join(step.problems)
    if lab in LESSONS_WITH_LATER_LABS:
        assert lessons.lesson(lab.id).finished.resolve() in chosen, (
            f"expected a later lab's file to be run on lab {lab.label}'s finished harness; "
            f"the picker chose {sorted(map(str, chosen))}")


@pytest.mark.parametrize("lab", LESSONS_WITH_LATER_LABS, ids=label)
def test_the_notebook_runs_on_every_harness_chosen_for_a_later_labs_file(lab):
    lesson = lessons.lesson(lab.id)
    _, chosen = proof.moved_on_step(lab)

    runs = {path: kernel.errors(notebooks.on(lesson, path)) for path in sorted(chosen)}

    assert chosen, f"expected the picker to choose a harness for lab {lab.label}'s later files"
    assert all(errors == [] for errors in runs.values()), f"cells raised: {runs}"


def test_the_anatomy_check_finds_what_a_lab_lacks(tmp_path):
    sixth = course.find(6)
    folder = tmp_path / sixth.folder.name
    folder.mkdir()
    for name in ("starter.py", "manifest.toml", "ready.py"):
        (folder / name).write_bytes((sixth.folder / name).read_bytes())
    text = (sixth.folder / "walkthrough.py").read_text(encoding="utf-8")
    (folder / "walkthrough.py").write_text(
        text.replace("A further case", "Another").replace("further case", "other one")
            .replace("<b>C</b>", "<b>c</b>", 9) + "\n# %%\nharness.no_such_name()\n"
        + "\n# %% [markdown]\n# As an earlier lesson said (see wrong/splitlines.py).\n",
        encoding="utf-8")
    short = course.Lab(sixth.id, sixth.title, sixth.part, sixth.builds_on, sixth.minutes,
                       sixth.adds, folder, sixth.released)

    problems = anatomy.problems(short)

    said = "\n".join(problems)
    assert re.search(r"\b\d+ questions? with three or more folded options \(at least 8\)",
                     said), said
    assert "no section for a further case" in said, said
    assert "harness.no_such_name" in said, said
    assert "'an earlier lesson'" in said, said
    assert "wrong/splitlines.py" in said, said
    assert "hints.toml is missing" in said, said
