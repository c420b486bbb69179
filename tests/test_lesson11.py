"""Lesson 11, "the power cable", as a whole: lab_check proves its tests (verify), finds its
files (where), its gaps can be filled in the order the report names them (each gap's tests pass
once it and the gaps before it are filled), harness.py stays the first lesson's starter, and its
notebook is what its source makes and runs on a real kernel, on the finished harness, on the
starter, on a correct harness that is not the finished one, and in the student's edition on
the edition's own harness.py."""

import ast
import json
import re
import shutil
import subprocess
import sys
import tomllib
import types
import xml.etree.ElementTree as ElementTree

import pytest

from lab.course import order as course, lesson_files as lessons, starter

from lab.course import gap_markers
from lab.notebook import ipynb as notebook
from lab.grader import batch, hints
from lab.course import manifest
import notebooks
from conftest import PROJECT
from notebooks import printed

LESSON = lessons.lesson(11)
SOURCE, COMMITTED = LESSON.folder / notebook.SOURCE, LESSON.folder / notebook.NOTEBOOK
SVG = "image/svg+xml"
FIGURES = {  # figure cell -> words its SVG must hold, because the transcripts it draws say them
    "figure-11-1": ["Figure 11.1", "the file at the cut", "not a message", "R(call_1)", "set aside"],
    "figure-11-2": ["Figure 11.2", "A[call_0]", "A[call_0_1]", "R(call_0_1)"],
    "figure-11-3": ["Figure 11.3", "the history", "A[c1,c2]", "R(c2)"],
    "figure-11-4": ["Figure 11.4", "left out (this course)", "output of an earlier bash call c7"],
}


def lab_check(*args):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=PROJECT, timeout=600)


@pytest.fixture(scope="module")
def verified(tmp_path_factory):
    """One `lab_check --verify 11` for this file, keeping each answer's result: the lesson's
    answers are graded once, and the tests of what the reports say read those results."""
    kept = tmp_path_factory.mktemp("verify-11")
    return lab_check("--verify", "11", "--output", str(kept)), kept


def test_verify_11_proves_the_lessons_tests_tell_right_answers_from_wrong(verified):
    run, _ = verified

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert run.stdout.rstrip().endswith("0 surprises."), run.stdout


def test_harness_py_stays_the_home_labs_starter_with_a_later_lesson_beside_it():
    made = dict(starter.targets())

    assert course.home().id == 10
    assert made[PROJECT / "harness.py"] == made[lessons.lesson(10).starter], \
        "harness.py should be made from lesson 10's finished file, the README's first lab"
    assert made[LESSON.starter] == gap_markers.make_starter(LESSON.finished.read_text())


# -- the gaps, filled in the order the report names them --

def finished_definitions_by_gap(finished_text, gaps):
    """{gap: [source of each top-level definition of finished_text that gap fills]}. A
    definition starting inside a gap's region belongs to the gap that names it (or, for a
    helper, to the gap of the definition before it in the region); a region inside a
    definition (a function's body, a method of a class) makes that whole definition the
    gap's."""
    tree, lines = ast.parse(finished_text), finished_text.splitlines(keepends=True)
    marks = [n for n, line in enumerate(lines, 1) if line.strip() in (gap_markers.BEGIN, gap_markers.SWAP)]
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


# -- what the reports say --

CARD = re.compile(r"\bcards? \d")
NOT_A_SHAPE = re.compile(r"^\s+(given|expected|got):.*(?<![\w'\"])\?(?![\w'\"])")


def test_no_report_of_a_wrong_answer_prints_a_question_mark_or_a_card_the_notebook_lacks(verified):
    _, kept = verified
    names = ["starter", *(f"wrong-{answer.stem}" for answer in LESSON.wrong_answers)]
    results = {name: json.loads((kept / f"{name}.json").read_text()) for name in names}

    said = [(name, t["test"], line) for name, result in results.items() for t in result["tests"]
            if t["outcome"] == "failed" for line in t["message"].splitlines()]
    assert said, "expected the starter and the wrong answers to fail some tests"
    unshaped = [s for s in said if NOT_A_SHAPE.search(s[2])]
    cards = [s for s in said if CARD.search(s[2])]
    trailing = [s for s in said if s[2].strip().startswith("given:") and s[2] != s[2].rstrip()]
    assert unshaped == [] and cards == [] and trailing == [], (
        f"expected every given/expected/got line to show its value (no '?' where a list is not "
        f"messages), no card the notebook lacks, no line ending in a blank; got "
        f"{unshaped[:3]} {cards[:3]} {trailing[:3]}")


