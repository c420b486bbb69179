"""lab_check as a student meets it: the lesson's own command works word for word, a grading of
no test is never a pass, a near miss shows where it misses, a failing property shows its
counterexample, the starter's report fits a screen and ends with what to do next, and
lab-check finds the harness and its lesson from anywhere in the project, re-grades on every
save, gives hints that are not the answer, and puts the starter back without losing a file."""

import queue
import re
import signal
import subprocess
import sys
import threading
import tomllib

import pytest

from conftest import LESSON_10, PROJECT
import lab
from lab.course import lesson_files as lessons, harness_file as project, starter
from lab.course import gap_markers
from lab.cli import reset
from lab.kit.display import LEGEND
from lab.testkit import difference
from lab.grader import hints
from lab.course import manifest
from lab.cli import watch
from lab.grader.results import Grade
from lab.sandbox.outcome import TestResult
from lab.testkit.verdict import explain, objections

LESSON = lessons.lesson(10)
SEED_COMMAND = ["--harness", "harness.py", "--lesson", "10", "tests.py"]  # the lesson prints it
SCREEN = 40          # lines the starter's report must fit in
ROUND_ENDS = "for the next save..."  # the last line of each --watch round
HANG = 120           # seconds after which a --watch run is taken to hang (not a speed check)


def lab_check(*args, cwd=PROJECT, timeout=300):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=cwd, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def variant(tmp_path, text, name="harness.py"):
    """A folder outside the project holding a harness.py with `text`."""
    (tmp_path / name).write_text(text)
    return tmp_path


def finished_with(old, new):
    text = LESSON.finished.read_text()
    assert old in text, f"finished.py no longer holds {old!r}"
    return text.replace(old, new)


def score_line(report):
    found = re.search(r"^score: .* points, (\d+) passed, (\d+) failed$", report, re.MULTILINE)
    assert found, f"no score line in the report:\n{report}"
    return int(found[1]), int(found[2])


@pytest.fixture(scope="module")
def seed_run():
    """The lesson's own command, word for word, from the project's folder, on the starter."""
    return lab_check(*SEED_COMMAND)


# -- 1. never a silent pass ------------------------------------------------------------------

def test_the_seed_lessons_command_grades_every_test_of_the_starter_and_exits_1(seed_run):
    run = seed_run

    assert run.returncode == 1, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    passed, failed = score_line(run.stdout)
    assert passed + failed == len(manifest.graded_tests(LESSON.tests)), run.stdout


@pytest.mark.parametrize("args, phrase", [
    (["no_such_tests.py"], "there is no test file no_such_tests.py"),
    (["README.md"], "is not a Python file of tests"),
    (["-k", "nosuchthing"], "-k 'nosuchthing' matches none of the 22 tests"),
], ids=["a missing test file", "not a test file", "a -k matching nothing"])
def test_a_run_that_can_grade_no_test_exits_2_with_a_sentence(args, phrase):
    run = lab_check("--harness", str(LESSON.finished), "--lesson", "10", *args)

    assert run.returncode == 2, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert phrase in run.stdout + run.stderr, run.stdout + run.stderr


def test_a_test_file_with_no_test_in_it_is_nothing_graded_not_a_pass(tmp_path):
    (tmp_path / "harness.py").write_text(LESSON.finished.read_text())
    (tmp_path / "my_tests.py").write_text('"""No tests here yet."""\n')

    run = lab_check("--harness", "harness.py", "--lesson", "10", "my_tests.py", cwd=tmp_path)

    assert run.returncode == 2, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert "holds no graded test" in run.stdout and "nothing was graded" in run.stdout, run.stdout


def test_a_grade_of_no_test_never_exits_0():
    empty = Grade(lesson=10, title="t", harness="harness.py")

    assert empty.exit_code == 2, empty.exit_code


# -- 2. show the difference ------------------------------------------------------------------

