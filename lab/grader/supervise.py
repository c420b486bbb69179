"""The worker: one grading's tests, run by pytest in a process of its own, watched by the host.

    python -P -m lab.worker.main RESULTS_FD [--serve]
                            (the Job, a protocol frame, on standard input; --serve: Job after
                            Job until it closes, lab-check --watch's kept worker; started
                            by lab.grader.module_run, which does what -P does on 3.10 too)

The Job (the snapshot's path, the seed, the tests) goes over a pipe, never on the command
line, which any user of the machine can read. The worker makes itself undumpable at once, so
that no process of its user can open its descriptors through /proc. `run` (in the host) starts
it and reads, from a pipe only the host and the worker hold, one frame: either {"problem": sentence} when nothing can be graded (the harness does not import,
or lacks a name every test needs), or every test's outcome. The worker starts the sandbox's
zygote once, checks the import in a clean process, then runs pytest with this project's plugin
and no other, its own output, report and bytecode written nowhere, in the grading's private
folder. `run` returns that frame, or a TestResult standing for every test: a failure when the
worker was killed, an error when it ran past its ceiling.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from typing import TYPE_CHECKING, Any, Literal

from lab.grader import module_run
from lab.course import manifest
from lab.testkit import problems
from lab.worker import tidy
from lab.worker import phase
from lab.sandbox import protocol
from lab.sandbox.outcome import TestResult

if TYPE_CHECKING:
    from lab.course.lesson_files import Lesson
    from lab.sandbox.protocol import Job, Limits

PROJECT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STARTUP = 60  # seconds for starting Python and pytest, on a slow machine, on top of the tests
STOP_GRACE = 5  # seconds a worker told to stop has to close its sandbox before it is killed
STDERR_LINES, STDERR_BYTES = 20, 8192  # of a worker that died, its last words kept at most


def run(job: Job, private: str, lesson: Lesson) -> dict[str, Any] | TestResult:
    """Run `job` in a worker working in `private`; its frame (a dict), or the TestResult
    that stands for every test."""
    ceiling = ceiling_for(lesson, job.limits)
    results_r, results_w = os.pipe()
    worker, stderr = _start(private, results_w)
    with worker:
        os.close(results_w)
        try:
            try:
                protocol.write_frame(worker.stdin.fileno(), {"job": job.to_dict()})
                worker.stdin.close()
            except OSError:
                pass  # it died before reading: its exit says how
            frame, status = _read(worker, results_r, time.monotonic() + ceiling)
        except BaseException:  # Ctrl-C, say: the worker goes too, and its sandboxes after it
            stop(worker)
            raise
        finally:
            os.close(results_r)
    return _ended(frame, status, ceiling, lesson, Died(worker.pid, private, stderr))


def _start(private, results_w, serve=False):
    """A worker working in `private`, writing its frames to `results_w`, and the file its
    stderr goes to; `serve`: one that grades Job after Job (Warm)."""
    sandboxes = os.path.join(private, "sandboxes")
    os.makedirs(sandboxes, exist_ok=True)
    for folder in (private, sandboxes):
        os.chmod(folder, 0o711)
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS")}
    # the tests import lab and damaged from the project, whatever the folder it runs in
    paths = [str(PROJECT), *filter(None, env.get("PYTHONPATH", "").split(":"))]
    env.update(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", PYTHONDONTWRITEBYTECODE="1", TMPDIR=sandboxes,
               PYTHONPATH=":".join(paths))
    # -P: the working folder, which may be the student's, is never searched for modules
    # as -P would: the working folder, which may be the student's, is never searched for modules
    command = module_run.command("lab.worker.main", results_w,
                                 *(["--serve"] if serve else []))
    descriptor, stderr = tempfile.mkstemp(prefix="worker-", suffix=".stderr", dir=private)
    try:
        return subprocess.Popen(command, cwd=private, env=env, stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=descriptor,
                                pass_fds=(results_w,)), stderr
    finally:
        os.close(descriptor)


@dataclasses.dataclass(frozen=True)
class Died:
    """Where to find what a worker left should it end without its frame: its pid, the folder
    it worked in (its phase file, worker/phase.py), the file its stderr went to."""
    pid: int
    folder: str
    stderr: str

    def diagnosis(self) -> tuple[str, str]:
        """(the phase it was in, its last words on stderr: up to STDERR_LINES lines)."""
        try:
            with open(self.stderr, "rb") as file:
                file.seek(max(0, os.fstat(file.fileno()).st_size - STDERR_BYTES))
                tail = file.read().decode(errors="replace")
        except OSError:
            tail = ""
        lines = tail.rstrip().splitlines()[-STDERR_LINES:]
        return phase.last(self.folder, self.pid), "\n".join(f"  | {line}" for line in lines)


def _ended(frame, status, ceiling, lesson, died=None):
    """The worker's frame, or the TestResult that stands for every test when it sent none.
    Then the phase the worker was in goes in its message and, with the worker's last
    words on stderr, on this process's stderr (a batch keeps its grader's beside the row)."""
    if frame is not None and status is not None and status >= 0:
        return frame
    points = manifest.total(lesson)
    where, said = died.diagnosis() if died is not None else ("", "")
    while_ = f", while {where}" if where else ""
    if status is None:
        how = f"ran past its ceiling of {ceiling:g} s and was stopped"
        result = TestResult(test="grading", outcome="error", points=points, message=(
            f"the grading {how}{while_}, though every answer has its own time limit. This "
            "is a bug in the lab: please report it."))
    elif status < 0:
        how = f"was killed by {signal.Signals(-status).name}"
        result = TestResult(test="grading", outcome="failed", points=points,
                            message=problems.grader_killed(signal.Signals(-status).name))
    else:
        how = f"ended (exit {status}) without reporting any result"
        result = TestResult(test="grading", outcome="error", points=points, message=(
            f"the grading process {how}{while_}. This is a bug in the lab: please report "
            "it, with what lab_check wrote on its standard error."))
    print(f"lab_check: the grading process {how}{while_}; its last words on stderr:\n"
          f"{said or '  (none)'}", file=sys.stderr)
    return result


class Warm:
    """Workers kept between gradings of one file (lab-check --watch): pytest and the plugin
    imported, each worker's sandbox zygote started and kept (it runs none of the student's code
    itself: each test's process is forked from it clean, as within one grading). Its folders
    are its own for as long as it lives; the snapshot is rewritten in place for each grading,
    so the sandboxes that read it stay the same. A Job it cannot take (another isolation,
    other limits) or a worker that died starts anew. Use it in a with block.

    Where each sandbox has namespaces of its own (bubblewrap: its own /tmp, processes, network
    and System V objects) and the machine has the cores, the tests are shared among
    `workers_for(job)` workers side by side, each with its own sandbox, and their frames are
    made one: the same tests, each in a clean process, the same seed, in less time.
    `workers`: that many, whatever the Job (bench/run.py measures one alone)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers
        self.private: str | None = None
        self.public: str | None = None
        self._folders: list[tidy.GraderFolder] = []
        # (worker, results fd, the file of its stderr)
        self._workers: list[tuple[subprocess.Popen[bytes], int, str]] = []
        self._key: tuple[object, ...] | None = None

    def __enter__(self) -> Warm:
        self._folders = [tidy.GraderFolder("grade"), tidy.GraderFolder("public")]
        self.private, self.public = (folder.path for folder in self._folders)
        os.chmod(self.public, 0o711)
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self._stop()
        for folder in self._folders:
            folder.__exit__(None, None, None)
        return False

    def run(self, job: Job, lesson: Lesson) -> dict[str, Any] | TestResult:
        """As `run`, from the kept workers: their frames made one (a dict), or a TestResult."""
        parts = self.workers or workers_for(job)
        key = (job.isolation, job.limits, job.snapshot, job.public, parts)
        if (key != self._key or len(self._workers) != parts
                or any(worker.poll() is not None for worker, _, _ in self._workers)):
            self._stop()
            for _ in range(parts):
                results_r, results_w = os.pipe()
                worker, stderr = _start(self.private, results_w, serve=True)
                self._workers.append((worker, results_r, stderr))
                os.close(results_w)
            self._key = key
        ceiling = ceiling_for(lesson, job.limits)
        try:
            for part, (worker, _, _) in enumerate(self._workers):
                shared = dataclasses.replace(job, share=[part, parts])
                try:
                    protocol.write_frame(worker.stdin.fileno(),  # type: ignore[union-attr]
                                         {"job": shared.to_dict()})
                except OSError:
                    pass  # it died: reading says how
            deadline = time.monotonic() + ceiling
            frames = [_read_one(fd, deadline, worker) for worker, fd, _ in self._workers]
        except BaseException:
            self._stop()
            raise
        for (worker, _, stderr), frame in zip(self._workers, frames):
            if frame is None:  # dead or past its ceiling: its status says which; anew next
                status = worker.poll()
                self._stop()
                return _ended(None, status, ceiling, lesson,
                              Died(worker.pid, self.private or "", stderr))
        return merged(frames)

    def pids(self) -> list[int]:
        """The kept workers' process ids (one a share of the tests)."""
        return [worker.pid for worker, _, _ in self._workers]

    def _stop(self):
        for worker, _, _ in self._workers:
            try:
                worker.stdin.close()  # type: ignore[union-attr]  # no more Jobs: it ends
            except OSError:
                pass
        for worker, results, _ in self._workers:
            try:
                worker.wait(timeout=STOP_GRACE)
            except subprocess.TimeoutExpired:
                stop(worker)
            os.close(results)
        self._workers = []


