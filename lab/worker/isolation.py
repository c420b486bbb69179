"""Where the student's code runs: which isolation this machine allows, and what each kind needs
of the machine (the host's policy; the worker starts the sandbox, lab/worker/launch.py).

Three kinds, strongest first; `detect()` picks the strongest that works here:

bubblewrap  bwrap (Debian's bubblewrap) starts the zygote in new mount, pid, IPC, network, UTS
            and user namespaces. It sees a read-only /usr and Python, a read-only bundle of
            the lab's student-facing modules (worker/bundle.py), the submission read-only, and
            private, size-capped /scratch, /tmp and /dev/shm; nothing else of the machine: no
            lesson folder, no finished file, no tests, no other submission, no grader's
            folder. Every capability is dropped (the zygote keeps CAP_SYS_ADMIN over the
            sandbox's own namespaces, for a pid namespace a test). Run as root, each
            sandbox also gets cgroups of its own (a cap on processes, an equal share of the
            CPU); as anyone else, process limits come from RLIMIT_NPROC.
uid         no namespaces, but root (a Docker-based grading platform): the zygote runs as a
            user of its own with no groups, which can read only what "others" may read. So the
            project's folder (lessons, .git and venv with it) must be closed to others
            (`exposed`), and every grading refuses until it is; the grader's private folder
            and snapshot are never open to others either.
none        a plain user with no namespaces: the student's own machine. A local run may go
            on, and its result says "not isolated: a submission could forge this grade"; an
            instructor's grading refuses (unless told --allow-unisolated).

In every kind, where the kernel has Landlock (inside/landlock.py), each test's process confines
itself to what the sandbox may see before the student's code runs: the system's folders, the
Python runtime, the bundle and its own scratch (and, in bubblewrap, its private /tmp and
/dev/shm), with no TCP and no signal to a process outside it. `layers` names what was in force.

LAB_ISOLATION=bubblewrap|uid|none asks for a kind; asking for one that cannot work here is
an error, never a silent fall back to something weaker.
"""

from __future__ import annotations

import os
import pathlib
import stat

from lab.worker.launch import bubblewrap_problem, python

KINDS = ("bubblewrap", "uid", "none")
ENV = "LAB_ISOLATION"
# What the sandbox holds of the project is worker/bundle.py's; the rest (lessons, harnesses,
# lab_check, grading, checkpoint B's clinic) knows where the answers are, and stays out of it.
LAB = pathlib.Path(__file__).resolve().parent.parent
PROJECT = LAB.parent


class Unavailable(RuntimeError):
    """The isolation asked for cannot be had on this machine; the message says why."""


def detect() -> str:
    """The kind of isolation this grading uses, as above."""
    wanted = os.environ.get(ENV, "")
    if wanted:
        if wanted not in KINDS:
            raise Unavailable(f"{ENV}={wanted!r}: expected one of {', '.join(KINDS)}")
        why = why_not(wanted)
        if why:
            raise Unavailable(f"{ENV}={wanted} cannot be used here: {why}")
        return wanted
    return next(kind for kind in KINDS if not why_not(kind))


def why_not(kind: str) -> str:
    """Why `kind` cannot work on this machine, or "" when it can."""
    if kind == "bubblewrap":
        return bubblewrap_problem()
    if kind == "uid":
        if os.geteuid() != 0:
            return "only root can run code as another user"
        if not readable_by_others(python()):
            return f"other users cannot read the Python at {python()}"
        return ""
    return ""


def readable_by_others(path: str | os.PathLike[str]) -> bool:
    """True when the permission bits let any user read `path` and reach it."""
    path = os.path.realpath(path)
    try:
        mode = os.stat(path).st_mode
        if not mode & stat.S_IROTH:
            return False
        folder = path if stat.S_ISDIR(mode) else os.path.dirname(path)
        while True:
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                return False
            parent = os.path.dirname(folder)
            if parent == folder:
                return True
            folder = parent
    except OSError:
        return False


def exposed(project: str | os.PathLike[str] | None = None) -> str | None:
    """The project's folder when any user can reach into it (its own bits, and every folder
    above it, let others search it), else None. Uid isolation needs it closed: it holds every
    lesson's answers, the tests, .git (whose history holds them all again) and the venv. One
    `chmod o-rwx` of the folder closes everything beneath it. (bubblewrap never shows the
    sandbox any of it.)"""
    folder = os.path.realpath(project or PROJECT)
    return folder if reachable_by_others(folder) else None


def reachable_by_others(folder: str) -> bool:
    """True when any user may search `folder` and every folder above it."""
    while True:
        try:
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                return False
        except OSError:
            return False
        parent = os.path.dirname(folder)
        if parent == folder:
            return True
        folder = parent


def layers(kind: str, landlock_abi: int = 0, cgroups: bool = False,
           pid_namespaces: bool = False) -> list[str]:
    """The walls in force around the student's code, in words, for the grade to record;
    `pid_namespaces`: each test's process had one of its own (inside/pidns.py)."""
    found = {"bubblewrap": ["namespaces (bubblewrap)"], "uid": ["a user of its own"],
             "none": []}[kind]
    if cgroups:
        found.append("cgroups")
    if landlock_abi:
        found.append(f"Landlock ABI {landlock_abi}")
    if pid_namespaces:
        found.append("a pid namespace a test")
    found.append("rlimits")
    return found


def exposed_submissions(folder: str | os.PathLike[str]) -> list[str]:
    """The submissions in a batch `folder` that any user could read: in uid isolation, one
    student's code could read, and hand in, another's."""
    return [str(p) for pattern in ("*", "*/*", "*/*/*") for p in pathlib.Path(folder).glob(pattern)
            if p.is_file() and not p.is_symlink() and readable_by_others(p)]  # flat LMS files too
