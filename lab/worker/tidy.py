"""Removing a folder that untrusted code has filled, whatever it filled it with.

A submission may leave in its scratch folder a tree thousands of folders deep (deeper than
shutil.rmtree's recursion goes, longer than any path the kernel accepts), folders and files
with every permission taken away, fifos, and links that point at files the grader must keep.
remove_tree takes all of it away and follows no link; it reports what it could not do
instead of raising, since cleaning up must never turn a grade into the grader's crash.

Fast path first: shutil.rmtree, which suffices for every ordinary folder. When it fails,
coreutils' `rm -rf` removes the rest; it walks the tree with file descriptors, to any depth,
and `--one-file-system` keeps it out of anything mounted inside. Only if something is still
there (a plain user's folder that its owner locked) are the owner's permissions given back
with `chmod -R u+rwx`, which follows no link it meets, and rm tried again.

Call it once nothing runs in the tree any more: a process still at work there could swap a
folder for a link between the checks and the commands.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from typing import Literal

COMMAND_SECONDS = 600  # for each of chmod and rm: far more than any scratch folder needs


def remove_tree(path: str | bytes | os.PathLike[str] | os.PathLike[bytes]) -> bool:
    """Remove `path` and everything under it; True when nothing is left there (it may not
    have existed), False when something could not be removed. Never raises. A link, at the
    top or anywhere inside, is removed itself, never followed."""
    try:
        top = os.lstat(path)
    except FileNotFoundError:
        return True
    except (OSError, ValueError):  # a path that cannot even be looked at: nothing we can do
        return False
    if not stat.S_ISDIR(top.st_mode):  # a file, a link, a fifo: one unlink
        return _unlink(path)
    try:
        shutil.rmtree(path)
    except (OSError, RecursionError):  # too deep for its recursion, or permissions taken away
        _run("rm", "-rf", "--one-file-system", "--", path)
        if os.path.lexists(path) and not os.path.islink(path):
            _run("chmod", "-R", "u+rwx", "--", path)
            _run("rm", "-rf", "--one-file-system", "--", path)
    return not os.path.lexists(path)


def _unlink(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError:
        return False
    return True


def _run(*command):
    """Run a coreutils command on the tree; its failure shows as what is left behind, which
    remove_tree checks, so its own status and complaints are not needed."""
    try:
        subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=COMMAND_SECONDS, check=False)
    except (OSError, subprocess.SubprocessError):  # no such command, or it hung
        pass


# -- the grader's own folders ------------------------------------------------------------------

PREFIX = "lab-check-"  # every folder a grading makes in the temporary folder: lab-check-<kind>-<pid>-


class GraderFolder:
    """A new folder of the grader's in the machine's temporary folder, named for the process
    that made it (lab-check-<kind>-<pid>-...), readable by its owner only, and removed with
    everything in it when the block ends, however it ends. Should the process be killed
    outright (SIGKILL: no block ends), the next grading on the machine removes it
    (`sweep_abandoned`)."""

    def __init__(self, kind: str) -> None:
        import tempfile

        self.path = tempfile.mkdtemp(prefix=f"{PREFIX}{kind}-{os.getpid()}-")

    def __enter__(self) -> str:
        return self.path

    def __exit__(self, *exc: object) -> Literal[False]:
        remove_tree(self.path)
        return False


def sweep_abandoned(folder: str | None = None) -> None:
    """Remove the grader's folders (as GraderFolder names them) that this user owns and whose
    process is gone: what a grading killed outright left. Never raises."""
    import re
    import tempfile

    folder = folder or tempfile.gettempdir()
    named = re.compile(re.escape(PREFIX) + r"[a-z-]+?-(\d+)-[^/]+$")
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        found = named.match(name)
        if not found:
            continue
        path = os.path.join(folder, name)
        try:
            if os.lstat(path).st_uid != os.geteuid() or _alive(int(found.group(1))):
                continue
        except (OSError, ValueError):
            continue
        remove_tree(path)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # someone else's process, or no pid at all: not ours to judge
    return True
