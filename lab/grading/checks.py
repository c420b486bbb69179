"""Checks made in the worker before any test runs: does the harness import in the sandbox, and
does it have the names every test needs? Each returns None, or the sentence for a grading in
which nothing could be graded."""

import pathlib

from . import manifest
from .problems import StudentProblem


def import_problem(zygote, job):
    """Import the harness in a clean process of the sandbox and look at its names."""
    try:
        process = zygote.open()
    except StudentProblem as error:
        return f"{error} Nothing could be graded: fix that and run lab_check again."
    try:
        names = process.names
    finally:
        process.close()
    folder = pathlib.Path(job.lesson)
    needed = manifest.read_file(folder / "manifest.toml").get("requires", {}).get("names", [])
    missing = [name for name in needed if name not in names]
    kept = manifest.read_file(folder / "manifest.toml").get("release", {}).get("grader_only", [])
    absent = [name for name in kept if not (folder / name).exists()]
    if absent and not missing:  # a student's copy of a checkpoint: see lab.release.edition
        return (f"Your file imports and has what every test needs, and that is all this copy can "
                f"check: the tests run your cases on harnesses the grader keeps "
                f"({', '.join(absent)}), which a student's copy never holds. Submit it to be "
                "graded. Nothing was graded here.")
    if missing:
        return (f"harness.py has no {', '.join(f'`{n}`' for n in missing)}, which lesson "
                f"{folder.name.split('-')[0]} gives you and every test needs. Copy {'it' if len(missing) == 1 else 'them'} "
                f"back from {folder / 'starter.py'}.")
    return None
