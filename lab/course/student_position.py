"""Where a student is in the course: the file they work in now, and the lab it is for.

A student file says its lab on its first line (`# lab: lesson 10`, see lab.course.harness_file); a
checkpoint's file that says none is known by its name (checkpoint B's doctor.py), and
`--lesson` names the lab outright. One more step makes plain `lab-check --next` and
`lab-check --course` follow the student through a checkpoint: a checkpoint has a file of its
own beside the harness (lesson 10, then checkpoint B in doctor.py, then lesson 11 in harness.py
again). So when the checkpoint after the harness's lab has been begun, that is, its file is
beside harness.py and has been graded (the student's marks, lab.course.progress, hold the checkpoint)
or differs from the checkpoint's starter, the student is at the checkpoint, not at the
harness's lab. (The file alone is not enough: the project hands out doctor.py, the starter,
from the start, and --next from lesson 10 is what says "checkpoint B starts in doctor.py".)
Naming a file (--harness) or a lab (--lesson)
turns that step off: then the student is where they said. The marks only choose which file
is meant; --next grades it all the same.
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

from lab.course import (order as course, lesson_files as lessons, next_step as onward, progress, harness_file as project)
from lab.course.order import Lab
from lab.course.progress import Progress


class Lost(LookupError):
    """The student's file does not say which lab it is for; the message says what to do."""


@dataclass(frozen=True)
class Position:
    file: pathlib.Path   # the student's file for `lab`
    lab: Lab

    @property
    def folder(self) -> pathlib.Path:
        return self.file.parent


def locate(file: pathlib.Path, lesson: str | None = None, *, follow: bool = True,
           marks: Progress | None = None, home: pathlib.Path | None = None) -> Position:
    """Where the student whose file is `file` stands. `lesson` is --lesson (or None);
    `follow` lets a started checkpoint beside the harness win, as the module docstring says,
    going by `marks` (read from beside `file` when not given); `home` is the copy of the
    course to read (the project by default)."""
    file = pathlib.Path(file)
    if lesson is not None:
        return Position(file, course.find(lesson, home))
    lab = lab_of(file, home)
    if lab is None:
        raise Lost(f"{file} does not say which lab it is for (its first line should be "
                   "`# lab: lesson N`): name the lab with --lesson N.")
    if follow:
        ahead = onward.onward(lab, str(file), home).lab
        if ahead is not None and ahead.is_checkpoint:
            beside = file.with_name(onward.student_file(ahead))
            marks = marks if marks is not None else progress.read(file.parent)
            if beside != file and beside.is_file() and lab_of(beside, home) == ahead and (
                    ahead.label in marks.marks or not _is_starter(beside, ahead)):
                return Position(beside, ahead)
    return Position(file, lab)


def course_owned(file: pathlib.Path, home: pathlib.Path | None = None) -> bool:
    """True when `file` is one of the course's own files (under its lessons/, a finished
    harness graded to try it), not a student's work: lab-check keeps no marks for it, and
    --next writes nothing there."""
    top = (pathlib.Path(home) if home is not None else course.PROJECT).resolve() / "lessons"
    return top in pathlib.Path(file).resolve().parents


def lab_of(file: pathlib.Path, home: pathlib.Path | None = None) -> Lab | None:
    """The lab `file` is for: the one its marker line declares, else the checkpoint whose
    student file has its name; None when neither says."""
    declared = project.declared_lesson(file)
    if declared:
        try:
            return course.find(declared, home)
        except (LookupError, ValueError):
            return None
    for lab in course.labs(home):
        if lab.is_checkpoint and onward.written(lab, lessons.available(home)) and \
                onward.student_file(lab, home) == pathlib.Path(file).name != onward.HARNESS:
            return lab
    return None


def _is_starter(file: pathlib.Path, lab: Lab) -> bool:
    """True when `file` holds `lab`'s starter as handed out, byte for byte."""
    starter = lab.folder / "starter.py" if lab.folder is not None else None
    try:
        # the sizes first: the student's file may be anything (a sparse file of 64 GiB, a
        # link to one), and only one the starter's size can be the starter
        if starter is None or file.stat().st_size != starter.stat().st_size:
            return False
        return file.read_bytes() == starter.read_bytes()
    except OSError:
        return False
