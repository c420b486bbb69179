"""Lesson 06's notebook picks its harness by what the harness does: one whose read tool stops
at the budget and names the offset to read on from, and whose bash tool keeps a long output's
end (its ready.py, lab.course.readiness), the student's own once it does, the finished one until
then. Its hints point at headings the notebook has and give no line of the answer, and the
budget's edges that issue 19 found in the first draft stay fixed in the finished harness."""

import re
import sys
import tomllib

import pytest

import lab
from lab.notebook import harnesses
from lab.course import readiness, lesson_files as lessons
from lab.notebook.harnesses import load_harness

LESSON = lessons.lesson(6)
FINISHED, STARTER = LESSON.finished, LESSON.starter


@pytest.fixture(autouse=True)
def harness_module_left_as_it_was(monkeypatch):
    """pick_harness installs its choice as `harness`; other tests must not see it."""
    monkeypatch.delitem(sys.modules, "harness", raising=False)


def project_with(tmp_path, text):
    (tmp_path / "harness.py").write_text(text)
    return tmp_path


def test_a_student_harness_that_keeps_the_budget_is_picked(tmp_path):
    project = project_with(tmp_path, FINISHED.read_text())

    chosen = harnesses.pick_harness(lesson=6, environ={}, project=project)

    assert chosen.path == project / "harness.py", f"expected the student's file; got {chosen}"
    assert "keeps every tool result within a budget" in chosen.reason, chosen.reason


def test_the_starter_falls_back_to_the_finished_harness_naming_the_missing_budget(tmp_path):
    project = project_with(tmp_path, STARTER.read_text())

    chosen = harnesses.pick_harness(lesson=6, environ={}, project=project)

    assert chosen.path == FINISHED, f"expected the finished harness; got {chosen}"
    assert "does not stop at the budget" in chosen.reason, chosen.reason


def test_a_bash_tool_that_keeps_the_start_is_not_ready():
    module = load_harness(FINISHED, name="harness_under_test")
    starter = load_harness(STARTER, name="harness_starter_under_test")
    module.make_bash_tool = starter.make_bash_tool

    problem = readiness.of(LESSON.folder).check(module)

    assert problem == "its bash tool does not keep the end of a long output", problem


def test_lesson_05s_harness_is_not_taken_for_a_lesson_06_harness():
    parent = lessons.PROJECT / "lessons" / "05-the-runaway-and-the-503" / "finished.py"
    module = load_harness(parent, name="harness_lesson_05")

    assert readiness.of(LESSON.folder).check(module) == "it has no fit_budget"


def test_the_drafts_edges_stay_fixed_in_the_finished_harness():
    module = load_harness(FINISHED, name="harness_edges")
    ws = lab.Workspace({"a.txt": "one\ftwo\u2028three\nfour\n", "long.txt": "=" * 90 + "\n"})

    assert module.lines_of(ws.read_text("a.txt")) == ["one\ftwo\u2028three\n", "four\n"]
    for make, where in ((module.make_read_tool, ws), (module.make_bash_tool, lab.Shell(ws))):
        with pytest.raises(ValueError, match="max_lines"):
            make(where, max_lines=0)
    cut = module.make_bash_tool(lab.Shell(ws), max_bytes=10)["execute"]({"command": "cat long.txt"})
    assert "91 bytes" in cut and "10-byte" in cut, cut
    ws.write_text("b.txt", "ab\ncd\nef\n")
    read = module.make_read_tool(ws, max_bytes=7)["execute"]({"path": "b.txt"})
    assert read == "ab\ncd\n[Lines 1-2 of 3. Read on with offset=3.]", read


def test_every_graded_test_has_hints_and_a_section_the_notebook_has():
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
    from lab.release.leaks import answer_lines

    secret = answer_lines(FINISHED.read_text())
    every_hint = tomllib.loads((LESSON.folder / "hints.toml").read_text())
    written = " ".join(hint for meta in every_hint["tests"].values() for hint in meta["hints"])

    assert len(secret) >= 3, secret
    leaked = [line for line in secret if line in written]
    assert not leaked, f"hints give away the answer: {leaked}"


def graded_tests_module():
    """The lesson's tests.py as a module, to call one of its tests with a stand-in student."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("lesson06_graded_tests", LESSON.tests)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Answers:
    """A stand-in for the grader's `student`: value(name, ...) calls `name` in a loaded file."""

    def __init__(self, module):
        self.module = module

    def value(self, name, *args):
        return type("Value", (), {"value": getattr(self.module, name)(*args)})


def test_a_budget_counted_in_characters_fails_the_bytes_test_on_every_seed():
    """A student's fit_budget that counted len(line) passed the bytes test on 12 seeds of 40
    ("café\n" at 10 or 11 bytes holds 2 lines counted either way): the budget is now drawn
    until the two counts differ. The variation is the grader's, random.Random("seed:test")."""
    import random

    from lab.testkit.verdict import GradeFailure

    graded = graded_tests_module()
    test = graded.test_a_budget_counts_bytes_of_utf8_not_characters
    right = Answers(load_harness(FINISHED, name="harness_bytes_right"))
    wrong = Answers(load_harness(LESSON.folder / "wrong" / "counts_characters.py",
                                 name="harness_bytes_wrong"))
    for seed in range(1, 201):
        name = f"{seed}:{test.__name__}"
        test(right, random.Random(name))
        with pytest.raises(GradeFailure):
            test(wrong, random.Random(name))


def test_the_right_option_is_not_told_by_its_place_or_its_length():
    """A student's pass found 8 of the 10 right options at B, most of them the longest: "pick B"
    scored 8 of 10 unread. The right option now moves, and is the longest in few questions."""
    text = (LESSON.folder / "walkthrough.py").read_text()
    option = re.compile(r"^# <details><summary><b>([ABC])</b> · (.*)</summary>\n#\n# (✓|✗)", re.M)
    questions, right_at, longest = [], [], 0
    for letter, summary, mark in option.findall(text):
        if letter == "A":
            questions.append([])
        questions[-1].append((letter, len(summary), mark == "✓"))
    for options in questions:
        assert [o[0] for o in options] == ["A", "B", "C"] and sum(o[2] for o in options) == 1
        right = next(o for o in options if o[2])
        right_at.append(right[0])
        longest += right[1] == max(o[1] for o in options)

    assert len(questions) == 10, right_at
    assert max(right_at.count(letter) for letter in "ABC") <= 4, right_at
    assert longest <= 4, f"the right option is the longest in {longest} of 10 questions"