# -- the notebook --

RIGHT = ("one_pass_repair.py", "look_before_repeating.py", "compact_lines.py")


def another_correct_harness():
    """finished.py with every definition of three right/ answers appended: a harness that
    passes every test and shares no line of its repair, its notice or its record format
    with the finished one."""
    return LESSON.finished.read_text() + "".join(
        f"\n\n# == right/{name}, appended ==\n" + (LESSON.folder / "right" / name).read_text()
        for name in RIGHT)


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


@pytest.fixture(scope="module")
def on_another_correct_harness(tmp_path_factory):
    path = tmp_path_factory.mktemp("another") / "harness.py"
    path.write_text(another_correct_harness())
    return notebooks.run(LESSON, path)


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    """The student's edition of lesson 11, as lab-check --release builds it."""
    folder = tmp_path_factory.mktemp("edition") / "lesson-11"
    made = lab_check("--release", "11", "--output", str(folder))
    assert made.returncode == 0, f"expected the edition to be built; got {made.stdout}{made.stderr}"
    return folder


@pytest.fixture(scope="module")
def in_the_edition_on_its_starter(edition):
    """The edition's notebook, run on the edition's own harness.py (the starter), as a student
    who has filled no gap yet runs it: no LAB_HARNESS, nothing to fall back to."""
    return notebooks.run(types.SimpleNamespace(folder=edition))


@pytest.fixture(scope="module")
def in_the_edition_on_a_correct_harness(edition, tmp_path_factory):
    copy = tmp_path_factory.mktemp("edition-filled") / "lesson-11"
    shutil.copytree(edition, copy)
    (copy / "harness.py").write_text(another_correct_harness())
    return notebooks.run(types.SimpleNamespace(folder=copy))


@pytest.fixture(scope="module")
def in_the_edition_half_way(edition, tmp_path_factory):
    """The edition's notebook on a harness.py whose first two gaps (persist, load) are filled."""
    copy = tmp_path_factory.mktemp("edition-half") / "lesson-11"
    shutil.copytree(edition, copy)
    gaps = manifest.read(LESSON)["gaps"]
    pieces = finished_definitions_by_gap(LESSON.finished.read_text(), gaps)
    (copy / "harness.py").write_text(LESSON.starter.read_text() + "\n\n" + "\n\n".join(
        piece for gap in list(gaps)[:2] for piece in pieces[gap]))
    return notebooks.run(types.SimpleNamespace(folder=copy))


EVERY_RUN = ["on_finished", "on_starter", "on_another_correct_harness",
             "in_the_edition_on_its_starter", "in_the_edition_half_way",
             "in_the_edition_on_a_correct_harness"]


@pytest.mark.parametrize("which", EVERY_RUN)
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


def test_in_the_edition_each_example_that_needs_an_empty_gap_says_which_in_one_line(
        in_the_edition_on_its_starter):
    nb = in_the_edition_on_its_starter

    waiting = {cell.id: printed(nb, cell.id) for cell in nb.cells if cell.cell_type == "code"
               and printed(nb, cell.id).startswith("(this example needs the ")}
    failure = printed(nb, "job")

    assert printed(nb, "setup").startswith("examples run on: harness.py\n"), printed(nb, "setup")
    assert "the record, on the disk:       0 bytes" in failure, failure
    assert "'What did you write?' -> I have no record of writing anything." in failure, failure
    assert "refused:  400 invalid_request" in printed(nb, "lesson-10-view")
    assert {"every-event", "cut-in-a-line", "resume", "figure-11-1", "figure-11-2", "spans",
            "every-byte"} <= set(waiting), sorted(waiting)
    assert all(text.count("\n") == 1 for text in waiting.values()), waiting


def test_half_way_the_examples_of_the_filled_gaps_run_and_the_rest_name_the_gaps_they_need(
        in_the_edition_half_way):
    nb = in_the_edition_half_way

    every_event = printed(nb, "every-event").splitlines()

    assert len(every_event) == 21 and all(line.endswith("on disk: True") for line in every_event), \
        "\n".join(every_event)
    assert "set aside:         ['{\"role\": \"toolResu" in printed(nb, "cut-in-a-line")
    assert printed(nb, "resume") == ("(this example needs the repair and resume gaps of your "
                                     "harness.py: fill them, then run the cells from the top "
                                     "again)\n"), printed(nb, "resume")


