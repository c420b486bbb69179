"""Grade one harness file against one lesson: the whole of lab_check but the printing.

The steps, each of which can end the grading with a sentence instead of a grade:
the file is readable Python source; it compiles; it imports (in a child, within the time
limit) and has the names the lesson gives. Then the lesson's tests.py runs under real pytest,
with this project's plugin and no other, and every test's outcome is matched to its points.
The student's file is read once, into a snapshot in a private folder, and never written.
"""

import hashlib
import json
import os
import pathlib
import shutil
import tempfile
import time

from . import manifest, preflight, selection, supervise
from .problems import StudentProblem
from .results import Grade, Outcome
from .sandbox import Limits, Sandbox


def grade(harness_file, lesson, *, tests=None, select=None, limits=Limits()):
    """A Grade for `harness_file` on `lesson` (a lessons.Lesson). `tests` are test files to
    run instead of the lesson's own; `select` is a pytest -k expression."""
    started = time.monotonic()
    result = Grade(lesson=lesson.number, title=manifest.title(lesson), harness=str(harness_file))
    with tempfile.TemporaryDirectory(prefix="lab-check-grade-") as private:
        result.problem = _prepare(harness_file, lesson, private, result, limits)
        if not result.problem:
            snapshot = os.path.join(private, "harness.py")
            result.tests = _run_tests(snapshot, lesson, tests, select, limits, private)
            if not result.tests:  # a -k that matched nothing, a file with no test: not a pass
                result.problem = selection.nothing_graded(tests or [lesson.tests], select, lesson)
    result.seconds = time.monotonic() - started
    return result


def _prepare(harness_file, lesson, private, result, limits):
    """Copy the file into `private` and check it can be graded; a sentence if it cannot."""
    problem = preflight.read_problem(harness_file)
    if problem:
        return problem
    snapshot = os.path.join(private, "harness.py")
    shutil.copyfile(harness_file, snapshot)
    result.sha256 = hashlib.sha256(pathlib.Path(snapshot).read_bytes()).hexdigest()
    problem = preflight.syntax_problem(snapshot, shown_as=os.path.basename(harness_file))
    if problem:
        return problem
    try:
        with Sandbox(snapshot, limits=limits) as sandbox:
            names = sandbox.names
    except StudentProblem as error:
        return f"{error} Nothing could be graded: fix that and run lab_check again."
    needed = manifest.read(lesson).get("requires", {}).get("names", [])
    missing = [name for name in needed if name not in names]
    if missing:
        return (f"harness.py has no {', '.join(f'`{n}`' for n in missing)}, which lesson "
                f"{lesson.number} gives you and every test needs. Copy "
                f"{'it' if len(missing) == 1 else 'them'} back from {lesson.starter}.")
    return None


def _run_tests(snapshot, lesson, tests, select, limits, private):
    """Run the tests under pytest in a worker process (see supervise.py): one killed by the
    student's code still leaves a grade, a failure standing for every test."""
    results_file = os.path.join(private, "results.json")
    files = [str(pathlib.Path(t).resolve()) for t in tests] if tests else [str(lesson.tests)]
    args = [*files, "-p", "lab.grading.plugin", "-p", "no:cacheprovider",
            "--rootdir", private, "-c", os.devnull, "-q",
            "--harness", snapshot, "--lab-results", results_file,
            "--time-limit", str(limits.seconds), "--memory-limit", str(limits.memory_mb)]
    if select:
        args += ["-k", select]
    stopped = supervise.run(args, private, lesson, limits)
    return [stopped] if stopped else _outcomes(results_file, lesson)


def _outcomes(results_file, lesson):
    if not os.path.exists(results_file):
        return [Outcome(test="collecting the tests", outcome="error",
                        message="pytest did not run the lesson's tests (a broken tests file?). "
                                "This is a bug in the lab: please report it.")]
    listed = manifest.read(lesson).get("tests", {})
    found = []
    for entry in json.loads(pathlib.Path(results_file).read_text())["tests"]:
        name = entry["nodeid"].split("::")[-1].split("[")[0]
        meta = listed.get(name, {})
        outcome = entry["outcome"] if entry["judged"] or entry["outcome"] == "passed" else "error"
        found.append(Outcome(test=name, outcome=outcome, message=entry["message"],
                             printed=entry["printed"], seconds=entry["seconds"],
                             points=meta.get("points", 1), gap=meta.get("gap", ""),
                             visibility=meta.get("visibility", "visible")))
    return found
