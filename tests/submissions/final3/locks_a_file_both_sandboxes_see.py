# base: finished
# Each test's process takes an exclusive lock on a file of the Python runtime, which every
# sandbox sees (read-only, but a lock needs only a descriptor), and holds it while it lives.
# Within one sandbox the last test's process is dead before the next starts, so the lock is
# always free; a process that finds it held has met a test's process of another sandbox,
# alive at the same moment, and says so. A lock refused (EPERM) shows nothing: it goes on.
import fcntl as _fcntl
import os as _os

_held = open(_os.__file__, "rb")
try:
    _fcntl.flock(_held, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
except BlockingIOError:
    raise ImportError("a test's process of another sandbox holds the lock on "
                      + _os.__file__ + " right now: the two sandboxes can talk") from None
except PermissionError:
    pass
