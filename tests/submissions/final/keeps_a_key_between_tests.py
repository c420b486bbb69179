# base: finished
# Leaves a key in the kernel's keyrings (the user's @u and its session @us, which belong to
# the user, not the process, and so outlive every process of a test), and fails on purpose
# when a key an earlier process left is there: a test that finds what earlier tests did can
# count which test it is, or carry a hidden test's inputs into the next one. Lesson 7 runs a
# visible test after a hidden one, whose failure the student's own feedback shows.
# Graded with -k "orphan or steering or late": all three pass when each test starts clean.

import ctypes as _ctypes
import platform as _platform

_CALLS = {"x86_64": (248, 250), "aarch64": (217, 219)}.get(_platform.machine())
_USER, _USER_SESSION, _SEARCH = -4, -5, 10
_seen = []
if _CALLS:
    _libc = _ctypes.CDLL(None, use_errno=True)
    _add_key, _keyctl = _CALLS
    for _ring in (_USER, _USER_SESSION):
        if _libc.syscall(_keyctl, _SEARCH, _ring, b"user", b"lab-final-mark", 0) > 0:
            _seen.append(_ring)
        _libc.syscall(_add_key, b"user", b"lab-final-mark", b"a test was here", 15, _ring)

if _seen:
    def repair_tool_history(messages):
        raise LookupError(f"found the key an earlier test's process left in keyrings {_seen}")
