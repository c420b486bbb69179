"""Grades with a trail: an instructor's overrides applied to every export and recorded in the
summary (and refused, writing nothing, when one names nobody); a regrade that keeps the earlier
result beside the new one; Moodle's grading worksheet and Blackboard's Grade Center upload, read
back the way each LMS reads them. Every batch here is a real `lab-check --batch`."""

import csv
import io
import json
import re
import subprocess
import sys

import pytest

from conftest import PROJECT
from lab.course import lesson_files as lessons
from lab.course import manifest

LESSON = lessons.lesson(10)
LISTED = manifest.read(LESSON)["tests"]
CHOSEN = next(n for n, m in LISTED.items() if m["visibility"] == "visible" and m["points"])
WORTH = LISTED[CHOSEN]["points"]
TOTAL = manifest.total(LESSON)
ANN, JOSE, KIM = "Ann Lee (6666)", "José García (5555)", "bkim"


def lab_check(cls, out, *more):
    return subprocess.run(
        [sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--lesson", "10", "--batch",
         str(cls), "--output", str(out), "--jobs", "2", "--seed", "3", "-k",
         CHOSEN.removeprefix("test_"), *more],
        capture_output=True, text=True, cwd=PROJECT, timeout=600)


def summary(out):
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A download of Moodle's and Blackboard's, as they name their files, graded once."""
    root = tmp_path_factory.mktemp("trail")
    cls = root / "download"
    (cls / "Ann Lee_6666_assignsubmission_file_").mkdir(parents=True)
    (cls / "Ann Lee_6666_assignsubmission_file_" / "harness.py").write_text(
        LESSON.finished.read_text())
    (cls / "José García_5555_assignsubmission_file_").mkdir()
    (cls / "José García_5555_assignsubmission_file_" / "harness.py").write_text(
        LESSON.starter.read_text())
    (cls / "Lab 10_bkim_attempt_2026-12-02-09-30-00_harness.py").write_text(
        LESSON.finished.read_text() + "\n# kim\n")
    cls.chmod(0o700)
    first = lab_check(cls, root / "out")
    return {"root": root, "cls": cls, "out": root / "out", "first": first}


def test_moodles_worksheet_is_what_moodles_upload_reads_with_the_override_applied(graded):
    out = graded["out"]
    fixes = graded["root"] / "fixes.csv"
    fixes.write_text(f"student,lab,points,reason\n{JOSE},10,20,\"marked by hand: the tests "
                     "missed a right answer\"\nsomeone,11,3,another lab's\n")
    done = lab_check(graded["cls"], out, "--resume", "--export", "moodle", "--overrides",
                     str(fixes))

    assert graded["first"].returncode == 0, graded["first"].stderr
    assert done.returncode == 0, done.stdout + done.stderr
    with open(out / "gradebook-moodle.csv", newline="", encoding="utf-8") as file:
        table = list(csv.reader(file))
    header = table[0]
    for needed in ("Identifier", "Grade", "Last modified (grade)"):  # what Moodle looks for
        assert needed in header, header
    who, grade = header.index("Identifier"), header.index("Grade")
    grades = {row[who].removeprefix("Participant "): row[grade] for row in table[1:]}
    assert grades == {"6666": f"{WORTH:g}", "5555": "20"}, grades
    assert "bkim" in done.stdout and "no Moodle id" in done.stdout, done.stdout
    assert "override: " + JOSE in done.stdout and "marked by hand" in done.stdout


def test_an_override_is_recorded_in_the_summary_and_noted_in_the_plain_gradebook(graded):
    record = summary(graded["out"])["overrides"]
    plain = list(csv.DictReader(io.StringIO((graded["out"] / "gradebook.csv").read_text())))
    jose = next(r for r in plain if r["submission"] == JOSE)

    assert [(r["student"], r["points"], r["was"]) for r in record] == [(JOSE, 20.0, "0")]
    assert jose["final_score"] == "20" and jose["score"] == "0"
    assert "override: 20 points in place of 0: marked by hand" in jose["note"]


def test_blackboards_upload_quotes_every_cell_and_keys_on_the_username(graded):
    done = lab_check(graded["cls"], graded["out"], "--resume", "--export", "blackboard")
    text = (graded["out"] / "gradebook-blackboard.csv").read_text(encoding="utf-8")

    assert done.returncode == 0, done.stdout + done.stderr
    lines = text.splitlines()
    assert all(re.fullmatch(r'"[^"]*"(,"[^"]*")*', line) for line in lines), text
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == ["Username", f"Lesson 10: {manifest.title(LESSON)} [Total Pts: "
                                     f"{TOTAL:g} Score]"], table[0]
    assert table[1:] == [["bkim", f"{WORTH:g}"]], table
    assert "overrides" not in summary(graded["out"]), "this export had none: none recorded"


def test_an_override_that_names_nobody_is_refused_and_writes_nothing(graded):
    fixes = graded["root"] / "typo.csv"
    fixes.write_text("student,lab,points,reason\nJose Garcia,10,20,typo in the name\n")
    before = (graded["out"] / "gradebook.csv").read_bytes()
    done = lab_check(graded["cls"], graded["out"], "--resume", "--export", "csv",
                     "--overrides", str(fixes))

    assert done.returncode == 2, done.stdout + done.stderr
    said = [line for line in (done.stdout + done.stderr).splitlines() if "override" in line]
    assert len(said) == 1 and "Jose Garcia" in said[0] and "no student" in said[0], said
    assert (graded["out"] / "gradebook.csv").read_bytes() == before


def test_a_regrade_of_one_student_keeps_the_earlier_result_beside_the_new(graded):
    out = graded["out"]
    (graded["cls"] / "José García_5555_assignsubmission_file_" / "harness.py").write_text(
        LESSON.finished.read_text() + "\n# fixed\n")
    done = lab_check(graded["cls"], out, "--only", JOSE)

    assert done.returncode == 0, done.stdout + done.stderr
    row = next(r for r in summary(out)["submissions"] if r["submission"] == JOSE)
    assert row["score"] == WORTH
    [earlier] = row["earlier"]
    assert earlier["score"] == 0 and earlier["sha256"] != row["sha256"], earlier
    kept = json.loads((out / earlier["result_file"]).read_text())
    assert kept["score"] == 0 and kept["sha256"] == earlier["sha256"]
    others = [r for r in summary(out)["submissions"] if r["submission"] != JOSE]
    assert not any("earlier" in r for r in others)
