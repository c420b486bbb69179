"""Who the student's code runs as: when the grader is root, a user of its own, and nobody else.

A child that stayed root could write anywhere (the student's folder, the project, the lesson's
fixtures) and signal the grader. So when the grader runs as root, each child becomes a user no
other process is: BASE plus its own process id, which no living process shares, with no
groups. That user can write only its scratch folder (made its own) and world-writable places
such as /tmp, can signal only its own processes, and can be found again afterwards, because
everything it starts runs as it too (see reaper.py). Where that number is not a user (a
container whose user namespace maps only a few), the child becomes `nobody` instead: as safe
for files, but shared, so only its process tree can be found.

Where the Python that runs the child is installed somewhere other users cannot read (under
/root, say), such a user could not even import the standard library; the child then keeps one
capability of root's, to read (never to write) any file, and passes it on to what it runs.

A grader that is not root cannot become anyone else, and the child stays the grader's user:
then its scratch folder, its own session and the memory limit are all the isolation there is.
"""

import functools
import os
import stat
import sys

from . import linux

BASE = 3_000_000_000   # far above real accounts and the ranges containers usually map
NOBODY = 65534


def switching():
    """True when children become users of their own (the grader runs as root)."""
    return os.geteuid() == 0


def uid_for(pid):
    """The user the child with process id `pid` becomes when switching."""
    return BASE + pid


def become_own_user(scratch):
    """Make `scratch` belong to this process's own user, then become that user for good (no
    way back to root); the uid, or None when not even `nobody` exists here. Call it in the
    child, as root, after everything that needs root is done."""
    keep_reading = not readable_by_anyone()
    for uid in (uid_for(os.getpid()), NOBODY):
        try:
            os.chown(scratch, uid, uid)
        except OSError:  # EINVAL: this uid is not mapped in our user namespace; try the next
            continue
        if keep_reading:
            linux.prctl(linux.PR_SET_KEEPCAPS, 1)
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
        if keep_reading:
            linux.keep_only(linux.CAP_DAC_READ_SEARCH)
        return uid
    return None


@functools.cache
def readable_by_anyone():
    """True when a user with no groups can read the Python running us: its executable, its
    standard library, and every folder on sys.path (the lab's included)."""
    needed = [sys.executable, os.path.dirname(os.__file__), *sys.path]
    return all(_open_to_others(path) for path in needed if path and os.path.exists(path))


def _open_to_others(path):
    """True when the permission bits for "others" let anyone read `path` and reach it."""
    path = os.path.realpath(path)
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
