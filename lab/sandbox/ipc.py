"""System V shared memory, semaphores and message queues: what outlives every process.

A segment, a semaphore set or a queue stays in the kernel after the process that made it has
gone, so one test's process could leave a count there for the next. `remove()` takes away
those of the calling user (or of `uid`; or, in a sandbox's own IPC namespace, `everyone`'s:
they are all the sandbox's), read from /proc/sysvipc, and says whether any is left.
"""

from __future__ import annotations

import ctypes
import os

IPC_RMID = 0
# file under /proc/sysvipc, the column of its id, of its owner's uid, and the call that removes it
KINDS = (("shm", 1, 7, "shmctl"), ("sem", 1, 4, "semctl"), ("msg", 1, 7, "msgctl"))


def _libc():
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def owned(everyone: bool = False, uid: int | None = None) -> list[tuple[str, int]]:
    """[(kind, id)] of every object of the calling user's (or `uid`'s, or anyone's)."""
    me, found = os.getuid() if uid is None else uid, []
    for kind, id_column, uid_column, _ in KINDS:
        try:
            lines = open(f"/proc/sysvipc/{kind}").read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            words = line.split()
            if len(words) > uid_column and (everyone or int(words[uid_column]) == me):
                found.append((kind, int(words[id_column])))
    return found


def remove(everyone: bool = False, uid: int | None = None) -> bool:
    """Remove them all; True when none is left."""
    libc = _libc()
    if libc is None:
        return True
    for kind, number in owned(everyone, uid):
        remove_one(kind, number, libc)
    return not owned(everyone, uid)


def remove_one(kind: str, number: int, libc: ctypes.CDLL | None = None) -> None:
    """Remove the object `number` of `kind` ("shm", "sem" or "msg"), if it may be."""
    libc = libc or _libc()
    if libc is None:
        return
    call = getattr(libc, next(call for name, _, _, call in KINDS if name == kind))
    if kind == "sem":
        call(ctypes.c_int(number), ctypes.c_int(0), ctypes.c_int(IPC_RMID))
    else:
        call(ctypes.c_int(number), ctypes.c_int(IPC_RMID), None)
