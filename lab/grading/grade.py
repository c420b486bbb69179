"""Grade one harness file against one lesson: the whole of lab_check but the printing.

The host's steps, each of which can end the grading with a sentence instead of a grade: the
file is a readable Python source (preflight: not a link, UTF-8, no other encoding declared, it
compiles); it is copied once into a private folder, and that snapshot is all that is graded.
Then one Job goes to a worker (supervise.py), which imports the snapshot in the sandbox,
checks its names, and runs the lesson's tests; what the worker reports is reconciled with the
manifest here (tally.py), so that only tests the lesson has can count, each once.
"""

import hashlib
import os
import pathlib
import random
import shutil
import tempfile
import time

from . import isolation, manifest, preflight, selection, supervise, tally
from .job import Job
from .results import Grade, Outcome
from .sandbox import Limits


def grade(harness_file, lesson, *, tests=None, select=None, limits=Limits(), seed=None,
          isolated=False):
    """A Grade for `harness_file` on `lesson` (a lessons.Lesson). `tests` are test files to
    run instead of the lesson's own; `select` a pytest -k expression; `seed` the variations'
    seed (a new one when None); `isolated`: refuse to grade without a sandbox (isolation.py),
    as an instructor's grading must."""
    started = time.monotonic()
    seed = random.SystemRandom().randrange(1, 2**31) if seed is None else seed
    result = Grade(lesson=lesson.number, title=manifest.title(lesson), harness=str(harness_file),
                   seed=seed)
    try:
        result.isolation = isolation.detect()
    except isolation.Unavailable as error:
        result.problem = f"lab_check cannot grade here: {error}."
        return result
    if isolated:
        result.problem = isolation_problem(result.isolation, lesson)
        if result.problem:
            return result
    with tempfile.TemporaryDirectory(prefix="lab-check-grade-") as private:
        snapshot = os.path.join(private, "harness.py")
        result.problem = _prepare(harness_file, snapshot, result)
        if not result.problem:
            files = [str(pathlib.Path(t).resolve()) for t in tests] if tests else [str(lesson.tests)]
            job = Job(snapshot=snapshot, lesson=str(lesson.folder), tests=files,
                      isolation=result.isolation, seed=seed,
                      select=selection.expression(select), limits=limits)
            _judge(supervise.run(job, private, lesson), lesson, result, bool(tests or select))
            if not result.problem and not result.tests:  # a -k that matched nothing: no pass
                result.problem = selection.nothing_graded(tests or [lesson.tests], select, lesson)
    result.seconds = time.monotonic() - started
    return result


def isolation_problem(kind, lesson):
    """Why an instructor's grading must not go on with isolation `kind`, or ""."""
    if kind == "none":
        return ("lab_check grades for an instructor only in a sandbox, and this machine has "
                f"none: {isolation.why_not('bubblewrap')}; and {isolation.why_not('uid')}. "
                "Install bubblewrap, or run the grading as root.")
    if kind == "uid":
        exposed = isolation.exposed(lesson)
        if exposed:
            return (f"without namespaces, the student's code runs as a user of its own, and "
                    f"{len(exposed)} of the lessons' files are readable by any user (such as "
                    f"{exposed[0]}). Run: chmod -R o-rwx {lesson.folder.parent}")
    return ""


def _prepare(harness_file, snapshot, result):
    """Check the file and copy it to `snapshot`; a sentence when it cannot be graded."""
    problem = preflight.read_problem(harness_file)
    if problem:
        return problem
    shutil.copyfile(harness_file, snapshot, follow_symlinks=False)
    os.chmod(snapshot, 0o644)
    result.sha256 = hashlib.sha256(pathlib.Path(snapshot).read_bytes()).hexdigest()
    return preflight.syntax_problem(snapshot, shown_as=os.path.basename(harness_file))


def _judge(frame, lesson, result, partial):
    """Turn the worker's frame into the grade's problem or outcomes."""
    if isinstance(frame, Outcome):
        result.tests = [frame]
        return
    if "problem" in frame:
        result.problem = str(frame["problem"])
        return
    listed = manifest.read(lesson).get("tests", {})
    result.tests = tally.outcomes(frame.get("tests", []), listed, partial=partial)
