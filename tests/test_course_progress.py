"""The course, as a student moves through it: `lab-check --course` (the map, and where they
stand, from the marks lab-check keeps when it grades), the `next:` line of a passing report,
and `lab-check --next` (the next lab started from their own passing file, their file kept).

Every test runs the real lab-check, as a student would, in a scratch copy of the project, on
real files: the lessons' own starters and finished harnesses, copied in as the student's."""

import json
import os
import re
import subprocess
import sys
import tomllib

import pytest

from conftest import PROJECT
from course_copy import scratch_course
from lab.course.gap_markers import BEGIN, END, SWAP

ORDER = ["01", "02", "03", "04", "05", "A", "06", "07", "08", "09", "10", "B", "11", "12", "13",
         "14", "15", "16"]
COURSE = tomllib.loads((PROJECT / "lessons" / "course.toml").read_text())["lab"]
# a lab is written once its folder holds its graded tests (10, B, 11 and 16 at least)
WRITTEN = {lab["id"] for lab in COURSE
           if lab["folder"] and (PROJECT / "lessons" / lab["folder"] / "tests.py").is_file()}
FOLDER_OF = {lab["id"]: lab["folder"] for lab in COURSE}

RECORD = os.path.join(".lab-check", "progress.json")


@pytest.fixture
def course(tmp_path):
    """A scratch copy of the project, as a student has it: harness.py is lesson 10's starter,
    doctor.py checkpoint B's."""
    return scratch_course(tmp_path)