def test_interrupted_one_character_short_shows_where_it_differs(tmp_path):
    folder = variant(tmp_path, finished_with('check before repeating it.")',
                                             'check before repeating it")'))

    run = lab_check("--harness", "harness.py", "--lesson", "10", "-k", "missing_result",
                    cwd=folder)

    assert run.returncode == 1, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    lines = run.stdout.splitlines()
    expected = next(i for i, line in enumerate(lines) if line.endswith('before repeating it."  [is_error]'))
    assert lines[expected + 1].endswith('before repeating it"  [is_error]'), run.stdout
    caret = lines[expected + 2]
    assert lines[expected][caret.index("^")] == "." and lines[expected + 1][caret.index("^")] == '"', \
        f"the caret should stand under the first difference:\n{run.stdout}"


def test_a_difference_far_into_a_long_text_is_kept_in_the_window_on_both_lines():
    same = "x" * 300

    shown_a, shown_b, column = difference.window(same + "abc" + same, same + "abd" + same, 302)

    assert shown_a[column] == "c" and shown_b[column] == "d", (shown_a, shown_b, column)
    assert shown_a.startswith("…") and shown_a.endswith("…"), shown_a


def test_transcripts_of_different_shapes_mark_the_first_message_that_differs():
    said = explain("rule", expected="U A[c1] R(c1) U", got="U A[c1] U")

    lines = said.splitlines()
    caret = lines[-1]
    assert caret.strip() == "^ first difference: messages[2]", said
    assert lines[-2][caret.index("^"):].startswith("U"), said


def test_two_results_that_print_alike_are_written_as_json_where_they_differ():
    call = lab.call("bash", {"command": "pytest"}, id="c1")
    wanted = [lab.user("Run it."), lab.reply(call), lab.tool_result(call, "ok")]
    got = wanted[:2] + [dict(wanted[2], tool_name="read")]

    lines = explain("rule", expected=wanted, got=got).splitlines()

    assert "the same shape, but messages[2] differs; in full:" in lines[2], lines
    column = lines[-1].index("^")
    assert lines[-3][column:].startswith('bash"') and lines[-2][column:].startswith('read"'), lines


def test_every_objection_is_shown_up_to_three_then_counted():
    problems = [f"messages[{i}]: toolCall c{i} has no toolResult" for i in range(1, 6)]

    said = objections(problems)

    assert said.splitlines() == ["the strict provider has 5 objections:",
                                 *[f"  {p}" for p in problems[:3]], "  and 2 more"], said


def test_a_refused_request_shows_every_objection_the_validator_has():
    run = lab_check(*SEED_COMMAND, "-k", "walking_away_after_any_event", "--verbose")

    assert "the strict provider has 2 objections:" in run.stdout, run.stdout
    unanswered = re.findall(r"messages\[1\]: toolCall (\S+) has no toolResult", run.stdout)
    assert len(set(unanswered)) == 2, run.stdout  # both calls of the reply, whatever their ids


# -- 3. counterexamples, not timeouts --------------------------------------------------------

def test_a_failing_property_shows_its_smallest_counterexample_within_three_seconds(tmp_path):
    folder = variant(tmp_path, LESSON.variant(LESSON.folder / "wrong" / "last_duplicate_wins.py"))

    run = lab_check("--harness", "harness.py", "--lesson", "10", "--time-limit", "3",
                    "-k", "first_result_recorded", cwd=folder)

    assert run.returncode == 1, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert "timed out" not in run.stdout, run.stdout
    assert "(the smallest failing case hypothesis found)" in run.stdout, run.stdout
    given = re.search(r"given: +(.+)", run.stdout)
    assert given and given[1].count("R(") >= 2, f"two results for one call, at least:\n{run.stdout}"


# -- 5 and 6. one notation, short reports that end with the next step ------------------------

def test_the_starters_report_fits_a_screen_names_both_gaps_and_where_to_start(seed_run):
    report = seed_run.stdout.rstrip("\n").splitlines()
    gaps = manifest.read(LESSON)["gaps"]

    assert len(report) <= SCREEN, f"{len(report)} lines:\n{seed_run.stdout}"
    for gap in gaps:
        assert any(line.startswith(f"✗ the {gap} gap") for line in report), seed_run.stdout
    for name in manifest.graded_tests(LESSON.tests):
        title = name.removeprefix("test_").replace("_", " ")
        assert title in " ".join(seed_run.stdout.split()), \
            f"the report should name {title!r}:\n{seed_run.stdout}"
    first = next(iter(gaps))
    closing = " ".join(seed_run.stdout[seed_run.stdout.index("\nnext: "):].split())
    assert closing.startswith(f"next: start with the {first} gap"), closing
    assert hints.guide(LESSON).section(gap=first) in closing, closing


