"""From an LMS's download to its gradebook (issue 22): the one way a student's file is found
(lab.grader.finder, shared by the batch and Gradescope's autograder), every file name and zip
taken as hostile; Canvas's, Moodle's and Blackboard's names grouped by student; a roster; a
declared late policy; and a real `lab-check --batch ... --export canvas` on a flat Canvas-style
download whose gradebook CSV is read back as Canvas reads it."""

import csv
import datetime
import io
import json
import os
import subprocess
import sys
import zipfile

import pytest

from conftest import PROJECT
from lab.course import lesson_files as lessons
from lab.grader import finder, gradebook
from lab.course import manifest
from lab.grader.gradebook import LatePolicy
from lab.release import autograder

LESSON = lessons.lesson(10)
LISTED = manifest.read(LESSON)["tests"]
FINISHED = LESSON.finished.read_text()
STARTER = LESSON.starter.read_text()
UTC = datetime.timezone.utc


def write(path, text="x = 1\n"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def zipped(path, members):
    """A zip at `path` holding `members`: {name: bytes}, or {name: (bytes, ZipInfo tweaks)}."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            if isinstance(data, tuple):
                data, mode = data
                info.external_attr = mode << 16
            archive.writestr(info, data)
    return path


# -- one student's folder -------------------------------------------------------------------

def test_a_harness_in_another_case_or_one_folder_down_is_found_and_the_student_told(tmp_path):
    write(tmp_path / "a" / "Harness.py")
    write(tmp_path / "b" / "my-lab" / "harness.py")
    write(tmp_path / "c" / "harness.py")
    write(tmp_path / "c" / "deep" / "harness.py")  # the top one wins: it is plainly the file

    found, said = finder.in_folder(tmp_path / "a")
    assert found.name == "Harness.py" and "in lower case" in said
    found, said = finder.in_folder(tmp_path / "b")
    assert found == tmp_path / "b" / "my-lab" / "harness.py" and "inside a folder" in said
    assert finder.in_folder(tmp_path / "c") == (tmp_path / "c" / "harness.py", "")


def test_two_candidates_as_good_as_each_other_are_no_grade_rather_than_a_guess(tmp_path):
    write(tmp_path / "s" / "one" / "harness.py")
    write(tmp_path / "s" / "two" / "harness.py")
    write(tmp_path / "t" / "a.py")
    write(tmp_path / "t" / "b.py")
    found, said = finder.in_folder(tmp_path / "s")
    assert found is None and "one/harness.py and two/harness.py" in said
    found, said = finder.in_folder(tmp_path / "t")
    assert found is None and "2 Python files" in said
    write(tmp_path / "u" / "lab10.py")
    found, said = finder.in_folder(tmp_path / "u")
    assert found.name == "lab10.py" and "only Python file" in said
    (tmp_path / "v").mkdir()
    assert finder.in_folder(tmp_path / "v")[0] is None


def test_links_are_never_followed(tmp_path):
    secret = write(tmp_path / "elsewhere" / "harness.py", FINISHED)
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "harness.py").symlink_to(secret)
    found, said = finder.in_folder(tmp_path / "s")
    assert found is None and "symbolic link" in said
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "lab").symlink_to(secret.parent)  # a folder on the way
    assert finder.in_folder(tmp_path / "t")[0] is None
    (tmp_path / "u").symlink_to(secret.parent)  # the submission itself
    found, said = finder.in_folder(tmp_path / "u")
    assert found is None and "symbolic link" in said


def test_a_zip_gives_its_harness_into_the_private_staging_folder_only(tmp_path):
    zipped(write(tmp_path / "s" / "x").parent / "lab.zip",
           {"lab/harness.py": FINISHED.encode(), "lab/notes.txt": b"hi"})
    staging = tmp_path / "staged"
    found, said = finder.in_folder(tmp_path / "s", staging)
    assert found.read_text() == FINISHED and found.is_relative_to(staging)
    assert "lab/harness.py from your lab.zip" in said
    assert oct(staging.stat().st_mode & 0o777) == "0o700"
    assert oct(found.stat().st_mode & 0o777) == "0o600"
    assert not (tmp_path / "s" / "lab").exists(), "nothing unpacked beside the zip"
    # without a staging folder (the caller has none) zips are not looked in
    assert finder.in_folder(tmp_path / "s")[0] is None


@pytest.mark.parametrize("members, expected", [
    ({"../harness.py": b"x = 1\n"}, "points outside the zip"),            # zip-slip
    ({"/etc/harness.py": b"x = 1\n"}, "points outside the zip"),
    ({"lab\\..\\harness.py": b"x = 1\n"}, "points outside the zip"),
    ({"harness.py": (b"/etc/passwd", 0o120777)}, "symbolic link"),     # a link member
    ({"harness.py": b"#" * (finder.MAX_FILE + 1)}, "unpacks to more than"),  # a bomb
    ({"a/harness.py": b"x = 1\n", "b/harness.py": b"y = 2\n"}, "more than one harness.py"),
])
def test_a_hostile_zip_is_refused_and_says_why(tmp_path, members, expected):
    zipped(tmp_path / "s.zip", members)
    found, said = finder.from_zip(tmp_path / "s.zip", tmp_path / "staged")
    assert found is None and expected in said, said
    assert not (tmp_path / "staged").exists() or not any((tmp_path / "staged").rglob("*.py"))


def test_a_zip_with_a_name_twice_or_that_is_no_zip_is_refused(tmp_path):
    with zipfile.ZipFile(tmp_path / "twice.zip", "w") as archive:
        archive.writestr("harness.py", "x = 1\n")
        with pytest.warns(UserWarning):
            archive.writestr("harness.py", "import os; os.system('boom')\n")
    found, said = finder.from_zip(tmp_path / "twice.zip", tmp_path / "staged")
    assert found is None and "more than one harness.py" in said
    write(tmp_path / "fake.zip", "not a zip")
    found, said = finder.from_zip(tmp_path / "fake.zip", tmp_path / "staged")
    assert found is None and "could not be read as a zip" in said


def test_gradescope_finds_a_students_file_the_way_the_batch_does(tmp_path):
    write(tmp_path / "submission" / "HARNESS.PY")
    assert autograder.find_submission(tmp_path / "submission") == \
        finder.in_folder(tmp_path / "submission")
    (tmp_path / "zipped").mkdir()
    zipped(tmp_path / "zipped" / "upload.zip", {"harness.py": b"x = 1\n"})
    found, said = autograder.find_submission(tmp_path / "zipped", tmp_path / "staged")
    assert found.read_text() == "x = 1\n" and "upload.zip" in said


# -- a class --------------------------------------------------------------------------------

def test_a_flat_lms_download_is_grouped_by_student_and_nothing_is_dropped(tmp_path):
    cls = tmp_path / "class"
    write(cls / "smithjane_12345_67890_harness.py")
    write(cls / "doejohn_late_222_333_harness-1.py")  # Canvas: marked late, sent twice
    write(cls / "doejohn_late_222_334_notes.txt")
    write(cls / "Lab 10_bkim_attempt_2026-12-01-10-00-00_harness.py")
    write(cls / "Lab 10_bkim_attempt_2026-12-02-09-30-00_harness.py")
    write(cls / "Lab 10_bkim_attempt_2026-12-02-09-30-00.txt")  # Blackboard's receipt
    write(cls / "José García_5555_assignsubmission_file_" / "harness.py")  # Moodle, a folder
    write(cls / "José García_5555_assignsubmission_onlinetext_" / "onlinetext.html")
    write(cls / "Ann Lee_6666_assignsubmission_file_harness.py")           # Moodle, flat
    write(cls / "alice" / "harness.py")                                    # a plain folder
    write(cls / "stray.py")                                                # whose?
    write(cls / ".DS_Store")
    (cls / os.fsdecode(b"caf\xe9.py")).write_text("x = 1\n")               # not UTF-8

    found = {one.name: one for one in finder.in_class(cls, staging=tmp_path / "st")}

    assert set(found) == {"smithjane (12345)", "doejohn (222)", "bkim", "José García (5555)",
                          "Ann Lee (6666)", "alice", "stray.py", os.fsdecode(b"caf\xe9.py")}
    jane, john, kim = found["smithjane (12345)"], found["doejohn (222)"], found["bkim"]
    assert (jane.lms, jane.student_id, jane.late, jane.note) == ("canvas", "12345", False, "")
    assert john.late and john.harness.name == "doejohn_late_222_333_harness-1.py"
    assert john.note == "" and len(john.sources) == 2, "Canvas's -1 is Canvas's, not a note"
    assert kim.lms == "blackboard" and "_2026-12-02-09-30-00_" in kim.harness.name
    assert kim.submitted == datetime.datetime(2026, 12, 2, 9, 30, tzinfo=UTC)
    assert "latest attempt" in kim.note and "1 earlier one not graded" in kim.note
    jose = found["José García (5555)"]
    assert jose.lms == "moodle" and jose.harness.name == "harness.py" and len(jose.sources) == 2
    assert found["Ann Lee (6666)"].harness.name.endswith("_harness.py")
    for stray in ("stray.py", os.fsdecode(b"caf\xe9.py")):
        assert found[stray].harness is None and "could not be told whose" in found[stray].problem


def test_two_students_the_lms_names_alike_keep_apart_and_a_roster_names_them(tmp_path):
    cls = tmp_path / "class"
    write(cls / "smithjane_1_10_harness.py")
    write(cls / "smithjane_2_20_harness.py")
    roster = write(tmp_path / "roster.csv",
                   "Student,ID,SIS User ID,SIS Login ID,Section\n"
                   "\"Smith, Jane\",1,S-001,jsmith,A\n\"Smith, Janet\",2,S-002,jsmith2,B\n")
    plain = finder.in_class(cls, staging=tmp_path / "st")
    assert [one.name for one in plain] == ["smithjane (1)", "smithjane (2)"]
    named = finder.in_class(cls, staging=tmp_path / "st", roster=finder.Roster.read(roster))
    assert [one.name for one in named] == ["Smith, Jane", "Smith, Janet"]
    assert named[1].roster["SIS Login ID"] == "jsmith2"
    with pytest.raises(ValueError, match="no column of ids"):
        finder.Roster.read(write(tmp_path / "bad.csv", "who,what\na,b\n"))


# -- late work ------------------------------------------------------------------------------

@pytest.mark.parametrize("spec, late_by, marked, points_off", [
    ("none", datetime.timedelta(days=3), False, 0),
    ("zero", datetime.timedelta(minutes=1), False, 20),
    ("10%/day", datetime.timedelta(hours=1), False, 2),      # a day begun
    ("10%/day", datetime.timedelta(hours=49), False, 6),     # three days begun
    ("10%/day,max=25%", datetime.timedelta(days=9), False, 5),
    ("5%/hour,grace=15", datetime.timedelta(minutes=10), False, 0),
    ("5%/hour,grace=15", datetime.timedelta(minutes=80), False, 2),  # 65 min past grace: 2 h
    ("10%/day", None, True, 2),                               # Canvas's mark, no time: one unit
    ("10%/day", None, False, 0),
])
def test_a_declared_late_policy_is_applied_as_it_says(spec, late_by, marked, points_off):
    off, why = LatePolicy.parse(spec).charge(20, late_by, marked)
    assert off == points_off
    assert bool(why) == (late_by is not None and late_by > datetime.timedelta(minutes=15)
                         or marked or spec == "zero")


@pytest.mark.parametrize("spec", ["10", "ten%/day", "10%/week", "10%/day,cap=5", "late"])
def test_a_policy_that_says_nothing_clear_is_refused(spec):
    with pytest.raises(ValueError, match="is not a policy"):
        LatePolicy.parse(spec)


# -- a real batch, to Canvas's gradebook ----------------------------------------------------

def test_a_flat_canvas_download_graded_by_a_real_batch_becomes_a_canvas_gradebook(tmp_path):
    visible = [n for n, m in LISTED.items() if m["visibility"] == "visible" and m["points"]]
    chosen = visible[0]
    cls = tmp_path / "download"
    write(cls / "smithjane_101_9001_harness.py", FINISHED)
    write(cls / "doejohn_late_102_9002_harness.py", FINISHED)  # right, and late
    write(cls / "roejim_103_9003_harness.py", STARTER)         # on time, its gaps empty
    write(cls / "instructions.pdf", "%PDF")                    # nobody's
    os.chmod(cls, 0o700)
    for path in cls.iterdir():
        os.chmod(path, 0o600)
    roster = write(tmp_path / "export.csv",
                   "Student,ID,SIS User ID,SIS Login ID,Section\n"
                   "    Points Possible,,,,\n"
                   "\"Smith, Jane\",101,S-101,jsmith,Lab A\n\"Doe, John\",102,S-102,jdoe,Lab A\n"
                   "\"=Roe, Jim\",103,S-103,jroe,Lab B\n")
    out = tmp_path / "graded"
    ran = subprocess.run(
        [sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--lesson", "10", "--batch",
         str(cls), "--output", str(out), "--jobs", "2", "-k", chosen.removeprefix("test_"),
         "--export", "canvas", "--roster", str(roster), "--assignment", "Lab 10 (4321)",
         "--due", "2026-12-01T23:59:00+00:00", "--late-policy", "50%/day"],
        capture_output=True, text=True, cwd=PROJECT, timeout=600)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert "gradebook-canvas.csv" in ran.stdout and "4 students, 1 late" in ran.stdout

    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    rows = {r["submission"]: r for r in summary["submissions"]}
    assert set(rows) == {"smithjane (101)", "doejohn (102)", "roejim (103)", "instructions.pdf"}
    worth = LISTED[chosen]["points"]
    assert rows["smithjane (101)"]["score"] == worth == rows["doejohn (102)"]["score"]
    assert rows["roejim (103)"]["score"] == 0
    assert rows["instructions.pdf"]["status"] == "not graded"
    assert "could not be told whose" in rows["instructions.pdf"]["problem"]

    column, possible, grades = gradebook.read_canvas(out / "gradebook-canvas.csv")
    assert column == "Lab 10 (4321)" and possible == manifest.total(LESSON)
    assert grades == {"Smith, Jane": ("101", f"{worth:g}"),
                      "Doe, John": ("102", f"{worth / 2:g}"),  # a day begun late: half off
                      "'=Roe, Jim": ("103", "0")}              # a formula never runs
    with open(out / "gradebook-canvas.csv", newline="", encoding="utf-8") as file:
        table = list(csv.DictReader(file))
    assert table[0]["Student"] == "Points Possible"
    assert sorted(r["SIS Login ID"] for r in table[1:]) == ["jdoe", "jroe", "jsmith"]
    assert {r["Section"] for r in table[1:]} == {"Lab A", "Lab B"}

    plain = list(csv.DictReader(io.StringIO((out / "gradebook.csv").read_text())))
    john = next(r for r in plain if r["student_id"] == "102")
    assert (john["late"], john["penalty"], john["final_score"]) == ("yes", f"{worth / 2:g}",
                                                                    f"{worth / 2:g}")
    assert "marked late by the LMS" in john["note"] and "50% off" in john["note"]
    nobody = next(r for r in plain if r["submission"] == "instructions.pdf")
    assert nobody["final_score"] == "", "a file no one handed in gets no grade"


def test_an_export_with_a_typo_fails_before_any_grading(tmp_path):
    (tmp_path / "c").mkdir()
    ran = subprocess.run(
        [sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--lesson", "10", "--batch",
         str(tmp_path / "c"), "--output", str(tmp_path / "o"), "--export", "canvas",
         "--late-policy", "10%/week"], capture_output=True, text=True, cwd=PROJECT, timeout=120)
    assert ran.returncode == 2 and "is not a policy" in ran.stderr
    assert not (tmp_path / "o").exists()


def test_every_command_the_instructor_guide_shows_from_download_to_gradebook_works(tmp_path):
    from lab import lab_check as cli
    import shlex

    readme = (PROJECT / "docs" / "instructor.md").read_text(encoding="utf-8")
    section = readme[readme.index("## From an LMS download to its gradebook"):
                     readme.index("## Proving a lesson")]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    lines = [line for line in block.splitlines() if line.strip()]
    assert [line.split()[0] for line in lines] == ["python", "chmod", "lab-check"], lines
    # the unzip, run for real on a Canvas-like zip: the files land flat, as the batch reads them
    zipped(tmp_path / "submissions.zip", {"smithjane_1_2_harness.py": b"x = 1\n"})
    for line in lines[:2]:
        ran = subprocess.run(shlex.split(line), cwd=tmp_path, capture_output=True, text=True,
                             timeout=60)
        assert ran.returncode == 0, (line, ran.stderr)
    assert (tmp_path / "download" / "smithjane_1_2_harness.py").is_file()
    assert not os.stat(tmp_path / "download").st_mode & 0o077
    args = cli.parser().parse_args(shlex.split(lines[2])[1:])
    assert args.batch and args.export == "canvas" and cli._mistake(args) is None
    write(tmp_path / "export.csv", "Student,ID\nA,1\n")
    args.roster = str(tmp_path / "export.csv")
    policy, due, roster = gradebook.check(args)
    assert policy.spec == "10%/day,max=50%" and due.utcoffset() == datetime.timedelta(hours=-5)


# -- late work on Gradescope ----------------------------------------------------------------

def gradescope_root(tmp_path, created, due, *own):
    """A Gradescope ROOT holding only submission_metadata.json: the assignment `due`, and a
    user for each of `own` (that student's own due date, or None for an entry without dates,
    as Gradescope's documentation shows a user); one such user when none is given."""
    users = [{"email": f"s{n}@example.com", "id": n, "name": f"Student {n}"} for n in
             range(max(len(own), 1))]
    for user, date in zip(users, own):
        if date:
            user["assignment"] = {"release_date": None, "due_date": date, "late_due_date": None}
    write(tmp_path / "submission_metadata.json", json.dumps({
        "id": 1, "created_at": created, "assignment": {"due_date": due, "late_due_date": None,
                                                       "title": "Lab 10", "total_points": "27"},
        "users": users}))
    return tmp_path


def test_gradescopes_submission_time_meets_the_declared_late_policy(tmp_path):
    results = {"tests": [{"score": 2, "max_score": 2}, {"score": 0, "max_score": 8}],
               "output": "Visible tests: ..."}
    policy = LatePolicy.parse("10%/day")
    late = gradescope_root(tmp_path / "late", "2026-12-03T10:00:00.123456-07:00",
                           "2026-12-01T23:00:00.000000-07:00")
    on_time = gradescope_root(tmp_path / "ok", "2026-12-01T22:59:00.000000-07:00",
                              "2026-12-01T23:00:00.000000-07:00")
    charged = autograder.late(results, late, policy)
    assert charged["score"] == 0  # 2 of 10 points, two days begun late: 2 points off
    assert charged["output"].startswith("Submitted after the assignment's due date") and \
        "20% off" in charged["output"]
    assert autograder.late(results, on_time, policy) == dict(results, extra_data={
        "due_date": "2026-12-01T23:00:00-07:00", "due_date_from": "the assignment's"})
    assert autograder.late(results, late, None) == results, "no policy: Gradescope's own"
    assert autograder.late(results, tmp_path / "nowhere", policy) == results


def test_a_group_is_due_at_its_latest_members_date_and_the_output_names_whose(tmp_path):
    results = {"score": 10.0, "tests": [{"score": 10, "max_score": 10}],
               "output": "Visible tests: ..."}
    policy = LatePolicy.parse("zero")
    due, ext = "2026-12-01T23:00:00-07:00", "2026-12-05T23:00:00-07:00"
    after = "2026-12-03T10:00:00-07:00"
    # one partner with an extension, one with the assignment's date, one listed without dates
    group = gradescope_root(tmp_path / "group", after, due, due, ext, None)
    alone = gradescope_root(tmp_path / "alone", after, due, due)  # own date = the assignment's
    earlier = gradescope_root(tmp_path / "earlier", "2026-12-01T20:00:00-07:00", due,
                              "2026-12-01T12:00:00-07:00")

    covered = autograder.late(results, group, policy)
    charged = autograder.late(results, alone, policy)
    own_earlier = autograder.late(results, earlier, policy)

    assert covered["score"] == 10, covered["output"]
    assert covered["output"].startswith("Submitted on time, by Student 1's due date, "
                                        "2026-12-05T23:00:00-07:00, the latest in your group")
    assert covered["extra_data"]["due_date_of"] == "Student 1"
    assert charged["score"] == 0 and "due_date_of" not in charged["extra_data"]
    assert own_earlier["score"] == 0, "a student's own date is theirs, earlier or later"
    first = own_earlier["output"].splitlines()[0]
    assert first.startswith("Submitted after your own due date, 2026-12-01T12:00:00-07:00 (the "
                            "assignment's is 2026-12-01T23:00:00-07:00)"), first


def test_a_released_autograder_carries_the_late_policy_to_run_autograder(tmp_path):
    from lab.release import gradescope

    made = gradescope.build(LESSON, tmp_path / "a.zip", late_policy="10%/day,max=30%")
    with zipfile.ZipFile(made) as archive:
        run = archive.read("run_autograder").decode()
    assert run.rstrip().endswith("--late-policy 10%/day,max=30%"), run
    assert autograder.main(["--lesson", "10", "--root", str(tmp_path), "--late-policy",
                            "often"]) == 2


def test_a_folder_of_nothing_but_files_no_lms_named_is_refused_as_the_wrong_folder(tmp_path):
    write(tmp_path / "alice.py")
    write(tmp_path / "notes.txt")
    with pytest.raises(ValueError, match="holds no submission folders") as refused:
        finder.in_class(tmp_path, staging=tmp_path / "st", skip=tmp_path / "out")
    assert "alice/harness.py" in str(refused.value) and "alice.py" in str(refused.value)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="holds no submission folders"):
        finder.in_class(tmp_path / "empty", staging=tmp_path / "st")


# -- Gradescope's export of a whole assignment ---------------------------------------------

# As Gradescope's "Export Submissions" lays it out: a folder per submission, and an index keyed
# by those folders (see lab.grader.finder.GRADESCOPE_EXPORT for where the form is documented).
EXPORT_INDEX = """\
submission_301:
  :submitters:
  - :name: Ada Lovelace
    :sid: '1815'
    :email: ada@example.edu
  :created_at: 2026-12-01 17:58:03.412000000 -05:00
  :score: 0.0
submission_302:
  :submitters:
  - :name: Grace Hopper
    :sid: '1906'
    :email: grace@example.edu
  :created_at: 2026-12-03 09:15:00.000000000 -05:00
  :score: 0.0
  :results: !ruby/hash:ActiveSupport::HashWithIndifferentAccess
    score: 0.0
"""


def test_a_gradescope_export_is_read_for_its_students_names_and_times(tmp_path):
    cls = tmp_path / "export"
    write(cls / "submission_301" / "harness.py", FINISHED)
    write(cls / "submission_302" / "harness.py", FINISHED)
    write(cls / "submission_303" / "harness.py", STARTER)  # not in the index: its folder's name
    write(cls / "submission_metadata.yml", EXPORT_INDEX)

    found = {one.sources[0]: one for one in finder.in_class(cls, staging=tmp_path / "s")}

    assert set(found) == {"submission_301", "submission_302", "submission_303"}
    ada = found["submission_301"]
    assert (ada.name, ada.lms, ada.student_id) == ("Ada Lovelace (submission_301)", "gradescope",
                                                   "1815")
    assert ada.submitted == datetime.datetime(2026, 12, 1, 22, 58, 3, 412000, tzinfo=UTC)
    assert found["submission_303"].name == "submission_303" and not found["submission_303"].lms
    write(cls / "submission_metadata.yml", ":- [ not yaml")  # unreadable: folders by name
    assert {one.name for one in finder.in_class(cls, staging=tmp_path / "s")} == set(found)


def test_a_gradescope_export_graded_by_a_real_batch_has_its_late_work_charged(tmp_path):
    chosen = next(n for n, m in LISTED.items() if m["visibility"] == "visible" and m["points"])
    cls = tmp_path / "export"
    write(cls / "submission_301" / "harness.py", FINISHED)
    write(cls / "submission_302" / "harness.py", FINISHED)
    # Grace's own upload beside her file: an autograder's metadata, in her words, on time
    write(cls / "submission_302" / "submission_metadata.json", json.dumps({
        "created_at": "2026-12-01T09:00:00-05:00", "assignment": {"due_date": "2099-01-01T00:00:00Z"}}))
    write(cls / "submission_metadata.yml", EXPORT_INDEX)
    os.chmod(cls, 0o700)
    out = tmp_path / "graded"
    ran = subprocess.run(
        [sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--lesson", "10", "--batch",
         str(cls), "--output", str(out), "--jobs", "2", "-k", chosen.removeprefix("test_"),
         "--export", "csv", "--due", "2026-12-01T23:59:00-05:00", "--late-policy", "50%/day"],
        capture_output=True, text=True, cwd=PROJECT, timeout=600)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]

    plain = {r["student_id"]: r for r in csv.DictReader(io.StringIO(
        (out / "gradebook.csv").read_text()))}
    worth = LISTED[chosen]["points"]
    assert set(plain) == {"1815", "1906"}
    assert plain["1815"]["student"] == "Ada Lovelace" and plain["1815"]["late"] == "no"
    assert plain["1815"]["final_score"] == f"{worth:g}"
    grace = plain["1906"]
    assert (grace["late"], grace["lms"]) == ("yes", "gradescope")
    assert grace["submitted"].startswith("2026-12-03T09:15:00")
    assert grace["final_score"] == "0", "two days begun late at 50% a day, whatever she uploaded"


