"""A lesson's manifest.toml: the points, gap and visibility of each graded test, and whether it
agrees with the tests.py it describes.

The graded tests are the functions named test_* at the top level of tests.py, in file order:
read from the source, never imported, so that checking a manifest runs nobody's code. A test
the manifest does not list would still be graded, for one point, and no gap would be tied to
it; a listed test that tests.py lacks would never be run. `problems` says so for both.
"""

from __future__ import annotations

import ast
import functools
import os
import pathlib
from typing import TYPE_CHECKING, Any
from lab.course import tomlread

if TYPE_CHECKING:
    from lab.course.lesson_files import Lesson

# What Gradescope accepts for a test's visibility; "visible" and "hidden" are the ones a lesson
# usually needs.
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
GIVEN = "given"  # the gap of a test that grades code the lesson hands out


def read(lesson: Lesson) -> dict[str, Any]:
    """The manifest of `lesson` as a dict; {} when the lesson has none. Do not change it: it
    is read once a process and shared."""
    return read_file(lesson.manifest)


@functools.cache
def read_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest at `path` (the file beside a lesson's tests.py), read once a process."""
    path = pathlib.Path(path)
    return tomlread.loads(path.read_text()) if path.exists() else {}


def title(lesson: Lesson) -> str:
    """The lesson's title as its manifest gives it, or else as its folder's name says it."""
    return read(lesson).get("title", lesson.title)


def total(lesson: Lesson) -> float:
    """Every listed test's points, summed: what a perfect harness scores."""
    return sum(meta.get("points", 1) for meta in read(lesson).get("tests", {}).values())


def graded_tests(tests_file: pathlib.Path) -> list[str]:
    """The names of the test functions at the top level of `tests_file`, in file order."""
    tree = ast.parse(tests_file.read_text(), str(tests_file))
    return [node.name for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name.startswith("test")]


def problems(lesson: Lesson) -> list[str]:
    """Every way the manifest disagrees with tests.py or with itself, one sentence each; [] when
    it agrees. A lesson with no manifest has exactly one problem: that."""
    if not lesson.manifest.exists():
        return [f"{lesson.manifest} is missing: it gives every graded test its points."]
    manifest = read(lesson)
    listed = manifest.get("tests", {})
    graded = graded_tests(lesson.tests)
    gaps = set(manifest.get("gaps", {})) | {GIVEN}
    found = [f"{name} is graded in {lesson.tests.name} but not listed under [tests] in "
             f"{lesson.manifest.name}: add it with its points, gap and visibility."
             for name in graded if name not in listed]
    found += [f"{name} is listed in {lesson.manifest.name} but {lesson.tests.name} has no such "
              "test: remove it, or correct its name." for name in listed if name not in graded]
    for name, meta in listed.items():
        points = meta.get("points")
        if type(points) not in (int, float) or points < 0:
            found.append(f"{name} has points = {points!r}; expected a number, 0 or more.")
        if meta.get("gap") not in gaps:
            found.append(f"{name} has gap = {meta.get('gap')!r}; expected one of "
                         f"{', '.join(sorted(gaps))}.")
        if meta.get("visibility", "visible") not in VISIBILITIES:
            found.append(f"{name} has visibility = {meta.get('visibility')!r}; expected one of "
                         f"{', '.join(VISIBILITIES)}.")
    return found


def on_submission(lesson: Lesson) -> str:
    """In a student's copy, the lines under a text report saying how many more tests (and
    points) this command did not run, from the manifest's [submission]; "" when none are. They
    say who runs them, true of every platform the course ships to: Gradescope's autograder and
    a teacher's --batch run them; neither lab-check in the copy nor GitHub Classroom's check
    (which grades the visible tests in the student's own repository) does."""
    later = read(lesson).get("submission", {})
    count = later.get("hidden_tests", 0)
    if not count:
        return ""
    points = later.get("hidden_points", 0)
    them = "them" if count != 1 else "it"
    return (f"Not run here: {count} more test{'s' if count != 1 else ''} "
            f"({points:g} point{'s' if points != 1 else ''}), on cases you have not seen.\n"
            "Where your course grades what you hand in (on Gradescope, or on your teacher's "
            f"machine),\nits grader runs {them}; this command does not, and neither does GitHub "
            "Classroom's check.\n")
