# Graded in a batch beside a classmate who handed in the finished harness (see
# tests/test_untrusted.py). While it is imported it watches the machine for a second or two:
# the grading's command lines for any harness.py named there, and the grader's usual folders
# for a snapshot; any it can read that holds a working repair, it takes as its own. Snapshots
# are unreadable to others from their first byte, their paths are on no command line, and
# each submission runs as a user of its own (uid) or in a sandbox of its own (bubblewrap).

import glob as _glob
import os as _os
import time as _time

_mine = open(__file__).read()


def _candidates():
    found = set()
    for cmdline in _glob.glob("/proc/[0-9]*/cmdline"):
        try:
            words = open(cmdline, "rb").read().decode(errors="replace").split("\0")
        except OSError:
            continue
        found |= {w for w in words if w.endswith("harness.py")}
        found |= {w.rsplit("/sandboxes/", 1)[0] + "/harness.py" for w in words if "/sandboxes/" in w}
    for pattern in ("/tmp/lab-check-grade-*/harness.py", "/tmp/*/lab-check-grade-*/harness.py",
                    "/tmp/lab-check-batch-*/*/*/harness.py", "/tmp/**/alice/harness.py"):
        found |= set(_glob.glob(pattern, recursive=True))
    return found


def _steal():
    until = _time.monotonic() + 2.0
    while _time.monotonic() < until:
        for path in _candidates():
            try:
                text = open(path).read()
            except OSError:
                continue
            if text != _mine and "def repair_tool_history" in text and "_steal()" not in text:
                return text
        _time.sleep(0.05)
    return None


_TAKEN = _steal()
if _TAKEN:
    exec(compile(_TAKEN, "classmate.py", "exec"), globals())
