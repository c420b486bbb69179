"""Nothing a test's process can name and keep in the kernel reaches the next test, in any mode,
and none of it outlives the grading.

tests/submissions/channels/keeps_kernel_objects.py probes every such place as each test's
process imports it (System V shared memory, semaphores and queues; a POSIX message queue;
files in /dev/shm, /tmp and the scratch folder; an abstract and a path socket; a lock on a
file of the Python runtime; the keyrings; the pid counter), fails its import naming each place
where an earlier test left a mark, and leaves its own mark in each (a process left running
holds the sockets and the lock). First it is run twice with nothing around it, to show that
the second run finds every mark the first left: the probes can fail. Then it is graded by a
real lab-check in every mode this machine has (see test_untrusted.py): every test passes, so
each place was per test, refused or cleared; and afterwards none of its marks is on the
machine.
"""

import json
import os
import pathlib
import platform
import shutil
import subprocess
import sys
import tempfile

import pytest

import plain_user
from conftest import CACHES, PROJECT
from test_untrusted import BASES, IS_ROOT, MODES, SEED, Mode, lab_check, submission_folder
from lab.sandbox import refusals
from lab.worker.tidy import remove_tree

PROBE = PROJECT / "tests" / "submissions" / "channels" / "keeps_kernel_objects.py"
NAME = "lab-kernel-mark"  # the probe's name for every mark
KEY = 0x1AB5EEE           # its System V key
PLACES = {"System V shared memory", "System V semaphores", "System V message queue",
          "POSIX message queue", "POSIX shared memory (/dev/shm)", "/tmp", "the scratch folder",
          "abstract socket", "path socket", "a lock on a file every sandbox sees", "keyrings",
          "pids"}
SOME = "orphan or steering or late"  # three tests, and the import check before them
TIME_LIMIT = 20  # seconds an answer may take: the probe's import does much, on a busy machine
# test_untrusted's modes, and root with no sandbox at all: every way this machine can grade
# (uid as a plain user is refused: only root can run code as another user).
KERNEL_MODES = [*MODES, *([Mode("none as root", "root", "none")] if IS_ROOT else [])]


def test_the_probe_finds_every_mark_an_earlier_run_left_when_nothing_closes_the_places():
    """Two runs of the probe one after the other, in a bubblewrap of their own with nothing of
    the grader's (no filter, one pid namespace, one /tmp): the second finds all twelve."""
    assert shutil.which("bwrap"), "bubblewrap is not installed (apt-get install bubblewrap)"
    folder = pathlib.Path(tempfile.mkdtemp(prefix="lab-probe-"))
    try:
        (folder / "scratch").mkdir()
        run = f"{sys.executable} {PROBE} {folder / 'scratch'}"
        done = subprocess.run(
            ["bwrap", "--unshare-all", "--unshare-user", "--die-with-parent", "--ro-bind", "/",
             "/", "--tmpfs", "/tmp", "--bind", str(folder), str(folder), "--dev", "/dev",
             "--tmpfs", "/dev/shm", "--proc", "/proc", "sh", "-c", f"{run}; {run}; true"],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    finally:
        remove_tree(folder)
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first == [], done.stdout + done.stderr
    assert set(second) == PLACES, done.stdout + done.stderr


@pytest.fixture(scope="module")
def projects():
    """(project, python) for each kind of runner: root's own project; a copy closed to
    others and a Python anyone may read (uid); the plain user's copy (plain_user.py)."""
    parent = pathlib.Path(tempfile.mkdtemp(prefix="lab-kernel-"))
    parent.chmod(0o755)
    try:
        closed = parent / "project"
        shutil.copytree(PROJECT, closed, ignore=shutil.ignore_patterns(*CACHES))
        python = None
        if not plain_user.available():
            python, _ = plain_user.environment(closed)
        closed.chmod(0o750)
        yield {"uid": (closed, python), "": (PROJECT, None)}
    finally:
        remove_tree(parent)


@pytest.mark.parametrize("mode", KERNEL_MODES, ids=lambda mode: mode.name)
def test_no_kernel_object_crosses_from_one_test_to_the_next_nor_outlives_the_grading(
        mode, projects):
    why = mode.unavailable()
    if why:
        pytest.skip(f"no grading {mode.name} here: {why}")
    project, python = projects["uid" if mode.isolation == "uid" else ""]
    parent = pathlib.Path(tempfile.mkdtemp(prefix="lab-kernel-student-"))
    try:
        parent.chmod(0o755)
        folder = submission_folder(parent / "student", BASES["finished"].read_text() + "\n"
                                   + PROBE.read_text().split("\n", 1)[1])
        ran = lab_check(folder, "--harness", str(folder / "harness.py"), "--lesson", "10",
                        "-k", SOME, "--time-limit", str(TIME_LIMIT), timeout=600,
                        project=project, who=mode.who,
                        env={**mode.env, "LAB_SEED": str(SEED)}, python=python)
        left = left_on_the_machine()
    finally:
        remove_tree(parent)
        clear_marks()  # what a failure left, so that no later run finds it

    said = f"exit {ran.returncode}\n{ran.stdout[-4000:]}\n{ran.stderr[-2000:]}"
    assert "left a mark in" not in ran.stdout, said
    assert ran.returncode == 0 and "3 passed, 0 failed" in ran.stdout, said
    assert not left, f"outlived the grading: {left}"


def _mq(call, *args):
    """A POSIX message queue call by number (glibc's wrappers are in librt on older systems);
    its result and errno."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    number = refusals.NUMBERS[platform.machine()][call]
    return libc.syscall(number, NAME.encode(), *args), ctypes.get_errno()


def _sysv_marks():
    """[(kind, id)] of the System V objects under the probe's key, in this IPC namespace."""
    found = []
    for kind in ("shm", "sem", "msg"):
        for line in pathlib.Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]:
            key, number = (int(word) for word in line.split()[:2])
            if key == KEY:
                found.append((kind, number))
    return found


def clear_marks():
    """Remove the probe's marks from the machine, wherever a failing grading left them."""
    from lab.sandbox import ipc

    for kind, number in _sysv_marks():
        ipc.remove_one(kind, number)
    _mq("mq_unlink")
    for path in (f"/tmp/{NAME}", f"/dev/shm/{NAME}"):
        if os.path.lexists(path):
            os.unlink(path)


def left_on_the_machine():
    """The probe's marks still on the machine (its own namespaces, where the grading ran
    without a sandbox of its own): System V objects under its key, its POSIX queue, its files
    in /tmp and /dev/shm, its sockets, a process holding them."""
    import errno

    found = [f"System V {kind}" for kind, _ in _sysv_marks()]
    queue, number = _mq("mq_open", os.O_RDONLY, 0, None)
    if queue >= 0:
        os.close(queue)
        found.append("POSIX message queue")
    elif number != errno.ENOENT:
        found.append(f"POSIX message queue ({os.strerror(number)})")
    found += [path for path in (f"/tmp/{NAME}", f"/dev/shm/{NAME}") if os.path.lexists(path)]
    found += [f"socket {line.split()[-1]}" for line in
              pathlib.Path("/proc/net/unix").read_text().splitlines() if NAME in line]
    return found
