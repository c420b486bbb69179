"""Kill every process a sandbox started, wherever it went.

A child may start processes of its own, and they may leave its process group (setsid) or its
family (a double fork, after which their parent is init, or the nearest subreaper). So a sweep
gathers, pass after pass until a pass finds no one new: the child, everything descended from
it, the orphans this process has adopted (when it is a subreaper, see `become_subreaper`), and
every process of the child's own user when it has one (isolation.py's uid kind). Each is stopped as
soon as it is found, so that none can fork or exit while the sweep looks; then all of them are
killed at once, and the adopted ones reaped. Where there is no /proc, the sweep kills the
child's process group, which is what a process tree is without one.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Collection

from . import linux

PASSES = 100  # a fork bomb under RLIMIT_NPROC is stopped in a few; this only bounds a bug
_subreaper = False


def become_subreaper() -> None:
    """Adopt the orphans of every process below this one, so that a sweep can find them.
    Only for a process that does nothing but grade: its other children would look adopted."""
    global _subreaper
    linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)
    _subreaper = True


def sweep(pid: int, uid: int | None = None, spare: Collection[int] = ()) -> None:
    """SIGKILL the child `pid` and everything it started, as above; `uid`: the child's own user,
    if it has one; `spare`: other children of this process that are not part of it. The child
    itself is left for its parent to reap (its exit status says how it ended)."""
    stopped: set[int]
    me, stopped = os.getpid(), set()
    for _ in range(PASSES):
        table = linux.processes()
        found = _family(table, {pid} | (_adopted(table, me, pid, spare) if _subreaper else set()))
        if uid is not None:
            found |= {p for p, (_, owner, _) in table.items() if owner == uid}
        found = {p for p in found if table.get(p, (0, 0, "Z"))[2] != "Z" and p != me} - stopped
        if not found:
            break
        for p in found:
            _signal(p, signal.SIGSTOP)
        stopped |= found
    for p in stopped | {pid}:
        _signal(p, signal.SIGKILL)
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # no such group any more (or never one): its members were killed one by one above
    if _subreaper:
        _reap_adopted(me, pid, spare)


def _family(table, roots):
    """`roots` and every process descended from one of them."""
    children: dict[int, list[int]] = {}
    for p, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(p)
    found, todo = set(), list(roots)
    while todo:
        p = todo.pop()
        if p not in found:
            found.add(p)
            todo += children.get(p, [])
    return found


def _adopted(table, me, pid, spare):
    return {p for p, (parent, _, _) in table.items()
            if parent == me and p != pid and p not in spare}


def _reap_adopted(me, pid, spare):
    """Collect the exit of every adopted orphan, killed or already dead, so none is left a
    zombie; the child and the spared are left to whoever waits for them."""
    for p in _adopted(linux.processes(), me, pid, spare):
        try:
            os.waitpid(p, 0)
        except ChildProcessError:
            pass  # reaped already, or never ours after all


def _signal(pid, number):
    try:
        os.kill(pid, number)
    except (ProcessLookupError, PermissionError):
        pass  # gone already, or not ours to signal (its number was reused): nothing to do
