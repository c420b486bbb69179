"""Lesson 10's Gradescope autograder, run end to end on this machine as Gradescope runs it.

The zip (lab-check --release 10 --gradescope FILE.zip) is set up as Gradescope sets it up
(tests/autograders.py says how); then, for each kind of submission, ROOT/submission is filled,
run_autograder runs with AUTOGRADER_ROOT=ROOT, and results.json is held to Gradescope's
specification.
"""

import json
import os
import shutil
import zipfile

import pytest

from lab.course import lesson_files as lessons
from lab.course import manifest
from lab.release import leaks
from autograders import SYSTEM_PYTHON, assert_gradescope_shape, build, install, open_folder, \
    submit, system_python

LESSON = lessons.lesson(10)
LISTED = manifest.read(LESSON)["tests"]
TOTAL = sum(meta["points"] for meta in LISTED.values())
TITLES = {name.removeprefix("test_").replace("_", " "): meta for name, meta in LISTED.items()}


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    return build(10, tmp_path_factory.mktemp("gradescope") / "lesson10.zip")


@pytest.fixture(scope="module")
def world_readable():
    """A folder every user may enter (autograders.open_folder)."""
    folder = open_folder()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def autograder(archive, world_readable, tmp_path_factory):
    """ROOT, set up as Gradescope sets it up; and the environment run_autograder runs in."""
    return install(archive, world_readable, tmp_path_factory.mktemp("spy"))


# -- the zip itself --------------------------------------------------------------------------

def test_zip_has_setup_and_run_autograder_at_its_root_and_no_answer(archive):
    names = zipfile.ZipFile(archive).namelist()

    found = leaks.leaks_in(archive, LESSON)

    assert {"setup.sh", "run_autograder", "requirements.txt"} <= set(names)
    assert f"lessons/{LESSON.folder.name}/tests.py" in names
    assert found == [], "expected no trace of the answer in the zip:\n" + "\n".join(found)
    pins = zipfile.ZipFile(archive).read("requirements.txt").decode().splitlines()
    assert pins and all("==" in pin for pin in pins), f"expected every requirement pinned: {pins}"


def test_setup_makes_the_tests_and_manifest_unreadable_to_every_other_user(autograder):
    root, _ = autograder

    files = list((root / "source" / "lessons").rglob("*.*"))
    open_bits = {str(p.relative_to(root)): oct(p.stat().st_mode & 0o077) for p in files
                 if p.stat().st_mode & 0o077}

    assert files and open_bits == {}, f"expected every file to be root's alone; got {open_bits}"


# -- submissions -------------------------------------------------------------------------

def test_finished_file_scores_every_point_each_test_with_its_visibility(autograder):
    ran, results = submit(autograder, {"harness.py": LESSON.finished.read_text()})

    assert ran.returncode == 0, ran.stderr[-2000:]
    assert_gradescope_shape(results)
    assert results["score"] == TOTAL
    assert {t["name"]: t["visibility"] for t in results["tests"]} == {
        title: meta["visibility"] for title, meta in TITLES.items()}
    assert {t["name"]: t["max_score"] for t in results["tests"]} == {
        title: meta["points"] for title, meta in TITLES.items()}


def test_starter_scores_nothing_and_each_failure_says_why(autograder):
    ran, results = submit(autograder, {"harness.py": LESSON.starter.read_text()})

    assert ran.returncode == 0, ran.stderr[-2000:]
    assert_gradescope_shape(results)
    assert results["score"] == 0.0 and len(results["tests"]) == len(LISTED)
    silent = [t["name"] for t in results["tests"] if t["status"] == "failed" and not t["output"]]
    assert silent == [], f"expected every failure to say why; these do not: {silent}"


def test_syntax_error_scores_zero_naming_the_line(autograder):
    broken = "def repair_tool_history(messages)\n    return messages\n"

    ran, results = submit(autograder, {"harness.py": broken})

    assert ran.returncode == 0, ran.stderr[-2000:]
    assert_gradescope_shape(results)
    assert results["score"] == 0.0 and results["tests"] == []
    assert "line 1" in results["output"] and "Nothing was graded" in results["output"]


def test_no_python_file_scores_zero_saying_what_to_upload(autograder):
    ran, results = submit(autograder, {"notes.txt": "I ran out of time."})

    assert ran.returncode == 0, ran.stderr[-2000:]
    assert_gradescope_shape(results)
    assert results["score"] == 0.0
    assert "no Python file" in results["output"] and "harness.py" in results["output"]


