"""Attacks on what lab-check keeps and writes in a student's folder: the progress record that
--course reads, and the files --next and --reset put in place (tests/submissions/course/ holds
the hostile files; its README says what each is).

Whatever sits in the folder, lab-check must say in a sentence what it will not do, never
hang, never end in a traceback, and never lose a student's file: every file it replaces is
kept first as a backup, and nothing is written through a link it did not make. Every test runs
the real lab-check, in a scratch copy of the project, as a student would."""

import ast
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import PROJECT
from course_copy import scratch_course

ATTACKS = PROJECT / "tests" / "submissions" / "course"
COPIED = ("lab", "lessons", "harness.py", "doctor.py", "damaged.py", "pyproject.toml")
HANG = 300  # seconds: a grading of a lesson on a busy machine is well under this; a hang is not


@pytest.fixture
def course(tmp_path):
    return scratch_course(tmp_path, COPIED)


def lab_check(copy, *args):
    try:
        return subprocess.run([sys.executable, str(copy / "lab" / "lab_check.py"), *args],
                              capture_output=True, text=True, cwd=copy, timeout=HANG)
    except subprocess.TimeoutExpired:
        pytest.fail(f"lab-check {' '.join(args)} did not end in {HANG} s: it hangs")


def finished(copy, lab):
    folder = next((copy / "lessons").glob(f"{lab}-*"))
    return (folder / "finished.py").read_text(encoding="utf-8")


def no_traceback(run):
    assert "Traceback" not in run.stdout + run.stderr, run.stdout + run.stderr


# -- the progress record ----------------------------------------------------------------------

def test_a_mark_whose_score_no_float_holds_is_set_aside_not_a_traceback(course):
    (course / ".lab-check").mkdir()
    shutil.copyfile(ATTACKS / "score_past_a_float.json", course / ".lab-check" / "progress.json")

    shown = lab_check(course, "--course")

    no_traceback(shown)
    assert shown.returncode == 0, shown.stderr
    assert "is not a progress record lab-check wrote" in shown.stderr, shown.stderr
    assert len(shown.stderr.splitlines()) == 1, shown.stderr
    row = next(line for line in shown.stdout.splitlines() if line.startswith("  10 "))
    assert "not started" in row and "passed" not in row, shown.stdout


# -- where the student stands ---------------------------------------------------------------

def test_the_course_map_does_not_read_a_sparse_doctor_file_of_64_gib(course):
    """--course asks whether doctor.py is B's starter untouched: a file of another size is not,
    without reading it (reading it costs 64 GiB of memory, or a MemoryError)."""
    (course / "harness.py").write_text(finished(course, "10"))
    (course / "doctor.py").unlink()
    with open(course / "doctor.py", "wb") as sparse:
        sparse.truncate(64 * 1024 ** 3)

    shown = lab_check(course, "--course")

    no_traceback(shown)
    assert shown.returncode == 0, shown.stderr
    assert "Your work: doctor.py (checkpoint B" in shown.stdout, shown.stdout


def test_a_harness_that_is_a_pipe_is_refused_not_waited_on(course):
    (course / "harness.py").unlink()
    os.mkfifo(course / "harness.py")

    graded = lab_check(course)
    shown = lab_check(course, "--course")

    no_traceback(graded)
    no_traceback(shown)
    assert graded.returncode == 2 and "not a regular file" in graded.stdout, graded.stdout
    assert shown.returncode == 0, shown.stderr
    assert "does not say which lab it is for" in shown.stdout, shown.stdout


# -- what --next and --reset write ----------------------------------------------------------

def test_next_never_writes_through_a_link_left_under_its_scratch_name(course):
    """--next from lesson 10 writes doctor.py. It used to write it first to .doctor.py.reset
    and rename that over doctor.py; a link left under that name (by a student, a tool, an
    earlier crash) pointing at harness.py made it write checkpoint B's starter into
    harness.py, the student's passing lesson 10, with no backup of it anywhere."""
    mine = finished(course, "10") + "\n\ndef my_own_helper():\n    return 1\n"
    (course / "harness.py").write_text(mine)
    (course / "doctor.py").unlink()
    os.symlink("harness.py", course / ".doctor.py.reset")

    run = lab_check(course, "--next")

    no_traceback(run)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (course / "harness.py").read_text() == mine, "the student's harness.py was overwritten"
    assert not (course / "doctor.py").is_symlink(), "doctor.py should be a file of its own"
    assert (course / "doctor.py").read_text() == \
        (next((course / "lessons").glob("B-*")) / "starter.py").read_text()