def workers_for(job: Job) -> int:
    """How many kept workers share a Job's tests: two where each sandbox has namespaces of its
    own (no test sees another's /tmp, processes or network) and the machine has two cores to
    run them on; else one."""
    if job.isolation != "bubblewrap":
        return 1
    return 2 if len(os.sched_getaffinity(0)) >= 2 else 1


def merged(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The frames of workers that shared one Job's tests (every parts-th each) as one: the
    first Problem, if any (each checked the same import); else every test, back in the order
    they were collected, the longest time, and the walls every sandbox had."""
    if len(frames) == 1:
        return frames[0]
    for frame in frames:
        if "problem" in frame:
            return frame
    shares: list[list[Any]] = [frame["tests"] if type(frame.get("tests")) is list else []
                               for frame in frames]
    tests = [test for row in itertools.zip_longest(*shares) for test in row if test is not None]
    times: list[float] = [frame["seconds"] for frame in frames
                          if type(frame.get("seconds")) in (int, float)]
    seconds = max(times, default=0.0)
    walls = [protocol.layers_of(frame) for frame in frames]
    # a wall counts when every sandbox had it (they are made alike: they always do)
    layers = [layer for layer in walls[0] if all(layer in other for other in walls[1:])]
    return dict(protocol.report(tests, seconds, layers))


def _read_one(fd, deadline, worker):
    """The next frame from a serving worker, or None when it died, garbled, or the deadline
    passed (then it is killed)."""
    buffer = protocol.FrameBuffer()
    with selectors.DefaultSelector() as watch:
        watch.register(fd, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                stop(worker, grace=0)
                return None
            if watch.select(timeout=min(left, 1.0)):
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    worker.wait()
                    return None
                buffer.feed(chunk)
                try:
                    frame = buffer.next_frame()
                except protocol.Garbled:
                    stop(worker, grace=0)
                    return None
                if frame is not None:
                    return frame


def stop(worker: subprocess.Popen[bytes], grace: float = STOP_GRACE) -> None:
    """End the worker: asked first (SIGTERM: it ends its tests and closes its sandbox, whose
    processes may run as another user), killed if it has not ended in `grace` seconds."""
    if worker.poll() is None:
        if grace <= 0:
            worker.kill()
            worker.wait()
            return
        worker.terminate()
        try:
            worker.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def _read(worker, fd, deadline):
    """The worker's one frame (None if it sent none) and its exit status (None: killed at the
    ceiling)."""
    buffer, frame = protocol.FrameBuffer(), None
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
                except protocol.Garbled:
                    # a worker that sent what is not a frame may be blocked writing the rest
                    # of it: waiting for it to end would wait until the ceiling
                    frame = None
                    worker.kill()
                    break
    try:
        return frame, worker.wait(timeout=max(0.1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()
        return None, None


def ceiling_for(lesson: Lesson, limits: Limits) -> float:
    """Seconds the whole grading may take: STARTUP, and every test's limit many times over."""
    count = len(manifest.read(lesson).get("tests", {})) or 20
    return STARTUP + 20 * limits.seconds * (count + 1)
