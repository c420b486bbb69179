"""Grading a class on a Dask cluster: the batch's work sent out, its records kept at home.

    lab-check --lesson 10 --batch submissions/ --output results/ --cluster tcp://head:8786
    lab-check --lesson 10 --batch submissions/ --output results/ --cluster scheduler.json

The cluster is one that is already running (a scheduler and its workers, started by hand, by
Slurm or PBS through dask-jobqueue: docs/cluster.md); ADDRESS is its scheduler's address or
the scheduler file it wrote. dask.distributed does the sending, the queueing and the sending
again: a worker that is lost mid-batch has its submissions given to another by the scheduler,
and each comes back here once.

What a worker does with a submission is what `--jobs` does with one on this machine
(batch._grade_one): the same grading process (`python -m lab.grader.batch`), in a sandbox and
a scratch folder of its own, under the same Plan (limits, seed rules, tests). It gets the
student's file as bytes, not as a path, so the cluster needs no file system shared with the
instructor, and it hands back the Grade as data. Everything that is the batch's record stays
here: each Grade is written into the results, the feedback and the summary the moment it
arrives (batch.run's `save`), so Ctrl-C, --resume and --only behave as they do with --jobs.
A submission that needs no grader (a folder that is a link, nothing found to grade, no
regular file) or a file over SHIPPED_BYTES is graded here, by the same function.

Before the first submission goes out, every worker says what it would grade with (`describe`:
lab-check's version, a digest of the project's code and of the lesson's sources, Python's
version, and whether it has the sandbox the Plan insists on), and a cluster where any worker
differs from this machine is refused in one line naming the worker and what differs. A worker
that joins later is held to the same: its first task checks, and a mismatch is that row's
"grader failed" (never a student's zero), which --resume grades again.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pathlib
import stat
import sys
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TextIO

from lab.grader import batch
from lab.worker import tidy
from lab.kit.escape import file_name, printable, shown_name
from lab.grader.plan import Plan
from lab.grader.progress_bar import Progress
from lab.grader.results import VERSION, Grade

if TYPE_CHECKING:
    from distributed import Client

    from lab.course.lesson_files import Lesson

SHIPPED_BYTES = 4 << 20  # a student's file larger than this is graded here, not sent
CONNECT_SECONDS = 20     # to reach the scheduler, and for it to have a worker
POLL_SECONDS = 0.2       # how often the batch looks for finished gradings and for Ctrl-C
SKIPPED = ("__pycache__",)
# What a worker must have as this machine has it, in the order a refusal names them.
COMPARED = {"version": "lab-check version", "code": "project code", "lesson": "lesson sources",
            "python": "Python version"}


# -- what a machine grades with ----------------------------------------------------------------

def _digest(folder: pathlib.Path) -> str:
    """A sha256 over every file under `folder` (its path from there and its bytes), bytecode
    caches left out: two folders with the same digest grade alike."""
    whole = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()
                       and not any(part in SKIPPED for part in p.relative_to(folder).parts)):
        whole.update(path.relative_to(folder).as_posix().encode() + b"\0")
        whole.update(hashlib.sha256(path.read_bytes()).digest())
    return whole.hexdigest()[:16]


@functools.lru_cache(maxsize=8)
def _sources(lesson_id: str) -> tuple[str, str]:
    from lab.course import lesson_files as lessons

    return _digest(batch.PROJECT / "lab"), _digest(lessons.lesson(lesson_id).folder)


def describe(lesson_id: int | str, plan: dict[str, Any]) -> dict[str, str]:
    """What this machine would grade lesson `lesson_id` with under the Plan `plan` (as data):
    lab-check's version, digests of the project's code and of the lesson's sources, Python's
    version, and why it cannot grade under the plan ("" when it can). Run on each worker, and
    here, so the two can be compared."""
    code, lesson = _sources(str(lesson_id))
    _, problem = Plan.from_dict(plan).isolation()
    return {"version": f"{VERSION} ({batch._package_version() or 'not installed'})",
            "code": code, "lesson": lesson,
            "python": f"{sys.version_info.major}.{sys.version_info.minor}", "problem": problem}


def difference(ours: dict[str, str], theirs: object) -> str:
    """Why a worker that describes itself as `theirs` cannot grade this batch, or ""."""
    if isinstance(theirs, BaseException):
        return (f"cannot run lab-check ({type(theirs).__name__}: {printable(str(theirs))}); "
                "install this project there, as here")
    if not isinstance(theirs, dict):
        return "answered with something other than lab-check's description of itself"
    if theirs.get("problem"):
        return f"cannot grade: {printable(str(theirs['problem']))}"
    differ = [f"{name} {printable(str(theirs.get(key)))}, here {ours[key]}"
              for key, name in COMPARED.items() if theirs.get(key) != ours[key]]
    return f"has another {'; another '.join(differ)}" if differ else ""


# -- the cluster, from here ----------------------------------------------------------------

@dataclass
class Cluster:
    """A connection to a Dask scheduler whose every worker can grade the batch's lesson under
    its plan (`open`)."""
    address: str
    client: Client
    expected: dict[str, str]
    tag: str  # the batch's name on the cluster: its tasks' keys begin with it

    @classmethod
    def open(cls, address: str, lesson: Lesson, plan: Plan) -> Cluster:
        """Connect to the scheduler at `address` (tcp://host:port, or a scheduler file) and
        ask every worker what it grades with; ValueError in one line, saying what to do, when
        the cluster cannot be reached, has no worker, or has a worker that cannot grade as
        this machine would."""
        try:
            from distributed import Client
        except ImportError:
            raise ValueError("--cluster needs dask.distributed: pip install -e '.[cluster]'") \
                from None
        shown = printable(address)
        try:
            client = (Client(scheduler_file=address, timeout=f"{CONNECT_SECONDS}s")
                      if os.path.isfile(address)
                      else Client(address, timeout=f"{CONNECT_SECONDS}s"))
        except (OSError, ValueError, TypeError) as error:  # TimeoutError is an OSError
            raise ValueError(f"cannot reach a Dask scheduler at {shown} ({type(error).__name__}:"
                             f" {printable(str(error))}): start the cluster, or give its "
                             "scheduler's tcp://host:port or scheduler file.") from None
        try:
            expected = describe(lesson.number, plan.as_dict())
            if expected["problem"]:
                raise ValueError(expected["problem"])
            try:
                client.wait_for_workers(1, timeout=CONNECT_SECONDS)
            except (OSError, TimeoutError):
                raise ValueError(f"the Dask cluster at {shown} has no workers: start some, then "
                                 "run this again.") from None
            said = client.run(describe, lesson.number, plan.as_dict(), on_error="return")
            refused = [(worker, why) for worker, answer in sorted(said.items())
                       if (why := difference(expected, answer))]
            if refused:
                worker, why = refused[0]
                more = f" (and {len(refused) - 1} more workers)" if len(refused) > 1 else ""
                raise ValueError(f"the Dask cluster at {shown} cannot grade this batch: worker "
                                 f"{worker}{more} {why}. Nothing was graded.")
        except BaseException:
            client.close()
            raise
        return cls(address, client, expected, uuid.uuid4().hex[:12])

    def close(self) -> None:
        self.client.close()

    def grade_all(self, found: Sequence[batch.Submission], lesson: Lesson, plan: Plan, *,
                  jobs: int | None = None, progress_stream: TextIO | None = None,
                  on_done: Callable[[batch.Submission, Grade], object] | None = None,
                  stop: threading.Event | None = None, already: int = 0,
                  whole: int | None = None,
                  keep: Callable[[batch.Submission, int, str], object] | None = None
                  ) -> tuple[dict[str | bytes, Grade], list[batch.Submission]]:
        """As batch._grade_all, on the cluster: ({name: Grade}, the submissions not graded
        because the batch was stopped). `on_done` is called here, in this thread, for each as
        it arrives, and `keep` before it with what each failed attempt left on the worker.
        `jobs` is the workers' to decide (their threads), and is not used."""
        stop = stop or threading.Event()
        progress = Progress(len(found) if whole is None else whole, progress_stream,
                            already=already)
        grades: dict[str | bytes, Grade] = {}

        def taken(one: batch.Submission, grade: Grade | None) -> None:
            if grade is not None and one.name not in grades:
                grades[one.name] = grade
                if on_done:
                    on_done(one, grade)
                progress.done(shown_name(one.name), grade)

        restore = batch._on_signals(stop)
        futures: dict[Any, batch.Submission] = {}
        try:
            with tidy.GraderFolder("batch") as scratch:
                here = [one for one in found if _shipped(one) is None]
                for one in found:
                    content = _shipped(one)
                    if content is not None:
                        futures[self.client.submit(
                            grade_sent, self._order(one, lesson, plan, content),
                            key=f"lab-check-{self.tag}-{file_name(one.name)}",
                            pure=False)] = one
                for one in here:  # while the cluster grades the rest
                    taken(one, batch._grade_one(one, lesson, scratch, plan, batch.Running(), stop,
                                                keep))
            waiting = set(futures)
            while waiting and not stop.wait(POLL_SECONDS):
                finished = sorted((f for f in waiting if f.done()), key=lambda f: futures[f].name)
                waiting.difference_update(finished)
                for future in finished:
                    taken(futures[future], self._outcome(future, futures[future], lesson, keep))
        finally:
            if restore:  # a second Ctrl-C while it stops must not break the stopping
                import signal
                signal.signal(signal.SIGINT, signal.SIG_IGN)
            stop.set()
            for future, one in futures.items():  # finished as it was stopped: kept
                if one.name not in grades and future.status == "finished":
                    taken(one, self._outcome(future, one, lesson, keep))
            self.client.cancel([f for f, one in futures.items() if one.name not in grades])
            try:
                self.client.run(stop_sent, self.tag, on_error="ignore")
            except Exception:  # a cluster already gone has nothing left running for us
                pass
            progress.close()
            if restore:
                restore()
        return grades, [one for one in found if one.name not in grades]

    def _order(self, one: batch.Submission, lesson: Lesson, plan: Plan,
               content: bytes) -> dict[str, Any]:
        return {"batch": self.tag, "expected": self.expected, "lesson": lesson.number,
                "plan": plan.as_dict(), "name": os.fsencode(one.name).hex(),
                "file": one.harness.name, "content": content, "note": one.note}

    def _outcome(self, future: Any, one: batch.Submission, lesson: Lesson,
                 keep: Callable[[batch.Submission, int, str], object] | None = None
                 ) -> Grade | None:
        """The Grade a finished future holds, with the file named as it is here (what its
        failed attempts left handed to `keep`); a broken one when the cluster failed it; None
        when it was stopped before it finished."""
        try:
            said = future.result()
        except Exception as error:  # the cluster's failure (a worker lost too often), not ours
            return batch._grader_failed(
                lesson, one, f"the Dask cluster could not grade it ({type(error).__name__}: "
                f"{printable(str(error))}).")
        if "mismatch" in said:
            return batch._grader_failed(lesson, one, f"the Dask worker that took it "
                                                     f"{said['mismatch']}.")
        if keep is not None:
            for attempt, diagnosis in said.get("left", []):
                keep(one, attempt, diagnosis)
        if "grade" not in said:
            return None
        return replace(Grade.from_dict(said["grade"]), harness=str(one.harness))


def _shipped(one: batch.Submission) -> bytes | None:
    """The bytes of the student's file, to send to a worker; None when it is to be graded
    here: the finder's problem, a folder or file that is a link or no regular file (the grader
    here says so, as --jobs would), or a file over SHIPPED_BYTES."""
    if one.problem or one.folder.is_symlink():
        return None
    try:
        fd = os.open(one.harness, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with open(fd, "rb") as file:
        facts = os.fstat(file.fileno())
        if not stat.S_ISREG(facts.st_mode) or facts.st_size > SHIPPED_BYTES:
            return None
        return file.read(SHIPPED_BYTES + 1)


# -- on a worker -----------------------------------------------------------------------------

_AT_WORK: dict[str, tuple[batch.Running, threading.Event]] = {}
_AT_WORK_LOCK = threading.Lock()


def _at_work(name: str) -> tuple[batch.Running, threading.Event]:
    with _AT_WORK_LOCK:
        return _AT_WORK.setdefault(name, (batch.Running(), threading.Event()))


def grade_sent(order: dict[str, Any]) -> dict[str, Any]:
    """On a worker: grade the file an order carries as batch._grade_one grades one on the
    instructor's machine, in a scratch folder of this worker's; {"grade": the Grade as data},
    {"mismatch": why this worker cannot grade it} or {"stopped": True}, with "left": what each
    failed attempt left (batch._grade_one's `keep`)."""
    from lab.course import lesson_files as lessons

    why = difference(order["expected"], describe(order["lesson"], order["plan"]))
    if why:
        return {"mismatch": why}
    lesson, plan = lessons.lesson(order["lesson"]), Plan.from_dict(order["plan"])
    running, stop = _at_work(order["batch"])
    left: list[tuple[int, str]] = []  # what each failed attempt left, for the batch's record
    with tidy.GraderFolder("cluster") as scratch:
        folder = pathlib.Path(scratch) / "submission"
        folder.mkdir()
        harness = folder / order["file"]
        harness.write_bytes(order["content"])
        one = batch.Submission(os.fsdecode(bytes.fromhex(order["name"])), folder, harness,
                               order["note"])
        grade = batch._grade_one(one, lesson, scratch, plan, running, stop,
                                 lambda _, attempt, diagnosis: left.append((attempt, diagnosis)))
    return ({"grade": grade.as_dict(), "left": left} if grade is not None
            else {"stopped": True, "left": left})


def stop_sent(name: str) -> None:
    """On a worker: stop the batch `name`'s gradings at work and start no more of them."""
    running, stop = _at_work(name)
    stop.set()
    running.kill_all()


def open_for(address: str | None, lesson: Lesson, plan: Plan) -> Cluster | None:
    """The Cluster at `address`, checked (Cluster.open), or None when there is no address."""
    return Cluster.open(address, lesson, plan) if address else None
