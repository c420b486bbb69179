"""Lesson 01 beyond what tests/test_labs.py proves of every lab: its notebook picks a harness by
what it does (its ready.py, lab.course.readiness), its hints point at the notebook and give
none of the answer away, and its gaps can be filled in the order the report names them: with
only the first gap filled, that gap's tests pass."""

import json
import re
import subprocess
import sys
import tomllib

import pytest

import lab
from lab.notebook import harnesses
from lab.course import readiness, lesson_files as lessons, starter
from lab.course import gap_markers
from lab.grader import hints
from lab.course import manifest
from lab.notebook.harnesses import load_harness
from lab.release.leaks import answer_lines
from conftest import PROJECT

LESSON = lessons.lesson(1)
FINISHED, STARTER = LESSON.finished, LESSON.starter


@pytest.fixture(autouse=True)
def harness_module_left_as_it_was(monkeypatch):
    """pick_harness installs its choice as `harness`; other tests must not see it."""
    monkeypatch.delitem(sys.modules, "harness", raising=False)


def project_with(tmp_path, text):
    (tmp_path / "harness.py").write_text(text)
    return tmp_path


def with_gaps_filled(text, filled):
    """The finished harness `text` with the gaps numbered in `filled` (0 for the first in the
    file) as finished, and every other gap as the starter has it."""
    out, state, gap = [], "outside", -1
    for line in text.splitlines(keepends=True):
        marker = line.strip()
        if marker == gap_markers.BEGIN:
            state, gap = "finished", gap + 1
        elif marker == gap_markers.SWAP:
            state = "starter"
        elif marker == gap_markers.END:
            state = "outside"
        elif state == "outside" or (state == "finished" and gap in filled):
            out.append(line)
        elif state == "starter" and gap not in filled:
            quoted = gap_markers.QUOTED.match(line.rstrip("\n"))
            out.append(quoted.group(1) + (quoted.group(2) or "") + "\n")
    return "".join(out)


def test_a_student_harness_that_keeps_who_said_what_is_picked(tmp_path):
    project = project_with(tmp_path, FINISHED.read_text())

    chosen = harnesses.pick_harness(lesson=1, environ={}, project=project)

    assert chosen.path == project / "harness.py", f"expected the student's file; got {chosen}"
    assert "keeps who said what" in chosen.reason, chosen.reason


def test_the_starter_falls_back_to_the_finished_harness_saying_why(tmp_path):
    project = project_with(tmp_path, STARTER.read_text())

    chosen = harnesses.pick_harness(lesson=1, environ={}, project=project)

    assert chosen.path == FINISHED, f"expected the finished harness; got {chosen}"
    assert "does not keep who said what" in chosen.reason, chosen.reason


def test_a_harness_that_files_the_reply_under_the_users_name_is_not_ready():
    module = load_harness(FINISHED, name="harness_under_test")
    module.text_of = load_harness(FINISHED, name="harness_words").text_of
    draft = load_harness(STARTER, name="harness_draft")
    module.run_agent = draft.run_agent
    draft.text_of = module.text_of  # the draft's own one-liner aside: only its record is wrong

    problem = readiness.of(LESSON.folder).check(module)

    assert problem.startswith("its run_agent keeps the record as U U U U"), problem


def test_lesson_10s_harness_is_not_taken_for_a_lesson_01_harness():
    module = load_harness(lessons.lesson(10).finished, name="harness_lesson_10")

    problem = readiness.of(LESSON.folder).check(module)

    assert problem.startswith("it raised TypeError"), problem


def test_every_graded_test_has_hints_and_a_section_the_notebook_has():
    guide = hints.guide(LESSON)
    headings = {line.lstrip("# ").strip() for line in
                (LESSON.folder / "walkthrough.py").read_text().splitlines()
                if re.match(r"# #{2,3} ", line)}

    for name in manifest.graded_tests(LESSON.tests):
        assert 1 <= len(guide.hints(name)) <= 3, f"{name}: {guide.hints(name)}"
        assert guide.section(name) in headings, f"{name}: no heading {guide.section(name)!r}"
    for gap in manifest.read(LESSON)["gaps"]:
        assert guide.section(gap=gap) in headings, f"gap {gap}: {guide.section(gap=gap)!r}"


def test_no_hint_and_no_line_of_the_walkthrough_holds_a_line_of_the_answer():
    secret = answer_lines(FINISHED.read_text())
    every_hint = tomllib.loads((LESSON.folder / "hints.toml").read_text())
    written = " ".join(hint for meta in every_hint["tests"].values() for hint in meta["hints"])
    walkthrough = {line.lstrip("#").strip() for line in
                   (LESSON.folder / "walkthrough.py").read_text().splitlines()}

    assert len(secret) >= 2, secret
    assert not [line for line in secret if line in written], f"hints give the answer: {secret}"
    assert not [line for line in secret if line in walkthrough], "the walkthrough gives it"


def test_with_only_the_first_gap_the_report_names_filled_its_tests_pass(tmp_path):
    order = list(manifest.read(LESSON)["gaps"])
    text = FINISHED.read_text()
    in_file = ["words", "ask", "keep"]  # the gaps as they come in the file, top to bottom
    assert gap_markers.gap_count(text) == len(in_file) == len(order), order
    harness = tmp_path / "harness.py"
    harness.write_text(with_gaps_filled(text, {in_file.index(order[0])}))

    run = subprocess.run([sys.executable, "-m", "lab.lab_check", "--harness", str(harness),
                          "--lesson", "01", "--format", "json", "--output",
                          str(tmp_path / "result.json")],
                         cwd=PROJECT, capture_output=True, text=True, timeout=600)

    result = json.loads((tmp_path / "result.json").read_text())
    first = {t["test"]: t["outcome"] for t in result["tests"] if t["gap"] == order[0]}
    assert first and set(first.values()) == {"passed"}, (first, run.stdout[-2000:])
    later = [t["outcome"] for t in result["tests"] if t["gap"] != order[0]]
    assert "failed" in later, "with the other gaps still the starter's, some test must fail"