def lab_check(copy, *args):
    return subprocess.run([sys.executable, str(copy / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=copy, timeout=600)


def lesson_file(copy, lab, name):
    return (copy / "lessons" / FOLDER_OF[lab] / name).read_text()


def map_rows(stdout):
    """{lab id: the rest of its line} for the lab lines of a course map."""
    rows = {}
    for line in stdout.splitlines():
        found = re.match(r"^  (\w{1,2}) +(.*)$", line)
        if found:
            rows[found[1]] = found[2]
    return rows


def last_next_line(stdout):
    return next(line for line in reversed(stdout.splitlines()) if line.startswith("next: "))


# -- the course map -------------------------------------------------------------------------

def test_course_lists_every_lab_in_order_and_nothing_started_before_any_grading(course):
    run = lab_check(course, "--course")

    rows = map_rows(run.stdout)
    assert run.returncode == 0, run.stdout + run.stderr
    assert list(rows) == ORDER, run.stdout
    assert all(rows[lab].endswith("not written yet") for lab in ORDER if lab not in WRITTEN), \
        run.stdout
    assert "builds on 09" in rows["10"] and "builds on 10" in rows["B"], run.stdout
    assert "builds on 10" in rows["11"] and "builds on 15" in rows["16"], run.stdout
    assert "The poisoned transcript" in rows["10"] and "Transcript doctor II" in rows["B"]
    assert {"10", "B", "11", "16"} <= WRITTEN
    assert [lab for lab in ORDER if "not started" in rows[lab]] == \
        [lab for lab in ORDER if lab in WRITTEN], run.stdout
    assert rows["10"].endswith("<- you are here"), run.stdout
    assert not (course / RECORD).exists(), "--course only reads the record"


def test_course_shows_the_last_score_then_passed_as_the_student_grades(course):
    failing = lab_check(course)
    during = lab_check(course, "--course")
    (course / "harness.py").write_text(lesson_file(course, "10", "finished.py"))
    passing = lab_check(course)
    after = lab_check(course, "--course")

    assert failing.returncode == 1 and passing.returncode == 0, failing.stdout + passing.stdout
    assert "in progress: 0 of 29 points last time" in map_rows(during.stdout)["10"], during.stdout
    assert "passed (29 of 29 points)" in map_rows(after.stdout)["10"], after.stdout
    assert "not started" in map_rows(after.stdout)["B"], after.stdout
    assert last_next_line(after.stdout) == \
        "next: checkpoint B · Transcript doctor II: start it with lab-check --next", after.stdout
    record = json.loads((course / RECORD).read_text())
    assert list(record["labs"]) == ["10"] and record["labs"]["10"]["passed"] is True, record


@pytest.mark.parametrize("how", [["-k", "orphan"], ["--format", "json"],
                                 ["--output", "result.json"], ["--format", "junit"]],
                         ids=["a -k selection", "json", "a result file", "junit"])
def test_no_mark_is_kept_for_a_part_of_the_lab_nor_for_a_format_a_program_reads(course, how):
    (course / "harness.py").write_text(lesson_file(course, "10", "finished.py"))

    run = lab_check(course, *how)

    assert run.returncode == 0, run.stdout + run.stderr
    assert not (course / ".lab-check").exists(), f"lab-check {' '.join(how)} kept a mark"


def test_a_batch_keeps_no_mark_in_any_submission(course, tmp_path):
    submission = tmp_path / "class" / "ada"
    submission.mkdir(parents=True)
    (submission / "harness.py").write_text(lesson_file(course, "10", "finished.py"))

    run = lab_check(course, "--lesson", "10", "--batch", str(submission.parent),
                    "--output", str(tmp_path / "results"))

    assert run.returncode in (0, 2), run.stdout + run.stderr  # 2: no sandbox on this machine
    assert not (submission / ".lab-check").exists() and not (course / ".lab-check").exists()


# -- a record that is not lab-check's -------------------------------------------------------

def _deep(record_file):
    record_file.write_text("[" * 30_000 + "]" * 30_000)  # deep, yet under the size a record may be


def _huge(record_file):
    record_file.write_text(json.dumps({"version": 1, "labs": {}, "pad": "x" * 200_000}))


def _pipe(record_file):
    os.mkfifo(record_file)


def _link(record_file):
    os.symlink("/dev/zero", record_file)


def _shape(record_file):
    record_file.write_text(json.dumps({"version": 1, "labs": {"10": {"passed": "yes"}}}))


def _score(record_file):
    mark = {"file": "harness.py", "passed": True, "graded": True, "score": True,
            "max_score": 27, "failed": 0, "sha256": "", "at": ""}
    record_file.write_text(json.dumps({"version": 1, "labs": {"10": mark}}))


def _escape(record_file):
    mark = {"file": "harness.py", "passed": False, "graded": True, "score": 1,
            "max_score": 27, "failed": 0, "sha256": "\x1b]0;pwned\x07", "at": ""}
    record_file.write_text(json.dumps({"version": 1, "labs": {"10": mark}}))


HOSTILE = {"not JSON": lambda f: f.write_bytes(b"\xff\xfe{not json"), "nested deep": _deep,
           "too big": _huge, "a pipe": _pipe, "a link to /dev/zero": _link,
           "a mark of the wrong shape": _shape, "a score that is true": _score,
           "a terminal escape": _escape, "a list": lambda f: f.write_text("[1, 2]")}


@pytest.mark.parametrize("spoil", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_record_lab_check_did_not_write_is_set_aside_in_one_line(course, spoil):
    (course / ".lab-check").mkdir()
    spoil(course / RECORD)

    run = lab_check(course, "--course")

    assert run.returncode == 0, run.stdout + run.stderr
    assert "Traceback" not in run.stderr and len(run.stderr.splitlines()) == 1, run.stderr
    assert "is not a progress record lab-check wrote" in run.stderr, run.stderr
    assert "not started" in map_rows(run.stdout)["10"], run.stdout
    assert "\x1b" not in run.stdout + run.stderr


def test_the_next_grading_replaces_a_spoilt_record_with_a_true_one(course):
    (course / ".lab-check").mkdir()
    (course / RECORD).write_text("{ half a record")

    graded = lab_check(course)
    after = lab_check(course, "--course")

    assert graded.returncode == 1 and "Traceback" not in graded.stderr, graded.stderr
    assert "is not a progress record lab-check wrote" in graded.stderr, graded.stderr
    assert "a new one, holding this grading, takes its place" in graded.stderr, graded.stderr
    assert after.stderr == "", after.stderr
    assert "in progress: 0 of 29 points last time" in map_rows(after.stdout)["10"], after.stdout


def test_a_record_folder_that_is_a_file_costs_the_mark_not_the_grading(course):
    (course / ".lab-check").write_text("not a folder")

    run = lab_check(course)

    assert run.returncode == 1 and "score: 0 of 29 points" in run.stdout, run.stdout
    assert "could not keep this grading" in run.stderr and "Traceback" not in run.stderr, \
        run.stderr


# -- what a passing report says next --------------------------------------------------------

NEXT = {"10": "next: checkpoint B · Transcript doctor II: start it with lab-check --next",
        "B": "next: lesson 11 · The power cable: start it with lab-check --next --harness "
             "doctor.py",
        "11": "next: lesson 12 · The wrong refusal: start it with lab-check --next",
        "16": "next: that was lesson 16 · The adapter, the last lab of the course"}


@pytest.mark.parametrize("lab", NEXT)
def test_a_passing_report_names_the_next_lab_of_the_course_and_how_to_start_it(course, lab):
    student = "doctor.py" if lab == "B" else "harness.py"
    (course / student).write_text(lesson_file(course, lab, "finished.py"))

    run = lab_check(course, "--harness", student, "--lesson", lab)

    assert run.returncode == 0, run.stdout + run.stderr
    said = run.stdout[run.stdout.index("\nnext: ") + 1:]
    assert said.splitlines()[0] == NEXT[lab], run.stdout  # the command is never wrapped
    assert "Every test passes" in said, said
    assert "go on to lesson" not in said, "only the course file names the next lab"


def test_no_lessons_own_words_for_after_the_pass_name_a_lab_that_comes_after_it():
    order = COURSE
    named = []

    for at, lab in enumerate(order):
        hints = PROJECT / "lessons" / lab["folder"] / "hints.toml" if lab["folder"] else None
        if hints is None or not hints.is_file():
            continue
        after = tomllib.loads(hints.read_text()).get("passed", {}).get("next", "").lower()
        later = [("checkpoint " if later["id"].isalpha() else "lesson ") + later["id"].lower()
                 for later in order[at + 1:]]
        named += [f"{lab['id']} names {word}" for word in later if word in after]

    assert named == [], f"only the course file says what comes next: {named}"


@pytest.mark.parametrize("unwritten, lab, following", [
    ("11", "B", "lesson 11 · The power cable"),
    ("03", "02", "lesson 03 · Until it stops asking")], ids=["after B", "after 02"])
def test_a_passing_report_says_when_the_lab_that_follows_is_not_written_yet(course, unwritten,
                                                                             lab, following):
    """In the copy, the course file is made to say that lab `unwritten` is not written yet.
    Lesson 12 builds on 11, and lesson 10 on 09, but neither starts from the lab just passed,
    so neither is the next step."""
    toml = course / "lessons" / "course.toml"
    toml.write_text(toml.read_text().replace(f'folder = "{FOLDER_OF[unwritten]}"', 'folder = ""'))
    student = "doctor.py" if lab == "B" else "harness.py"
    (course / student).write_text(lesson_file(course, lab, "finished.py"))

    run = lab_check(course, "--harness", student, "--lesson", lab)

    said = " ".join(run.stdout[run.stdout.index("\nnext: ") + 1:].split())
    assert run.returncode == 0, run.stdout + run.stderr
    assert said.startswith(f"next: {following} is not written yet; lab-check --course shows the "
                           "whole course and where you are in it"), run.stdout


def test_a_passing_selection_says_to_grade_the_whole_lab_before_moving_on(course):
    (course / "harness.py").write_text(lesson_file(course, "10", "finished.py"))

    run = lab_check(course, "-k", "orphan")

    assert run.returncode == 0, run.stdout
    assert last_next_line(run.stdout).startswith("next: every test graded here passes; grade "
                                                  "the whole lab"), run.stdout


# -- --next ---------------------------------------------------------------------------------

def test_next_refuses_a_file_that_does_not_pass_and_changes_nothing(course):
    before = {p.name: p.read_bytes() for p in course.iterdir() if p.is_file()}

    run = lab_check(course, "--next")

    assert run.returncode == 1, run.stdout + run.stderr
    assert "harness.py does not pass lesson 10 · The poisoned transcript yet" in run.stderr
    assert "lab-check --next again once every test passes" in run.stderr, run.stderr
    assert {p.name: p.read_bytes() for p in course.iterdir() if p.is_file()} == before


def test_next_from_a_passing_lesson_10_starts_checkpoint_b_beside_the_harness(course):
    mine = lesson_file(course, "10", "finished.py") + "\n\ndef my_own_helper():\n    return 1\n"
    (course / "harness.py").write_text(mine)
    (course / "doctor.py").unlink()

    run = lab_check(course, "--next")

    assert run.returncode == 0, run.stdout + run.stderr
    assert (course / "harness.py").read_text() == mine, "the harness stays as it is"
    assert (course / "doctor.py").read_text() == lesson_file(course, "B", "starter.py")
    assert "checkpoint B · Transcript doctor II starts in doctor.py" in run.stdout, run.stdout
    assert "\nnext: lab-check --harness doctor.py grades it." in run.stdout, run.stdout
    said = " ".join(run.stdout.split())
    gaps = list(tomllib.loads(lesson_file(course, "B", "manifest.toml"))["gaps"])
    at = [said.find(f" {gap} (", said.index("in this order:")) for gap in gaps]
    assert -1 not in at and at == sorted(at), f"B's gaps {gaps} in the manifest's order:\n{said}"


def test_next_keeps_a_doctor_file_it_writes_over_as_a_backup(course):
    (course / "harness.py").write_text(lesson_file(course, "10", "finished.py"))
    theirs = lesson_file(course, "B", "starter.py") + "\n# my notes on ash\n"
    (course / "doctor.py").write_text(theirs)

    run = lab_check(course, "--next", "--lesson", "10")

    assert run.returncode == 0, run.stdout + run.stderr
    assert (course / ".lab-check" / "backups" / "doctor.py.bak-1").read_text() == theirs
    assert (course / "doctor.py").read_text() == lesson_file(course, "B", "starter.py")
    assert "kept as .lab-check/backups/doctor.py.bak-1" in run.stdout, run.stdout


def test_next_from_a_begun_checkpoint_grades_the_checkpoints_file(course):
    (course / "harness.py").write_text(lesson_file(course, "10", "finished.py"))
    (course / "doctor.py").write_text(lesson_file(course, "B", "starter.py") + "\n# begun\n")

    run = lab_check(course, "--next")
    shown = lab_check(course, "--course")

    assert run.returncode == 1, run.stdout + run.stderr
    assert "doctor.py does not pass checkpoint B · Transcript doctor II yet" in run.stderr
    assert map_rows(shown.stdout)["B"].endswith("<- you are here"), shown.stdout
    assert not (course / ".lab-check" / "backups" / "harness.py.bak-1").exists()


def test_next_refuses_to_write_into_the_courses_own_lessons(course):
    finished = course / "lessons" / FOLDER_OF["10"] / "finished.py"
    before = finished.read_bytes()

    run = lab_check(course, "--next", "--harness", str(finished), "--lesson", "10")

    assert run.returncode == 2, run.stdout + run.stderr
    assert "one of the course's own files" in run.stderr, run.stderr
    assert finished.read_bytes() == before and not (course / ".lab-check" / "backups" / "doctor.py.bak-1").exists()


def test_next_from_lesson_10_through_b_carries_the_students_harness_into_lesson_11(course):
    mine = lesson_file(course, "10", "finished.py") + "\n\ndef my_own_helper():\n    return 1\n"
    (course / "harness.py").write_text(mine)
    to_b = lab_check(course, "--next")
    (course / "doctor.py").write_text(lesson_file(course, "B", "finished.py"))

    to_11 = lab_check(course, "--next")

    assert to_b.returncode == 0 and to_11.returncode == 0, to_b.stderr + to_11.stdout + to_11.stderr
    assert (course / ".lab-check" / "backups" / "harness.py.bak-1").read_text() == mine, "the lesson-10 file is kept"
    carried = (course / "harness.py").read_text()
    assert carried.startswith("# lab: lesson 11"), carried[:200]
    assert "lesson 11 · The power cable starts in harness.py" in to_11.stdout, to_11.stdout
    assert "def my_own_helper():" in carried, "the student's own code is carried forward"
    (course / "starter_11.py").write_text(lesson_file(course, "11", "starter.py"))
    ours = json.loads(lab_check(course, "--lesson", "11", "--format", "json").stdout)
    starter = json.loads(lab_check(course, "--harness", "starter_11.py", "--lesson", "11",
                                   "--format", "json").stdout)
    outcomes = {t["test"]: t["outcome"] for t in ours["tests"]}
    assert outcomes == {t["test"]: t["outcome"] for t in starter["tests"]}, \
        "the carried file should fail exactly the tests of lesson 11's gaps, as its starter does"
    (course / "harness.py").write_text(filled(carried, lesson_file(course, "11", "finished.py")))
    whole = lab_check(course, "--lesson", "11")
    assert whole.returncode == 0, "with lesson 11's gaps filled from its finished file, the " \
                                  f"carried file should pass every test:\n{whole.stdout}"


def test_next_from_a_passing_lesson_11_carries_it_into_lesson_12_which_builds_on_it(course):
    mine = lesson_file(course, "11", "finished.py") + "\n\ndef my_own_helper():\n    return 11\n"
    (course / "harness.py").write_text(mine)

    run = lab_check(course, "--next")

    assert run.returncode == 0, run.stdout + run.stderr
    assert (course / ".lab-check" / "backups" / "harness.py.bak-1").read_text() == mine
    said = " ".join(run.stdout.split())
    assert "lesson 12 · The wrong refusal starts in harness.py: your lesson 11 harness" in said
    assert "classify (classify); policy (RetryPolicy); retrying (Retrying)" in said
    carried = (course / "harness.py").read_text()
    assert carried.startswith("# lab: lesson 12") and "class RecordFile" in carried, \
        "lesson 12 builds on 11: the carried file keeps lesson 11's record on disk"
    assert "def my_own_helper():" in carried, "the student's own code is carried forward"
    starter = json.loads(lab_check(course, "--lesson", "12", "--format", "json").stdout)
    assert {t["outcome"] for t in starter["tests"] if t["gap"] != "given"} == {"failed"}, \
        "the carried file fails every test of lesson 12's gaps, as its starter does"
    assert {t["outcome"] for t in starter["tests"] if t["gap"] == "given"} <= {"passed"}, \
        "the carried file passes what lesson 12 gives, as its starter does"
    (course / "harness.py").write_text(filled(carried, lesson_file(course, "12", "finished.py")))
    whole = lab_check(course, "--lesson", "12")
    assert whole.returncode == 0, whole.stdout


CARRIED = [  # (lab passed, the lab after it, how it is announced, its gaps, a name it keeps)
    ("12", "13", "lesson 13 · The conversation that outgrew its window",
     "cut (safe_cuts, choose_cut); view (context_for_model); compact (Harness)", "class Retrying"),
    ("13", "14", "lesson 14 · Who really spoke",
     "mark (note_message); render (sent_as); attribute (Harness)", "def choose_cut"),
    ("14", "15", "lesson 15 · Going async",
     "together (run_tools); stopped (run_tools); door (Harness)", "def attached_file("),
    ("15", "16", "lesson 16 · The adapter", "adapter (to_anthropic, to_openai, safe_trim)",
     "async def run_tools("),
]


@pytest.mark.parametrize("lab, following, heading, gaps, kept", CARRIED,
                         ids=[f"{lab} to {following}" for lab, following, *_ in CARRIED])
def test_next_from_a_passing_lab_carries_it_into_the_lab_that_builds_on_it(course, lab, following,
                                                                           heading, gaps, kept):
    mine = lesson_file(course, lab, "finished.py") + f"\n\ndef my_own_helper():\n    return {lab}\n"
    (course / "harness.py").write_text(mine)

    run = lab_check(course, "--next")

    assert run.returncode == 0, run.stdout + run.stderr
    assert (course / ".lab-check" / "backups" / "harness.py.bak-1").read_text() == mine
    said = " ".join(run.stdout.split())
    assert f"{heading} starts in harness.py: your lesson {lab} harness" in said
    assert gaps in said
    carried = (course / "harness.py").read_text()
    assert carried.startswith(f"# lab: lesson {following}") and kept in carried, \
        f"lesson {following} builds on {lab}: the carried file keeps what lesson {lab} built"
    assert "def my_own_helper():" in carried, "the student's own code is carried forward"
    (course / "harness.py").write_text(filled(carried, lesson_file(course, following,
                                                                   "finished.py")))
    whole = lab_check(course, "--lesson", following)
    assert whole.returncode == 0, whole.stdout


def filled(text, finished):
    """`text` (a starter, or a file carried forward) with each of its gaps, in order, holding
    the code of the same gap of `finished`: the finished parts are then all that is graded."""
    answers, state = [], "outside"
    for line in finished.splitlines(keepends=True):
        marker = line.strip()
        if marker == BEGIN:
            answers.append([])
            state = "answer"
        elif marker in (SWAP, END):
            state = "quoted" if marker == SWAP else "outside"
        elif state == "answer":
            answers[-1].append(line)
    out, gaps = [], iter(answers)
    inside = False
    for line in text.splitlines(keepends=True):
        if line.strip() == BEGIN:
            out += next(gaps)
            inside = True
        elif line.strip() == END:
            inside = False
        elif not inside:
            out.append(line)
    assert next(gaps, None) is None, "the carried file has fewer gaps than lesson 11's finished"
    return "".join(out)


# -- a student's edition --------------------------------------------------------------------

def build_edition(course, lab, folder):
    made = subprocess.run(
        [sys.executable, "-c", "import sys; from lab.course import lesson_files as lessons; from lab.release import "
         "edition; edition.build(lessons.lesson(sys.argv[1]), sys.argv[2], with_notebook=False)",
         lab, str(folder)], capture_output=True, text=True, cwd=course, timeout=600)
    assert made.returncode == 0, made.stderr
    return folder


@pytest.fixture
def edition(course, tmp_path):
    return build_edition(course, "10", tmp_path / "edition")


def test_an_edition_knows_the_course_and_says_it_holds_no_finished_file(edition):
    where = lab_check(edition, "--where", "10")
    shown = lab_check(edition, "--course")

    assert where.returncode == 0 and "finished: none in a student's copy" in where.stdout, \
        where.stdout + where.stderr
    assert "finished.py" not in where.stdout, where.stdout
    rows = map_rows(shown.stdout)
    assert shown.returncode == 0 and list(rows) == ORDER, shown.stdout + shown.stderr
    assert "not started" in rows["10"], shown.stdout
    assert rows["B"].endswith("in an edition of its own"), shown.stdout
    assert rows["11"].endswith("in an edition of its own"), shown.stdout
    assert all(rows[lab].endswith("not written yet") for lab in ORDER if lab not in WRITTEN), \
        shown.stdout


def test_an_editions_passing_report_names_the_next_lab_handed_out(edition, tmp_path):
    (edition / "harness.py").write_text(
        (PROJECT / "lessons" / FOLDER_OF["10"] / "finished.py").read_text())

    run = lab_check(edition, "--harness", "harness.py", "--lesson", "10")
    refused = lab_check(edition, "--next")

    assert run.returncode == 0, run.stdout + run.stderr
    assert last_next_line(run.stdout) == ("next: checkpoint B · Transcript doctor II, in an "
                                          "edition of its own (ask where you got this one)")
    assert refused.returncode == 2 and "no lab after lesson 10" in refused.stderr, \
        refused.stdout + refused.stderr


# -- the README's course section ------------------------------------------------------------

def readme_course_section():
    text = (PROJECT / "README.md").read_text()
    return text[text.index("\n## The course\n"):text.index("\n## ", text.index("\n## The course\n") + 1)]


def test_the_readmes_course_map_is_what_lab_check_prints_once_lesson_01_is_started(course):
    shown = re.search(r"<!-- generated: course map.*?-->\n```text\n(.*?)```",
                      readme_course_section(), re.DOTALL)

    started = lab_check(course, "--reset", "--lesson", "01")
    run = lab_check(course, "--course")

    assert shown, "the README's course section should show the map in a ```text block"
    assert started.returncode == 0, started.stdout + started.stderr
    assert run.returncode == 0 and shown[1] == run.stdout, \
        "the README's map should be lab-check --course word for word (python -m lab.docs " \
        f"rewrites it); lab-check --course prints:\n{run.stdout}"


def test_every_command_of_the_readmes_course_section_does_what_it_says(course):
    block = re.search(r"```sh\n(.*?)```", readme_course_section(), re.DOTALL)[1]
    commands = [line.split() for line in block.splitlines()]
    status = {"lab-check": 1, "--course": 0, "--next": 1, "--reset": 0}  # on lesson 10's starter
    ten = (course / "harness.py").read_text()

    runs = [(words, lab_check(course, *words[1:])) for words in commands]

    assert [words[0] for words in commands] == [".venv/bin/lab-check"] * 4, commands
    for words, run in runs:
        assert "Traceback" not in run.stderr, f"{' '.join(words)}:\n{run.stderr}"
        assert run.returncode == status[(words[1:] or ["lab-check"])[0]], \
            f"{' '.join(words)} exited {run.returncode}:\n{run.stdout}{run.stderr}"
    assert (course / "harness.py").read_text() == lesson_file(course, "11", "starter.py")
    assert (course / ".lab-check" / "backups" / "harness.py.bak-1").read_text() == ten


def test_checkpoint_bs_edition_finds_the_doctor_file_for_the_course_map(course, tmp_path):
    copy = build_edition(course, "B", tmp_path / "edition-b")

    shown = lab_check(copy, "--course")
    refused = lab_check(copy, "--next")

    rows = map_rows(shown.stdout)
    assert shown.returncode == 0 and "Your work: doctor.py (checkpoint B" in shown.stdout, \
        shown.stdout + shown.stderr
    assert rows["B"].endswith("<- you are here") and "not started" in rows["B"], shown.stdout
    assert rows["10"].endswith("in an edition of its own"), shown.stdout
    assert refused.returncode == 2 and "lesson 11 · The power cable, in an edition of its own" \
        in " ".join(refused.stderr.split()), refused.stdout + refused.stderr
