"""lab_check on lesson 10: the finished harness passes, the starter fails and says why, every
answer the lesson rejects is caught by a test that names the rule, and a second correct answer
(pairing by occurrence, as Tau does) passes."""

import re
import subprocess
import sys

import pytest

import lab
from lab.course import lesson_files as lessons
from lab.grader import batch
from lab.cli import verify
from conftest import PROJECT, load_harness

LESSON = lessons.lesson(10)
RULE_OF = {"test_missing_result_gets_interrupted_right_after_its_call": "card 1",
           "test_orphan_result_is_dropped_without_inventing_a_call": "card 2",
           "test_late_result_is_moved_up_not_made_up": "card 3",
           "test_first_of_two_results_for_one_call_wins": "card 4",
           "test_view_drops_empty_failures_then_repairs_and_leaves_the_record_alone": "the view",
           "test_valid_transcript_comes_back_equal_holding_the_same_objects":
               "a valid transcript comes back equal",
           "test_repair_holds_at_a_records_edges": "a record's edges are places like any other",
           "test_view_holds_at_a_records_edges": "a record's edges are places like any other"}


def lab_check(*args, cwd=PROJECT):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Every wrong and right answer of the lesson, graded once, as one batch (in parallel,
    each in a lab_check of its own): {answer file name: Grade}."""
    root = tmp_path_factory.mktemp("answers")
    for answer in LESSON.wrong_answers + LESSON.right_answers:
        (root / answer.stem).mkdir()
        (root / answer.stem / batch.HARNESS).write_text(LESSON.variant(answer))
    grades = batch.grade_all(sorted(root.iterdir()), LESSON, seed=verify.SEED)
    return {name + ".py": grade for name, grade in grades.items()}


def test_the_finished_harness_passes_every_graded_test():
    run = lab_check("--harness", str(LESSON.finished), "--lesson", "10")

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    score = re.search(r"^score: (\d+) of \1 points, (\d+) passed, 0 failed$", run.stdout, re.M)
    assert score and int(score[2]) >= 20, run.stdout


def test_the_starter_fails_the_repair_tests_and_the_report_says_why():
    run = lab_check("--harness", "harness.py", "--lesson", "10")

    assert run.returncode == 1, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert "missing result gets interrupted right after its call" in run.stdout, run.stdout
    assert "harness.py has no `repair_tool_history` yet" in run.stdout, run.stdout
    assert re.search(r"\^ first difference: messages\[\d+\]", run.stdout), \
        f"the first view test should mark where the view parts from what was expected:\n{run.stdout}"
    assert "✓ 1 passes: steering lands at the top of the next turn" in run.stdout, \
        f"the part of the harness the lesson gives should still pass:\n{run.stdout}"


def test_the_seed_varies_a_gradings_inputs_and_replays_them_exactly():
    def given(seed):
        run = lab_check("--harness", "harness.py", "--lesson", "10", "-k", "view_drops",
                        "--seed", str(seed))
        assert f"seed {seed}" in run.stdout, run.stdout
        # the case as shown, and the real ids behind its short ones (the lead-in is folded)
        return re.search(r"given: +(.+)", run.stdout)[1], re.search(r"ids: +(.+)", run.stdout)[1]

    first, again, other = given(11), given(11), given(12)

    assert first == again, f"one seed, two inputs:\n{first}\n{again}"
    assert first != other, f"two seeds, one input: {first}"


@pytest.mark.parametrize("answer", LESSON.wrong_answers, ids=lambda p: p.stem)
def test_each_answer_the_lesson_rejects_fails_a_test_that_names_its_rule(graded, answer):
    named = lessons.must_fail(answer)

    result = graded[answer.name]

    failed = {t.test: t for t in result.tests if t.outcome == "failed"}
    assert named in failed, (f"{answer.name} should fail {named}; it failed "
                             f"{sorted(failed) or 'nothing'}")
    assert failed[named].message.startswith(RULE_OF[named]), (
        f"the failure should name the rule ({RULE_OF[named]!r}), it says:\n{failed[named].message}")



@pytest.mark.parametrize("answer", LESSON.right_answers, ids=lambda p: p.stem)
def test_a_correct_answer_that_goes_further_than_the_lesson_passes_everything(graded, answer):
    result = graded[answer.name]

    failed = [f"{t.test}: {t.message}" for t in result.tests if t.outcome != "passed"]
    assert result.tests and not failed, "\n\n".join(failed) or "no tests ran"


def test_pairing_by_occurrence_really_differs_when_a_provider_reuses_an_id(tmp_path):
    path = tmp_path / "occurrence.py"
    path.write_text(LESSON.variant(LESSON.folder / "right" / "pairs_by_occurrence.py"))
    strict, simple = load_harness(path), load_harness(LESSON.finished)
    first, second = lab.call("read", {"path": "a.py"}, id="c1"), lab.call("read", {"path": "b.py"}, id="c1")
    record = [lab.user("Read both."), lab.reply(first), lab.tool_result(first, "A = 1\n"),
              lab.reply(second), lab.tool_result(second, "B = 2\n")]

    shown = [m["content"] for m in strict.repair_tool_history(record) if m["role"] == "toolResult"]
    naive = [m["content"] for m in simple.repair_tool_history(record) if m["role"] == "toolResult"]

    assert shown == ["A = 1\n", "B = 2\n"], f"by occurrence, each call keeps its own result: {shown}"
    assert naive == ["A = 1\n", "A = 1\n"], f"the lesson's simpler rule shows the first twice: {naive}"


@pytest.mark.parametrize("text, phrase", [
    ("def broken(:\n    pass\n", "syntax error on line 1"),
    ("SYSTEM = 'x'\n", "which lesson 10 gives you"),
    ("", "is empty"),
], ids=["syntax error", "missing names", "empty"])
def test_a_file_that_cannot_be_graded_exits_2_with_a_sentence(tmp_path, text, phrase):
    path = tmp_path / "harness.py"
    path.write_text(text)

    run = lab_check("--harness", str(path), "--lesson", "10")

    assert run.returncode == 2, f"exit {run.returncode}:\n{run.stdout}"
    assert phrase in run.stdout and run.stdout.strip().endswith("nothing was graded"), run.stdout


def test_no_such_lesson_exits_2_and_names_the_lessons_there_are():
    run = lab_check("--harness", "harness.py", "--lesson", "99")

    assert run.returncode == 2 and "no lesson 99" in run.stderr and "10" in run.stderr, run.stderr


def test_grading_writes_nothing_into_the_students_folder_but_its_own_record(tmp_path):
    (tmp_path / "harness.py").write_text(LESSON.finished.read_text())
    before = sorted(p.name for p in tmp_path.iterdir())

    run = lab_check("--harness", "harness.py", "--lesson", "10", cwd=tmp_path)

    assert run.returncode == 0, run.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(before + [".lab-check"]), \
        f"new files appeared: {sorted(set(p.name for p in tmp_path.iterdir()) - set(before))}"
    assert sorted(p.name for p in (tmp_path / ".lab-check").iterdir()) == [".gitignore",
                                                                          "progress.json"]
    assert (tmp_path / "harness.py").read_text() == LESSON.finished.read_text()
