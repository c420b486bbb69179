"""What comes after a lab, in the course's order (lessons/course.toml, read by lab.course.order): the
next lab a student can start in this copy of the course, and the sentence a passing report's
`next:` line says about it.

The next lab is the first one after this one, in course order, that starts from it (it builds
on it, or, after a checkpoint, on what the checkpoint builds on) and whose files are here: after
lesson 10 comes checkpoint B, after B lesson 11, and after lesson 11 lesson 12. A written lab
further on that does not start from this one
is no next step: after lesson 02 comes lesson 03, not written yet, and lesson 10 cannot start
from a lesson-02 harness. A student's edition holds one lab only, so
there the next lab is the next one handed out (released), which comes as an edition of its
own; `lab-check --next` cannot start it there. A lab the course plans but nobody has written
is named as such, and the end of the course says so.
"""

from __future__ import annotations

import os
import pathlib
import shlex
from dataclasses import dataclass
from typing import Any

from lab.course import order as course, lesson_files as lessons, tomlread
from lab.kit.escape import shown_name
from lab.course.order import Lab

HARNESS = "harness.py"   # the file a lesson's student works in, unless the manifest names one


@dataclass(frozen=True)
class Onward:
    """Where a student goes once `after` passes."""
    after: Lab
    lab: Lab | None      # the lab `lab-check --next` starts here; None when there is none
    sentence: str        # the first sentence of the report's next: line


def onward(after: Lab, graded_file: str = HARNESS, project: pathlib.Path | None = None) -> Onward:
    """Where to go from `after` once it passes. `graded_file` is the student's file as the
    grading named it: the command said is the one that starts the next lab from that file."""
    here = lessons.available(project)
    order = course.labs(project)
    later = order[[lab.id for lab in order].index(after.id) + 1:]
    linked = [lab for lab in later if starts_from(lab, after)]
    present = next((lab for lab in linked if lab.id in here), None)
    if present is not None and not _stranded(after, graded_file):
        # kept short, so that the command is never wrapped onto a second line
        return Onward(after, present, f"{name(present)}: start it with "
                                      f"{next_command(graded_file)}")
    if present is not None:  # a checkpoint's file graded with no harness beside it to carry
        return Onward(after, present, f"{name(present)}, in an edition of its own; "
                                      f"{_starts_from(after)}")
    elsewhere = next((lab for lab in linked if written(lab, here) and lab.released), None)
    if elsewhere is not None:
        return Onward(after, None, f"{name(elsewhere)}, in an edition of its own "
                                   + (f"; {_starts_from(after)}" if after.is_checkpoint
                                      else "(ask where you got this one)"))
    if later:
        return Onward(after, None, f"{name(later[0])} is not written yet; lab-check --course "
                                   "shows the whole course and where you are in it")
    return Onward(after, None, f"that was {name(after)}, the last lab of the course")


def _stranded(after: Lab, graded_file: str) -> bool:
    """Whether `after` is a checkpoint whose file was graded where no harness.py sits beside
    it (a hand-in, a student's edition of the checkpoint): `lab-check --next` carries that
    harness forward, so there it has nothing to start the next lesson from."""
    return after.is_checkpoint and not (pathlib.Path(graded_file).parent / HARNESS).is_file()


def _starts_from(checkpoint: Lab) -> str:
    """"it starts from your lesson 05 harness.py": what the lesson after `checkpoint` starts
    from, which is not the checkpoint's own file."""
    base = f"lesson {course.label(checkpoint.builds_on)} " if checkpoint.builds_on else ""
    return f"it starts from your {base}{HARNESS}"


def starts_from(lab: Lab, after: Lab) -> bool:
    """Whether a student who has passed `after` can start `lab` from their own work: it builds
    on `after` (checkpoint B on lesson 10, lesson 16 on lesson 11), or `after` is a checkpoint
    and `lab` builds on what the checkpoint does (lesson 11 on lesson 10, after B)."""
    return lab.builds_on == after.id or (after.is_checkpoint and not lab.is_checkpoint
                                         and lab.builds_on == after.builds_on)


def written(lab: Lab, present) -> bool:
    """Whether `lab` has been written: it is here (its id among `present`, the labs this copy
    holds, lab.course.lesson_files.available), or this is a student's edition, whose copy of the course
    names a folder only for a lab that is written (lab.release.edition empties the others), a
    folder that stays with the course. In the project, a folder that holds a lab's harness
    source but no graded tests (lessons 01 to 09 today) is not a written lab."""
    return lab.id in present or (lab.folder is not None and not lab.folder.exists())


def name(lab: Lab) -> str:
    """"lesson 11 · The power cable", "checkpoint B · Transcript doctor II"."""
    return f"{short(lab)} · {lab.title}"


def short(lab: Lab) -> str:
    """"lesson 11", "checkpoint B"."""
    return f"{'checkpoint' if lab.is_checkpoint else 'lesson'} {lab.label}"


def shown(path: object) -> str:
    """A file or folder name the student controls, as it is printed: one line, with control
    characters and a terminal's escape sequences written as escapes (\\x1b, \\x0a), as the
    grader's report shows a name (lab.kit.escape.shown_name)."""
    return shown_name(str(path))


def next_command(graded_file: str = HARNESS) -> str:
    """The command that starts the next lab from `graded_file`: plain for harness.py, which
    lab-check finds by itself; naming the file for any other (a checkpoint's doctor.py)."""
    if os.path.basename(graded_file) == HARNESS:
        return "lab-check --next"
    # one shell word, and one line: a name may hold spaces, a newline or an escape
    shown = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in str(graded_file))
    return f"lab-check --next --harness {shlex.quote(shown)}"


def student_file(lab: Lab, project: pathlib.Path | None = None) -> str:
    """The file a lab's student works in: its manifest's `student_file` (checkpoint B's is
    doctor.py), else harness.py. The manifest is the lab's folder's, or, in a student's
    edition, the one at the edition's top."""
    present = lessons.available(project).get(lab.id)
    folder = present.folder if present is not None else lab.folder
    if folder is None:
        return HARNESS
    named = _manifest(folder / "manifest.toml").get("student_file", HARNESS)
    return os.path.basename(str(named))


def graded_whole(grade, lesson: lessons.Lesson) -> bool:
    """True when `grade` (a lab.grader.results Grade) ran every graded test of `lesson`: not a -k
    selection, nor test files of the student's own. Only such a grading may pass a lab."""
    tests = _manifest(lesson.folder / "manifest.toml").get("tests", {})
    return bool(tests) and set(tests) <= {test.test for test in grade.tests}


def _manifest(path: pathlib.Path) -> dict[str, Any]:
    return tomlread.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
