"""Where a worker is in its grading, kept where the host finds it should the worker die.

A worker that ends without its frame leaves the host nothing to go on but its exit status. So
the worker says, as it goes, which phase it is in (starting the sandbox, importing pytest,
checking the import, running a test, sending the report) by writing one line to a file of its
own in the grading's private folder, `phase-<its pid>`, which only the host and it can reach;
and the host, when the worker has died, reads the last line written there (`last`) and puts it,
with the worker's exit and its last words on stderr, in what it reports (supervise.py).
"""

from __future__ import annotations

import os

_path: str | None = None


def start(folder: str) -> None:
    """Say phases from now on in `folder` (the worker's working folder, the private one)."""
    global _path
    _path = file_of(folder, os.getpid())


def file_of(folder: str, pid: int) -> str:
    """The file the worker `pid`, working in `folder`, says its phase in."""
    return os.path.join(folder, f"phase-{pid}")


def say(phase: str) -> None:
    """The worker is now `phase` (a few words: "running test_x")."""
    if _path is None:
        return
    try:
        with open(_path, "w", encoding="utf-8") as file:
            file.write(phase[:300])
    except OSError:
        pass  # a phase is a help for a diagnosis, never a reason to fail a grading


def last(folder: str, pid: int) -> str:
    """The phase the worker `pid` said last, or "starting" when it said none; the file is
    removed once read."""
    path = file_of(folder, pid)
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            said = file.read().strip()
        os.unlink(path)
    except OSError:
        said = ""
    return said or "starting"
