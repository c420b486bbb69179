"""Landlock: confine the calling process, and all it starts, to a few folders.

Landlock is a Linux security module an unprivileged process can use on itself (5.13 and
later), with no namespace and no root: once a `Ruleset(readable, writable)` is put in force
(`restrict`), the process can read only beneath `readable`, write only beneath `writable`, open
no TCP connection (ABI 4), and signal or reach by abstract socket no process outside its own
domain (ABI 6). It cannot be undone, and every child inherits it. That is what makes the `uid` and `none` kinds of
isolation (isolation.py) hold the answers out of reach where bubblewrap cannot run, and it is
one more wall inside bubblewrap.

The three system calls are made here through ctypes, because this module runs inside the
sandbox, in an interpreter started with -I -S (no site-packages): a binding from PyPI would have
to be copied into the bundle, and the maintained one is a pre-release.
"""

from __future__ import annotations

import ctypes
import os
import platform
from collections.abc import Iterable

# x86_64 and aarch64 share these numbers (new system calls are numbered alike everywhere)
CREATE_RULESET, ADD_RULE, RESTRICT_SELF = 444, 445, 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1

FILE_ONLY = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # what a rule on a file may allow
READ = EXECUTE | READ_FILE | READ_DIR


class Unavailable(OSError):
    """Landlock cannot confine this process (an old kernel, or a container that forbids it)."""


def _libc():
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "aarch64"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None
    libc.syscall.restype = ctypes.c_long
    return libc


def abi() -> int:
    """The Landlock ABI version this kernel offers, or 0 when it offers none."""
    libc = _libc()
    if libc is None:
        return 0
    version = libc.syscall(CREATE_RULESET, None, ctypes.c_size_t(0),
                           ctypes.c_uint32(CREATE_RULESET_VERSION))
    return max(0, int(version))


class _Ruleset(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _handled(version):
    fs = (1 << 13) - 1
    if version >= 2:
        fs |= REFER
    if version >= 3:
        fs |= TRUNCATE
    if version >= 5:
        fs |= IOCTL_DEV
    return fs


class Ruleset:
    """The rules, built (each path opened and added) but not yet in force: read and run beneath
    `readable`, do anything beneath `writable`, read and write the device files `devices`
    (/dev/null); no TCP; no signal or abstract socket out of the domain. Paths that do not
    exist are left out. Built once in a process that forks many times (the zygote), so that
    each child puts them in force with one system call. Unavailable when the kernel has no
    Landlock or will not apply it (the caller decides whether to go on without it)."""

    def __init__(self, readable: Iterable[str], writable: Iterable[str],
                 devices: Iterable[str] = ()) -> None:
        libc, version = _libc(), abi()
        if libc is None or version < 1:
            raise Unavailable("this kernel offers no Landlock")
        fs = _handled(version)
        attr = _Ruleset(fs, NET_BIND_TCP | NET_CONNECT_TCP if version >= 4 else 0,
                        SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if version >= 6 else 0)
        size = 8 if version < 4 else 16 if version < 6 else 24
        fd = libc.syscall(CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size),
                          ctypes.c_uint32(0))
        if fd < 0:
            raise Unavailable(f"landlock_create_ruleset: {os.strerror(ctypes.get_errno())}")
        self.fd, self.version, self._libc = int(fd), version, libc
        try:
            for paths, rights in ((readable, READ), (writable, fs),
                                  (devices, READ_FILE | WRITE_FILE)):
                for path in paths:
                    _allow(libc, self.fd, path, rights & fs)
        except BaseException:
            self.close()
            raise

    def restrict(self) -> int:
        """Put the rules in force on this process for good, and let go of the ruleset; the ABI
        version in force. Needs PR_SET_NO_NEW_PRIVS set already."""
        try:
            if self._libc.syscall(RESTRICT_SELF, ctypes.c_int(self.fd), ctypes.c_uint32(0)) != 0:
                raise Unavailable(f"landlock_restrict_self: {os.strerror(ctypes.get_errno())}")
        finally:
            self.close()
        return self.version

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _allow(libc, ruleset, path, rights):
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # nothing there: nothing to allow
    try:
        if not os.path.isdir(path):
            rights &= FILE_ONLY
        rule = _PathBeneath(rights, fd)
        if libc.syscall(ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(RULE_PATH_BENEATH),
                        ctypes.byref(rule), ctypes.c_uint32(0)) != 0:
            raise Unavailable(f"landlock_add_rule({path}): {os.strerror(ctypes.get_errno())}")
    finally:
        os.close(fd)
