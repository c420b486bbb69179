"""lab-check --course: the course's map, every lab in order, with where the student stands.

    The course: 18 labs, 4 written so far. Your work: harness.py (lesson 10)

    The loop
      01  Who said that?                    first lab      not written yet
      ...
    Watching and steering a run
      10  The poisoned transcript           builds on 09   passed (27 of 27 points)   <- you
      B   Transcript doctor II              builds on 10   not started
    ...
    next: checkpoint B · Transcript doctor II: start it with lab-check --next

A lab's state comes from the marks lab-check keeps when it grades the student's file
(lab.course.progress): not started, in progress with its last score, passed. A lab nobody has written
yet says so instead; in a student's edition, which holds one lab, a written lab says whether it
comes as an edition of its own or is not handed out yet. The map is plain text, one lab a line, so that it reads the same in a terminal, a log
and a test. README.md shows it as a fresh copy prints it at lesson 01; `python -m lab.docs` rewrites
that copy from the course (and `--check` says whether it is current), as cog would.
"""

from __future__ import annotations

import pathlib
import sys
from collections.abc import Collection

from lab.course import order as course, lesson_files as lessons, next_step as onward
from lab.course.order import Lab, LabId, label
from lab.course.student_position import Position
from lab.course.progress import Progress
from lab.kit.counting import counted

TITLE = 34   # columns for a lab's title, at the least: the longest title sets it
BUILDS = 14  # columns for what it builds on


def course_map(order: tuple[Lab, ...], present: Collection[LabId], progress: Progress | None,
               here: Position | None, looked: str = "") -> str:
    """The map as text. `present` holds the ids of the labs this copy of the course holds,
    `progress` the student's marks (None when no student file was found; `looked` then says
    where lab-check looked), `here` where the student is."""
    written = sum(onward.written(lab, present) for lab in order)
    work = (f"Your work: {onward.shown(here.file)} ({onward.name(here.lab)})" if here is not None
            else looked or "No student file found here.")
    lines = [f"The course: {counted(len(order), 'lab')}, {written} written so far. {work}"]
    part, width = None, max([TITLE] + [len(lab.title) + 1 for lab in order])
    for lab in order:
        if lab.part != part:
            part = lab.part
            lines += ["", part]
        builds = f"builds on {label(lab.builds_on)}" if lab.builds_on is not None else "first lab"
        you = "   <- you are here" if here is not None and here.lab.id == lab.id else ""
        lines.append(f"  {lab.label:<3} {lab.title:<{width}} {builds:<{BUILDS}} "
                     f"{state(lab, present, progress)}{you}".rstrip())
    lines += ["", next_step(here, progress, present)]
    return "\n".join(lines) + "\n"


def state(lab: Lab, present: Collection[LabId], progress: Progress | None) -> str:
    if not onward.written(lab, present):
        return "not written yet"
    mark = progress.marks.get(lab.label) if progress is not None else None
    if mark is not None:
        return mark.state
    if lab.id not in present:
        return "in an edition of its own" if lab.released else "not handed out yet"
    return "not started"


def next_step(here: Position | None, progress: Progress | None,
              present: Collection[LabId] = ()) -> str:
    """The map's last line: what to do now, from where the student is."""
    if here is None:
        return "next: lab-check grades your harness.py; run it in the folder that holds it."
    if here.lab.id not in present:
        return (f"next: {onward.shown(here.file)} is for {onward.name(here.lab)}, which has no "
                "graded tests "
                "here; lab-check --reset --lesson N puts a written lab's starter in its place")
    mark = progress.marks.get(here.lab.label) if progress is not None else None
    if mark is not None and mark.passed:
        return f"next: {onward.onward(here.lab, str(here.file)).sentence}"
    grade = "lab-check" if here.file.name == onward.HARNESS else \
        f"lab-check --harness {onward.shown(here.file)}"
    return f"next: {'finish' if mark else 'start'} {onward.name(here.lab)}: {grade} grades it"


# -- the README's copy ----------------------------------------------------------------------

def fresh(lab: str = "01") -> str:
    """The map as `lab-check --course` prints it in a fresh copy of the project once
    `lab-check --reset --lesson 01` has put lesson 01's starter in harness.py (the README's
    first command), nothing graded yet; `lab` names another lab to stand at."""
    return course_map(course.labs(), lessons.available(), Progress(course.PROJECT),
                      Position(pathlib.Path(onward.HARNESS), course.find(lab)))