def test_a_failing_report_ends_with_the_legend_the_score_and_the_next_step(seed_run):
    report = seed_run.stdout

    assert LEGEND in report.splitlines(), report
    assert report.index(LEGEND) < report.index("\nscore: ") < report.index("\nnext: "), report


def test_the_readme_explains_the_shape_notation_with_the_reports_legend():
    assert LEGEND in (PROJECT / "README.md").read_text(), \
        "the README's student section should show lab.display.LEGEND word for word"


def test_a_passing_report_says_what_comes_next_then_what_the_lesson_asks_first():
    run = lab_check("--harness", str(LESSON.finished), "--lesson", "10")

    said = run.stdout[run.stdout.index("\nnext: "):]
    assert run.returncode == 0, run.stdout
    assert said.startswith("\nnext: checkpoint B · Transcript doctor II: start it with "), said
    assert hints.guide(LESSON).after.split(".")[0] in said, said


def test_a_passing_selection_has_not_passed_the_lesson_and_says_so():
    run = lab_check("--harness", str(LESSON.finished), "--lesson", "10", "-k", "orphan")

    assert run.returncode == 0, run.stdout
    assert "\nnext: every test graded here passes; grade the whole lab" in run.stdout, run.stdout


def test_the_made_up_test_name_is_gone_and_its_rule_names_what_a_last_duplicate_breaks():
    names = manifest.graded_tests(LESSON.tests)

    assert "test_repair_never_replaces_a_recorded_result_with_a_made_up_one" not in names, names
    assert "test_repair_of_any_wreck_shows_each_call_the_first_result_recorded_for_it" in names


# -- 7. found from anywhere ------------------------------------------------------------------

def test_from_a_lesson_folder_it_finds_the_harness_and_the_lesson_it_declares():
    run = lab_check("-k", "steering", cwd=LESSON_10)

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert run.stdout.startswith("lab_check: lesson 10, The poisoned transcript: ../../harness.py"), \
        run.stdout


def test_outside_a_project_a_missing_harness_says_where_it_was_looked_for(tmp_path):
    run = lab_check("--lesson", "10", cwd=tmp_path)

    assert run.returncode == 2, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert f"looked for it in {tmp_path.resolve()}" in " ".join(run.stdout.split()), run.stdout
    assert "found no project above it" in " ".join(run.stdout.split()), run.stdout


def test_inside_a_project_the_harness_is_looked_for_up_to_the_projects_folder(tmp_path):
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lab").mkdir()
    deep = tmp_path / "lessons" / "10-x"
    deep.mkdir()
    (tmp_path / "harness.py").write_text("# lab: lesson 10\n")

    found = project.find_harness("harness.py", start=deep)

    assert found == tmp_path / "harness.py", found
    assert project.declared_lesson(found) == "10"


def test_the_starter_declares_its_lesson():
    made = gap_markers.make_starter(LESSON.finished.read_text())

    assert (PROJECT / "harness.py").read_text() == made
    assert project.declared_lesson(PROJECT / "harness.py") == "10"


def test_help_shows_the_students_options_before_the_instructors_heading():
    run = lab_check("--help", timeout=60)

    text = run.stdout
    instructors = text.index("for instructors:")
    for option in ("--harness", "--lesson", "-k WORDS", "--watch", "--hint", "--reset"):
        assert text.index(f"  {option}") < instructors, f"{option} should come first:\n{text}"
    for option in ("--batch", "--verify", "--format", "--output", "--jobs", "--where"):
        assert text.index(f"  {option}") > instructors, f"{option} is an instructor's:\n{text}"


# -- 8. --watch, --hint, --reset -------------------------------------------------------------

