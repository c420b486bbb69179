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
from dataclasses import dataclass

PROJECT = pathlib.Path(__file__).resolve().parent.parent
LESSONS = PROJECT / "lessons"


@dataclass(frozen=True)
class Lesson:
    number: int
    folder: pathlib.Path

    @property
    def title(self):
        return self.folder.name.split("-", 1)[1].replace("-", " ")

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


def available():
    """Every lesson that has a folder, by number."""
    found = {}
    for folder in sorted(LESSONS.glob("[0-9][0-9]-*")):
        if (folder / "finished.py").is_file():
            found[int(folder.name[:2])] = Lesson(int(folder.name[:2]), folder)
    return found


def first():
    """The lesson a new student starts with: the lowest-numbered one. The student's harness.py
    is made from its starter. A later lesson's starter (lessons/NN-*/starter.py) holds the
    earlier lessons finished, declares its own lesson, and is where a student who moves on
    takes the file from."""
    found = available()
    if not found:
        raise LookupError("there are no lessons with a lab (no lessons/NN-name/finished.py)")
    return found[min(found)]


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
