"""Where the student's work is: the project folder, their harness.py, and the lesson it is for.

lab_check may be run from anywhere inside the project, as git may be run anywhere inside a
repository: a harness named by a relative path is looked for in the working folder, then in
each folder above it, up to the project's own folder (the first one holding both `lessons/`
and `lab/`). Outside a project only the working folder is looked in, so that a stranger's
file higher up is never graded by mistake. When nothing is found, the sentence says every
folder that was looked in.

A harness says which lesson it is for on a line of its own near the top, put there by the
lesson's finished.py (and so by the starter made from it); a checkpoint's file says its
checkpoint the same way:

    # lab: lesson 10
    # lab: checkpoint B
"""

import os
import pathlib
import re

MARKER = re.compile(r"^# lab: (?:lesson|checkpoint) (\w+)\b", re.MULTILINE)
MARKER_WITHIN = 2048   # characters from the top of the file where the marker must be


class NotFound(LookupError):
    """Something the student named is not where it was looked for; the message says where."""


def root(start=None):
    """The project folder holding `start` (the working folder by default), or None."""
    start = pathlib.Path(start or os.getcwd()).resolve()
    for folder in (start, *start.parents):
        if (folder / "lessons").is_dir() and (folder / "lab").is_dir():
            return folder
    return None


def find_harness(name, start=None):
    """The path of the harness file `name`, found as the module docstring says, or NotFound.
    A path that exists in a form lab_check cannot grade (a folder, say) counts as found: the
    grading then says what is wrong with it."""
    start = pathlib.Path(start or os.getcwd()).resolve()
    path = pathlib.Path(name)
    if path.is_absolute():
        if os.path.lexists(path):
            return path
        raise NotFound(f"{name} does not exist. Check the path: it should name your harness.py.")
    top = root(start)
    folders = [start] if top is None else [start, *start.parents][:len(start.parts)
                                                                   - len(top.parts) + 1]
    for folder in folders:
        if os.path.lexists(folder / path):
            return folder / path
    looked = ", ".join(str(folder) for folder in folders)
    where = ("and found no project above it (a folder holding lessons/ and lab/)"
             if top is None else f"up to the project's folder, {top}")
    raise NotFound(f"{name} does not exist: lab_check looked for it in {looked}, from where it "
                   f"was run {where}. Run lab_check inside your project, or name the file with "
                   "--harness PATH.")


def declared_lesson(harness_file):
    """The lab id the file declares on its `# lab: lesson N` (or `# lab: checkpoint B`) line, or
    None when it declares none or cannot be read."""
    try:
        with open(harness_file, encoding="utf-8", errors="replace",  # a fifo: no waiting
                  opener=lambda path, flags: os.open(path, flags | os.O_NONBLOCK)) as source:
            top = source.read(MARKER_WITHIN)
    except OSError:
        return None
    found = MARKER.search(top)
    return found.group(1) if found else None


def lesson_id(text):
    """A lesson id as lab.course.lesson_files takes it: a number for "10", the text itself for "B"."""
    return int(text) if text.isdigit() else text
