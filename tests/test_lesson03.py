"""Lesson 03's notebook picks its harness by what the harness does: one whose run_agent keeps
going until a reply asks for nothing, answering a whole batch first (its ready.py, lab.course.readiness),
the student's own once it does, the finished one until then; and neither lesson 02's one round
nor lesson 10's generator of events is mistaken for it."""

import sys

import pytest

import lab
from lab.notebook import harnesses
from lab.course import readiness, lesson_files as lessons
from lab.notebook.harnesses import load_harness

LESSON = lessons.lesson(3)
FINISHED, STARTER = LESSON.finished, LESSON.starter


@pytest.fixture(autouse=True)
def harness_module_left_as_it_was(monkeypatch):
    """pick_harness installs its choice as `harness`; other tests must not see it."""
    monkeypatch.delitem(sys.modules, "harness", raising=False)


def project_with(tmp_path, text):
    (tmp_path / "harness.py").write_text(text)
    return tmp_path


def test_a_student_harness_with_the_loop_is_picked(tmp_path):
    project = project_with(tmp_path, FINISHED.read_text())

    chosen = harnesses.pick_harness(lesson=3, environ={}, project=project)

    assert chosen.path == project / "harness.py", f"expected the student's file; got {chosen}"
    assert "keeps going until the model stops asking" in chosen.reason, chosen.reason


def test_the_starter_falls_back_to_the_finished_harness_naming_the_unanswered_calls(tmp_path):
    project = project_with(tmp_path, STARTER.read_text())

    chosen = harnesses.pick_harness(lesson=3, environ={}, project=project)

    assert chosen.path == FINISHED, f"expected the finished harness; got {chosen}"
    assert "U A[c1] R(c1) A[c2,c3] for a job of two turns" in chosen.reason, chosen.reason


def test_a_loop_that_asks_after_each_result_is_not_ready():
    module = load_harness(FINISHED, name="harness_under_test")

    def run_agent(model, system, messages, tools, prompt):
        messages.append(module.user_message(prompt))
        reply = model.complete(system, messages, module.tool_specs(tools))
        messages.append(reply)
        while module.tool_calls(reply):
            for call in module.tool_calls(reply):
                messages.append(module.run_tool(tools, call))
                reply = model.complete(system, messages, module.tool_specs(tools))
                messages.append(reply)

    module.run_agent = run_agent

    problem = readiness.of(LESSON.folder).check(module)

    assert problem.startswith("its run_agent sends a request a provider refuses: "
                              "messages[3]: toolCall c3 has no toolResult"), problem


def test_lesson_10s_harness_is_not_taken_for_a_lesson_03_harness():
    module = load_harness(lessons.lesson(10).finished, name="harness_lesson_10")

    problem = readiness.of(LESSON.folder).check(module)

    assert "leaves the record empty" in problem, problem