def test_a_batch_of_gradescope_autograder_folders_charges_late_work_by_each_own_due_date(
        tmp_path):
    chosen = next(n for n, m in LISTED.items() if m["visibility"] == "visible" and m["points"])
    worth = LISTED[chosen]["points"]
    cls = tmp_path / "class"
    after = "2026-12-03T10:00:00-05:00"
    for name, own in (("ada", "2026-12-06T23:59:00-05:00"), ("bob", None)):
        write(cls / name / "submission" / "harness.py", FINISHED)
        gradescope_root(cls / name, after, "2026-12-01T23:59:00-05:00", own)
    os.chmod(cls, 0o700)
    out = tmp_path / "graded"
    argv = [sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--lesson", "10", "--batch",
            str(cls), "--output", str(out), "--jobs", "2", "-k", chosen.removeprefix("test_"),
            "--export", "csv", "--late-policy", "zero"]
    ran = subprocess.run(argv, capture_output=True, text=True, cwd=PROJECT, timeout=600)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    rows = {r["submission"]: r for r in csv.DictReader(io.StringIO(
        (out / "gradebook.csv").read_text()))}
    # again with a class-wide --due before Ada's extension: hers still outlasts it
    later = subprocess.run(argv + ["--resume", "--due", "2026-12-02T23:59:00-05:00"],
                           capture_output=True, text=True, cwd=PROJECT, timeout=600)
    assert later.returncode == 0, later.stdout[-3000:] + later.stderr[-3000:]
    again = {r["submission"]: r for r in csv.DictReader(io.StringIO(
        (out / "gradebook.csv").read_text()))}

    for table in (rows, again):
        assert (table["ada"]["late"], table["ada"]["final_score"]) == ("no", f"{worth:g}")
        assert "2026-12-06T23:59:00-05:00, Student 0's own (an extension)" in \
            table["ada"]["note"], table["ada"]
        assert (table["bob"]["late"], table["bob"]["final_score"]) == ("yes", "0")


def test_a_checkpoints_class_is_found_by_its_doctor_file_and_graded_by_a_real_batch(tmp_path):
    checkpoint = lessons.lesson("B")
    worth = manifest.total(checkpoint)
    cls = tmp_path / "class"
    write(cls / "alice" / "doctor.py", checkpoint.finished.read_text())
    write(cls / "alice" / "scratch.py", "# tried things here\n")  # not a second candidate
    write(cls / "bob" / "Doctor.py", checkpoint.finished.read_text())
    os.chmod(cls, 0o700)
    out = tmp_path / "graded"
    ran = subprocess.run(
        [sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--lesson", "B", "--batch",
         str(cls), "--output", str(out), "--jobs", "2"],
        capture_output=True, text=True, cwd=PROJECT, timeout=600)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]

    rows = {r["submission"]: r for r in json.loads((out / "summary.json").read_text())[
        "submissions"]}
    assert rows["alice"]["score"] == worth == rows["bob"]["score"], rows
    told = (out / rows["bob"]["feedback_file"]).read_text()
    assert "Graded Doctor.py as your doctor.py" in told, told