def test_harness_in_a_folder_or_under_another_name_is_found_and_the_student_told(autograder):
    in_folder = submit(autograder, {"lab10/harness.py": LESSON.finished.read_text()})[1]
    renamed = submit(autograder, {"my_harness.py": LESSON.finished.read_text()})[1]

    assert in_folder["score"] == TOTAL and "lab10/harness.py" in in_folder["output"]
    assert renamed["score"] == TOTAL and "my_harness.py" in renamed["output"]


def test_student_code_cannot_read_the_hidden_tests(autograder):
    if os.geteuid() != 0:
        pytest.skip("only a grader running as root runs student code as another user")
    if system_python() is None:
        pytest.skip(f"no {SYSTEM_PYTHON} 3.11+ here: the grader's Python is root's alone, so "
                    "the student's process keeps the right to read every file")
    root, _ = autograder
    tests = root / "source" / "lessons" / LESSON.folder.name / "tests.py"
    # A finished harness that breaks itself (a wrong INTERRUPTED) if it can read the tests.
    prying = LESSON.finished.read_text() + (
        f"\n\ntry:\n    open({str(tests)!r}).read()\nexcept OSError:\n    pass\n"
        "else:\n    INTERRUPTED = 'I read the hidden tests'\n")

    ran, results = submit(autograder, {"harness.py": prying})

    assert tests.is_file()
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert results["score"] == TOTAL, "the submission could read the tests: " + json.dumps(
        [t["name"] for t in results["tests"] if t["status"] == "failed"])


# -- late work, with a student's own due date ------------------------------------------------

ASSIGNMENT_DUE = "2026-12-01T23:00:00.000000-07:00"
EXTENDED_DUE = "2026-12-04T23:00:00.000000-07:00"


def metadata(created, own_due):
    """submission_metadata.json as Gradescope writes it for one student: the assignment's dates,
    and, in the student's entry under users, the student's own (an extension moves them)."""
    own = {"release_date": "2026-11-20T00:00:00.000000-07:00", "due_date": own_due,
           "late_due_date": "2026-12-10T23:00:00.000000-07:00"}
    return {"id": 1, "created_at": created, "submission_method": "upload",
            "assignment": {"id": 25828, "title": "Lesson 10", "due_date": ASSIGNMENT_DUE,
                           "late_due_date": own["late_due_date"], "release_date":
                           own["release_date"], "group_submission": False, "group_size": None,
                           "total_points": str(TOTAL)},
            "users": [{"email": "s@example.edu", "id": 9, "name": "S", "sid": None,
                       "assignment": own}],
            "previous_submissions": []}


@pytest.fixture(scope="module")
def late_autograder(world_readable, tmp_path_factory):
    """An autograder released with a late policy that takes every point of late work."""
    made = build(10, tmp_path_factory.mktemp("late") / "lesson10.zip", "--late-policy", "zero")
    folder = world_readable / "late"
    folder.mkdir()
    return install(made, folder, tmp_path_factory.mktemp("late-spy"))


def test_a_students_extension_is_their_due_date_and_without_one_the_work_is_late(
        late_autograder):
    root, _ = late_autograder
    finished = {"harness.py": LESSON.finished.read_text()}
    two_days_late = "2026-12-03T10:00:00.000000-07:00"

    (root / "submission_metadata.json").write_text(json.dumps(metadata(two_days_late,
                                                                       EXTENDED_DUE)))
    ran, extended = submit(late_autograder, finished)
    (root / "submission_metadata.json").write_text(json.dumps(metadata(two_days_late,
                                                                       ASSIGNMENT_DUE)))
    _, plain = submit(late_autograder, finished)

    assert ran.returncode == 0, ran.stderr[-2000:]
    assert extended["score"] == TOTAL, extended["output"][:500]
    assert extended["output"].startswith("Submitted on time") and \
        "2026-12-04T23:00:00-07:00" in extended["output"].split("\n")[0], extended["output"][:500]
    assert extended["extra_data"]["due_date"] == "2026-12-04T23:00:00-07:00"
    assert extended["extra_data"]["due_date_from"] == "the student's own (an extension)"
    assert plain["score"] == 0, plain["output"][:500]
    assert plain["output"].startswith(
        "Submitted after the assignment's due date (2026-12-01T23:00:00-07:00)"), \
        plain["output"][:500]
    assert plain["extra_data"]["due_date_from"] == "the assignment's"
