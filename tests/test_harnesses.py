"""Which harness the lesson's examples run on, and lending a module a function for one example."""

import sys

import pytest

from lab.notebook import harnesses
from lab.course import lesson_files as lessons

LESSON = lessons.lesson(10)
FINISHED, STARTER = LESSON.finished, LESSON.starter


@pytest.fixture(autouse=True)
def harness_module_left_as_it_was(monkeypatch):
    """pick_harness installs its choice as `harness`; other tests must not see it."""
    monkeypatch.delitem(sys.modules, "harness", raising=False)


def project_with(tmp_path, text):
    (tmp_path / "harness.py").write_text(text)
    return tmp_path


def test_a_student_harness_that_repairs_is_picked(tmp_path):
    project = project_with(tmp_path, FINISHED.read_text())

    chosen = harnesses.pick_harness(lesson=10, environ={}, project=project)

    assert chosen.path == project / "harness.py", f"expected the student's file; got {chosen}"
    assert "repairs a dangling call" in chosen.reason, f"expected the reason; got {chosen.reason}"
    assert sys.modules["harness"] is chosen.module, "expected the pick importable as `harness`"


def test_the_starter_falls_back_to_the_finished_harness_and_says_why(tmp_path):
    project = project_with(tmp_path, STARTER.read_text())

    chosen = harnesses.pick_harness(lesson=10, environ={}, project=project)

    assert chosen.path == FINISHED, f"expected the finished harness; got {chosen}"
    assert "has no INTERRUPTED" in chosen.reason, f"expected what is missing; got {chosen.reason}"


def test_a_harness_that_does_not_import_falls_back_with_its_error(tmp_path):
    project = project_with(tmp_path, "def broken(:\n")

    chosen = harnesses.pick_harness(lesson=10, environ={}, project=project)

    assert chosen.path == FINISHED, f"expected the finished harness; got {chosen}"
    assert "does not import: SyntaxError" in chosen.reason, f"got {chosen.reason}"


def test_a_repair_that_is_only_a_name_does_not_count(tmp_path):
    half_done = STARTER.read_text() + (
        '\nINTERRUPTED = "Tool call interrupted."\n'
        "def repair_tool_history(messages):\n    return list(messages)\n")
    project = project_with(tmp_path, half_done)

    chosen = harnesses.pick_harness(lesson=10, environ={}, project=project)

    assert chosen.path == FINISHED, f"expected the finished harness; got {chosen}"
    assert "refuses: messages[1]: toolCall c1 has no toolResult" in chosen.reason, (
        f"expected the refusal its context_for_model earns; got {chosen.reason}")


def test_the_environment_variable_wins_whatever_the_file_holds(tmp_path):
    chosen = harnesses.pick_harness(lesson=10, environ={harnesses.ENV: str(STARTER)}, project=tmp_path)

    assert chosen.path == STARTER, f"expected the file LAB_HARNESS names; got {chosen}"
    assert "LAB_HARNESS names it" in chosen.reason, f"got {chosen.reason}"


def test_an_environment_variable_naming_no_file_is_an_error_at_once(tmp_path):
    with pytest.raises(FileNotFoundError) as missing:
        harnesses.pick_harness(lesson=10, environ={harnesses.ENV: str(tmp_path / "nope.py")})

    assert "LAB_HARNESS=" in str(missing.value), f"expected the variable named; got {missing.value}"


def test_a_harness_py_at_a_later_lab_reopens_lesson_06_on_its_finished_harness_and_says_so(tmp_path):
    project = project_with(tmp_path, STARTER.read_text())  # the README's first command's file
    sixth = lessons.lesson(6)

    chosen = harnesses.pick_harness(lesson=6, environ={}, project=project)

    assert chosen.path == sixth.finished, f"expected lesson 06's finished harness; got {chosen}"
    assert chosen.reason.startswith("harness.py is at lesson 10 (its first line says so), past "
                                    "lesson 06"), chosen.reason
    assert "set LAB_HARNESS to that file" in chosen.reason, chosen.reason
    assert sys.modules["harness"] is chosen.module


