"""Lesson 08's harness, in-process, for what the sandbox cannot show: a run dropped without
being iterated frees the harness (the grader's proxy keeps every object it hands over alive, so
no graded test can drop one); the fix of this lesson holds in every later lab whose Harness
keeps prompt and _run; and the notebook picks its harness by what it does (its ready.py)."""

import asyncio
import gc
import inspect
import sys

import pytest

import lab
from lab.notebook import harnesses
from lab.course import readiness, lesson_files as lessons
from lab.notebook.harnesses import load_harness

LESSON = lessons.lesson(8)
FINISHED, STARTER = LESSON.finished, LESSON.starter
KEEPING_THE_FIX = ["08", "09", "10", "11", "15", "16"]  # labs whose Harness keeps lesson 08's door


def finished_of(number):
    """A lab's finished harness, by its folder (lesson 09 has no graded tests yet)."""
    return next((lessons.PROJECT / "lessons").glob(f"{number}-*")) / "finished.py"


@pytest.fixture(autouse=True)
def harness_module_left_as_it_was(monkeypatch):
    """pick_harness installs its choice as `harness`; other tests must not see it."""
    monkeypatch.delitem(sys.modules, "harness", raising=False)


def a_harness(module):
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Here."))])
    return module.Harness(model, module.SYSTEM, [])


def finish(run):
    """Run `run` to its end, a generator or (from lesson 15 on) an async generator."""
    return asyncio.run(lab.drive(run))


def close(run):
    """Close `run` before its first event, as its consumer would."""
    if inspect.isasyncgen(run):
        asyncio.run(run.aclose())
    else:
        run.close()


@pytest.mark.parametrize("number", KEEPING_THE_FIX)
def test_a_run_dropped_without_being_iterated_frees_the_harness(number):
    module = load_harness(finished_of(number), name=f"harness_{number}")
    h = a_harness(module)

    h.prompt("Hello?")  # made, never iterated, never kept
    gc.collect()

    assert not h.is_running
    assert lab.shape(finish(h.prompt("Are you still there?")) and h.messages) == "U A"


@pytest.mark.parametrize("number", KEEPING_THE_FIX)
def test_a_run_closed_before_its_first_event_frees_the_harness(number):
    module = load_harness(finished_of(number), name=f"harness_{number}")
    h = a_harness(module)

    run = h.prompt("Hello?")
    refused = pytest.raises(RuntimeError, h.prompt, "Me too.")
    close(run)

    assert "already running" in str(refused.value)
    assert not h.is_running and h.messages == ()
    assert [event["type"] for event in finish(h.prompt("Again."))][:1] == ["agent_start"]


def test_the_starter_falls_back_to_the_finished_harness_naming_the_second_writer(tmp_path):
    (tmp_path / "harness.py").write_text(STARTER.read_text())

    chosen = harnesses.pick_harness(lesson=8, environ={}, project=tmp_path)

    assert chosen.path == FINISHED, f"expected the finished harness; got {chosen}"
    assert "lets a second prompt start while a run is going" in chosen.reason, chosen.reason


def test_a_student_harness_with_one_writer_is_picked(tmp_path):
    (tmp_path / "harness.py").write_text(FINISHED.read_text())

    chosen = harnesses.pick_harness(lesson=8, environ={}, project=tmp_path)

    assert chosen.path == tmp_path / "harness.py", f"expected the student's file; got {chosen}"
    assert "keeps one writer at a time" in chosen.reason, chosen.reason


def test_the_draft_that_a_never_started_run_bricks_is_not_ready():
    module = load_harness(FINISHED, name="harness_under_test")
    exec(compile((LESSON.folder / "wrong" / "never_started_run_bricks.py").read_text(),
                 "never_started_run_bricks.py", "exec"), module.__dict__)

    problem = readiness.of(LESSON.folder).check(module)

    assert problem == "a run closed before its first event leaves its Harness running", problem
