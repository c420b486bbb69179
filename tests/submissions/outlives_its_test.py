# base: starter
# args: --time-limit 3 -k "missing or orphan"
# exit: 1
# says: nothing from an earlier test
# closing: 0 passed, 2 failed
# Leaves a daemon and a note in /tmp at every import, to carry state from one test's process to
# the next. Every process of a test is killed at its end, and the sandbox's /tmp emptied (or,
# without namespaces, closed to it by Landlock): each test starts clean, and says so.

import os as _os

_NOTE = "/tmp/.left-by-an-earlier-test"
_ME = f"left by a test of the grading whose zygote is {_os.getppid()}"  # not another's note
try:
    _FOUND = open(_NOTE).read() == _ME
except OSError:
    _FOUND = False
try:
    open(_NOTE, "w").write(_ME)
except OSError:  # no /tmp at all (Landlock, without namespaces): nothing to leave there
    pass
if _os.fork() == 0:
    _os.setsid()
    if _os.fork() == 0:
        import time as _time
        _time.sleep(600)
    _os._exit(0)

INTERRUPTED = "x"


def repair_tool_history(messages):
    raise RuntimeError("found a note from an earlier test" if _FOUND
                       else "nothing from an earlier test")
