"""A grader that fails in a batch is graded once more, and what it left is kept beside its row.

The failure is real and certain: a `sitecustomize` module, on the PYTHONPATH the batch hands
on to its graders, adds an audit hook (sys.addaudithook) to every Python the batch starts;
in the worker alone (the process that imports lab.worker.checks, after it has started
the sandbox) it writes a line on stderr and ends with exit status 1, with no frame sent: the
first N times, counted in a file. The batch, its grader and the worker are the real ones.
"""

import json
import os
import subprocess
import sys

from conftest import PROJECT
from lab.course import lesson_files as lessons
from lab.grader import batch

LESSON = lessons.lesson(10)
LAST_WORDS = "the worker's last words before it dies"
HOOK = '''
import os, sys

def _hook(event, args, _count={count!r}, _times={times}):
    if event == "import" and args and args[0] == "lab.worker.checks":
        with open(_count, "a+") as file:
            file.seek(0)
            if len(file.read()) >= _times:
                return
            file.write("x")
        sys.stderr.write({words!r} + "\\n")
        sys.stderr.flush()
        os._exit(1)

sys.addaudithook(_hook)
'''


# In the batch's own process (lab_check --batch): starting the grader's process for a
# submission fails as it does on a machine out of processes, the first N times.
NO_PROCESS = '''
import errno, sys

def _hook(event, args, _count={count!r}, _times={times}):
    if event == "subprocess.Popen" and "lab.grader.batch" in list(args[1] or ()):
        with open(_count, "a+") as file:
            file.seek(0)
            if len(file.read()) >= _times:
                return
            file.write("x")
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

sys.addaudithook(_hook)
'''


def batch_of_alice(tmp_path, times, hook=HOOK):
    """A batch of one finished harness whose worker dies `times` times before it grades (or
    whose grader cannot be started, with `hook` NO_PROCESS); (the run, its output folder)."""
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(hook.format(count=str(tmp_path / "deaths"),
                                                        times=times, words=LAST_WORDS))
    (tmp_path / "class" / "alice").mkdir(parents=True)
    (tmp_path / "class" / "alice" / "harness.py").write_text(LESSON.finished.read_text())
    out = tmp_path / "out"
    ran = subprocess.run(
        [sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--lesson", "10", "--batch",
         str(tmp_path / "class"), "--output", str(out), "-k", "orphan", "--seed", "1"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(hooks)})
    return ran, out


def test_a_worker_that_dies_once_is_graded_again_and_what_it_left_is_kept(tmp_path):
    ran, out = batch_of_alice(tmp_path, times=1)

    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    [row] = json.loads((out / "summary.json").read_text())["submissions"]
    assert row["status"] == "graded" and row["score"] == 2, row
    kept = (out / batch.failure_file("alice")).read_text()
    assert kept.startswith("attempt 1 of 2: the grading process ended (exit 1) without "
                           "reporting any result, while starting the sandbox and importing "
                           "pytest."), kept
    assert f"  | {LAST_WORDS}" in kept, kept
    assert "attempt 2" not in kept, kept


def test_a_worker_that_always_dies_is_reported_after_two_attempts_naming_what_it_left(tmp_path):
    ran, out = batch_of_alice(tmp_path, times=2)

    assert ran.returncode == 3, ran.stdout[-2000:] + ran.stderr[-2000:]
    [row] = json.loads((out / "summary.json").read_text())["submissions"]
    assert row["status"] == "grader failed" and row["exit_code"] == 3, row
    assert "while starting the sandbox and importing pytest" in row["problem"], row
    assert row["problem"].endswith(f"(what it left: {batch.failure_file('alice')})"), row
    kept = (out / batch.failure_file("alice")).read_text()
    assert kept.count(f"  | {LAST_WORDS}") == 2, kept
    assert "attempt 1 of 2" in kept and "attempt 2 of 2" in kept, kept
    assert (tmp_path / "deaths").read_text() == "xx"


def test_a_grader_that_could_not_be_started_once_is_started_again_and_the_error_is_kept(
        tmp_path):
    ran, out = batch_of_alice(tmp_path, times=1, hook=NO_PROCESS)

    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    [row] = json.loads((out / "summary.json").read_text())["submissions"]
    assert row["status"] == "graded" and row["score"] == 2, row
    kept = (out / batch.failure_file("alice")).read_text()
    assert kept.startswith("attempt 1 of 2: the batch could not grade it (BlockingIOError: "
                           "[Errno 11] Resource temporarily unavailable)"), kept
    assert "in _attempt" in kept, kept  # where it was raised: the traceback's last lines
    assert "attempt 2" not in kept, kept


def test_a_grader_that_can_never_be_started_is_reported_after_two_attempts_naming_the_error(
        tmp_path):
    ran, out = batch_of_alice(tmp_path, times=2, hook=NO_PROCESS)

    assert ran.returncode == 3, ran.stdout[-2000:] + ran.stderr[-2000:]
    [row] = json.loads((out / "summary.json").read_text())["submissions"]
    assert row["status"] == "grader failed" and "BlockingIOError" in row["problem"], row
    assert row["problem"].endswith(f"(what it left: {batch.failure_file('alice')})"), row
    kept = (out / batch.failure_file("alice")).read_text()
    assert kept.count("BlockingIOError") >= 2 and "attempt 2 of 2" in kept, kept
    assert (tmp_path / "deaths").read_text() == "xx"
