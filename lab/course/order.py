"""The course's order: every lab, from lessons/course.toml, the one place it is written down.

A lab is a lesson ("01" to "16") or a checkpoint ("A", "B"). Each builds on one lab before it,
and its harness is that lab's finished harness plus what it adds (lab.course.compose). A lab the
course plans but nobody has written yet is listed all the same, with no folder: the map shows
the whole thread, and says which parts of it are there.

    labs()          every lab, in course order
    find(id)        the lab with that id (10, "10", "b")
    after(lab)      the lab that comes next in the course, written or not (None at the end)
    next_written(lab)  the next lab a student can open (None when there is none yet)
    chain(lab)      the labs whose changes make up its harness, first to last, itself included
    home()          the lab whose starter is the project's top-level harness.py

Ids are as lab.course.lesson_files has them: an int for a lesson, a capital letter for a checkpoint.
`label(id)` writes one the way the course prints it ("01", "B").
"""

from __future__ import annotations

import pathlib
from lab.course import tomlread
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

PROJECT = pathlib.Path(__file__).resolve().parents[2]
COURSE = "course.toml"  # in lessons/; an edition carries a copy at its top

LabId = int | str


class CourseError(ValueError):
    """lessons/course.toml is not a course: a field missing, an id twice, a parent unknown."""


@dataclass(frozen=True)
class Lab:
    id: LabId
    title: str
    part: str
    builds_on: LabId | None
    minutes: int
    adds: str
    folder: pathlib.Path | None  # None until the lab is written
    released: bool

    @property
    def label(self) -> str:
        return label(self.id)

    @property
    def is_checkpoint(self) -> bool:
        return isinstance(self.id, str)

    @property
    def written(self) -> bool:
        """True once the lab has a folder with its graded tests."""
        return self.folder is not None and (self.folder / "tests.py").is_file()

    @property
    def changes(self) -> pathlib.Path | None:
        """What the lab adds to its parent's harness (lab.course.compose), where it has any."""
        if self.folder is None or not (self.folder / "changes.py").is_file():
            return None
        return self.folder / "changes.py"

    @property
    def edits(self) -> pathlib.Path | None:
        """Its edits inside the parent's definitions (changes.patch, lab.course.compose), if any."""
        if self.changes is None or not (self.changes.parent / "changes.patch").is_file():
            return None
        return self.changes.parent / "changes.patch"

    @property
    def heading(self) -> str:
        """"10 · The poisoned transcript", "Checkpoint B · Transcript doctor II"."""
        return f"{'Checkpoint ' if self.is_checkpoint else ''}{self.label} · {self.title}"


def label(lab_id: LabId) -> str:
    return f"{lab_id:02d}" if isinstance(lab_id, int) else str(lab_id)


def parse_id(name: object) -> LabId:
    """The id that `name` (as typed or written: 10, "10", "01", "b") stands for."""
    text = str(name).strip()
    if text.isdigit():
        return int(text)
    if len(text) == 1 and text.isalpha() and text.isascii():
        return text.upper()
    raise ValueError(f"{name!r} is not a lesson: a lesson is a number (10) or, for a checkpoint, a "
                     "letter (B)")


def labs(project: pathlib.Path | None = None) -> tuple[Lab, ...]:
    """Every lab in course order, read from the project's lessons/course.toml (or from an
    edition's own copy at its top). () where there is neither."""
    return _read(pathlib.Path(project) if project is not None else PROJECT)


def find(name: object, project: pathlib.Path | None = None) -> Lab:
    wanted = parse_id(name)
    for lab in labs(project):
        if lab.id == wanted:
            return lab
    raise LookupError(f"the course has no lab {label(wanted)}")


def after(lab: Lab, project: pathlib.Path | None = None) -> Lab | None:
    order = labs(project)
    at = [one.id for one in order].index(lab.id)
    return order[at + 1] if at + 1 < len(order) else None


def next_written(lab: Lab, project: pathlib.Path | None = None) -> Lab | None:
    """The first lab after `lab`, in course order, that a student can open."""
    order = labs(project)
    at = [one.id for one in order].index(lab.id)
    return next((one for one in order[at + 1:] if one.written), None)


def chain(lab: Lab, project: pathlib.Path | None = None) -> tuple[Lab, ...]:
    """The labs whose changes compose `lab`'s harness, from the first to `lab` itself. A
    checkpoint's harness is its parent's, so its chain is its parent's."""
    found: list[Lab] = []
    at: Lab | None = lab
    while at is not None:
        found.append(at)
        at = find(at.builds_on, project) if at.builds_on is not None else None
    return tuple(reversed(found))


def home(project: pathlib.Path | None = None) -> Lab:
    return find(_home(pathlib.Path(project) if project is not None else PROJECT), project)


def _course_file(project: pathlib.Path) -> pathlib.Path | None:
    for place in (project / "lessons" / COURSE, project / COURSE):
        if place.is_file():
            return place
    return None


@lru_cache(maxsize=8)
def _parsed(path: pathlib.Path, stamp: float) -> dict[str, Any]:
    return tomlread.loads(path.read_text(encoding="utf-8"))


def _load(project: pathlib.Path) -> tuple[pathlib.Path | None, dict[str, Any]]:
    path = _course_file(project)
    if path is None:
        return None, {}
    return path, _parsed(path, path.stat().st_mtime)


def _home(project: pathlib.Path) -> str:
    path, data = _load(project)
    if "home" not in data:
        raise CourseError(f"{path or project}: no `home` lab is named")
    return data["home"]


def _read(project: pathlib.Path) -> tuple[Lab, ...]:
    path, data = _load(project)
    if path is None:
        return ()
    folders = path.parent
    order: list[Lab] = []
    for number, entry in enumerate(data.get("lab", []), 1):
        try:
            lab_id = parse_id(entry["id"])
            parent = parse_id(entry["builds_on"]) if entry["builds_on"] else None
            folder = folders / entry["folder"] if entry["folder"] else None
            lab = Lab(lab_id, entry["title"], entry["part"], parent, int(entry["minutes"]),
                      entry["adds"], folder, bool(entry["released"]))
        except (KeyError, ValueError) as error:
            raise CourseError(f"{path}: lab number {number} is not a lab ({error})") from None
        if any(one.id == lab.id for one in order):
            raise CourseError(f"{path}: lab {lab.label} is listed twice")
        if parent is not None and not any(one.id == parent for one in order):
            raise CourseError(f"{path}: lab {lab.label} builds on {label(parent)}, which is not "
                              "listed before it")
        order.append(lab)
    return tuple(order)
