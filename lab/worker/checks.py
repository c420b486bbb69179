"""Checks made in the worker before any test runs: does the harness import in the sandbox, and
does it have the names every test needs (the Job says which)? Each returns None, or the sentence for a grading in
which nothing could be graded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lab.testkit.problems import StudentProblem

if TYPE_CHECKING:
    from lab.sandbox.protocol import Job
    from lab.worker.zygote_link import Zygote


def import_problem(zygote: Zygote, job: Job) -> str | None:
    """Import the harness in a clean process of the sandbox and look at its names."""
    try:
        process = zygote.open()
    except StudentProblem as error:
        return f"{error} Nothing could be graded: fix that and run lab_check again."
    try:
        names = process.names
    finally:
        process.close()
    missing = [name for name in job.needs if name not in names]
    if job.withheld and not missing:  # a student's copy of a checkpoint: see lab.release.edition
        return _before_hand_in(zygote, job)
    if missing:
        return (f"harness.py has no {', '.join(f'`{n}`' for n in missing)}, which lesson "
                f"{job.lesson} gives you and every test needs. Copy "
                f"{'it' if len(missing) == 1 else 'them'} back from {job.starter}.")
    return None


def _before_hand_in(zygote, job):
    """What a checkpoint's copy can check of the file: the form of each case and diagnosis
    (lab.testkit.checkup.readiness), each read in a clean process of its own."""
    from lab.testkit import checkup
    from lab.worker.harness_proxy import Student

    def ask(what, name):
        you = Student(zygote)
        try:
            return you.value(name).value if what == "value" else you.constant(name)
        finally:
            you.close()

    try:
        return checkup.readiness(job.folder, ask, list(job.gaps))
    except Exception as error:  # what it read is the student's: put down to it, as a test does
        return (f"the checks before hand-in could not read your cases and diagnoses "
                f"({type(error).__name__}: {str(error)[:300]}): they are not shaped the way "
                "the checkpoint asks. If they look right to you, tell your instructor: it may "
                "be a bug in the lab.")
