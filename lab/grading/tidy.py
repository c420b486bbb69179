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

import os
import shutil
import stat
import subprocess

COMMAND_SECONDS = 600  # for each of chmod and rm: far more than any scratch folder needs


def remove_tree(path: str | bytes | os.PathLike) -> bool:
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
