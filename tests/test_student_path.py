"""A student's path from lesson 01 on, with no trap in it (issue 32, "The student's path"): the
command printed for a checkpoint is the command that works, a --next that fails after a pass
says which test and why, backups go in one folder, and a filled gap loses the starter's
comments about the code it replaced."""

import pathlib
import re
import subprocess
import sys

import pytest

from course_copy import scratch_course

from lab.course import order as course, lesson_files as lessons
from lab.course.carry_forward import carry_forward
from lab.grader.results import Grade
from lab.sandbox.outcome import TestResult
from lab.cli.next_lab import Refused, start_next
from lab.course.student_position import Position
from lab.course.gap_markers import BEGIN, END, SWAP


def lab_check(copy, *args):
    return subprocess.run([sys.executable, str(copy / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=copy, timeout=600)


def lesson_text(lab, name):
    return (lessons.lesson(lab).folder / name).read_text(encoding="utf-8")


def map_rows(stdout):
    return {m[1]: m[2] for m in re.finditer(r"(?m)^  (\w{1,2}) +(.*)$", stdout)}


# -- the checkpoints' commands ------------------------------------------------------------------

@pytest.mark.parametrize("lab, checkpoint, file, before", [
    ("05", "A", "doctor_a.py", "16"), ("10", "B", "doctor.py", "16")])
def test_the_command_next_prints_for_a_checkpoint_grades_that_checkpoint(
        tmp_path, lab, checkpoint, file, before):
    copy = scratch_course(tmp_path)
    (copy / "harness.py").write_text(lesson_text(lab, "finished.py"))
    (copy / file).unlink()

    moved = lab_check(copy, "--next")
    printed = re.search(r"next: (lab-check .*?) grades it", moved.stdout)
    graded = lab_check(copy, *printed[1].split()[1:])
    rows = map_rows(lab_check(copy, "--course").stdout)

    assert moved.returncode == 0 and printed[1] == f"lab-check --harness {file}", moved.stdout
    title = course.find(checkpoint).title
    assert f"{checkpoint}, {title}:" in graded.stdout and graded.returncode == 1, \
        graded.stdout + graded.stderr
    assert "in progress" in rows[checkpoint], rows
    assert "in progress" not in rows[before], f"graded as lesson {before}: {rows}"


@pytest.mark.parametrize("checkpoint", ["A", "B"])
def test_a_checkpoints_file_says_its_lab_on_its_first_line(checkpoint):
    from lab.course import harness_file as project

    starter = lessons.lesson(checkpoint).starter
    student = lessons.PROJECT / {"A": "doctor_a.py", "B": "doctor.py"}[checkpoint]

    assert starter.read_text().startswith(f"# lab: checkpoint {checkpoint}")
    assert project.declared_lesson(starter) == project.declared_lesson(student) == checkpoint


# -- a --next that fails after a pass -----------------------------------------------------------

def refusal(tmp_path, tests):
    """What --next says from lesson 10 when the grading it makes first comes back as `tests`."""
    harness = tmp_path / "harness.py"
    harness.write_text(lesson_text(10, "finished.py"))
    lesson = lessons.lesson(10)

    def grade(file, _lesson):
        return Grade(lesson=10, title="The poisoned transcript", harness=str(file), tests=tests,
                     isolation="bubblewrap")

    with pytest.raises(Refused) as refused:
        start_next(Position(harness, course.find("10")), grade, lessons.PROJECT)
    assert harness.read_text() == lesson_text(10, "finished.py"), "nothing was changed"
    assert lesson.number == 10
    return refused.value


def test_a_next_whose_grading_broke_says_so_and_is_no_verdict_on_the_code(tmp_path):
    why = "the grading timed out after 180 s: the worker never answered"
    broke = Grade.broken(10, "The poisoned transcript", "harness.py", why, points=27).tests

    refused = refusal(tmp_path, broke)

    said = " ".join(str(refused).split())
    assert refused.status == 3, said
    assert '"grading" (the grading timed out after 180 s' in said, said
    assert "not a verdict on your code" in said and "run lab-check --next again" in said, said
    assert "1 of 1 tests fail" not in said, said


def test_a_next_that_fails_names_each_failing_test_and_why(tmp_path):
    tests = [TestResult("test_a_dangling_call_gets_a_result", "passed", points=3),
             TestResult("test_the_view_is_repaired", "failed",
                     "timed out after 5 s in `repair_tool_history` (harness.py, line 40)\nmore",
                     points=2),
             TestResult("test_the_record_is_left_alone", "failed", "expected the record unchanged")]

    refused = refusal(tmp_path, tests)

    said = " ".join(str(refused).split())
    assert refused.status == 1, said
    assert '"the view is repaired" (timed out after 5 s in `repair_tool_history` (harness.py, ' \
           'line 40))' in said, said
    assert '"the record is left alone" (expected the record unchanged)' in said, said
    assert "lab-check --time-limit SECONDS" in said, said


# -- backups ------------------------------------------------------------------------------------

def test_reset_and_next_keep_backups_in_one_folder_not_beside_the_students_files(tmp_path):
    copy = scratch_course(tmp_path)
    mine = "# lab: lesson 10\nmine = 1\n"
    (copy / "harness.py").write_text(mine)

    first = lab_check(copy, "--reset")
    second = lab_check(copy, "--reset", "--lesson", "01")

    backups = copy / ".lab-check" / "backups"
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert (backups / "harness.py.bak-1").read_text() == mine
    assert (backups / "harness.py.bak-2").read_text() == lesson_text(10, "starter.py")
    assert not list(copy.glob("*.bak-*")), "no backup in the project's root"
    assert "kept as .lab-check/backups/harness.py.bak-1" in " ".join(first.stdout.split())
    ignored = subprocess.run(["git", "check-ignore", "-q", str(backups / "harness.py.bak-1")],
                             cwd=copy, capture_output=True)
    subprocess.run(["git", "init", "-q"], cwd=copy, check=True)
    ignored = subprocess.run(["git", "check-ignore", "-q", str(backups / "harness.py.bak-1")],
                             cwd=copy, capture_output=True)
    assert ignored.returncode == 0, "git ignores the backups"


# -- a filled gap loses the starter's comments --------------------------------------------------

def filled(finished_text, starter_text, note=""):
    """The starter with each gap's code replaced by the finished code, as a student who passed
    fills it: the starter's comments stay where they were, above the student's code."""
    answers, inside = [], None
    for line in finished_text.splitlines(keepends=True):
        if line.strip() == BEGIN:
            inside = []
        elif line.strip() == SWAP:
            answers.append(inside)
            inside = None
        elif inside is not None:
            inside.append(line)
    out, gap = [], 0
    skipping = False
    for line in starter_text.splitlines(keepends=True):
        if line.strip() == BEGIN:
            out.append(line)
            skipping = True
        elif line.strip() == END:
            indent = line[:len(line) - len(line.lstrip())]
            out += ([indent + note + "\n"] if note else []) + answers[gap] + [line]
            gap += 1
            skipping = False
        elif skipping and line.strip().startswith("#"):
            out.append(line)   # the starter's comment, left in place
        elif not skipping:
            out.append(line)
    return "".join(out)


def test_next_drops_the_starters_comments_of_a_gap_the_student_filled_and_keeps_their_own():
    one, two = course.find("01"), course.find("02")
    mine = filled(lesson_text("01", "finished.py"), lesson_text("01", "starter.py"),
                  note="# my note: joined with nothing between")
    assert "A first draft, the one-liner everybody writes first" in mine

    carried = carry_forward(mine, two, one).text

    assert "A first draft, the one-liner everybody writes first" not in carried, carried
    assert "# my note: joined with nothing between" in carried, "the student's comment stays"
    answer = [line for line in lesson_text("01", "finished.py").splitlines()
              if "for block in" in line or "block[\"type\"] == \"text\"" in line]
    assert answer and all(line in carried for line in answer), answer


def test_a_gap_left_as_the_starter_gave_it_keeps_its_comments():
    one, two = course.find("01"), course.find("02")
    starter = lesson_text("01", "starter.py")

    carried = carry_forward(starter, two, one).text

    assert "A first draft, the one-liner everybody writes first" in carried


# -- specs a student had to guess, made exact -----------------------------------------------------

def harness_of(lab):
    from conftest import load_harness
    return load_harness(lessons.lesson(lab).folder / "finished.py", name=f"finished_{lab}")


def test_lesson_11_says_an_empty_assistant_message_is_a_placeholder_and_its_repair_drops_it():
    import lab as kit

    text = " ".join(lesson_text("11", "walkthrough.py").replace("#", " ").split())
    summary = " ".join(lesson_text("11", "starter.py").replace("#", " ").split())
    call = kit.call("read", {"path": "a"}, id="c1")
    record = [kit.user("Go."), kit.reply(call), kit.fail("the stream broke"),
              kit.tool_result(call, "A"), kit.say("Done.")]

    view = harness_of("11").repair_history(record).messages

    assert "Empty content is such a placeholder: `content: []`" in text
    assert "whatever its `stop_reason`" in text
    assert "empty content ([] or empty text blocks) is such a placeholder" in summary
    assert kit.shape(view) == "U A[c1] R(c1) A", kit.shape(view)


def test_lesson_11_says_how_two_calls_of_one_span_with_one_id_pair_with_their_results():
    import lab as kit

    text = " ".join(lesson_text("11", "walkthrough.py").replace("#", " ").split())
    summary = " ".join(lesson_text("11", "starter.py").replace("#", " ").split())
    first, second = (kit.call("read", {"path": p}, id="x") for p in "ab")
    record = [kit.user("Go."), kit.reply(first, second), kit.tool_result(first, "A"),
              kit.tool_result(second, "B"), kit.say("Done.")]

    view = harness_of("11").repair_history(record).messages

    assert "they pair in the order they were recorded" in text
    assert "with one id take that id's results in the order they were recorded" in summary
    assert [(m["tool_call_id"], m["content"]) for m in view if m["role"] == "toolResult"] == \
        [("x", "A"), ("x_1", "B")]


def test_lesson_07_says_where_the_prompts_message_end_goes_and_the_finished_loop_puts_it_there():
    import lab as kit

    text = " ".join(lesson_text("07", "walkthrough.py").replace("#", " ").split())
    summary = " ".join(lesson_text("07", "starter.py").replace("#", " ").split())
    harness = harness_of("07")
    model = kit.ScriptedModel([kit.say("Hello.")])

    events = list(harness.run_agent(model, harness.SYSTEM, [], {}, "Hi."))

    assert "The prompt's `message_end` belongs to the first turn: right after its `turn_start`" \
        in text
    assert "The prompt's message_end is the first turn's first message_end" in summary
    assert [e["type"] for e in events[:3]] == ["agent_start", "turn_start", "message_end"]
    assert events[2]["message"]["role"] == "user"


# -- rough edges ----------------------------------------------------------------------------------

ONE_REQUEST = '''

def run_agent(model, system, messages, tools, prompt):
    start = len(messages)
    messages.append(user_message(prompt))
    messages.append(model.complete(system, messages, tool_specs(tools)))
    return messages[start:]
'''


def test_a_report_counts_one_request_as_one_request_not_one_requests(tmp_path):
    from lab.course.gap_markers import solve

    harness = tmp_path / "harness.py"
    harness.write_text(solve(lesson_text("03", "finished.py")) + ONE_REQUEST)

    ran = subprocess.run([sys.executable, str(lessons.PROJECT / "lab" / "lab_check.py"),
                          "--harness", str(harness), "--lesson", "03", "--verbose",
                          "-k", "calls_decide or ends_at_the_first_reply"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=600)

    said = " ".join(ran.stdout.split())
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert "1 request" in said and "1 requests" not in said, ran.stdout


def test_an_empty_transcript_is_written_as_no_messages_never_as_nothing():
    import lab as kit
    from lab.testkit.verdict import explain

    said = [explain("rule", expected=[], got=[kit.user("hi")]),
            explain("rule", expected=[kit.user("hi")], got=[]),
            explain("rule", expected="", got="x")]

    for text in said:
        assert not re.search(r"(expected|got): *$", text, re.MULTILINE), text
    assert "expected: (no messages)" in said[0] and "got:      (no messages)" in said[1]