@pytest.mark.parametrize("which", ["on_finished", "on_another_correct_harness",
                                   "in_the_edition_on_a_correct_harness"])
def test_the_examples_show_what_the_lesson_says_they_show(which, request):
    nb = request.getfixturevalue(which)

    every_event = printed(nb, "every-event").splitlines()
    resumed, carried = printed(nb, "resume"), printed(nb, "carry-on")
    every_byte = printed(nb, "every-byte")

    assert "the record, on the disk:       0 bytes" in printed(nb, "job")
    assert len(every_event) == 21 and all(line.endswith("on disk: True") for line in every_event), \
        "\n".join(every_event)
    assert "loaded:            U A[call_0,call_1] R(call_0)" in printed(nb, "cut-in-a-line")
    assert "appended as it is:   loads 1 message, sets aside 1" in printed(nb, "newline")
    assert "closed, then added:  loads 3 messages, sets aside 0" in printed(nb, "newline")
    assert "set aside:   ['{\"role\":" in resumed and "write b (call_1)" in resumed, resumed
    assert "bytes the cut left, unchanged: True" in resumed, resumed
    assert "I wrote a. The write of b was cut short" in carried and "accepted" in carried, carried
    assert "toolCall id call_0 is used twice" in printed(nb, "lesson-10-view")
    assert "all 7, byte for byte: True" in printed(nb, "figure-11-2")
    assert "view:    U A[c1] R(c1) A U" in printed(nb, "spans")
    assert "view:    U A[c1,c2] R(c1) R(c2) U A" in printed(nb, "spans")
    assert "view:    U A[call_1_0] R(call_1_0) A" in printed(nb, "empty-and-placeholder")
    assert "refused                    0" in every_byte and "of them finished       0" in every_byte, \
        every_byte


@pytest.mark.parametrize("which", ["on_finished", "in_the_edition_on_a_correct_harness"])
def test_four_figures_come_out_as_svg_drawn_from_the_transcripts(which, request):
    nb = request.getfixturevalue(which)

    figures = {cell.id: output["data"][SVG] for cell in nb.cells
               if cell.cell_type == "code" for output in cell.outputs if SVG in output.get("data", {})}

    assert set(figures) >= set(FIGURES), f"expected SVG from {sorted(FIGURES)}; got {sorted(figures)}"
    for cell_id, words in FIGURES.items():
        root = ElementTree.fromstring(figures[cell_id])
        text = " ".join("".join(node.itertext()) for node in root.iter())
        missing = [word for word in words if word not in text]
        assert missing == [], f"{cell_id}: expected the figure to show {missing}; it does not"


# -- the hints --

def test_every_graded_test_has_a_question_then_an_outline_and_a_section_the_notebook_has():
    guide = hints.guide(LESSON)
    headings = {line.lstrip("# ").strip() for line in SOURCE.read_text().splitlines()
                if re.match(r"# #{2,3} ", line)}

    for name in manifest.graded_tests(LESSON.tests):
        given = guide.hints(name)
        assert len(given) == 2 and given[0].rstrip().endswith("?"), f"{name}: {given}"
        assert guide.section(name) in headings, f"{name}: no heading {guide.section(name)!r}"
    for gap in manifest.read(LESSON)["gaps"]:
        assert guide.section(gap=gap) in headings, f"gap {gap}: {guide.section(gap=gap)!r}"


def test_no_hint_holds_a_line_of_the_finished_gaps():
    gap_lines = [line for piece in finished_definitions_by_gap(
        LESSON.finished.read_text(), manifest.read(LESSON)["gaps"]).values() for text in piece
        for line in (l.strip() for l in text.splitlines())
        if line and not line.startswith(("#", '"""')) and len(line) > 12]
    written = " ".join(hint for meta in tomllib.loads(
        (LESSON.folder / "hints.toml").read_text())["tests"].values() for hint in meta["hints"])

    leaked = [line for line in gap_lines if line in written]

    assert len(gap_lines) > 20 and not leaked, f"hints give away the answer: {leaked}"
