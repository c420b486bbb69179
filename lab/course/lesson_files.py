"""Where each lesson's files live: the finished harness, its starter, the graded tests.

A lesson is a folder under lessons/ at the top of the project, named by its id and its title:
`10-poisoned-transcript` is lesson 10, and `B-transcript-doctor-ii` is checkpoint B, a lab
that tests lessons already taught. Its id is a capital letter, and it has the same files:

    finished.py   the harness as it stands at the end of the lesson, with the student's gaps
                  marked in it: the one source of truth (see lab.course.starter)
    starter.py    generated from finished.py: what the student is given
    tests.py      the graded tests, run by lab_check under real pytest
    manifest.toml points, visibility and the gap of each graded test
    wrong/        plausible wrong answers, each of which the tests must catch
    right/        other correct answers, each of which must pass every test

A wrong or right answer is a short file of definitions that replace the finished ones: the
harness it stands for is finished.py with that file appended (see `Lesson.variant`). Its
docstring names, on a line "Fails: test_name", the test it must fail.
"""

import pathlib
import re
from lab.course import tomlread
from dataclasses import dataclass

from lab.course import order as course

PROJECT = pathlib.Path(__file__).resolve().parents[2]
LESSONS = PROJECT / "lessons"


@dataclass(frozen=True)
class Lesson:
    number: int | str  # its id: 10 for a numbered lesson, "B" for a checkpoint
    folder: pathlib.Path

    @property
    def title(self):
        return self.folder.name.split("-", 1)[-1].replace("-", " ")

    @property
    def is_edition(self):
        """True for a student's copy of the lesson: there is no finished file to fall back to."""
        return not self.finished.is_file()

    @property
    def finished(self):
        return self.folder / "finished.py"

    @property
    def starter(self):
        return self.folder / "starter.py"

    @property
    def tests(self):
        return self.folder / "tests.py"

    @property
    def manifest(self):
        return self.folder / "manifest.toml"

    @property
    def wrong_answers(self):
        return sorted((self.folder / "wrong").glob("*.py"))

    @property
    def right_answers(self):
        return sorted((self.folder / "right").glob("*.py"))

    def variant(self, answer):
        """The text of the whole harness that `answer` (a file in wrong/ or right/) stands
        for: finished.py with the answer's definitions appended, so that they win."""
        return (f"{self.finished.read_text()}\n\n# == {answer.parent.name}/{answer.name}, "
                f"appended ==\n{answer.read_text()}")


def lesson_id(name):
    """The id that `name` (as typed: 10, "10", "b") stands for: an int for a numbered lesson,
    a capital letter for a checkpoint. ValueError for anything else."""
    return course.parse_id(name)


def available(project=None):
    """Every lesson that has been written (its folder holds its graded tests.py), by id,
    in the course's order (lessons/course.toml, see lab.course.order); in a student's copy, the one
    lesson whose files sit at the top of the copy."""
    project = pathlib.Path(project) if project is not None else PROJECT
    found = {}
    for lab in course.labs(project):
        folder = lab.folder
        if folder is not None and folder.parent.name == "lessons" and lab.written:
            found[lab.id] = Lesson(lab.id, folder)
    edition = project / "manifest.toml"
    if edition.is_file() and (project / "tests.py").is_file():
        number = tomlread.loads(edition.read_text()).get("lesson")
        try:
            found[lesson_id(number)] = Lesson(lesson_id(number), project)
        except ValueError:
            pass  # a manifest.toml that is not a lesson's: not an edition
    return found


def newest():
    """The numbered lesson with the highest number: what lab_check grades unless told, and
    whose starter the student's harness.py is. A checkpoint is never the newest lesson."""
    numbered = [key for key in available() if isinstance(key, int)]
    if not numbered:
        raise LookupError("there are no numbered lessons under lessons/")
    return lesson(max(numbered))


def lesson(name):
    """The lesson whose id `name` is (10, "10", "B"); LookupError naming the ones there are
    when there is none, ValueError when `name` is not an id at all."""
    lessons, wanted = available(), lesson_id(name)
    if wanted not in lessons:
        have = ", ".join(str(n) for n in lessons) or "none"
        raise LookupError(f"there is no lesson {wanted} (lessons with a lab: {have})")
    return lessons[wanted]


def must_fail(answer):
    """The test a wrong answer's docstring says it must fail ("Fails: test_name")."""
    found = re.search(r"^Fails: (test_\w+)", pathlib.Path(answer).read_text(), re.MULTILINE)
    return found.group(1) if found else None