def test_a_later_labs_file_named_in_the_environment_is_treated_as_harness_py_is(tmp_path):
    later = lessons.lesson(11).finished

    chosen = harnesses.pick_harness(lesson=6, environ={harnesses.ENV: str(later)}, project=tmp_path)

    assert chosen.path == lessons.lesson(6).finished, f"got {chosen}"
    assert chosen.reason.startswith("LAB_HARNESS names lessons/11-power-cable/finished.py, "
                                    "which is at lesson 11"), chosen.reason


def test_a_checkpoints_file_after_the_lesson_is_said_to_be_at_that_checkpoint(tmp_path):
    project = project_with(tmp_path, lessons.lesson("A").starter.read_text())

    chosen = harnesses.pick_harness(lesson=5, environ={}, project=project)

    assert chosen.path == lessons.lesson(5).finished, f"got {chosen}"
    assert chosen.reason.startswith("harness.py is at checkpoint A (its first line says so), "
                                    "past lesson 05"), chosen.reason


def test_an_earlier_labs_file_is_judged_by_what_it_does_not_by_its_line(tmp_path):
    project = project_with(tmp_path, lessons.lesson(9).finished.read_text())

    chosen = harnesses.pick_harness(lesson=10, environ={}, project=project)

    assert chosen.path == FINISHED, f"expected the finished harness; got {chosen}"
    assert "harness.py does not repair a dangling call yet" in chosen.reason, chosen.reason


def test_a_file_that_names_a_lab_the_course_lacks_is_judged_by_what_it_does(tmp_path):
    project = project_with(tmp_path, FINISHED.read_text().replace("# lab: lesson 10",
                                                                  "# lab: lesson 99", 1))

    chosen = harnesses.pick_harness(lesson=10, environ={}, project=project)

    assert chosen.path == project / "harness.py", f"expected the student's file; got {chosen}"


def test_with_repair_keeps_a_harness_that_repairs_and_replaces_one_that_does_not():
    finished = harnesses.Pick(harnesses.load_harness(FINISHED), FINISHED, "given")
    starter = harnesses.Pick(harnesses.load_harness(STARTER), STARTER, "given")

    kept, replaced = harnesses.with_repair(finished), harnesses.with_repair(starter)

    assert kept.module is finished.module, f"expected the same module back; got {kept}"
    assert replaced.path == FINISHED, f"expected the finished harness instead; got {replaced}"
    assert "starter.py does not repair a dangling call yet" in replaced.reason, replaced.reason


def test_the_starter_is_loaded_as_a_module_of_its_own():
    starter = harnesses.starter_harness(lesson=10)

    assert starter.__name__ == "harness_starter", f"got {starter.__name__}"
    assert not hasattr(starter, "INTERRUPTED"), "expected the starter to have no repair yet"
    assert "harness_starter" not in sys.modules, "expected loading it to register nothing"


def test_patched_puts_the_original_back_even_when_the_block_fails():
    module = harnesses.load_harness(FINISHED)
    original = module.context_for_model

    with pytest.raises(RuntimeError):
        with harnesses.patched(module, context_for_model=list):
            assert module.context_for_model is list, "expected the swap inside the block"
            raise RuntimeError("the example failed")

    assert module.context_for_model is original, "expected the original back after the block"


def test_patched_refuses_a_name_the_module_does_not_have():
    module = harnesses.load_harness(FINISHED)

    with pytest.raises(AttributeError) as refused:
        with harnesses.patched(module, context_for_modle=list):
            pass

    assert "context_for_modle" in str(refused.value), f"expected the typo named; got {refused.value}"
    assert not hasattr(module, "context_for_modle"), "expected nothing set on the module"


def test_the_student_kit_holds_no_harness_choice_and_says_where_it_went():
    import lab

    with pytest.raises(AttributeError) as moved:
        lab.pick_harness  # noqa: B018 (a notebook saved before the helpers moved does this)

    assert "from lab.notebook.harnesses import pick_harness" in str(moved.value)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        lab.nothing_here  # noqa: B018


def test_the_browser_and_the_notebook_lend_with_the_same_patched():
    from lab.notebook import harness_choice

    browser = (harness_choice.ROOT / "lab" / "site" / "browser" / "harnesses.py").read_text()
    assert harnesses.patched is harness_choice.patched
    assert "from lab.notebook.harness_choice import Pick, patched" in browser
    assert "def patched" not in browser