def test_watch_grades_again_after_a_save_says_what_changed_and_leaves_on_ctrl_c(tmp_path):
    harness = tmp_path / "harness.py"
    harness.write_text(LESSON.finished.read_text())
    watcher = subprocess.Popen(
        [sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--watch", "--lesson", "10",
         "-k", "orphan"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL, text=True,
        # A shell's background job starts with Ctrl-C ignored, and a child inherits that;
        # a student's terminal never does, so the watch gets the default, as it would there.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in watcher.stdout], daemon=True).start()
    try:
        first = read_round(lines)
        harness.write_text(harness.read_text() + "\n\ndef repair_tool_history(messages):\n"
                                                 "    return list(messages)\n")
        second = read_round(lines)
        watcher.send_signal(signal.SIGINT)
        status = watcher.wait(timeout=HANG)
    finally:
        watcher.kill()

    assert "✓ orphan result is dropped without inventing a call" in first, first
    assert "now failing (1): orphan result is dropped without inventing a call" in second, second
    assert status == 0, f"exit {status} after Ctrl-C:\n{watcher.stderr.read()}"


def read_round(lines):
    """Every line up to the end of one --watch round; fails the test if none comes."""
    said = []
    while not said or ROUND_ENDS not in said[-1]:
        try:
            said.append(lines.get(timeout=HANG))
        except queue.Empty:
            pytest.fail("no round of --watch ended:\n" + "".join(said))
    return "".join(said)


def test_watch_names_the_tests_that_turned_since_the_last_run():
    before = Grade(lesson=10, title="t", harness="h.py", tests=[
        TestResult("test_a", "passed"), TestResult("test_b", "failed"), TestResult("test_c", "failed")])
    after = Grade(lesson=10, title="t", harness="h.py", tests=[
        TestResult("test_a", "failed"), TestResult("test_b", "passed"), TestResult("test_c", "failed")])

    assert watch.changes(before, after) == (["b"], ["a"])


def test_hint_gives_up_to_three_numbered_hints_for_the_first_failing_test():
    run = lab_check("--harness", "harness.py", "--lesson", "10", "--hint", "-k", "orphan")

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    wanted = hints.guide(LESSON).hints("test_orphan_result_is_dropped_without_inventing_a_call")
    assert run.stdout.startswith('hints for "orphan result is dropped without inventing a call"')
    for number, hint in enumerate(wanted, 1):
        assert f"  {number}. {hint.split()[0]}" in run.stdout, run.stdout
    assert " ".join(wanted[-1].split()) in " ".join(run.stdout.split()), run.stdout


def test_every_graded_test_has_one_to_three_hints_and_a_section_the_notebook_has():
    guide = hints.guide(LESSON)
    headings = {line.lstrip("# ").strip() for line in
                (LESSON.folder / "walkthrough.py").read_text().splitlines()
                if re.match(r"# #{2,3} ", line)}

    for name in manifest.graded_tests(LESSON.tests):
        assert 1 <= len(guide.hints(name)) <= 3, f"{name}: {guide.hints(name)}"
        assert guide.section(name) in headings, f"{name}: no heading {guide.section(name)!r}"
    for gap in manifest.read(LESSON)["gaps"]:
        assert guide.section(gap=gap) in headings, f"gap {gap}: {guide.section(gap=gap)!r}"


def test_no_hint_holds_a_line_of_the_finished_gaps():
    gap_lines = finished_gap_lines(LESSON.finished.read_text())
    every_hint = tomllib.loads((LESSON.folder / "hints.toml").read_text())

    written = " ".join(hint for meta in every_hint["tests"].values() for hint in meta["hints"])

    assert len(gap_lines) > 20, gap_lines
    leaked = [line for line in gap_lines if line in written]
    assert not leaked, f"hints give away the answer: {leaked}"


def finished_gap_lines(text):
    """The non-blank lines of finished.py's finished code inside its gaps, stripped."""
    inside, found = False, []
    for line in text.splitlines():
        marker = line.strip()
        if marker in (gap_markers.BEGIN, gap_markers.SWAP):
            inside = marker == gap_markers.BEGIN
        elif inside and marker and any(c.isalnum() for c in marker):
            found.append(marker)
    return found


def test_reset_puts_the_starter_back_and_keeps_every_earlier_file(tmp_path):
    harness = tmp_path / "harness.py"
    harness.write_text("my first try\n")

    said = reset.reset(harness, LESSON.starter)
    harness.write_text("my second try\n")
    reset.reset(harness, LESSON.starter)

    assert harness.read_text() == LESSON.starter.read_text()
    assert (tmp_path / ".lab-check" / "backups" / "harness.py.bak-1").read_text() == "my first try\n"
    assert (tmp_path / ".lab-check" / "backups" / "harness.py.bak-2").read_text() == "my second try\n"
    assert "harness.py.bak-1" in said, said


def test_reset_from_the_command_line_leaves_a_starter_alone(tmp_path):
    (tmp_path / "harness.py").write_text(LESSON.starter.read_text())

    run = lab_check("--reset", "--lesson", "10", cwd=tmp_path, timeout=60)

    assert run.returncode == 0 and "is the starter already" in run.stdout, run.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["harness.py"]


def test_a_grade_line_of_a_report_made_from_outcomes_counts_them():
    grade = Grade(lesson=10, title="t", harness="h.py", tests=[
        TestResult("test_a", "passed"), TestResult("test_b", "failed", "wrong", gap="repair")])

    assert score_line(grade_text(grade)) == (1, 1)


def grade_text(grade):
    from lab.grader.report import text_report
    return text_report(grade, LESSON)


# -- 9. the case, not the noise ---------------------------------------------------------------

LONG_ID = re.compile(r"(?:toolu_(?:01)?|call_|functions\.run:)[A-Za-z0-9]{12}")


def wrong_answer(tmp_path, name, lesson=LESSON):
    """A folder holding the harness a wrong/ answer of `lesson` stands for."""
    return variant(tmp_path, lesson.variant(lesson.folder / "wrong" / f"{name}.py"))


def with_appended(tmp_path, code):
    """A folder holding lesson 10's finished harness with `code` appended (it wins)."""
    return variant(tmp_path, LESSON.finished.read_text() + "\n\n" + code)


def failure_of(report, title):
    """The lines of the report under the failing test `title`, up to the next test or gap,
    stripped."""
    lines = report.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == f"✗ {title}")
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].lstrip().startswith(("✗ ", "✓ ")) or not lines[i].strip()), len(lines))
    return [line.strip() for line in lines[start + 1:end]]


