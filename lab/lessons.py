"""Where each lesson's files live: the finished harness, its starter, the graded tests.

A lesson is a folder under lessons/ at the top of the project:

    finished.py   the harness as it stands at the end of the lesson, with the student's gaps
                  marked in it: the one source of truth (see lab.starter)
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
import tomllib
from dataclasses import dataclass

PROJECT = pathlib.Path(__file__).resolve().parent.parent
LESSONS = PROJECT / "lessons"


@dataclass(frozen=True)
class Lesson:
    number: int
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


def available(project=None):
    """Every lesson that has a folder (with its finished.py, or at least its tests.py), by
    number; in a student's copy, the one lesson whose files sit at the top of the copy."""
    project = pathlib.Path(project) if project is not None else PROJECT
    found = {}
    for folder in sorted((project / "lessons").glob("[0-9][0-9]-*")):
        if (folder / "finished.py").is_file() or (folder / "tests.py").is_file():
            found[int(folder.name[:2])] = Lesson(int(folder.name[:2]), folder)
    edition = project / "manifest.toml"
    if edition.is_file() and (project / "tests.py").is_file():
        number = tomllib.loads(edition.read_text()).get("lesson")
        if isinstance(number, int):
            found[number] = Lesson(number, project)
    return found


def lesson(number):
    """The lesson numbered `number`; LookupError naming the ones there are when it is not."""
    lessons = available()
    if number not in lessons:
        have = ", ".join(str(n) for n in lessons) or "none"
        raise LookupError(f"there is no lesson {number} (lessons with a lab: {have})")
    return lessons[number]


def must_fail(answer):
    """The test a wrong answer's docstring says it must fail ("Fails: test_name")."""
    found = re.search(r"^Fails: (test_\w+)", pathlib.Path(answer).read_text(), re.MULTILINE)
    return found.group(1) if found else None
