# base: finished
# Each test's process, as it is imported, looks for a mark an earlier test's process left in
# every place a process can name and keep something in the kernel, and fails its import,
# naming each place, if it finds one; then it leaves its own mark in each, and keeps a process
# running (double-forked, out of its family) that holds what only a living process can hold.
# So a grading in which every test passes is one in which nothing crossed from a test to the
# next: each place was per test, refused, or cleared. tests/test_kernel_objects.py grades it
# in every mode, proves the probes find a mark where nothing closes them, and looks for the
# marks on the machine once the grading is over.
import ctypes as _ctypes
import errno as _errno
import fcntl as _fcntl
import os as _os
import platform as _platform
import socket as _socket
import threading as _threading

_NAME = "lab-kernel-mark"
_KEY = 0x1AB5EEE
_libc = _ctypes.CDLL(None, use_errno=True)
_CALLS = {"x86_64": {"mq_open": 240, "add_key": 248, "keyctl": 250},
          "aarch64": {"mq_open": 180, "add_key": 217, "keyctl": 219}}[_platform.machine()]
_PID_MARK, _PID_MOD, _PID_WINDOW = 45, 64, 4


def _errno_of(result):
    return 0 if result >= 0 else _ctypes.get_errno()


def _sysv(kind):
    """A System V object under _KEY: EEXIST when an earlier process made one."""
    create = 0o1000 | 0o2000 | 0o600  # IPC_CREAT | IPC_EXCL
    key = _ctypes.c_int(_KEY)
    if kind == "shm":
        return _errno_of(_libc.shmget(key, _ctypes.c_size_t(4096), _ctypes.c_int(create)))
    if kind == "sem":
        return _errno_of(_libc.semget(key, _ctypes.c_int(1), _ctypes.c_int(create)))
    return _errno_of(_libc.msgget(key, _ctypes.c_int(create)))


def _mqueue():
    flags = _os.O_RDWR | _os.O_CREAT | _os.O_EXCL
    return _errno_of(_libc.syscall(_CALLS["mq_open"], _NAME.encode(), flags, 0o600,
                                   None))


def _file(folder):
    try:
        _os.close(_os.open(_os.path.join(folder, _NAME), _os.O_CREAT | _os.O_EXCL | _os.O_WRONLY))
        return 0
    except OSError as error:
        return error.errno


_held = []  # what only a living process holds, kept by the one left running


def _socket_at(address):
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.bind(address)
    except OSError as error:
        sock.close()
        return error.errno
    _held.append(sock)
    return 0


def _lock():
    file = open(_os.__file__, "rb")  # the Python runtime: every sandbox sees it
    try:
        _fcntl.flock(file, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
    except OSError as error:
        file.close()
        return error.errno
    _held.append(file)
    return 0


def _key():
    found = _libc.syscall(_CALLS["keyctl"], 10, -4, b"user", _NAME.encode(), 0)  # KEYCTL_SEARCH
    if found >= 0:
        return _errno.EEXIST
    made = _libc.syscall(_CALLS["add_key"], b"user", _NAME.encode(), b"x", 1, -4)
    return _errno_of(made)


def _pid():
    """EEXIST when this process's pid is at most _PID_WINDOW past the mark (the sandbox may
    take a pid or two of its own before this process's); then take pids (a thread takes one)
    until the next one to be taken carries the mark."""
    if (_os.getpid() - _PID_MARK) % _PID_MOD < _PID_WINDOW:
        return _errno.EEXIST
    while True:
        burner = _threading.Thread(target=int)
        burner.start()
        burner.join()
        if (burner.native_id + 1 - _PID_MARK) % _PID_MOD == 0:
            return 0


def probe(scratch_parent):
    """{place: errno} for every place: 0 made (no mark found), EEXIST or EADDRINUSE or
    EWOULDBLOCK found an earlier mark, anything else refused; a process left running (see
    keep_alive) holds what needs a living holder."""
    found = {"System V shared memory": _sysv("shm"), "System V semaphores": _sysv("sem"),
             "System V message queue": _sysv("msg"), "POSIX message queue": _mqueue(),
             "POSIX shared memory (/dev/shm)": _file("/dev/shm"), "/tmp": _file("/tmp"),
             "the scratch folder": _file(scratch_parent),
             "abstract socket": _socket_at("\0" + _NAME),
             "path socket": _socket_at(_os.path.join(scratch_parent, _NAME + ".sock")),
             "a lock on a file every sandbox sees": _lock(), "keyrings": _key()}
    keep_alive()
    found["pids"] = _pid()  # last: nothing forks after it has set the counter
    return found


def crossed(found):
    return sorted(place for place, number in found.items()
                  if number in (_errno.EEXIST, _errno.EADDRINUSE, _errno.EWOULDBLOCK))


def keep_alive():
    """Leave a process running, out of this one's family, holding the sockets and the lock
    (and nothing else of this process's)."""
    if _os.fork() == 0:
        try:
            _os.setsid()
            if _os.fork() == 0:
                kept = sorted(item.fileno() for item in _held)
                low = 0
                for fd in kept + [1 << 16]:
                    _os.closerange(low, fd)
                    low = fd + 1
                _threading.Event().wait(3600)
        finally:
            _os._exit(0)


if __name__ == "__main__":  # the suite's control: run twice, unconfined, the second finds
    import json as _json
    import sys as _sys

    print(_json.dumps(crossed(probe(_sys.argv[1]))), flush=True)
else:
    _crossed = crossed(probe(_os.path.dirname(_os.getcwd())))
    if _crossed:
        raise ImportError("an earlier test's process left a mark in: " + ", ".join(_crossed))
