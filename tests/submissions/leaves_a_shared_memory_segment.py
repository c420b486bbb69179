# base: finished
# args: --time-limit 3 -k "orphan or steering or late"
# exit: 0
# closing: 3 passed, 0 failed
# Looks, while it is imported, for a System V shared memory segment an earlier test's process
# made (they outlive every process), and fails on purpose if there is one; then makes it. Every
# test's process is refused System V IPC (inside/refusals.py), in every kind of isolation, so
# there is never one to find; and were one made, the end of each test removes the sandbox's.

import ctypes as _ctypes

_KEY = 0x1AB5EED
_libc = _ctypes.CDLL(None, use_errno=True)
_LEFT = _libc.shmget(_ctypes.c_int(_KEY), _ctypes.c_size_t(4096), _ctypes.c_int(0)) >= 0
_libc.shmget(_ctypes.c_int(_KEY), _ctypes.c_size_t(4096), _ctypes.c_int(0o1000 | 0o600))

if _LEFT:
    def repair_tool_history(messages):
        raise LookupError("found a shared memory segment an earlier test made")
