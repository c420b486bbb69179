"""Attacks on the grader as it is at the end of issue 21 (the finder of LMS downloads, the batch
and its gradebook, the sandbox's per-test cleanup), each graded by a real lab-check and held to
the verdict its own code deserves. The submissions are in tests/submissions/final/; a file there
whose first line is "# base: finished" (or starter) is that lesson-10 file with the rest of the
file appended, as the corpus's submissions are. /work/notes/attack_final.md has the findings."""

import csv
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from conftest import CACHES, LESSON_10, PROJECT

FINAL = PROJECT / "tests" / "submissions" / "final"
BASES = {"finished": LESSON_10 / "finished.py", "starter": LESSON_10 / "starter.py"}
SEED = 1
QUICK = "orphan"  # one test of lesson 10, worth 2 points: the finished file passes it, the starter not


def based(text):
    """A submission's text with its "# base: NAME" first line made that base's text."""
    first, _, rest = text.partition("\n")
    if first.startswith("# base: "):
        return BASES[first.removeprefix("# base: ").strip()].read_text() + "\n" + rest
    return text


def materialise(source, target):
    """The folder `source` of tests/submissions/final/ written out at `target`, bases filled in."""
    for path in sorted(source.rglob("*")):
        made = target / path.relative_to(source)
        if path.is_dir():
            made.mkdir(parents=True, exist_ok=True)
        else:
            made.parent.mkdir(parents=True, exist_ok=True)
            made.write_text(based(path.read_text()))
    return target


def lab_check(cwd, *args, env=None, timeout=300):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *args],
                          cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})})


def needs_bubblewrap():
    assert shutil.which("bwrap"), "bubblewrap is not installed (Debian: apt-get install bubblewrap)"


def gradebook(out):
    with open(out / "gradebook.csv", newline="", encoding="utf-8") as file:
        return {row["student"]: row for row in csv.DictReader(file)}


# -- a Blackboard file name that claims another attempt ------------------------------------------

def test_a_blackboard_file_name_cannot_redate_an_attempt_or_hand_a_classmate_another_file(
        tmp_path):
    """Blackboard names a file "<assignment>_<user>_attempt_<time>_<the student's file name>",
    and the student's file name is the student's: mallory handed in, two days late, a
    finished harness named "x_mallory_attempt_2026-11-30-10-00-00_harness.py" (to pass as an
    attempt of hers before the due date) and a starter named "x_bob_attempt_2099-..._harness.py"
    (to pass as bob's latest attempt). Each must be hers, of her real attempt's time: late,
    and zero under a policy of zero; bob keeps his own finished file's full marks."""
    needs_bubblewrap()
    download = materialise(FINAL / "blackboard_forged_attempt", tmp_path / "download")
    out = tmp_path / "graded"

    ran = lab_check(tmp_path, "--lesson", "10", "--batch", str(download), "--output", str(out),
                    "--seed", str(SEED), "-k", QUICK, "--jobs", "2", "--export", "csv",
                    "--due", "2026-12-02T00:00Z", "--late-policy", "zero")

    assert ran.returncode == 0, ran.stdout + ran.stderr
    book = gradebook(out)
    assert book["alice"]["final_score"] == "2" and book["alice"]["late"] == "no", book["alice"]
    assert book["bob"]["final_score"] == "2", f"bob was handed mallory's file: {book['bob']}"
    assert book["bob"]["submitted"].startswith("2026-12-01T09:00"), book["bob"]
    mallory = book["mallory"]
    assert mallory["late"] == "yes" and mallory["final_score"] == "0", mallory
    assert mallory["submitted"].startswith("2026-12-03T10:00"), mallory


# -- state a test leaves in the kernel's keyrings ---------------------------------------------

def lab_check_one(tmp_path, name, *args, env=None):
    """A real lab-check of tests/submissions/final/<name> as a student's harness.py."""
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "harness.py").write_text(based((FINAL / name).read_text()))
    return lab_check(folder, "--harness", "harness.py", "--lesson", "10", "--seed", str(SEED),
                     *args, env=env)


def test_a_key_left_in_the_kernels_keyrings_is_not_there_for_the_next_test(tmp_path):
    needs_bubblewrap()

    ran = lab_check_one(tmp_path, "keeps_a_key_between_tests.py", "--time-limit", "3",
                        "-k", "orphan or steering or late")

    said = ran.stdout + ran.stderr
    assert "found the key" not in said, said[-3000:]
    assert ran.returncode == 0 and "3 passed, 0 failed" in said, said[-3000:]


