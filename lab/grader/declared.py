"""A submission that says it is for another lab: its `# lab: lesson N` line against a batch's.

A batch grades every file as the lesson it was given (--lesson), whatever the file's first line
says: the instructor chose the lab. A file headed `# lab: lesson 03` in a lesson-10 batch is
then most likely the wrong upload, and its grade should not pass for the lab's without a word:
its row in the summary, and the student's feedback, say which lab the file names and which it
was graded as.
"""

from __future__ import annotations

import os

from lab.course import harness_file as project


def other_lab(harness: str | os.PathLike[str] | None, lesson: int | str) -> str:
    """A sentence when the file `harness` names a lab other than `lesson` on its
    `# lab: lesson N` line; "" when it names this one, or none."""
    if harness is None:
        return ""
    said = project.declared_lesson(harness)
    if said is None or project.lesson_id(said) == lesson or said.lstrip("0") == str(lesson):
        return ""
    return (f"The file says it is for lesson {said} (its line `# lab: lesson {said}`), but it "
            f"was handed in for lesson {lesson} and graded as lesson {lesson}: if it is the "
            f"wrong file, hand in your lesson {lesson} work.")
