"""Attacks on what issue 21 added last (the kept worker of --watch, the zygote's fork ahead, the
check a checkpoint's copy makes before hand-in) and on the frames the worker sends the host,
each graded by a real lab-check and held to the verdict its own code deserves. The
submissions are in tests/submissions/final2/; a file there whose first line is
"# base: finished" (or starter, or A) is that file (lesson 10's, or checkpoint A's finished
doctor) with the rest appended. /work/notes/attack_final2.md has the findings."""

import os
import shutil
import subprocess
import sys

import pytest

from conftest import LESSON_10, PROJECT

FINAL2 = PROJECT / "tests" / "submissions" / "final2"
CHECKPOINT_A = next((PROJECT / "lessons").glob("A-*"))
BASES = {"finished": LESSON_10 / "finished.py", "starter": LESSON_10 / "starter.py",
         "A": CHECKPOINT_A / "finished.py"}
SEED = 1


def based(text):
    """A submission's text with its "# base: NAME" first line made that base's text."""
    first, _, rest = text.partition("\n")
    if first.startswith("# base: "):
        return BASES[first.removeprefix("# base: ").strip()].read_text() + "\n" + rest
    return text


def run(command, cwd, timeout):
    """`command`'s run; one that outlasts `timeout` seconds is killed and comes back with
    returncode None, so that a test can say it hung rather than die of the timeout."""
    try:
        return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as hung:
        said = hung.stdout.decode(errors="replace") if isinstance(hung.stdout, bytes) else ""
        return subprocess.CompletedProcess(command, None, said, "")


def needs_bubblewrap():
    assert shutil.which("bwrap"), "bubblewrap is not installed (Debian: apt-get install bubblewrap)"


def lab_check_one(tmp_path, name, *args, timeout=120):
    """A real lab-check of tests/submissions/final2/<name> as a lesson-10 harness.py."""
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "harness.py").write_text(based((FINAL2 / name).read_text()))
    return run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--harness", "harness.py",
                "--lesson", "10", "--seed", str(SEED), *args], folder, timeout)


# -- the check a checkpoint's copy makes before hand-in ------------------------------------------

@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    """Checkpoint A's student edition, as `lab-check --release A` makes it."""
    folder = tmp_path_factory.mktemp("A") / "edition"
    made = run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--release", "A",
                "--output", str(folder)], PROJECT, 120)
    assert made.returncode == 0, made.stdout + made.stderr
    return folder


@pytest.mark.parametrize("name", ["diagnosis_names_a_list.py",
                                  "diagnosis_of_three_million_quotes.py"])
def test_a_checkpoint_copy_says_a_diagnosis_that_is_no_id_is_none_whatever_it_is(edition, name):
    """The copy's check before hand-in (checkup.readiness, run in the worker on what the file
    returns) looked a list up among the ideas' ids (TypeError: the worker died, "the grader
    broke", exit 3), and wrote a string it does not know, whole, in its sentence (3 MB of
    quotes, 6 MB of repr: a frame larger than the host reads, and the host waited for the
    worker until the grading's ceiling, about 20 minutes). Either is a DIAGNOSIS naming no
    idea, said in a line."""
    needs_bubblewrap()
    (edition / name).write_text(based((FINAL2 / name).read_text()))
    try:
        checked = run([sys.executable, str(edition / "lab" / "lab_check.py"), "--harness", name,
                       "--lesson", "A"], edition, 60)
    finally:
        (edition / name).unlink()

    said = checked.stdout + checked.stderr
    assert checked.returncode is not None, "lab-check hung (killed after 60 s)"
    assert checked.returncode == 2, said[-2000:]
    assert "Not ready to hand in: 1 thing" in said and 'DIAGNOSIS["auk"] is ' in said, said[-2000:]
    assert len(said) < 10_000, f"{len(said)} characters printed for one wrong id"


# -- a report the host cannot read ----------------------------------------------------------------

def test_a_report_of_long_exceptions_still_reaches_the_host(tmp_path):
    """Every test raises an exception of 30000 emoji, its clipping in the sandbox undone (the
    student's code shares that process). The host's report frame was over 4 MiB (each test's
    message kept at 20000 characters, twelve bytes of JSON each), the host refused it, and
    then waited for the worker, blocked writing the rest, until the grading's ceiling (36
    minutes at the default time limit). Deserved: every test fails, as the student's, in
    seconds."""
    needs_bubblewrap()

    ran = lab_check_one(tmp_path, "raises_a_page_of_emoji.py", timeout=60)

    said = ran.stdout + ran.stderr
    assert ran.returncode is not None, "lab-check hung (killed after 60 s)"
    assert ran.returncode == 1 and "0 of 29 points, 0 passed, 22 failed" in said, said[-2000:]


# -- the pid counter, one test to the next --------------------------------------------------------

def test_a_test_cannot_choose_the_next_tests_pid(tmp_path):
    """marks_the_pid_counter.py fails a test whose pid is 977 mod 1024, and uses up pids
    (threads) until the next process forked in the sandbox would get such a pid: each test's
    process would mark the next one's, were they in one pid namespace. Each has one of its own
    (inside/pidns.py). Deserved: 3 passed, as the finished file."""
    needs_bubblewrap()

    ran = lab_check_one(tmp_path, "marks_the_pid_counter.py", "-k", "orphan or steering or late")

    said = ran.stdout + ran.stderr
    assert "left its mark in the pid counter" not in said, said[-3000:]
    assert ran.returncode == 0 and "3 passed, 0 failed" in said, said[-3000:]
