"""Grade one harness file against one lesson: the whole of lab_check but the printing.

The host's steps, each of which can end the grading with a sentence instead of a grade: the
file is a readable Python source (preflight: not a link, UTF-8, no other encoding declared, it
compiles); it is copied once into a private folder, and that snapshot is all that is graded.
Then one Job goes to a worker (supervise.py), which imports the snapshot in the sandbox,
checks its names, and runs the lesson's tests; what the worker reports is reconciled with the
manifest here (reconcile.py), so that only tests the lesson has can count, each once.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pathlib
import random
import shutil
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lab.grader import preflight, reconcile, selection, supervise

from lab.course import manifest

from lab.worker import isolation
from lab.worker import tidy
from lab.sandbox import protocol
from lab.sandbox.protocol import Job
from lab.grader.results import Grade
from lab.sandbox.outcome import TestResult
from lab.sandbox.protocol import Limits

if TYPE_CHECKING:
    from lab.course.lesson_files import Lesson


def grade(harness_file: str | os.PathLike[str], lesson: Lesson, *,
          tests: Sequence[str | os.PathLike[str]] | None = None, select: str | None = None,
          limits: Limits = Limits(), seed: int | None = None, isolated: bool = False,
          seed_shown: bool = False, warm: supervise.Warm | None = None) -> Grade:
    """A Grade for `harness_file` on `lesson` (a lessons.Lesson). `tests` are test files to
    run instead of the lesson's own; `select` a pytest -k expression; `seed` the variations'
    seed (a new one when None); `isolated`: refuse to grade without a sandbox (isolation.py),
    as an instructor's grading must; `seed_shown`: the seed was given on a command line
    (isolation_problem); `warm`: a supervise.Warm to grade on (lab-check --watch),
    instead of a worker of its own. Every fact is worked out first; the Grade is made once,
    at the end, and never changed."""
    started = time.monotonic()
    seed = random.SystemRandom().randrange(1, 2**31) if seed is None else seed
    facts: dict[str, Any] = dict(lesson=lesson.number, title=manifest.title(lesson),
                                 harness=str(harness_file), seed=seed)

    def graded(**more):
        return Grade(**facts, **more, seconds=time.monotonic() - started)

    try:
        facts["isolation"] = isolation.detect()
    except isolation.Unavailable as error:
        return graded(problem=f"lab_check cannot grade here: {error}.")
    problem: str | None = isolation_problem(facts["isolation"], required=isolated,
                                            seed_shown=seed_shown)
    if problem:
        return graded(problem=problem)
    tidy.sweep_abandoned()  # what an earlier grading, killed outright, could not remove
    with contextlib.ExitStack() as folders:
        if warm is None:
            private = folders.enter_context(tidy.GraderFolder("grade"))
            public = folders.enter_context(tidy.GraderFolder("public"))
            os.chmod(public, 0o711)
        else:
            assert warm.private is not None and warm.public is not None  # (a Warm in use)
            private, public = warm.private, warm.public
        snapshot = os.path.join(private, "harness.py")
        problem, facts["sha256"] = _prepare(harness_file, snapshot)
        if problem:
            return graded(problem=problem)
        files = [str(pathlib.Path(t).resolve()) for t in tests] if tests else [str(lesson.tests)]
        job = _job(lesson, snapshot=snapshot, tests=files, isolation=facts["isolation"],
                   seed=seed, select=selection.expression(select), limits=limits,
                   public=public)
        frame = supervise.run(job, private, lesson) if warm is None else warm.run(job, lesson)
        problem, outcomes, layers = _judge(frame, lesson, bool(tests or select))
    if not problem and not outcomes:  # a -k that matched nothing: no pass
        problem = selection.nothing_graded(tests or [lesson.tests], select, lesson)
    return graded(problem=problem, tests=outcomes, layers=layers)


def _job(lesson, **facts):
    """The Job for a grading of `lesson`: the lesson read here, once, and what the worker needs
    of it handed on (the worker reads no manifest and parses no folder's name)."""
    read = manifest.read(lesson)
    withheld = [name for name in read.get("release", {}).get("grader_only", [])
                if not (lesson.folder / name).exists()]
    return Job(lesson=str(lesson.number), needs=list(read.get("requires", {}).get("names", [])),
               withheld=withheld, gaps=dict(read.get("gaps", {})), starter=str(lesson.starter),
               folder=str(lesson.folder), **facts)


def isolation_problem(kind: str, required: bool = True, seed_shown: bool = False) -> str:
    """Why a grading must not go on with isolation `kind`, or "". Without namespaces the
    project's folder must be closed to others, for every grading: a sandbox that can read the
    answers is none. `required`: an instructor's grading, which refuses to run unisolated, and
    which without namespaces refuses a seed given on a command line (`seed_shown`): every
    process's command line is readable there by the student's code, and the seed foretells
    every test's input (the batch's, every student's)."""
    if kind == "none" and required:
        reasons = [why for why in map(isolation.why_not, ("bubblewrap", "uid")) if why] or \
            [f"{isolation.ENV}=none asked for none"]
        return ("lab_check grades for an instructor only in a sandbox, and this machine has "
                f"none: {'; and '.join(reasons)}. Install bubblewrap, or run the grading as root "
                "(or, knowing that a submission could forge its grade, pass --allow-unisolated).")
    if kind == "uid" and required and seed_shown:
        return ("without namespaces every user can read a command line, and the student's code "
                "could read the seed in this one and so every test's input. Give the seed in the "
                "environment instead, which only its owner can read: LAB_SEED=N lab-check ... "
                "without --seed N.")
    if kind == "uid":
        folder = isolation.exposed()
        if folder:
            return (f"without namespaces, the student's code runs as a user of its own, and any "
                    f"user can reach into the project's folder {folder} (its lessons, .git "
                    f"and venv hold the answers). Run: chmod o-rwx {folder}")
    return ""


def _prepare(harness_file, snapshot):
    """Check the file and copy it to `snapshot`: (a sentence when it cannot be graded, or "";
    the snapshot's sha256, or "")."""
    problem = preflight.read_problem(harness_file)
    if problem:
        return problem, ""
    _copy_privately(harness_file, snapshot)
    sha256 = hashlib.sha256(pathlib.Path(snapshot).read_bytes()).hexdigest()
    return preflight.syntax_problem(snapshot, shown_as=os.path.basename(harness_file)), sha256


def _copy_privately(source, target):
    """Copy `source` to a new file `target` that only this user can read from its first byte
    (the sandbox's user is given it later, and no one else ever)."""
    try:  # a kept worker's snapshot is rewritten in place: its owner and mode stay the grader's
        fd = os.open(target, os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600)
    read = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with open(fd, "wb") as copy, open(read, "rb") as original:
        shutil.copyfileobj(original, copy)


def _judge(frame, lesson, partial):
    """The worker's frame as (problem, the graded tests' results, layers)."""
    if isinstance(frame, TestResult):
        return "", [frame], []
    if "problem" in frame:
        return str(frame["problem"]), [], []
    listed = manifest.read(lesson).get("tests", {})
    return ("", reconcile.graded(frame.get("tests", []), listed, partial=partial),
            protocol.layers_of(frame))
