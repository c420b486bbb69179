# base: finished
# args: --time-limit 3 -k "orphan or steering or late"
# exit: 0
# closing: 3 passed, 0 failed
# exit (none): 1
# closing (none): 0 passed, 3 failed
# Looks, while it is imported, for a System V shared memory segment an earlier test's process
# made (they outlive every process), and fails on purpose if there is one; then makes it. The
# end of each test removes the sandbox's System V objects. Not with no sandbox at all (none):
# there the sandbox's user is the student's own, whose other segments are not the grader's to
# remove, so the mark stays and every test fails; and the grade says it is not isolated.

import ctypes as _ctypes

_KEY = 0x1AB5EED
_libc = _ctypes.CDLL(None, use_errno=True)
_LEFT = _libc.shmget(_ctypes.c_int(_KEY), _ctypes.c_size_t(4096), _ctypes.c_int(0)) >= 0
_libc.shmget(_ctypes.c_int(_KEY), _ctypes.c_size_t(4096), _ctypes.c_int(0o1000 | 0o600))

if _LEFT:
    def repair_tool_history(messages):
        raise LookupError("found a shared memory segment an earlier test made")
