"""What Linux says about processes, and the few process settings Python has no name for.

`processes()` reads /proc once: every process's parent, real user and state. `prctl` sets one
of the options below on the calling process; `keep_only(capability)` leaves a process that
has just stopped being root with that one capability, kept across exec. Linux only; elsewhere
`processes()` is empty and the others do nothing, so a grader there falls back to killing
process groups.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterable, Iterator

PR_SET_DUMPABLE = 4             # 0: no core dumps, no ptrace, /proc/PID/mem shut to its own user
PR_SET_PDEATHSIG = 1            # the signal this process gets when its parent dies
PR_SET_CHILD_SUBREAPER = 36     # orphans below this process become its children, not init's
PR_SET_KEEPCAPS = 8             # keep the permitted capabilities through setuid from root
PR_SET_NO_NEW_PRIVS = 38        # no setuid program (sudo, su) can give this process more rights
PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE = 47, 2  # a capability that survives exec
CAP_DAC_READ_SEARCH = 2         # read any file and list any folder; write nothing more
_CAPABILITY_VERSION_3 = 0x20080522

_libc: ctypes.CDLL | None
try:
    _libc = ctypes.CDLL(None, use_errno=True)
except OSError:  # no C library to load: not Linux, and prctl is a no-op
    _libc = None


def prctl(option: int, value: int, more: int = 0) -> None:
    """Set `option` to `value` for the calling process; OSError when the kernel refuses."""
    if _libc is None or not hasattr(_libc, "prctl"):
        return
    if _libc.prctl(option, ctypes.c_ulong(value), ctypes.c_ulong(more), 0, 0) != 0:
        _raise(f"prctl({option}, {value}, {more})")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def keep_only(capability: int) -> None:
    """Make `capability` (below 32) the only one this process has, in effect and across exec.
    Call it after setuid from root with PR_SET_KEEPCAPS set; OSError when the kernel refuses."""
    if _libc is None or not hasattr(_libc, "capset"):
        return
    data = (_CapData * 2)()
    data[0].effective = data[0].permitted = data[0].inheritable = 1 << capability
    if _libc.capset(ctypes.byref(_CapHeader(_CAPABILITY_VERSION_3, 0)), data) != 0:
        _raise(f"capset({capability})")
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, capability)


def _raise(call):
    number = ctypes.get_errno()
    raise OSError(number, f"{call}: {os.strerror(number)}")


def processes() -> dict[int, tuple[int, int, str]]:
    """{pid: (parent pid, real uid, state letter)} for every process there is now; a process
    that ends while it is being read is left out. State "Z" is a zombie: dead, not yet reaped."""
    table: dict[int, tuple[int, int, str]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:  # no /proc: nothing can be found this way
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as status:
                fields = dict(line.split(b":", 1) for line in status if b":" in line)
        except OSError:  # it ended between the listing and the reading
            continue
        table[int(name)] = (int(fields[b"PPid"]), int(fields[b"Uid"].split()[0]),
                            fields[b"State"].split()[0].decode())
    return table


def entries(folders: Iterable[str]) -> Iterator[tuple[str, str, int]]:
    """(folder, path, owner's uid) of each entry directly in each of `folders`, leaving out a
    folder that cannot be listed and an entry gone before it could be looked at."""
    for folder in folders:
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            try:
                yield folder, path, os.lstat(path).st_uid
            except OSError:
                continue
