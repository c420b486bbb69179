"""The worker: one grading's tests, run by pytest in a process of its own, watched by the host.

    python -P -m lab.grading.supervise RESULTS_FD      (the Job as JSON on standard input;
                                                        lab.module_run, on 3.10 too)

The Job (the snapshot's path, the seed, the tests) goes over a pipe, never on the command
line, which any user of the machine can read. The worker makes itself undumpable at once, so
that no process of its user can open its descriptors through /proc. `run` (in the host) starts
it and reads, from a pipe only the host and the worker hold, one frame: either {"problem": sentence} when nothing can be graded (the harness does not import,
or lacks a name every test needs), or every test's outcome. The worker starts the sandbox's
zygote once, checks the import in a clean process, then runs pytest with this project's plugin
and no other, its own output, report and bytecode written nowhere, in the grading's private
folder. `run` returns that frame, or an Outcome standing for every test: a failure when the
worker was killed, an error when it ran past its ceiling.
"""

import os
import selectors
import signal
import subprocess
import sys
import time

from .. import module_run
from . import manifest, problems
from .inside import reaper, wire
from .job import Job
from .results import Outcome

STARTUP = 60  # seconds for starting Python and pytest, on a slow machine, on top of the tests


def run(job, private, lesson):
    """Run `job` in a worker working in `private`; its frame (a dict), or an Outcome."""
    sandboxes = os.path.join(private, "sandboxes")
    os.mkdir(sandboxes)
    for folder in (private, sandboxes):
        os.chmod(folder, 0o711)
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS")}
    # the tests import lab and damaged from the project, whatever the folder it runs in
    paths = [str(lesson.folder.parent.parent), *filter(None, env.get("PYTHONPATH", "").split(":"))]
    env.update(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", PYTHONDONTWRITEBYTECODE="1", TMPDIR=sandboxes,
               PYTHONPATH=":".join(paths))
    points = manifest.total(lesson)
    ceiling = ceiling_for(lesson, job.limits)
    results_r, results_w = os.pipe()
    # as -P would: the working folder, which may be the student's, is never searched for modules
    command = module_run.command("lab.grading.supervise", results_w)
    with subprocess.Popen(command, cwd=private, env=env, stdin=subprocess.PIPE,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          pass_fds=(results_w,)) as worker:
        os.close(results_w)
        try:
            try:
                worker.stdin.write(job.to_json().encode())
                worker.stdin.close()
            except OSError:
                pass  # it died before reading: its exit says how
            frame, status = _read(worker, results_r, time.monotonic() + ceiling)
        except BaseException:  # Ctrl-C, say: the worker goes too, and its sandboxes after it
            worker.kill()
            raise
        finally:
            os.close(results_r)
    if status is None:
        return Outcome(test="grading", outcome="error", points=points, message=(
            f"the grading ran past its ceiling of {ceiling:g} s and was stopped, though "
            "every answer has its own time limit. This is a bug in the lab: please report it."))
    if status < 0:
        return Outcome(test="grading", outcome="failed", points=points,
                       message=problems.grader_killed(signal.Signals(-status).name))
    if frame is None:
        return Outcome(test="grading", outcome="error", points=points, message=(
            f"the grading process ended (exit {status}) without reporting any result. This is "
            "a bug in the lab: please report it."))
    return frame


def _read(worker, fd, deadline):
    """The worker's one frame (None if it sent none) and its exit status (None: killed at the
    ceiling)."""
    buffer, frame = wire.FrameBuffer(), None
    with selectors.DefaultSelector() as watch:
        watch.register(fd, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                worker.kill()
                worker.wait()
                return None, None
            if watch.select(timeout=min(left, 1.0)):
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                buffer.feed(chunk)
                try:
                    frame = frame or buffer.next_frame()
                except wire.Garbled:
                    frame = None
                    break
    try:
        return frame, worker.wait(timeout=max(0.1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()
        return None, None


def ceiling_for(lesson, limits):
    """Seconds the whole grading may take: STARTUP, and every test's limit many times over."""
    count = len(manifest.read(lesson).get("tests", {})) or 20
    return STARTUP + 20 * limits.seconds * (count + 1)


def main(results_fd):
    """The worker: shut itself to its own user, adopt orphans, read the Job, start the
    sandbox, check the import, run pytest."""
    from .inside import linux

    linux.prctl(linux.PR_SET_DUMPABLE, 0)
    reaper.become_subreaper()
    job = Job.from_json(sys.stdin.read())
    from . import isolation
    from .sandbox import Zygote

    # the bundle's path is on the zygote's command line, which anyone may read: it is put in
    # the host's public folder, not the private one, so that it names nothing of the grading
    with isolation.Bundle(job.public or None) as bundle:
        zygote = Zygote(job.isolation, job.snapshot, bundle, os.environ.get("TMPDIR"), job.limits)
        zygote.warm()  # it starts on the other core while pytest is imported here
        try:
            import pytest  # here: only the worker runs pytest

            from . import checks, plugin

            problem = checks.import_problem(zygote, job)
            if problem:
                wire.write_frame(results_fd, {"problem": problem})
                return 0
            return int(pytest.main(pytest_args(job),
                                   plugins=[plugin.Grading(job, zygote, results_fd)]))
        finally:
            zygote.close()


def pytest_args(job):
    """pytest's own arguments; everything else the plugin takes from the Job itself."""
    args = [*job.tests, "-p", "hypothesis.extra.pytestplugin",
            "-p", "no:cacheprovider", "--rootdir", os.getcwd(), "-c", os.devnull, "-q",
            "--hypothesis-seed", str(job.seed)]
    return args + (["-k", job.select] if job.select else [])


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
