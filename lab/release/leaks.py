"""Whether any of a lesson's answer reached a folder meant for students or for a platform.

The answer is the code of the lesson's gaps: in finished.py, the lines between
`# --- your code ---` and `# --- starter ---` (see lab.course.starter). A line of it counts as the
answer when it says something: not blank, not mere punctuation (a lone `)` or `\"\"\"`), not
a line the starter itself gives (a line both files have is no secret), and not a line of the
course's library, lab/, which every copy ships whole. Every file of the folder is searched,
line by line with the indentation ignored; a notebook is searched as text, so its sources
and its outputs both are, and so is any file no one expected to find there.

Also a leak: a file that is part of the answer as a whole (finished.py, right/, wrong/), and
the path of the finished file, which a notebook run on it may have printed.
"""

import pathlib
import re
import tempfile
import zipfile

from lab.course import lesson_files as lessons
from lab.course import manifest
from lab.course.gap_markers import BEGIN, END, SWAP, make_starter

SAYS_SOMETHING = re.compile(r"[A-Za-z0-9]")
ANSWER_FILES = ("finished.py",)
ANSWER_FOLDERS = ("right", "wrong")


def answer_lines(finished_text):
    """The stripped lines of the gaps' finished code that the starter does not also give."""
    given = {line.strip() for line in make_starter(finished_text).splitlines()}
    found, inside = [], False
    for line in finished_text.splitlines():
        marker = line.strip()
        if marker == BEGIN:
            inside = True
        elif marker in (SWAP, END):
            inside = False
        elif inside and SAYS_SOMETHING.search(marker) and marker not in given:
            found.append(marker)
    return found


def secrets(lesson):
    """The answer lines `lesson`'s copies must not hold: its own, and, for a lesson whose
    student file is not a harness (a checkpoint: its copy carries no harness at all, see
    lab.release.edition), the answer of every lab of the course, since it hands out none."""
    secret = set(answer_lines(lesson.finished.read_text()))
    if manifest.read(lesson).get("student_file", "harness.py") != "harness.py":
        for other in lessons.available().values():
            if other != lesson and other.finished.is_file():
                secret |= set(answer_lines(other.finished.read_text()))
    return secret - library_lines()


def library_lines():
    """Every stripped line of the course's own library, lab/, which every copy ships whole: a
    line it holds (a bare `try:`, `return value`) is no secret, whichever gap also has it."""
    return {line.strip() for path in (lessons.PROJECT / "lab").rglob("*.py")
            for line in path.read_text(encoding="utf-8").splitlines()}


def leaks(folder, lesson, kept=()):
    """Every leak of `lesson`'s answer in `folder`, one sentence each; [] when there is none.
    `kept` names paths of the folder that are the grader's own and may hold what they hold
    (an autograder's grader-only files, unreadable to the student's code there)."""
    folder = pathlib.Path(folder)
    secret = secrets(lesson)
    grader_only = set(manifest.read(lesson).get("release", {}).get("grader_only", []))
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        shown = path.relative_to(folder)
        if any(shown.is_relative_to(k) for k in kept):
            continue
        if path.name in ANSWER_FILES or set(shown.parts[:-1]) & set(ANSWER_FOLDERS):
            found.append(f"{shown}: a file of the answer is there at all")
            continue
        if {shown.parts[0], path.name} & grader_only:
            found.append(f"{shown}: a file the grader keeps is there at all")
            continue
        text = path.read_bytes().decode("utf-8", errors="replace")
        if str(lesson.finished) in text or str(lesson.folder) in text:
            found.append(f"{shown}: names the lesson's own folder, {lesson.folder}")
        lines = {_unquoted(line) for line in text.splitlines()}
        found += [f"{shown}: holds a line of the answer: {line}"
                  for line in sorted(secret & lines)]
    return found


def _unquoted(line):
    """A line as a notebook's JSON or a file's text holds it, stripped of indentation, JSON
    quoting and the trailing newline escape, so a line of code compares equal wherever it is."""
    line = line.strip()
    if line.startswith('"') and line.endswith(('",', '"')):
        line = line.rstrip(",")[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        line = line.removesuffix("\\n").strip()
    return line


def leaks_in(path, lesson):
    """`leaks` of a folder, or of a zip file's contents. A Gradescope autograder zip (one with
    run_autograder at its top) keeps its grader's own files (lab.release.gradescope.grader_kept:
    a checkpoint's harnesses and the finished harness they are patched from, all under lessons/,
    which its setup.sh closes to the student's code); everything else in it is searched."""
    path = pathlib.Path(path)
    if not zipfile.is_zipfile(path):
        return leaks(path, lesson)
    with tempfile.TemporaryDirectory(prefix="lab-release-leaks-") as scratch:
        with zipfile.ZipFile(path) as archive:
            archive.extractall(scratch)
            names = archive.namelist()
        kept = ()
        if "run_autograder" in names:
            from lab.release.gradescope import grader_kept

            kept = grader_kept(lesson)
        return leaks(scratch, lesson, kept=kept)
