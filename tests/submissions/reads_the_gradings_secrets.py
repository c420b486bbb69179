# base: finished
# args: --time-limit 3 -k "orphan or steering"
# exit: 0
# closing: 2 passed, 0 failed
# Reads every command line and environment it can of the grading's own processes (each
# ancestor of the test's process, and each of their children), looking for what the grading
# must keep from it: the job (its seed), the grader's private folder (the snapshot's path), the
# test files. Any of them found, and it fails on purpose, saying what it found: so a pass means
# none of them could be read. The job goes to the worker over a pipe, the sandbox's plan over
# its socket, and the bundle lives outside the private folder.

import os as _os

_MARKS = (b'"seed"', b"lab-check-grade-", b"/tests.py")


def _parent(pid):
    try:
        for line in open(f"/proc/{pid}/status", "rb"):
            if line.startswith(b"PPid:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _grading():
    """The test's process's ancestors, and all their children."""
    chain, pid = [], _os.getpid()
    while pid > 1 and pid not in chain:
        chain.append(pid)
        pid = _parent(pid)
    family = set(chain)
    for name in _os.listdir("/proc"):
        if name.isdigit() and _parent(int(name)) in chain:
            family.add(int(name))
    return family - {_os.getpid()}


def _secrets():
    found = []
    for pid in _grading():
        for part in ("cmdline", "environ"):
            try:
                data = open(f"/proc/{pid}/{part}", "rb").read()
            except OSError:
                continue
            found += [f"{mark.decode()} in the {part} of process {pid}" for mark in _MARKS
                      if mark in data]
    return found


_FOUND = _secrets()
if _FOUND:
    _repair = repair_tool_history

    def repair_tool_history(messages):
        raise LookupError("found the grading's secrets: " + "; ".join(_FOUND[:4]))