# -- a zip whose directory lists more entries than the grader should ever parse ---------------

def entries_zip(path, count=1_200_000):
    """A zip of `count` entries (about 56 MB: under the 64 MiB a zip may be), each a central
    directory record of one byte's name pointing at the one shared local header: zipfile parses
    every record into an object before any can be counted."""
    import struct

    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 0, 0, 0, 0, 0, 0, 1, 0) + b"a"
    record = struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, 1, 0,
                         0, 0, 0, 0, 0) + b"a"
    directory = record * count
    end = len(local) + len(directory)
    path.write_bytes(local + directory
                     + struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count,
                                   len(directory), len(local))
                     + struct.pack("<4sLQL", b"PK\x06\x07", 0, end, 1)
                     + struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF,
                                   0xFFFFFFFF, 0xFFFFFFFF, 0))
    return path


def test_a_zip_of_a_million_entries_is_refused_before_the_grader_parses_them(tmp_path):
    """Gradescope's autograder, given a submission that is such a zip, spent 24 s and 460 MB
    parsing its directory (a batch: twice, once to grade and once to export) before it said the
    zip holds too many files; under a memory limit of a small grading container it died without
    a result. It must say so at once, within that limit."""
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    entries_zip(root / "submission" / "lab.zip")
    limit = 300 * 2**20

    def confine():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    ran = subprocess.run([sys.executable, "-m", "lab.release.autograder", "--lesson", "10",
                          "--root", str(root)], cwd=PROJECT, capture_output=True, text=True,
                         timeout=120, preexec_fn=confine, stdin=subprocess.DEVNULL)

    results = root / "results" / "results.json"
    assert ran.returncode == 0 and results.is_file(), ran.stdout[-2000:] + ran.stderr[-2000:]
    import json
    said = json.loads(results.read_text())
    assert said["score"] == 0 and "holds more than 10000 files" in said["output"], said


# -- a roster whose ids of one kind are another student's ids of another ----------------------

def test_a_canvas_id_that_is_another_students_sis_id_still_names_its_own_student(tmp_path):
    """Canvas's user ids and a school's SIS ids are both numbers: Ada's Canvas id 200 is
    Charles's SIS User ID. The roster looked up 200 in every id column at once, the first row
    that had it anywhere winning, so Ada's full marks were exported as Charles's (his Canvas ID
    on the line), and Ada got nothing. A Canvas id names the student whose ID it is."""
    needs_bubblewrap()
    from lab.grader import gradebook as book

    case = materialise(FINAL / "canvas_ids_that_are_also_sis_ids", tmp_path / "case")
    out = tmp_path / "graded"

    ran = lab_check(tmp_path, "--lesson", "10", "--batch", str(case / "download"),
                    "--output", str(out), "--seed", str(SEED), "-k", QUICK, "--jobs", "2",
                    "--export", "canvas", "--roster", str(case / "roster.csv"))

    assert ran.returncode == 0, ran.stdout + ran.stderr
    _, _, grades = book.read_canvas(out / book.CANVAS_FILE)
    assert grades == {"Lovelace, Ada": ("200", "2"), "Babbage, Charles": ("100", "0")}, grades


# -- the class's seed, where a submission can read it -------------------------------------------



