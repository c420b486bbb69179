# base: finished
# args: --time-limit 3 -k "orphan or steering or late"
# exit: 0
# closing: 3 passed, 0 failed
# Leaves a mark wherever it can write (its working folder, the scratch above it, /tmp,
# /dev/shm), each inside a folder it then makes read-only, with a locked folder inside that;
# and fails on purpose if it finds a mark an earlier test's process left: a test that can see
# what earlier tests did can count which test it is. Every test's process must start clean:
# the end of a test makes such folders writable again before it empties them.

import os as _os

_NAME = "lab-corpus-mark"


def _places():
    here = _os.getcwd()
    return [here, _os.path.dirname(here), "/tmp", "/dev/shm"]


def _left():
    found = []
    for place in _places():
        if _os.path.exists(_os.path.join(place, _NAME, "seen")):
            found.append(place)
    return found


def _mark():
    for place in _places():
        folder = _os.path.join(place, _NAME)
        try:
            _os.makedirs(_os.path.join(folder, "locked"), exist_ok=True)
            open(_os.path.join(folder, "seen"), "w").write("a test was here\n")
            _os.chmod(_os.path.join(folder, "locked"), 0)
            _os.chmod(folder, 0o555)
        except OSError:
            continue


_LEFT = _left()
_mark()
if _LEFT:
    _repair = repair_tool_history

    def repair_tool_history(messages):
        raise LookupError(f"found what an earlier test left in {', '.join(_LEFT)}")
