"""Lesson 07's notebook picks its harness by what the harness does: one whose run_agent hands
out a job's events as they happen, recording each message before it announces it, and whose
FinalTextRenderer calls a walked-away run no success (its ready.py, lab.course.readiness); the
student's own once it does, the finished one until then."""

import sys

import pytest

import lab
from lab.notebook import harnesses
from lab.course import readiness, lesson_files as lessons
from lab.notebook.harnesses import load_harness

LESSON = lessons.lesson(7)
FINISHED, STARTER = LESSON.finished, LESSON.starter


@pytest.fixture(autouse=True)
def harness_module_left_as_it_was(monkeypatch):
    """pick_harness installs its choice as `harness`; other tests must not see it."""
    monkeypatch.delitem(sys.modules, "harness", raising=False)


def project_with(tmp_path, text):
    (tmp_path / "harness.py").write_text(text)
    return tmp_path


def test_a_student_harness_that_reports_as_it_goes_is_picked(tmp_path):
    project = project_with(tmp_path, FINISHED.read_text())

    chosen = harnesses.pick_harness(lesson=7, environ={}, project=project)

    assert chosen.path == project / "harness.py", f"expected the student's file; got {chosen}"
    assert "reports each step as it happens" in chosen.reason, chosen.reason


def test_the_starter_falls_back_to_the_finished_harness_naming_the_late_events(tmp_path):
    project = project_with(tmp_path, STARTER.read_text())

    chosen = harnesses.pick_harness(lesson=7, environ={}, project=project)

    assert chosen.path == FINISHED, f"expected the finished harness; got {chosen}"
    assert "events come after what they describe" in chosen.reason, chosen.reason


def test_a_loop_that_runs_a_tool_before_announcing_it_is_not_ready():
    module = load_harness(FINISHED, name="harness_under_test")
    finished_loop = module.run_agent

    def run_agent(model, system, messages, tools, prompt, **options):
        events = finished_loop(model, system, messages, tools, prompt, **options)
        for event in events:
            if event["type"] == "tool_execution_start":
                following = next(events)  # the tool runs here, before the start is handed out
                yield event
                yield following
            else:
                yield event

    module.run_agent = run_agent

    problem = readiness.of(LESSON.folder).check(module)

    assert problem.startswith("its run_agent, at the first tool_execution_start, has run 1 "
                              "tools"), problem


def test_a_frontend_that_calls_a_walked_away_run_a_success_is_not_ready():
    module = load_harness(FINISHED, name="harness_under_test")
    module.FinalTextRenderer = load_harness(STARTER, name="harness_starter").FinalTextRenderer

    problem = readiness.of(LESSON.folder).check(module)

    assert problem == "its FinalTextRenderer calls a run walked away from a success", problem


def test_lesson_10s_harness_reports_as_it_goes_too():
    module = load_harness(lessons.lesson(10).finished, name="harness_lesson_10")

    assert readiness.of(LESSON.folder).check(module) == ""
