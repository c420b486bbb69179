"""Lesson 11, "the power cable", as a whole: lab_check proves its tests (verify), finds its
files (where), its gaps can be filled in the order the report names them (each gap's tests pass
once it and the gaps before it are filled), harness.py stays the first lesson's starter, and its
notebook is what its source makes and runs on a real kernel, on the finished harness, on the
starter, on a correct harness that is not the finished one, and in the student's edition on
the edition's own harness.py."""

import ast
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from lab import lessons, notebook, starter
from lab.grading import batch, manifest
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

    assert run.stdout.splitlines() == [f"starter: {LESSON.starter}", f"finished: {LESSON.finished}",
                                       f"tests: {LESSON.tests}"], run.stdout


def test_harness_py_stays_the_first_lessons_starter_with_a_second_lesson_beside_it():
    made = dict(starter.targets())

    assert made[PROJECT / "harness.py"] == made[lessons.lesson(10).starter], \
        "harness.py should be made from lesson 10's finished file, where a new student starts"
    assert made[LESSON.starter] == starter.make_starter(LESSON.finished.read_text())
    assert lessons.first().number == 10


# -- the gaps, filled in the order the report names them --

def finished_definitions_by_gap(finished_text, gaps):
    """{gap: [source of each top-level definition of finished_text that gap fills]}. A
    definition starting inside a gap's region belongs to the gap that names it (or, for a
    helper, to the gap of the definition before it in the region); a region inside a
    definition (a function's body, a method of a class) makes that whole definition the
    gap's."""
    tree, lines = ast.parse(finished_text), finished_text.splitlines(keepends=True)
    marks = [n for n, line in enumerate(lines, 1) if line.strip() in (starter.BEGIN, starter.SWAP)]
    owner = {name: gap for gap, meta in gaps.items() for name in meta.get("names", [])}
    found = {gap: [] for gap in gaps}
    for begin, swap in zip(marks[::2], marks[1::2]):
        inside = [n for n in tree.body if begin < n.lineno < swap]
        if not inside:
            inside = [next(n for n in tree.body if n.lineno < begin <= n.end_lineno)]
        gap = None
        for node in inside:
            gap = owner.get(getattr(node, "name", None), gap)
            found[gap].append("".join(lines[node.lineno - 1:node.end_lineno]))
    return found


def test_each_gap_passes_its_tests_once_it_and_the_gaps_before_it_are_filled(tmp_path):
    gaps, listed = manifest.read(LESSON)["gaps"], manifest.read(LESSON)["tests"]
    order = list(gaps)
    pieces = finished_definitions_by_gap(LESSON.finished.read_text(), gaps)
    folders = []
    for count in range(1, len(order)):  # all of them filled is finished.py, which verify grades
        folder = tmp_path / f"first-{count}"
        folder.mkdir()
        appended = [piece for gap in order[:count] for piece in pieces[gap]]
        (folder / batch.HARNESS).write_text(LESSON.starter.read_text() + "\n\n" + "\n\n".join(appended))
        folders.append(folder)

    grades = batch.grade_all(folders, LESSON, isolated=False, seed=1)

    for count, folder in enumerate(folders, 1):
        outcomes = {t.test: t.outcome for t in grades[folder.name].tests}
        filled = order[:count]
        failing = [test for test, meta in listed.items()
                   if meta["gap"] in filled and outcomes.get(test) != "passed"]
        assert failing == [], (f"with the gaps {filled} filled, expected every test of those "
                               f"gaps to pass; these do not: {failing}")
        later = [test for test, meta in listed.items()
                 if meta["gap"] == order[count] and outcomes.get(test) == "passed"]
        assert later == [], f"the {order[count]} gap is still empty, yet {later} pass"


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
