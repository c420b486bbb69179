"""The system calls no test's process may make: those whose objects outlive the process, or
are seen by another sandbox, and that no test needs.

A process can leave things in the kernel under a name another process can look up, and they
stay after it has gone: a key in the user's keyrings, a System V segment, semaphore set or
queue, a POSIX message queue. A name that exists or not is a bit from one test to the next,
and there is no end of names. Others are seen across sandboxes while their maker lives: a lock
(flock, fcntl's record and open-file locks, a lease) or a watch (inotify, fanotify, fcntl's
F_NOTIFY) on a file of the Python runtime, which every sandbox shares read-only, so a test of
one of --watch's two sandboxes could see a test of the other, or one submission of a batch
another. None of these is needed by a test, so each test's process has them refused (EPERM)
by a seccomp filter put on the zygote before any fork (it needs NO_NEW_PRIVS set first), in
every kind of isolation alike: nothing to clear, and nothing that can outlive the grading.

`install()` puts the filter on the calling process and all it starts; OSError when the kernel
refuses it or the machine is not one the filter knows (the zygote then runs no test at all).
"""

from __future__ import annotations

import ctypes
import platform

from . import linux

# the calls refused outright, by name, and their numbers on each machine the filter knows
CALLS = ("add_key", "request_key", "keyctl",                                    # keyrings
         "shmget", "shmat", "shmctl", "shmdt", "semget", "semop", "semctl", "semtimedop",
         "msgget", "msgsnd", "msgrcv", "msgctl",                                # System V IPC
         "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify",
         "mq_getsetattr",                                                       # POSIX queues
         "flock", "inotify_init", "inotify_init1", "fanotify_init")            # locks, watches
NUMBERS = {
    "x86_64": dict(add_key=248, request_key=249, keyctl=250, shmget=29, shmat=30, shmctl=31,
                   shmdt=67, semget=64, semop=65, semctl=66, semtimedop=220, msgget=68,
                   msgsnd=69, msgrcv=70, msgctl=71, mq_open=240, mq_unlink=241,
                   mq_timedsend=242, mq_timedreceive=243, mq_notify=244, mq_getsetattr=245,
                   flock=73, inotify_init=253, inotify_init1=294, fanotify_init=300, fcntl=72),
    "aarch64": dict(add_key=217, request_key=218, keyctl=219, shmget=194, shmctl=195,
                    shmat=196, shmdt=197, semget=190, semctl=191, semtimedop=192, semop=193,
                    msgget=186, msgctl=187, msgrcv=188, msgsnd=189, mq_open=180,
                    mq_unlink=181, mq_timedsend=182, mq_timedreceive=183, mq_notify=184,
                    mq_getsetattr=185, flock=32, inotify_init1=26, fanotify_init=262,
                    fcntl=25)}
ARCHES = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}  # AUDIT_ARCH_*
# fcntl's commands that take or read a lock, a lease or a directory watch (the rest, such as
# F_GETFL and F_SETFD, stay allowed)
LOCKING = (5, 6, 7,          # F_GETLK, F_SETLK, F_SETLKW
           36, 37, 38,       # F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW
           1024, 1025,       # F_SETLEASE, F_GETLEASE
           1026)             # F_NOTIFY
_X32 = 0x40000000            # x86_64's x32 calls carry this bit: refused, whatever they are

# classic BPF, as seccomp reads it: load a word of seccomp_data, jump on equal or above, return
_LOAD, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
_NR, _ARCH, _ARG1 = 0, 4, 24  # offsets in seccomp_data: call number, arch, low word of args[1]
ALLOW, REFUSE, KILL = 0x7FFF0000, 0x00050000 | 1, 0  # RET_ALLOW, RET_ERRNO | EPERM, RET_KILL


class _Filter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8),
                ("k", ctypes.c_uint32)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Filter))]


def program(machine: str) -> list[tuple[int, int, int, int]]:
    """The filter for `machine` as (code, jt, jf, k) instructions: another architecture is
    killed, x32 and every call of CALLS refused, fcntl refused for the LOCKING commands,
    anything else allowed. KeyError for a machine it does not know."""
    numbers, arch = NUMBERS[machine], ARCHES[machine]
    refused = [numbers[name] for name in CALLS if name in numbers]
    # laid out: the arch check, the x32 test, one test a refused call, fcntl's test and its
    # commands' tests, then "allow" and "refuse"; a jump counts the instructions it skips
    code: list[tuple[int, int, int, int]] = [(_LOAD, 0, 0, _ARCH), (_JEQ, 1, 0, arch),
                                             (_RET, 0, 0, KILL), (_LOAD, 0, 0, _NR)]
    commands = 1 + len(LOCKING)              # loading fcntl's command, then one test each
    allow = 1 + len(refused) + 1 + commands  # skipped from the x32 test to "allow"
    code.append((_JGE, allow, 0, _X32))      # x32: one past "allow", to "refuse"
    for n, number in enumerate(refused):
        left = allow - (1 + n)  # as far as the x32 test jumps, from n + 1 further on
        code.append((_JEQ, left, 0, number))
    # fcntl: not it, jump to allow (past the command checks); it, go on to check the command
    code.append((_JEQ, 0, commands, numbers["fcntl"]))
    code.append((_LOAD, 0, 0, _ARG1))
    for n, command in enumerate(LOCKING):
        code.append((_JEQ, len(LOCKING) - n, 0, command))
    code += [(_RET, 0, 0, ALLOW), (_RET, 0, 0, REFUSE)]
    return code


def install() -> None:
    """Put the filter on this process and all it will start, as above."""
    machine = platform.machine()
    if linux._libc is None or machine not in NUMBERS:
        raise OSError(f"no filter of kernel objects for {machine}")
    code = program(machine)
    table = (_Filter * len(code))(*[_Filter(*line) for line in code])
    compiled = _Program(len(code), ctypes.cast(table, ctypes.POINTER(_Filter)))
    linux.prctl(22, 2, ctypes.addressof(compiled))  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
