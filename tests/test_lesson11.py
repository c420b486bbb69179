"""Lesson 11, "the power cable", as a whole: lab_check proves its tests (verify), finds its
files (where), harness.py stays the first lesson's starter, and its notebook is what its
source makes and runs on a real kernel, on the finished harness and on the starter."""

import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from lab import course, lessons, notebook, starter
import notebooks
from conftest import PROJECT
from notebooks import printed

LESSON = lessons.lesson(11)
SOURCE, COMMITTED = LESSON.folder / notebook.SOURCE, LESSON.folder / notebook.NOTEBOOK
SVG = "image/svg+xml"
FIGURES = {  # figure cell -> words its SVG must hold, because the transcripts it draws say them
    "figure-11-1": ["the file at the cut", "not a message", "R(call_1)", "set aside"],
    "figure-11-2": ["A[call_0]", "A[call_0_1]", "R(call_0_1)"],
    "figure-11-3": ["left out (this course)", "output of an earlier bash call c7"],
}


def lab_check(*args):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=PROJECT, timeout=600)


def test_verify_11_proves_the_lessons_tests_tell_right_answers_from_wrong():
    run = lab_check("--verify", "11")

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert run.stdout.rstrip().endswith("0 surprises."), run.stdout


def test_where_11_prints_the_lessons_starter_finished_file_and_tests():
    run = lab_check("--where", "11")

    sources = [f"source: {link.changes}" for link in course.chain(course.find(LESSON.number))
               if link.changes is not None]
    assert run.stdout.splitlines() == [f"starter: {LESSON.starter}", f"finished: {LESSON.finished}",
                                       f"tests: {LESSON.tests}"] + sources, run.stdout
    assert [line.rsplit("/", 2)[-2][:2] for line in sources] == [f"{n:02d}" for n in range(1, 12)]


def test_harness_py_stays_the_home_labs_starter_with_a_later_lesson_beside_it():
    made = dict(starter.targets())

    assert course.home().id == 10
    assert made[PROJECT / "harness.py"] == made[lessons.lesson(10).starter], \
        "harness.py should be made from lesson 10's finished file, the README's first lab"
    assert made[LESSON.starter] == starter.make_starter(LESSON.finished.read_text())


# -- the notebook --

def test_committed_notebook_is_exactly_what_its_source_makes():
    made = notebook.build(SOURCE.read_text(encoding="utf-8"), str(SOURCE))

    assert COMMITTED.read_text(encoding="utf-8") == made, (
        f"{COMMITTED.relative_to(PROJECT)} is stale: run `python -m lab.notebook`")


@pytest.fixture(scope="module")
def on_finished():
    return notebooks.run(LESSON, LESSON.finished)


@pytest.fixture(scope="module")
def on_starter():
    return notebooks.run(LESSON, LESSON.starter)


@pytest.mark.parametrize("which", ["on_finished", "on_starter"])
def test_every_cell_runs_without_an_error_or_a_word_to_stderr(which, request):
    nb = request.getfixturevalue(which)

    noisy = [(cell.id, output.get("name") or output.output_type) for cell in nb.cells
             for output in cell.get("outputs", [])
             if output.output_type == "error" or output.get("name") == "stderr"]

    assert noisy == [], f"expected clean outputs; these cells wrote errors or to stderr: {noisy}"


def test_on_the_starter_the_examples_fall_back_to_the_finished_harness_and_say_why(on_starter):
    said = printed(on_starter, "setup")

    assert said.startswith("examples run on: lessons/11-power-cable/finished.py\n"
                           "why: lessons/11-power-cable/starter.py does not pick a record up "
                           "after a crash yet"), said


def test_the_examples_show_what_the_lesson_says_they_show(on_finished):
    nb = on_finished

    every_event = printed(nb, "every-event").splitlines()
    resumed, carried = printed(nb, "resume"), printed(nb, "carry-on")

    assert len(every_event) == 21 and all(line.endswith("on disk: True") for line in every_event), \
        "\n".join(every_event)
    assert "set aside:   ['{\"role\": \"toolResu']" in resumed and "write b (call_1)" in resumed, resumed
    assert "provider ok: True" in carried, carried
    assert "toolCall id call_0 is used twice" in printed(nb, "lesson-10-view")
    assert "same bytes at the start:  True" in printed(nb, "prefix-stable")
    assert "view:    U A[call_1_0] R(call_1_0) A" in printed(nb, "empty-and-placeholder")


def test_three_figures_come_out_as_svg_drawn_from_the_transcripts(on_finished):
    figures = {cell.id: output["data"][SVG] for cell in on_finished.cells
               if cell.cell_type == "code" for output in cell.outputs if SVG in output.get("data", {})}

    assert set(figures) >= set(FIGURES), f"expected SVG from {sorted(FIGURES)}; got {sorted(figures)}"
    for cell_id, words in FIGURES.items():
        root = ElementTree.fromstring(figures[cell_id])
        text = " ".join("".join(node.itertext()) for node in root.iter())
        missing = [word for word in words if word not in text]
        assert missing == [], f"{cell_id}: expected the figure to show {missing}; it does not"