def labelled(lines, label):
    """The text after `label:` on the first of `lines` that has it."""
    return next(line.split(f"{label}:", 1)[1].strip() for line in lines
                if line.lstrip().startswith(f"{label}:"))


def test_a_cards_given_line_folds_the_lead_in_and_names_ids_as_the_card_does(tmp_path):
    folder = wrong_answer(tmp_path, "delete_the_dangling_call")

    run = lab_check("--harness", "harness.py", "--lesson", "10", "-k", "missing_result", cwd=folder)

    said = failure_of(run.stdout, "missing result gets interrupted right after its call")
    given = labelled(said, "given")
    lead_in = re.fullmatch(r"\(lead-in: (\d+) messages\) (.+)", given)
    assert lead_in and int(lead_in[1]) in (4, 8), given
    assert lead_in[2] == "U A[c1,c2] R(c1) U", f"the card's own shape, its own ids:\n{run.stdout}"
    legend = labelled(said, "ids")
    assert re.fullmatch(rf"c1 {LONG_ID.pattern} · c2 {LONG_ID.pattern}", legend), legend
    assert not LONG_ID.search("\n".join(line for line in said if "ids:" not in line)), run.stdout


def test_ids_a_session_made_up_are_short_and_the_same_on_every_line(tmp_path):
    folder = wrong_answer(tmp_path, "repair_the_record")

    run = lab_check("--harness", "harness.py", "--lesson", "10", "-k", "walk_away_at_tool", cwd=folder)

    said = failure_of(run.stdout, "walk away at tool start leaves a session that still answers")
    assert labelled(said, "given") == "U A[c1]", run.stdout
    assert labelled(said, "expected") == "U A[c1] U A U A", run.stdout
    assert re.fullmatch(r"c1 toolu_[A-Za-z0-9]{12}", labelled(said, "ids")), run.stdout


