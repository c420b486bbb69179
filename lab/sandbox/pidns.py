"""A pid namespace of its own for each test's process, where the kernel gives one.

Pids are handed out in order within a pid namespace, so a process that takes pids (a thread
takes one) decides which pid the next process gets: were every test's process forked into
the sandbox's one namespace, one test could leave a mark in the pid counter for the next.
So each test's process starts a pid namespace of its own, where it is always pid 2 and its
threads and children count on from there, whatever the last test did.

The zygote cannot undo an unshare of its own (going back would need rights in the namespace
bubblewrap made above it), so a test's process is forked in three steps:

    zygote -> a go-between (`unshare`: its next child starts the namespace; it then ends)
           -> the namespace's first process, pid 1 (`init`): it forks the test's process,
              waits for it, reports how it ended, and ends, which ends everything left in
              the namespace
           -> the test's process, pid 2, an ordinary process (pid 1 ignores signals it has no
              handler for, even from itself: the test's process must not be pid 1); it
              reports its own pid as the zygote sees it (`report_self`) before anything else

`unshare` needs CAP_SYS_ADMIN over the pid namespace the zygote is in: bubblewrap gives the
zygote that one capability (launch.py), or, elsewhere, a user namespace of the zygote's own
user is made first, where the kernel lets a plain user make one. Where neither works the steps
are the same without the namespace, and `unshare` says so. `drop_capabilities` leaves the
test's process none before any of the student's code runs.
"""

from __future__ import annotations

import ctypes
import os
import struct

from . import linux

CLONE_NEWUSER, CLONE_NEWPID = 0x10000000, 0x20000000
PR_CAPBSET_DROP = 24
LAST_CAPABILITY = 63
_WORD = struct.Struct("=q")


def unshare() -> bool:
    """Make this process's next child the first of a pid namespace of its own; True when it
    is. Called in the go-between, which forks once and ends."""
    libc = linux._libc
    if libc is None:
        return False
    if libc.unshare(CLONE_NEWPID) == 0:
        return True
    uid, gid = os.getuid(), os.getgid()
    try:
        # /proc/self's maps are root's in a process that is not dumpable
        linux.prctl(linux.PR_SET_DUMPABLE, 1)
        if libc.unshare(CLONE_NEWUSER | CLONE_NEWPID) != 0:
            return False
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                           ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{name}", "w") as file:
                file.write(text)
        return True
    except OSError:
        return False
    finally:
        linux.prctl(linux.PR_SET_DUMPABLE, 0)


def drop_capabilities() -> None:
    """Leave the calling process no capability at all, nor any to gain back."""
    libc = linux._libc
    if libc is None:
        return
    for number in range(LAST_CAPABILITY + 1):
        libc.prctl(PR_CAPBSET_DROP, number, 0, 0, 0)  # refused without CAP_SETPCAP: harmless
    if hasattr(libc, "capset"):
        header = linux._CapHeader(linux._CAPABILITY_VERSION_3, 0)
        if libc.capset(ctypes.byref(header), (linux._CapData * 2)()) != 0:
            linux._raise("capset(none)")


def report_self(report: int) -> None:
    """In the test's process, before anything else: write its pid as the zygote sees it
    (/proc is the zygote's namespace's) to `report`, and let go of that end."""
    try:
        outside = int(os.readlink("/proc/self"))
    except (OSError, ValueError):
        outside = os.getpid()
    os.write(report, _WORD.pack(outside))
    os.close(report)


def init(report: int, child: int) -> None:
    """In the namespace's first process, once it has forked the test's process `child`:
    reap every process of the namespace until `child` has ended, write how it ended to
    `report`, and end, which ends whatever is left in the namespace (never returns)."""
    try:
        linux.prctl(linux.PR_SET_DUMPABLE, 0)
        while True:
            pid, status = os.waitpid(-1, 0)
            if pid == child:
                os.write(report, _WORD.pack(status))
                break
    except OSError:
        pass
    os._exit(0)


def read_word(fd: int) -> int | None:
    """One word from an Init's report pipe, or None when it ended without writing one."""
    data = b""
    while len(data) < _WORD.size:
        chunk = os.read(fd, _WORD.size - len(data))
        if not chunk:
            return None
        data += chunk
    return int(_WORD.unpack(data)[0])
