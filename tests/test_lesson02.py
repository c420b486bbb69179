"""Lesson 02's notebook picks its harness by what the harness does: one that answers a tool call
with a toolResult under the call's id (its ready.py, lab.course.readiness), the student's own once it
does, the finished one until then; and lesson 10's harness, whose run_agent is a generator of
events, is not mistaken for a lesson 02 harness."""

import sys

import pytest

import lab
from lab.notebook import harnesses
from lab.course import readiness, lesson_files as lessons
from lab.notebook.harnesses import load_harness

LESSON = lessons.lesson(2)
FINISHED, STARTER = LESSON.finished, LESSON.starter


@pytest.fixture(autouse=True)
def harness_module_left_as_it_was(monkeypatch):
    """pick_harness installs its choice as `harness`; other tests must not see it."""
    monkeypatch.delitem(sys.modules, "harness", raising=False)


def project_with(tmp_path, text):
    (tmp_path / "harness.py").write_text(text)
    return tmp_path


def test_a_student_harness_that_answers_with_a_tool_result_is_picked(tmp_path):
    project = project_with(tmp_path, FINISHED.read_text())

    chosen = harnesses.pick_harness(lesson=2, environ={}, project=project)

    assert chosen.path == project / "harness.py", f"expected the student's file; got {chosen}"
    assert "answers a tool call with a toolResult" in chosen.reason, chosen.reason


def test_the_starter_falls_back_to_the_finished_harness_naming_the_refusal(tmp_path):
    project = project_with(tmp_path, STARTER.read_text())

    chosen = harnesses.pick_harness(lesson=2, environ={}, project=project)

    assert chosen.path == FINISHED, f"expected the finished harness; got {chosen}"
    assert "toolCall c1 has no toolResult" in chosen.reason, chosen.reason


def test_a_right_result_with_the_function_still_sent_is_not_ready():
    module = load_harness(STARTER, name="harness_under_test")
    module.run_tool = load_harness(FINISHED, name="harness_finished").run_tool

    problem = readiness.of(LESSON.folder).check(module)

    assert problem == "its tool_specs sends the model a tool's function", problem


def test_lesson_10s_harness_is_not_taken_for_a_lesson_02_harness():
    module = load_harness(lessons.lesson(10).finished, name="harness_lesson_10")

    problem = readiness.of(LESSON.folder).check(module)

    assert "does not answer a call with a toolResult" in problem, problem


def test_every_graded_test_has_hints_and_a_section_the_notebook_has():
    import re

    from lab.grader import hints
    from lab.course import manifest

    guide = hints.guide(LESSON)
    headings = {line.lstrip("# ").strip() for line in
                (LESSON.folder / "walkthrough.py").read_text().splitlines()
                if re.match(r"# #{2,3} ", line)}

    for name in manifest.graded_tests(LESSON.tests):
        assert 1 <= len(guide.hints(name)) <= 3, f"{name}: {guide.hints(name)}"
        assert guide.section(name) in headings, f"{name}: no heading {guide.section(name)!r}"
    for gap in manifest.read(LESSON)["gaps"]:
        assert guide.section(gap=gap) in headings, f"gap {gap}: {guide.section(gap=gap)!r}"


def test_no_hint_holds_a_line_of_the_answer():
    import tomllib

    from lab.release.leaks import answer_lines

    secret = answer_lines(FINISHED.read_text())
    every_hint = tomllib.loads((LESSON.folder / "hints.toml").read_text())
    written = " ".join(hint for meta in every_hint["tests"].values() for hint in meta["hints"])

    assert len(secret) >= 3, secret
    leaked = [line for line in secret if line in written]
    assert not leaked, f"hints give away the answer: {leaked}"