def test_the_orphan_cards_count_is_the_count_of_messages_given(tmp_path):
    folder = wrong_answer(tmp_path, "copy_the_messages")

    run = lab_check("--harness", "harness.py", "--lesson", "10", "-k", "orphan", cwd=folder)

    said = failure_of(run.stdout, "orphan result is dropped without inventing a call")
    lead = int(re.match(r"\(lead-in: (\d+) messages\)", labelled(said, "given"))[1])
    kept = int(re.search(r"the (\d+) messages kept", labelled(said, "expected"))[1])
    assert kept == lead + 3, f"the lead-in and the card's three kept, {lead + 3}:\n{run.stdout}"
    assert labelled(said, "got") == f"copies: all {lead + 3} messages", run.stdout


def test_the_caret_points_at_the_made_up_message_not_the_recorded_one_after_it(tmp_path):
    folder = wrong_answer(tmp_path, "orphan_becomes_user_message")

    run = lab_check("--harness", "harness.py", "--lesson", "10", "-k", "orphan", cwd=folder)

    said = failure_of(run.stdout, "orphan result is dropped without inventing a call")
    lead = int(re.match(r"\(lead-in: (\d+) messages\)", labelled(said, "given"))[1])
    caret = next(line for line in said if "^ first difference: messages[" in line)
    assert f"messages[{lead + 2}]" in caret, f"the U made from the orphan is at {lead + 2}:\n{run.stdout}"
    expected, got = [line for line in said if line.lstrip().startswith(("expected:", "got:"))][2:4]
    assert '"Well?"' in expected and "def main()" in got, run.stdout  # the two Us, in full


def test_an_input_changed_in_place_is_reported_first_saying_what_changed(tmp_path):
    folder = with_appended(tmp_path, (
        "_repair = repair_tool_history\n\n\n"
        "def repair_tool_history(messages):\n"
        "    view = _repair(messages)\n"
        "    messages[:] = view  # the repair written into the record\n"
        "    return list(view)\n"))

    run = lab_check("--harness", "harness.py", "--lesson", "10", "-k", "repair_leaves_its_input",
                    cwd=folder)

    said = failure_of(run.stdout, "repair leaves its input untouched")
    assert said[0].startswith("pure: the record you are given is not touched"), run.stdout
    assert "(and first: every message" not in said[0], f"the mutation comes first:\n{run.stdout}"
    changed = said[[i for i, line in enumerate(said) if line.endswith("it changed:")][0] + 1]
    assert re.fullmatch(r"R\(c2\) inserted before given\[\d+\]", changed.strip()), run.stdout
    assert "replaced" not in run.stdout, run.stdout


def test_a_view_that_rewrites_its_record_says_which_message_went_and_which_came(tmp_path):
    folder = wrong_answer(tmp_path, "repair_the_record")

    run = lab_check("--harness", "harness.py", "--lesson", "10", "-k", "view_drops", cwd=folder)

    said = failure_of(run.stdout, "view drops empty failures then repairs and leaves the record alone")
    changes = [line.strip() for line in said[said.index(next(l for l in said if l.endswith("it changed:"))) + 1:]
               if not line.lstrip().startswith("ids:")]
    assert re.fullmatch(r"given\[\d+\] A\(error\) removed", changes[0]), run.stdout
    assert re.fullmatch(r"R\(c1\) inserted before given\[\d+\]", changes[1]), run.stdout


def test_an_exception_of_the_students_code_is_shown_with_the_input_that_raised_it(tmp_path):
    folder = with_appended(tmp_path, (
        "_repair = repair_tool_history\n\n\n"
        "def repair_tool_history(messages):\n"
        "    if len(messages[-1]['content']) > 30:\n"
        "        raise IndexError('list index out of range')\n"
        "    return _repair(messages)\n"))

    run = lab_check("--harness", "harness.py", "--lesson", "10", "-k", "missing_result", cwd=folder)

    said = failure_of(run.stdout, "missing result gets interrupted right after its call")
    assert said[0].startswith("IndexError: list index out of range, raised while running"), said
    assert re.fullmatch(r"\(lead-in: \d+ messages\) U A\[c1,c2\] R\(c1\) U",
                        labelled(said, "given")), run.stdout


