"""Run the graded tests in a process of their own, watched, so that killing it is a failure.

The student's code runs in children of the process that runs the tests. Run as an ordinary
user (not root, see account.py), it can signal that process, its parent, and kill it. So
lab_check does not run pytest in its own process but in a worker it watches:

    python -P -m lab.grading.supervise <pytest arguments>

The worker adopts the orphans of everything below it (reaper.become_subreaper), so a sweep
finds a harness's double-forked processes, and then runs pytest with this project's plugin and
no other, its own report and bytecode written nowhere, in the grading's private folder (where
hypothesis keeps its files too). `run` returns None when the worker ended by itself (the
results file then says how each test went), or else an Outcome standing for every test: a
failure when the worker was killed, an error when it ran past its ceiling.
"""

import os
import signal
import subprocess
import sys

from .. import lessons
from . import manifest, problems, reaper
from .results import Outcome

STARTUP = 60  # seconds for starting Python and pytest, on a slow machine, on top of the tests


def run(args, private, lesson, limits):
    """Run pytest with `args` in a worker working in `private`; None, or an Outcome as above."""
    # The sandboxes' folders go in here too, so that they go with `private` even when the
    # worker is killed before it can delete them; a child that is a user of its own must be
    # able to pass through to its own folder (not to list or write anything else).
    sandboxes = os.path.join(private, "sandboxes")
    os.mkdir(sandboxes)
    for folder in (private, sandboxes):
        os.chmod(folder, 0o711)
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS")}
    env.update(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", PYTHONDONTWRITEBYTECODE="1", TMPDIR=sandboxes,
               PYTHONPATH=str(lessons.PROJECT))  # the tests import lab and damaged from there
    points = manifest.total(lesson)
    ceiling = ceiling_for(lesson, limits)
    # -P: the working folder, which may be the student's, is never searched for modules
    command = [sys.executable, "-P", "-m", "lab.grading.supervise", *args]
    with subprocess.Popen(command, cwd=private, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as worker:
        try:
            status = worker.wait(timeout=ceiling)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
            return Outcome(test="grading", outcome="error", points=points, message=(
                f"the grading ran past its ceiling of {ceiling:g} s and was stopped, though "
                "every test has its own time limit. This is a bug in the lab: please report it."))
        except BaseException:  # Ctrl-C, say: the worker goes too, and its sandboxes after it
            worker.kill()
            raise
    if status < 0:
        return Outcome(test="grading", outcome="failed", points=points,
                       message=problems.grader_killed(signal.Signals(-status).name))
    return None


def ceiling_for(lesson, limits):
    """Seconds the whole grading may take: every test's limit twice over, and STARTUP."""
    count = len(manifest.read(lesson).get("tests", {})) or 20
    return STARTUP + 2 * limits.seconds * (count + 1)


def main(args):
    """The worker: adopt orphans, run pytest (its output goes nowhere), exit with its status."""
    reaper.become_subreaper()
    import pytest  # here: only the worker runs pytest

    return int(pytest.main(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
