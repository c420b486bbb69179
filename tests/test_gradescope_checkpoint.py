"""Checkpoints' Gradescope autograders: B's run end to end as Gradescope runs it, A's zip read.

A checkpoint's student hands in a doctor file (the manifest's student_file: doctor.py for B,
doctor_a.py for A), graded against harnesses that are an earlier lab's finished harness with
one idea taken out. The zip must carry those and that finished harness for the grader, under
lessons/ where setup.sh makes them root's alone, and nothing of the answer anywhere else.
"""

import os
import shutil
import zipfile

import pytest

from lab.course import lesson_files as lessons
from lab.course import manifest
from lab.release import gradescope, leaks
from autograders import assert_gradescope_shape, build, install, open_folder, submit, \
    system_python

B = lessons.lesson("B")
A = lessons.lesson("A")
TOTAL = sum(meta["points"] for meta in manifest.read(B)["tests"].values())


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    return build("B", tmp_path_factory.mktemp("gradescope") / "b.zip")


@pytest.fixture(scope="module")
def autograder(archive, tmp_path_factory):
    folder = open_folder()
    try:
        yield install(archive, folder, tmp_path_factory.mktemp("spy"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("checkpoint, base", [(B, "10-poisoned-transcript"),
                                              (A, "05-the-runaway-and-the-503")])
def test_zip_carries_the_harnesses_and_the_base_harness_for_the_grader_alone(
        checkpoint, base, tmp_path, request):
    path = (request.getfixturevalue("archive") if checkpoint is B
            else build("A", tmp_path / "a.zip"))
    names = set(zipfile.ZipFile(path).namelist())
    own = f"lessons/{checkpoint.folder.name}"
    kept = {str(k) for k in gradescope.grader_kept(checkpoint)}

    found = leaks.leaks_in(path, checkpoint)

    assert f"lessons/{base}/finished.py" in names and "lab/course/starter.py" in names
    assert {f"{own}/harnesses/{p.name}" for p in (checkpoint.folder / "harnesses").glob("*.patch")} <= names
    assert {f"{own}/ideas.toml", f"{own}/tests.py", f"{own}/manifest.toml"} <= names
    assert f"{base}/finished.py" in " ".join(kept) and all(k.startswith("lessons/") for k in kept)
    assert not any(n.endswith("finished.py") for n in names - {f"lessons/{base}/finished.py"})
    assert found == [], "expected no trace of the answer outside the grader's files:\n" + \
        "\n".join(found)


def test_the_leak_check_still_finds_the_answer_outside_the_grader_files(archive, tmp_path):
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(archive).extractall(unpacked)
    base = "lessons/10-poisoned-transcript/finished.py"
    shutil.copyfile(unpacked / base, unpacked / "lab" / "finished_copy.py")
    kept = gradescope.grader_kept(B)

    found = leaks.leaks(unpacked, B, kept=kept)

    assert found and all(f.startswith("lab/finished_copy.py") for f in found), found


def test_finished_doctor_scores_every_point_and_the_starter_does_not(autograder):
    ran, done = submit(autograder, {"doctor.py": B.finished.read_text()})
    ran_starter, begun = submit(autograder, {"doctor.py": B.starter.read_text()})

    assert ran.returncode == 0 and ran_starter.returncode == 0, ran.stderr[-2000:] + \
        ran_starter.stderr[-2000:]
    assert_gradescope_shape(done)
    assert_gradescope_shape(begun)
    assert done["score"] == TOTAL and len(done["tests"]) == len(manifest.read(B)["tests"])
    assert begun["score"] < TOTAL and any(t["status"] == "failed" for t in begun["tests"])


def test_the_doctor_file_is_found_by_its_own_name_and_the_student_told(autograder):
    in_folder = submit(autograder, {"checkpoint-b/doctor.py": B.finished.read_text()})[1]
    beside = submit(autograder, {"doctor.py": B.finished.read_text(),
                                 "notes.py": "# my scratch\n"})[1]
    nothing = submit(autograder, {"notes.txt": "no time"})[1]

    assert in_folder["score"] == TOTAL and "checkpoint-b/doctor.py" in in_folder["output"]
    assert beside["score"] == TOTAL
    assert nothing["score"] == 0.0 and "doctor.py" in nothing["output"]


def test_student_code_cannot_read_the_base_harness_it_is_graded_against(autograder):
    if os.geteuid() != 0:
        pytest.skip("only a grader running as root runs student code as another user")
    if system_python() is None:
        pytest.skip("no system Python 3.11+ here: the grader's Python is root's alone, so "
                    "the student's process keeps the right to read every file")
    root, _ = autograder
    base = root / "source" / "lessons" / "10-poisoned-transcript" / "finished.py"
    # The finished answer, spoiling its own diagnoses if it can read the harness it is graded on.
    prying = B.finished.read_text() + (
        f"\n\ntry:\n    open({str(base)!r}).read()\nexcept OSError:\n    pass\n"
        "else:\n    DIAGNOSIS = {}\n")

    ran, results = submit(autograder, {"doctor.py": prying})

    assert base.is_file() and not base.stat().st_mode & 0o077
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert results["score"] == TOTAL, "the submission could read the base harness: " + str(
        [t["name"] for t in results["tests"] if t["status"] == "failed"])