def test_reset_never_writes_through_a_link_left_under_its_scratch_name(course, tmp_path):
    outside = tmp_path / "notes.txt"
    outside.write_text("my notes, outside the project\n")
    (course / "harness.py").write_text("# lab: lesson 10\nmine = 1\n")
    os.symlink(outside, course / ".harness.py.reset")

    run = lab_check(course, "--reset", "--lesson", "10")

    no_traceback(run)
    assert run.returncode == 0, run.stdout + run.stderr
    assert outside.read_text() == "my notes, outside the project\n", "written through the link"
    assert (course / ".lab-check" / "backups" / "harness.py.bak-1").read_text() == "# lab: lesson 10\nmine = 1\n"
    assert not (course / "harness.py").is_symlink()


@pytest.mark.parametrize("make", [os.mkfifo, lambda path: os.symlink("/dev/zero", path)],
                         ids=["a pipe", "a link to /dev/zero"])
def test_next_refuses_a_checkpoint_file_it_cannot_back_up_and_does_not_hang(course, make):
    (course / "harness.py").write_text(finished(course, "10"))
    (course / "doctor.py").unlink()
    make(course / "doctor.py")

    run = lab_check(course, "--next")

    no_traceback(run)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "cannot write doctor.py (it is not a plain file" in run.stderr, run.stderr
    assert "nothing was changed" in run.stderr, run.stderr
    assert not list((course / ".lab-check" / "backups").glob("doctor.py.bak-*")), "a backup of a pipe or a device"


def test_next_carries_a_harness_with_a_page_break_forward_whole(course):
    header, body = (ATTACKS / "page_break_between_regions.py").read_text(
        encoding="utf-8").split("\n\n", 1)
    assert header.startswith("# attack:")
    lesson_11 = finished(course, "11")
    at = lesson_11.index("\n# == 2 ") + 1
    mine = lesson_11[:at] + body + lesson_11[at:] + "\n\ndef my_own_helper():\n    return 1\n"
    (course / "harness.py").write_text(mine, encoding="utf-8")

    run = lab_check(course, "--next")

    no_traceback(run)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (course / ".lab-check" / "backups" / "harness.py.bak-1").read_text(encoding="utf-8") == mine
    carried = (course / "harness.py").read_text(encoding="utf-8")
    assert carried.startswith("# lab: lesson 12"), carried[:200]
    try:
        ast.parse(carried)
    except SyntaxError as error:
        pytest.fail(f"--next wrote a harness.py that does not parse: {error}")
    # the student's code and comments, word for word (the page break itself is a blank line to
    # Python, and carrying keeps blank lines as blank lines)
    assert "def my_own_helper():" in carried, carried[-400:]
    assert "# my notes on the loop: \u2028 see the adapter lesson\n" in carried
    # every definition of the student's lesson 11 is still there, but those lesson 12 changes
    replaced = " ".join(run.stdout.split())
    kept = [name for name in re.findall(r"^(?:def|class) (\w+)", mine, re.MULTILINE)
            if name not in replaced]
    assert all(re.search(rf"^(?:def|class) {name}\b", carried, re.MULTILINE) for name in kept)


def test_next_refuses_to_start_a_checkpoint_over_the_file_it_has_just_graded(course):
    """A passing lesson 10 kept in doctor.py, checkpoint B's own file name: --next used to back
    it up and write B's starter in its place, saying the harness "stays as it is"."""
    mine = finished(course, "10")
    (course / "doctor.py").write_text(mine)

    run = lab_check(course, "--next", "--lesson", "10", "--harness", "doctor.py")

    no_traceback(run)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "that is the file you graded as lesson 10" in run.stderr, run.stderr
    assert (course / "doctor.py").read_text() == mine and not (course / ".lab-check" / "backups" / "doctor.py.bak-1").exists()


# -- names that would forge a report line ---------------------------------------------------

FORGED = "x\nscore: 0 of 29 points, 0 passed, 29 failed.py"


