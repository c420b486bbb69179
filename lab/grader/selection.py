"""Which tests a grading runs, and what to say when that is none: never a silent pass.

Test files named on the command line are taken as written, from where lab_check runs. One that
is not there but is named like the lesson's own (`tests.py`, as the lesson prints its command)
means the lesson's own. Any other file that is not there, or is not Python, is refused before
anything runs. A grading that ends with no test graded (a -k that matches nothing, a file with
no test in it) is not a pass: `nothing_graded` gives the sentence that says so.
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from lab.course import manifest
from lab.kit.counting import counted

if TYPE_CHECKING:
    from lab.course.lesson_files import Lesson


OPERATORS = {"and", "or", "not"}


class NoSuchTests(ValueError):
    """A test file named on the command line cannot be run; the message says why."""


def test_files(named: Iterable[str | os.PathLike[str]], lesson: Lesson,
               start: str | os.PathLike[str] | None = None) -> list[pathlib.Path]:
    """The test files to run for the names in `named` (none: the lesson's own), as paths."""
    start = pathlib.Path(start or os.getcwd())
    files = []
    for name in named:
        path = start / name
        if not path.exists() and path.name == lesson.tests.name:
            files.append(lesson.tests)
        elif not path.exists():
            raise NoSuchTests(f"there is no test file {name} (looked for {path.resolve()}). Name "
                              f"a file of tests, or leave it out to run lesson {lesson.number}'s "
                              "own.")
        elif path.is_dir() or path.suffix != ".py":
            raise NoSuchTests(f"{name} is not a Python file of tests. Name one (like "
                              f"{lesson.tests.name}), or leave it out to run the lesson's own.")
        else:
            files.append(path.resolve())
    return files or [lesson.tests]


def expression(select: str | None) -> str:
    """A -k as pytest reads it. Words with nothing between them (`-k "inside any write"`, as a
    report prints a test's title) pick the tests whose names hold every one of them, so they
    are joined by "and"; an expression (and, or, not, parentheses) is taken as written."""
    words = (select or "").split() if not _is_expression(select) else None
    return " and ".join(words) if words else (select or "")


def _is_expression(select):
    words = (select or "").lower().split()
    return bool(OPERATORS & set(words)) or any(c in (select or "") for c in "()")


def nothing_graded(files: Sequence[str | os.PathLike[str]], select: str | None,
                   lesson: Lesson) -> str:
    """Why a grading of `files` with the -k expression `select` graded no test: a sentence
    naming what was asked, what there is, and what to do."""
    names = [name for path in files for name in _tests_in(path)]
    if not names:
        shown = ", ".join(str(path) for path in files)
        return (f"{shown} holds no graded test (a function named test_...), so nothing was "
                f"graded. Leave the test file out to run lesson {lesson.number}'s own tests.")
    if not select:
        return (f"pytest collected none of the {counted(len(names), 'test')} in "
                f"{', '.join(str(path) for path in files)}, so nothing was graded. Does the file "
                "import, on its own, with python?")
    return (f"-k {select!r} matches none of the {counted(len(names), 'test')}, so nothing was "
            "graded. "
            f"-k picks the tests whose names hold all its words, such as "
            f"{', '.join(_telling(names))}. "
            "Leave -k out to run them all.")


def _telling(names, most=5):
    """Words that pick out one test each (orphan, late, ...), in the tests' order."""
    words = [word for name in names for word in name.split("_")[1:] if len(word) > 3]
    return [word for word in dict.fromkeys(words) if words.count(word) == 1][:most]


def _tests_in(path):
    try:
        return manifest.graded_tests(pathlib.Path(path))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return []
