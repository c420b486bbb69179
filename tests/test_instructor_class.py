"""A class graded as an instructor grades one (issue 33): an LMS's download through a real
`lab-check --batch ... --export`, then `--only` again, read as the instructor and the students
read what it wrote. Each file the batch cannot place, each group, each name a shell or a
spreadsheet treats specially, and each file that names another lab is told for what it is."""

import csv
import io
import json
import os
import re
import subprocess
import sys

from conftest import PROJECT
from lab.course import lesson_files as lessons
from lab.course import manifest
from lab.grader.formats import FORMATS
from lab.release import edition

LESSON = lessons.lesson(10)
LISTED = manifest.read(LESSON)["tests"]
FINISHED = LESSON.finished.read_text()
CHOSEN = next(n for n, m in LISTED.items() if m["visibility"] == "visible" and m["points"])
WORTH = LISTED[CHOSEN]["points"]


def lab_check(*args, timeout=600):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *map(str, args)],
                          capture_output=True, text=True, cwd=PROJECT, timeout=timeout)


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    os.chmod(path, 0o600)


def rows_of(out):
    return {r["submission"]: r for r in
            json.loads((out / "summary.json").read_text(encoding="utf-8"))["submissions"]}


def test_a_download_graded_by_a_real_batch_says_what_became_of_each_file(tmp_path):
    cls = tmp_path / "download"
    write(cls / "smithjane_101_9001_harness.py", FINISHED)
    write(cls / "notes.py", FINISHED)                     # no LMS named it: nobody's
    write(cls / "-rf" / "harness.py", FINISHED)           # a name a shell takes for an option
    write(cls / "olduser" / "harness.py",                 # an earlier lab's file, by its line
          "# lab: lesson 03\n" + FINISHED.split("\n", 1)[1])
    os.chmod(cls, 0o700)
    out = tmp_path / "graded"

    ran = lab_check("--lesson", 10, "--batch", cls, "--output", out, "--jobs", 2,
                    "-k", CHOSEN.removeprefix("test_"), "--export", "canvas")

    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    rows = rows_of(out)
    unowned = [line for line in ran.stdout.splitlines() if "notes.py" in line
               and "no grade exported" in line]
    assert len(unowned) == 1 and "no LMS names whose file this is" in unowned[0], ran.stdout
    assert "grader failed" not in unowned[0]
    old = rows["olduser"]
    assert old["status"] == "graded" and old["score"] == WORTH
    assert "lesson 03" in old["problem"] and "graded as lesson 10" in old["problem"], old
    told = (out / old["feedback_file"]).read_text(encoding="utf-8")
    assert "says it is for lesson 03" in told and "graded as lesson 10" in told
    assert rows["smithjane (101)"]["problem"] == "" and rows["-rf"]["problem"] == ""
    for name in os.listdir(out / "feedback"):  # what a student reads names no folder of yours
        text = (out / "feedback" / name).read_text(encoding="utf-8")
        assert str(tmp_path) not in text, f"{name} holds the instructor's path:\n{text[:400]}"
    assert "olduser/harness.py" in told

    table = list(csv.DictReader(io.StringIO((out / "summary.csv").read_text())))
    shown = next(r["submission"] for r in table if r["submission"].endswith("-rf"))
    again = lab_check("--lesson", 10, "--batch", cls, "--output", out, "--only", "-rf",
                      "-k", CHOSEN.removeprefix("test_"))
    as_the_csv_shows = lab_check("--lesson", 10, "--batch", cls, "--output", out, "--only",
                                 shown, "smithjane (101)", "-k", CHOSEN.removeprefix("test_"))

    assert again.returncode == 0, again.stdout[-2000:] + again.stderr[-2000:]
    assert re.search(r"^\[1/1\] -rf: ", again.stderr, re.M), again.stderr
    assert as_the_csv_shows.returncode == 0, as_the_csv_shows.stderr[-2000:]
    assert re.search(r"^\[\d/2\] -rf: ", as_the_csv_shows.stderr, re.M), as_the_csv_shows.stderr
    assert rows_of(out)["-rf"]["score"] == WORTH


def export_index(submissions):
    """submission_metadata.yml as Gradescope's "Export Submissions" writes it (the form
    lab.grader.finder.GRADESCOPE_EXPORT describes): {folder: (created_at, [(name, sid)])}."""
    lines = []
    for folder, (created, people) in submissions.items():
        lines += [f"{folder}:", "  :submitters:"]
        for name, sid in people:
            lines += [f"  - :name: {name}", f"    :sid: '{sid}'",
                      f"    :email: {name.split()[0].lower()}@example.edu"]
        lines.append(f"  :created_at: {created}")
    return "\n".join(lines) + "\n"


GROUP_EXPORT = export_index({
    "submission_401": ("2026-12-01 17:58:03.412000000 -05:00",
                       [("Ada Lovelace", 1815), ("Charles Babbage", 1791)]),
    "submission_402": ("2026-12-01 18:00:00.000000000 -05:00", [("Grace Hopper", 1906)])})


def test_a_groups_submission_is_a_gradebook_row_for_each_of_its_students(tmp_path):
    cls = tmp_path / "export"
    write(cls / "submission_401" / "harness.py", FINISHED)
    write(cls / "submission_402" / "harness.py", LESSON.starter.read_text())
    write(cls / "submission_metadata.yml", GROUP_EXPORT)
    os.chmod(cls, 0o700)
    out = tmp_path / "graded"

    ran = lab_check("--lesson", 10, "--batch", cls, "--output", out, "--jobs", 2,
                    "-k", CHOSEN.removeprefix("test_"), "--export", "csv")

    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert len(rows_of(out)) == 2, "a submission is graded once, whoever made it"
    book = {r["student_id"]: r for r in csv.DictReader(io.StringIO(
        (out / "gradebook.csv").read_text()))}
    assert set(book) == {"1815", "1791", "1906"}
    assert (book["1815"]["student"], book["1791"]["student"]) == ("Ada Lovelace",
                                                                  "Charles Babbage")
    assert book["1815"]["final_score"] == book["1791"]["final_score"] == f"{WORTH:g}"
    assert book["1906"]["final_score"] == "0"
    assert "Ada Lovelace, Charles Babbage" in book["1791"]["note"]
    assert "3 students" in ran.stdout


def test_the_format_options_help_names_every_format_a_result_can_be_written_in():
    ran = lab_check("--help", timeout=120)

    said = " ".join(ran.stdout.split("\n  --format FORMAT", 1)[1].split("--output", 1)[0].split())
    assert ran.returncode == 0
    assert [f for f in FORMATS if f not in said] == [], said


def test_the_docs_say_which_editions_carry_github_classrooms_workflow(tmp_path):
    lesson_a, lesson_10 = lessons.lesson("A"), LESSON

    with_workflow = {}
    for lesson in (lesson_a, lesson_10):
        made = edition.build(lesson, tmp_path / str(lesson.number), with_notebook=False)
        with_workflow[lesson.number] = (made / edition.WORKFLOW).is_file()
    readme = " ".join(" ".join(path.read_text(encoding="utf-8").split())  # the README's docs
                      for path in [PROJECT / "README.md", *sorted(PROJECT.glob("docs/*.md"))])
    sentences = [s for s in re.split(r"(?<=\.) ", readme)
                 if "classroom.yml" in s and "edition" in s and "holds" in s]

    assert with_workflow == {"A": False, 10: True}
    assert sentences and all("checkpoint" in s for s in sentences), sentences