def test_a_batch_without_namespaces_keeps_the_class_seed_off_every_command_line(tmp_path):
    """uid mode, as root with bubblewrap hidden (LAB_ISOLATION=uid): a submission reads
    /proc/PID/cmdline of the instructor's `lab-check --batch ... --seed 873301`, which every user
    can read there, and with the class's seed every test's input. The batch refuses a seed on
    its command line in that mode, saying how to give it (LAB_SEED, an environment only its
    owner reads); given so, the submission finds no seed and scores what its code deserves."""
    import plain_user

    if os.geteuid() != 0 or plain_user.available():
        pytest.skip(f"no uid grading here: {plain_user.available() or 'not root'}")
    tmp_path.chmod(0o755)
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns(*CACHES))
    for folder in [tmp_path, *(p for p in project.rglob("*") if p.is_dir())]:
        folder.chmod(0o755)
    python, _ = plain_user.environment(project)
    project.chmod(0o750)
    batch = tmp_path / "submissions" / "mallory"
    batch.mkdir(parents=True)
    (batch / "harness.py").write_text(based((FINAL / "reads_the_batch_command_line.py")
                                            .read_text()))
    subprocess.run(["chmod", "-R", "o-rwx", str(batch.parent)], check=True)
    out = tmp_path / "graded"

    def graded(*seed, env=()):
        return subprocess.run([python, str(project / "lab" / "lab_check.py"), "--lesson", "10",
                               "--batch", str(batch.parent), "--output", str(out), *seed,
                               "--seed-per-student", "-k", QUICK], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300,
                              stdin=subprocess.DEVNULL,
                              env={**os.environ, "LAB_ISOLATION": "uid", **dict(env)})

    shown = graded("--seed", "873301")
    assert shown.returncode != 0 and "LAB_SEED=N" in shown.stderr, shown.stdout + shown.stderr
    assert "Traceback" not in shown.stderr and not (out / "summary.csv").exists(), shown.stderr

    hidden = graded(env={"LAB_SEED": "873301"})

    assert hidden.returncode == 0, hidden.stdout + hidden.stderr
    with open(out / "summary.csv", newline="") as file:
        row = next(csv.DictReader(file))
    assert row["isolation"] == "uid", row
    assert row["score"] == "2", f"the submission read the seed: {row['problem']}"
    import json
    assert json.loads((out / "summary.json").read_text())["seed"] == 873301, \
        "expected the batch to be graded with the seed LAB_SEED gave"


def test_no_feedback_shows_the_seed_a_resubmission_will_be_graded_with(tmp_path):
    """The feedback handed to a student printed the seed it was graded with, and --only, for a
    student who resubmits, keeps the batch's seed (so does --resume for a late one, and in the
    class's seed mode every classmate's feedback showed the same seed). A seed known before the
    grading makes every visible test's input known (the variation is
    random.Random(f"{seed}:{test name}") over the edition's own tests.py), and so a table of
    answers worth every visible point. No feedback may show the seed of a grading to come."""
    needs_bubblewrap()
    folder = tmp_path / "submissions" / "mallory"
    folder.mkdir(parents=True)
    (folder / "harness.py").write_text(BASES["starter"].read_text())
    out = tmp_path / "graded"
    common = ("--lesson", "10", "--batch", str(folder.parent), "--output", str(out), "-k", QUICK)
    first = lab_check(tmp_path, *common, "--seed", "2026")
    assert first.returncode == 0, first.stdout + first.stderr
    feedback = next((out / "feedback").iterdir()).read_text()

    (folder / "harness.py").write_text(BASES["starter"].read_text() + "\n# resubmitted\n")
    again = lab_check(tmp_path, *common, "--only", "mallory")

    assert again.returncode == 0, again.stdout + again.stderr
    import json
    row = json.loads((out / "summary.json").read_text())["submissions"][0]
    assert "0 of 2 points" in feedback and row["score"] == 0, (feedback, row)
    assert f"seed {row['seed']}" not in feedback, \
        f"the feedback showed the seed {row['seed']} the resubmission was graded with"


# -- what the export prints, and who may read what it writes ------------------------------------

def test_the_export_shows_a_roster_name_escaped_and_keeps_the_gradebook_to_its_owner(tmp_path):
    """A name in the roster (which the LMS took from what a student typed as their name) holds
    a terminal's escape codes: one that retitles the window, one that clears the screen. The
    export printed it as it was among the students Canvas could not match; and it wrote the
    gradebook, every student's grade, readable by every user of the machine (the results are
    the instructor's alone)."""
    needs_bubblewrap()
    case = materialise(FINAL / "a_roster_name_with_terminal_escapes", tmp_path / "case")
    out = tmp_path / "graded"

    ran = lab_check(tmp_path, "--lesson", "10", "--batch", str(case / "download"),
                    "--output", str(out), "--seed", str(SEED), "-k", QUICK, "--export", "canvas",
                    "--roster", str(case / "roster.csv"))

    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "could not match" in ran.stdout and "\\x1b[2JEve" in ran.stdout, ran.stdout
    assert "\x1b" not in ran.stdout + ran.stderr, "an escape code reached the terminal"
    for name in ("gradebook.csv", "gradebook-canvas.csv"):
        assert not os.stat(out / name).st_mode & 0o077, f"{name} is readable by others"
