"""lab-check --watch: grade the harness now and again after every save, until Ctrl-C.

Each round prints a line saying when it graded and what changed since the round before (the
tests newly passing and newly failing), then the report. On a terminal the screen is cleared
first, so the newest report is all there is to read. Saves are noticed by watchfiles, which
watches the harness's folder (an editor often saves by writing a new file and renaming it over
the old) and waits for a burst of writes to settle before a round starts; and once a second
the file is compared with what was last graded, so a save the watcher could not see (made
while the first grading ran, before it started) is graded all the same. Ctrl-C, while waiting
or while grading, ends the watch with exit status 0; a grading it interrupts stops its worker.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

import watchfiles

if TYPE_CHECKING:
    from lab.grader.results import Grade

CLEAR = "\x1b[2J\x1b[H"   # clear the screen, cursor to the top
SETTLE_MS = 200           # a save's burst of writes is over after this much quiet
WAKE_MS = 1000            # with no save, how often the file is compared with what was graded


def run(harness_file: str | os.PathLike[str], grade_once: Callable[[], Grade],
        render: Callable[[Grade], str], out: TextIO | None = None) -> int:
    """Watch `harness_file`: `grade_once()` returns a Grade, `render(grade)` its report."""
    out = out or sys.stdout
    # The file's own path in its folder's real path: never a link's target (a harness.py that
    # is a link to /dev/zero would have the watcher watch /dev, and a real file saved in the
    # link's place would never be graded).
    absolute = os.path.abspath(harness_file)
    path = os.path.join(os.path.realpath(os.path.dirname(absolute)), os.path.basename(absolute))
    try:
        graded = _digest(path)
        previous = _round(grade_once(), None, render, out, "first run")
        # The folder alone, not the tree under it (a project's node_modules and venv are tens of
        # thousands of folders to watch). Woken by a save, or every WAKE_MS to compare the file
        # with what was graded: a save
        # made before the watcher started (while the first grading ran) is caught that way.
        for saved in watchfiles.watch(os.path.dirname(path), debounce=SETTLE_MS, step=50,
                                      watch_filter=lambda change, changed: changed == path,
                                      rust_timeout=WAKE_MS, yield_on_timeout=True,
                                      raise_interrupt=True, recursive=False):
            if saved or _digest(path) != graded:
                graded = _digest(path)
                previous = _round(grade_once(), previous, render, out, f"{harness_file} saved")
    except KeyboardInterrupt:
        out.write("\nlab_check: stopped watching.\n")
        out.flush()
    return 0


def _digest(path):
    """The sha256 of the file's bytes, or "" when it cannot be read."""
    try:
        with open(path, "rb", opener=lambda p, f: os.open(p, f | os.O_NONBLOCK)) as source:
            return hashlib.sha256(source.read(64 * 1024 * 1024) or b"").hexdigest()  # /dev/zero
    except OSError:
        return ""


def changes(before: Grade, after: Grade) -> tuple[list[str], list[str]]:
    """(newly passing, newly failing): titles of the tests graded in both Grades whose outcome
    turned from `before` to `after`."""
    was = {test.test: test.outcome == "passed" for test in before.tests}
    now_passing = [t.title for t in after.tests if t.outcome == "passed" and was.get(t.test) is False]
    now_failing = [t.title for t in after.tests if t.outcome != "passed" and was.get(t.test)]
    return now_passing, now_failing


def _round(grade, previous, render, out, why):
    if out.isatty():
        out.write(CLEAR)
    out.write(f"lab_check --watch: graded at {time.strftime('%H:%M:%S')} ({why}); Ctrl-C to "
              "stop\n")
    out.write(_since(previous, grade) + "\n\n")
    out.write(render(grade))
    out.write(f"\nwatching {os.path.basename(grade.harness)} for the next save...\n")
    out.flush()
    return grade


def _since(previous, grade):
    if previous is None:
        return "(the first grading: from the next save on, this line says what changed)"
    if grade.problem:
        return "since the last run: it cannot be graded now (the report says why)"
    if previous.problem:
        return "since the last run: it can be graded again"
    passing, failing = changes(previous, grade)
    if not passing and not failing:
        return "since the last run: no test changed"
    said = []
    if passing:
        said.append(f"now passing ({len(passing)}): {' · '.join(passing)}")
    if failing:
        said.append(f"now failing ({len(failing)}): {' · '.join(failing)}")
    return "since the last run: " + "; ".join(said)
