"""The worker: one grading's tests (or, kept, one after another), run by pytest in a process of
its own, watched by the host (lab.grader.supervise starts it and reads its frames).

    python -P -m lab.worker.main RESULTS_FD [--serve]

The Job comes as a protocol frame on standard input, never on the command line, which any user
of the machine can read; --serve: Job after Job until standard input closes (lab-check
--watch's kept worker). The worker makes itself undumpable at once, so that no process of its
user can open its descriptors through /proc, and asks to be told when the host dies. It builds
the student bundle (bundle.py), starts the sandbox's zygote (sandbox.Zygote), checks the
import in a clean process (checks.py), then runs pytest with this project's plugin (plugin.py)
and no other, its output, report and bytecode written nowhere, in the grading's private
folder; each grading's one frame (a Problem or a Report) goes to the results pipe.
"""

from __future__ import annotations

import itertools
import os
import signal
import sys

from lab.sandbox import linux, protocol, reaper
from lab.sandbox.protocol import Job
from lab.worker import phase
from lab.worker.bundle import Bundle
from lab.worker.zygote_link import Zygote


def main(results_fd: int, serve: bool = False) -> int:
    """The worker: shut itself to its own user, adopt orphans, read the Job, start the
    sandbox, check the import, run pytest."""

    linux.prctl(linux.PR_SET_DUMPABLE, 0)
    # When the host goes (killed outright, even), the worker is told, ends its tests and its
    # sandbox, and removes the host's folders for it: no one else would.
    linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGTERM)
    host, private = os.getppid(), os.getcwd()
    phase.start(private)
    phase.say("reading its job")
    signal.signal(signal.SIGTERM, _interrupted)
    reaper.become_subreaper()
    coming = _jobs(os.dup(0))  # read from a copy: pytest points 0 at /dev/null as it runs
    job = next(coming, None)  # a host gone before it sent one: no Job, and no grading
    jobs = itertools.chain([job], coming) if serve else [job]
    try:
        return _work(job, jobs, results_fd, keep=serve) if job is not None else 0
    finally:
        if os.getppid() != host:
            from lab.worker.tidy import remove_tree

            for folder in (private, job.public if job is not None else ""):
                if folder:
                    remove_tree(folder)


def _jobs(fd):
    """The Jobs a serving worker is sent, one frame each, until its standard input (`fd`)
    closes."""
    while True:
        message = protocol.read_frame(fd)
        if message is None:
            return
        yield Job.from_dict(message["job"])


def _interrupted(number, frame):
    """SIGTERM: stop as Ctrl-C stops pytest, so that every finally (the sandbox's) runs."""
    raise KeyboardInterrupt


def _work(first, jobs, results_fd, keep=False):
    """Grade each of `jobs` (the first is `first`), all on the sandbox started for the first;
    `keep`: the results pipe stays open for the next (a serving worker's)."""

    # the bundle's path is on the zygote's command line, which anyone may read: it is put in
    # the host's public folder, not the private one, so that it names nothing of the grading
    phase.say("building the sandbox's bundle")
    with Bundle(first.public or None) as bundle:
        phase.say("starting the sandbox and importing pytest")
        zygote = Zygote(first.isolation, first.snapshot, bundle, os.environ.get("TMPDIR"),
                        first.limits)
        zygote.warm()  # it starts on the other core while pytest is imported here
        try:
            import pytest  # here: only the worker runs pytest

            from lab.worker import checks, plugin

            def admitted(job):
                """Ready the sandbox for `job` and check its import: True when it can be
                graded; else its Problem frame has been written."""
                if job is not first:
                    zygote.reload()  # the snapshot was rewritten for this grading
                zygote.ahead = True  # the first test's process is forked as the check ends
                phase.say("checking that harness.py imports")
                problem = checks.import_problem(zygote, job)
                if problem:
                    protocol.write_frame(results_fd, protocol.problem(problem))
                    zygote.drop_spare()
                return not problem

            def following():
                """The next Job that can be graded (None when no more come), for a kept
                session of pytest, which takes it if it runs the same tests."""
                for job in jobs:
                    if admitted(job):
                        return job
                return None

            status, jobs, job = 0, iter(jobs), None
            for job in jobs:
                if admitted(job):
                    break
            else:
                return status
            while job is not None:
                # a kept worker keeps its pytest session, collection and all, for every
                # grading that runs the same tests: only the tests themselves run again
                grading = plugin.Grading(job, zygote, results_fd, keep_open=keep,
                                         following=following if keep else None)
                phase.say("collecting the tests")
                status = int(pytest.main(pytest_args(job), plugins=[grading]))
                phase.say("ending the grading")
                zygote.drop_spare()  # the frame has gone: this is off the host's clock
                job = grading.declined  # a Job for other tests, admitted already, or None
            return status
        finally:
            zygote.close()


def pytest_args(job: Job) -> list[str]:
    """pytest's own arguments; everything else the plugin takes from the Job itself.
    --tb=native: a failing test's message is the plugin's own (plugin._explain), and pytest's
    long traceback, which parses every file on the way to the failure, is read by nobody; a
    failure outside any test (in a teardown) still carries Python's traceback."""
    args = [*job.tests, "-p", "hypothesis.extra.pytestplugin", "-p", "no:cacheprovider",
            "--rootdir", os.getcwd(), "-c", os.devnull, "-q", "--tb=native",
            "--hypothesis-seed", str(job.seed)]
    return args + (["-k", job.select] if job.select else [])


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), serve="--serve" in sys.argv[2:]))