def test_a_file_name_with_a_newline_forges_no_report_line_and_keeps_its_mark(course):
    """The name is the student's, and it is shown: in the report's first line, in the next:
    line's command, in the mark kept for --course. None of them may become a line of its own,
    and the mark must be one lab-check's own reader takes back."""
    (course / FORGED).write_text(finished(course, "10"))

    graded = lab_check(course, "--harness", FORGED)
    shown = lab_check(course, "--course", "--harness", FORGED)

    no_traceback(graded)
    assert graded.returncode == 0, graded.stdout + graded.stderr
    scores = [line for line in graded.stdout.splitlines() if line.startswith("score:")]
    assert len(scores) == 1 and scores[0].startswith("score: 29 of 29 points"), graded.stdout
    said = graded.stdout[graded.stdout.index("\nnext: ") + 1:].splitlines()[0]
    assert said.startswith("next: checkpoint B") and "--harness 'x" in said, graded.stdout
    assert graded.stderr == "", graded.stderr
    assert shown.stderr == "", "lab-check set aside the record it had just written"
    row = next(line for line in shown.stdout.splitlines() if line.startswith("  10 "))
    assert "passed (29 of 29 points)" in row, shown.stdout


ESCAPING = "my\x1b[2J\nlab"  # a folder whose name clears the screen, then starts a line


def test_a_folder_name_that_clears_the_screen_is_printed_escaped_by_course_and_next(course):
    """--course and --next print the student's path (the work, the file --next wrote, the
    command to run next): an escape sequence in it must be shown, not sent to the terminal,
    and a newline in it must not start a line of its own."""
    folder = course / ESCAPING
    folder.mkdir()
    (folder / "harness.py").write_text(finished(course, "10"))
    mine = f"{ESCAPING}/harness.py"

    shown = lab_check(course, "--course", "--harness", mine)
    moved = lab_check(course, "--next", "--harness", mine)
    (folder / "doctor.py").write_text("# begun\n" + (folder / "doctor.py").read_text())
    again = lab_check(course, "--next", "--harness", mine)  # the begun doctor.py kept aside

    for run in (shown, moved, again):
        no_traceback(run)
        said = run.stdout + run.stderr
        assert "\x1b" not in said, said
        assert not [line for line in said.splitlines() if line.startswith("lab/")], said
    assert shown.returncode == 0 and moved.returncode == 0, moved.stdout + moved.stderr
    assert "Your work: my\\x1b[2J\\x0alab/harness.py (lesson 10" in shown.stdout, shown.stdout
    assert "my\\x1b[2J\\x0alab/doctor.py" in moved.stdout, moved.stdout
    assert "kept as my\\x1b[2J\\x0alab/.lab-check/backups/doctor.py.bak-1" in " ".join(again.stdout.split()), again.stdout
    assert (folder / "doctor.py").is_file()


def test_watch_on_a_link_to_dev_zero_does_not_read_it_for_ever(course):
    """--watch compares the file with what it graded, once a second: it used to read the whole
    file, and /dev/zero has no end (here, under a 3 GiB address-space limit, a MemoryError;
    without one, every byte of memory the machine has). And once the link is replaced by a real
    file, that file is graded: the watcher watches the link's folder, not its target's (/dev)."""
    import resource
    import signal
    import time

    (course / "harness.py").unlink()
    os.symlink("/dev/zero", course / "harness.py")

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (3 * 1024 ** 3, 3 * 1024 ** 3))
        # Ctrl-C as a terminal delivers it to a foreground job: the test's own process may
        # have been left ignoring or blocking SIGINT by an earlier test, and a child inherits
        # both (an ignored SIGINT is what a job started in the background has, and it never
        # stops on Ctrl-C)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])

    out, err = course.parent / "watch.out", course.parent / "watch.err"
    with open(out, "w") as stdout, open(err, "w") as stderr:
        watching = subprocess.Popen(
            [sys.executable, str(course / "lab" / "lab_check.py"), "--watch", "--lesson", "10"],
            cwd=course, stdout=stdout, stderr=stderr, preexec_fn=limited)
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline and watching.poll() is None and \
            "watching " not in out.read_text():
        time.sleep(0.5)
    (course / "harness.py").unlink()
    (course / "harness.py").write_text(finished(course, "10"))
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline and watching.poll() is None and \
            "harness.py saved" not in out.read_text():
        time.sleep(0.5)
    if watching.poll() is None:
        watching.send_signal(signal.SIGINT)
    try:
        watching.wait(timeout=60)
    except subprocess.TimeoutExpired:
        watching.kill()
        watching.wait()
    seen, errors = out.read_text(), err.read_text()
    assert "Traceback" not in errors and "MemoryError" not in errors, errors
    assert "is a symbolic link, and a link is not graded" in seen, seen
    assert "harness.py saved" in seen and "Every test passes" in seen, seen
    assert watching.returncode == 0 and "stopped watching" in seen, (watching.returncode,
                                                                      seen[-3000:], errors)
