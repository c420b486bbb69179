"""Lesson 05's notebook picks its harness by what the harness does: one whose run_agent stops a
runaway at max_turns with a recorded stop, acts on none of a failed reply, and whose view leaves
an empty failure out (its ready.py, lab.course.readiness); the student's own once it does, the
finished one until then; and neither lesson 04's loop nor lesson 10's generator of events is
mistaken for it."""

import sys

import pytest

import lab
from lab.notebook import harnesses
from lab.course import readiness, lesson_files as lessons
from lab.notebook.harnesses import load_harness

LESSON = lessons.lesson(5)
FINISHED, STARTER = LESSON.finished, LESSON.starter


@pytest.fixture(autouse=True)
def harness_module_left_as_it_was(monkeypatch):
    """pick_harness installs its choice as `harness`; other tests must not see it."""
    monkeypatch.delitem(sys.modules, "harness", raising=False)


def project_with(tmp_path, text):
    (tmp_path / "harness.py").write_text(text)
    return tmp_path


def test_a_student_harness_that_stops_and_survives_is_picked(tmp_path):
    project = project_with(tmp_path, FINISHED.read_text())

    chosen = harnesses.pick_harness(lesson=5, environ={}, project=project)

    assert chosen.path == project / "harness.py", f"expected the student's file; got {chosen}"
    assert "stops a runaway and survives a provider failure" in chosen.reason, chosen.reason


def test_the_starter_falls_back_to_the_finished_harness_naming_the_runaway(tmp_path):
    project = project_with(tmp_path, STARTER.read_text())

    chosen = harnesses.pick_harness(lesson=5, environ={}, project=project)

    assert chosen.path == FINISHED, f"expected the finished harness; got {chosen}"
    assert "sent 6 requests with max_turns=2" in chosen.reason, chosen.reason


def test_a_loop_that_runs_the_calls_of_a_failed_reply_is_not_ready():
    module = load_harness(FINISHED, name="harness_under_test")
    finished_loop = module.run_agent

    def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
        added = finished_loop(model, system, messages, tools, prompt, max_turns=max_turns)
        for call in module.tool_calls(added[-1]):  # and then, wrongly, the failed reply's calls
            messages.append(module.run_tool(tools, call))
        return added

    module.run_agent = run_agent

    assert readiness.of(LESSON.folder).check(module) == "its run_agent acts on a failed reply"


def test_a_view_that_sends_the_empty_failure_is_not_ready():
    module = load_harness(FINISHED, name="harness_under_test")
    module.context_for_model = list

    problem = readiness.of(LESSON.folder).check(module)

    assert problem == ("its context_for_model sends a request a provider refuses: "
                       "messages[1]: assistant message has empty content"), problem


def test_lesson_10s_harness_is_not_taken_for_a_lesson_05_harness():
    module = load_harness(lessons.lesson(10).finished, name="harness_lesson_10")

    problem = readiness.of(LESSON.folder).check(module)

    assert "sent 0 requests" in problem, problem