def test_k_with_words_of_a_title_runs_the_test_the_title_names():
    eleven = lessons.lesson(11)

    run = lab_check("--harness", str(eleven.finished), "--lesson", "11", "-k", "inside any write")

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert score_line(run.stdout) == (1, 0), run.stdout
    assert "✓ power cut inside any write leaves a session that resumes" in run.stdout, run.stdout


def test_release_builds_an_edition_without_a_word_from_the_kernel(tmp_path):
    run = lab_check("--release", "10", "--output", str(tmp_path / "edition"))

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert run.stderr == "", f"--release should print only its own line:\n{run.stderr}"


@pytest.mark.parametrize("number, words", [(10, "the same two gaps"), (11, "the same five gaps"),
                                           (16, "the same gap")])
def test_an_editions_readme_counts_the_gaps_its_manifest_lists(tmp_path, number, words):
    from lab.release import edition

    lesson = lessons.lesson(number)
    assert len(manifest.read(lesson)["gaps"]) == {"two": 2, "five": 5}.get(words.split()[2], 1)

    built = edition.build(lesson, tmp_path / "edition", with_notebook=False)

    assert words in " ".join((built / "README.md").read_text().split())


def test_a_trim_that_raises_at_keep_0_is_shown_with_the_call_that_raised(tmp_path):
    sixteen = lessons.lesson(16)
    folder = variant(tmp_path, sixteen.finished.read_text() + (
        "\n\n_trim = safe_trim\n\n\n"
        "def safe_trim(messages, keep):\n"
        "    if keep == 0:\n"
        "        return messages[len(messages) - keep:][0:1] + [messages[len(messages)]]\n"
        "    return _trim(messages, keep)\n"))

    run = lab_check("--harness", "harness.py", "--lesson", "16", "-k", "safe_trim_is_legal",
                    cwd=folder)

    said = failure_of(run.stdout, "safe trim is legal at every keep")
    assert said[0].startswith("IndexError: list index out of range, raised while"), run.stdout
    assert re.fullmatch(r"safe_trim\((U|A\S*|R\(\S+\))( (U|A\S*|R\(\S+\)))*, 0\)",
                        labelled(said, "given")), f"the call, its view as a shape:\n{run.stdout}"


def test_one_exception_on_every_input_is_one_reason_shown_with_the_first_input(tmp_path):
    folder = with_appended(tmp_path, "def repair_tool_history(messages):\n"
                                     "    raise ValueError('not yet')\n")

    run = lab_check("--harness", "harness.py", "--lesson", "10", cwd=folder)

    gap = run.stdout[run.stdout.index("✗ the repair gap"):run.stdout.index("✗ the view gap")]
    repair = [name for name, meta in manifest.read(lessons.lesson(10))["tests"].items()
              if meta["gap"] == "repair"]
    assert f"{len(repair)} of {len(repair)} tests fail" in gap and "each for a reason of its own" not in gap, run.stdout
    assert gap.count("ValueError: not yet, raised while running repair_tool_history") == 1, gap
    assert re.search(r"given: +\(lead-in: \d+ messages\) U A\[c1,c2\] R\(c1\) U", gap), gap


def test_a_message_edited_in_place_is_named_with_the_field_that_changed(tmp_path):
    folder = with_appended(tmp_path, (
        "_repair = repair_tool_history\n\n\n"
        "def repair_tool_history(messages):\n"
        "    view = _repair(messages)\n"
        "    messages[-1]['content'] = messages[-1]['content'].upper()  # the very object, edited\n"
        "    return view\n"))

    run = lab_check("--harness", "harness.py", "--lesson", "10", "-k", "repair_leaves_its_input",
                    cwd=folder)

    said = failure_of(run.stdout, "repair leaves its input untouched")
    changed = said[[i for i, line in enumerate(said) if line.endswith("it changed:")][0] + 1]
    assert re.fullmatch(r"given\[\d+\] U edited in place: its content", changed), run.stdout
