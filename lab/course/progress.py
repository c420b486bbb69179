"""A student's progress through the course: what lab-check found the last time it graded each
lab in this folder, so that `lab-check --course` can say where the student stands.

The marks live beside the student's file, in `.lab-check/progress.json` (with a .gitignore of
its own, so the folder stays out of the student's commits), one mark a lab:

    {"version": 1, "labs": {"10": {"file": "harness.py", "passed": true, "graded": true,
                                   "score": 27, "max_score": 27, "failed": 0,
                                   "sha256": "...", "at": "2026-12-01T09:12:03+00:00"}}}

Only a grading of the whole lab, as a student runs it in the terminal, leaves a mark (lab_check
decides which); a mark says what that grading found, the last one winning. The file is written
whole, beside it and renamed over it, so it is never half-written. It is the student's folder,
so its contents are not trusted: a file that is not what this module writes (not JSON, too big,
a mark of the wrong shape, a link, a pipe) is set aside in one sentence (`Progress.problem`)
and treated as no marks at all; the next grading writes a fresh one. A batch of hostile bytes
may cost the student their marks, never a traceback. (Not to be confused with
lab.grader.progress_bar, the bar a batch grading draws.)
"""

from __future__ import annotations

import datetime
import json
import math
import os
import pathlib
import stat
import tempfile
from dataclasses import asdict, dataclass, field

from lab.kit.counting import counted
from lab.kit.escape import shown_name

FOLDER = ".lab-check"
FILE = "progress.json"
VERSION = 1
MOST_BYTES = 64 * 1024   # a real record of eighteen labs is under 4 KiB
MOST_POINTS = 10 ** 6    # no lab is worth more points, nor has more tests, than this


@dataclass(frozen=True)
class Mark:
    """What the last grading of one lab found."""
    file: str          # the student's file, as named in the grading (harness.py, doctor.py)
    passed: bool       # every test of the lab passed
    graded: bool       # False when the file could not be graded at all (a syntax error, say)
    score: float
    max_score: float
    failed: int        # how many tests failed
    sha256: str        # of the file that was graded
    at: str            # when, ISO 8601 in UTC

    @property
    def state(self) -> str:
        """"passed", or "in progress" with the last score, as the course map words it."""
        if self.passed:
            return f"passed ({self.score:g} of {counted(self.max_score, 'point')})"
        if not self.graded:
            return "in progress: the last grading could not run your file"
        return f"in progress: {self.score:g} of {counted(self.max_score, 'point')} last time"


@dataclass(frozen=True)
class Progress:
    """The marks kept in `folder`, by lab label ("10", "B"); `why` says why the record file
    there was set aside ("" when it was read, or there is none yet)."""
    folder: pathlib.Path
    marks: dict[str, Mark] = field(default_factory=dict)
    why: str = ""

    @property
    def problem(self) -> str:
        """The one sentence that tells the student their record was set aside, or ""."""
        return _set_aside(where(self.folder), self.why, "it is ignored, and your next grading "
                          "starts a new one") if self.why else ""


def where(folder: pathlib.Path) -> pathlib.Path:
    """The record file kept for the student files in `folder`."""
    return pathlib.Path(folder) / FOLDER / FILE


def read(folder: pathlib.Path) -> Progress:
    """The marks kept in `folder`: none when there is no record yet, none and a problem when
    the record is not one this module wrote."""
    folder = pathlib.Path(folder)
    try:
        raw = _read_plain_file(where(folder))
    except FileNotFoundError:
        return Progress(folder)
    except (OSError, ValueError) as error:
        return Progress(folder, why=_why(error))
    try:
        return Progress(folder, _marks(json.loads(raw.decode("utf-8"))))
    except (ValueError, TypeError, KeyError, RecursionError) as error:
        return Progress(folder, why=_why(error))


def remember(folder: pathlib.Path, lab: str, mark: Mark) -> str:
    """Keep `mark` as lab `lab`'s in `folder`'s record; "" when it is kept, else one sentence
    saying why it could not be, or that the record there was not one this module wrote and is
    replaced (the grading itself stands either way)."""
    folder, path = pathlib.Path(folder), where(folder)
    kept = read(folder)
    marks = kept.marks | {lab: mark}
    text = json.dumps({"version": VERSION, "labs": {k: asdict(m) for k, m in marks.items()}},
                      indent=1, sort_keys=True) + "\n"
    try:
        _write_whole(path, text.encode("utf-8"))
    except OSError as error:
        return (f"lab_check: could not keep this grading in {shown_name(str(path))} "
                f"({_why(error)}); "
                "lab-check --course will not show it.")
    if kept.why:  # said once, as the record that was there is replaced
        return _set_aside(path, kept.why, "a new one, holding this grading, takes its place")
    return ""


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


# -- reading what may not be ours -----------------------------------------------------------

def _read_plain_file(path: pathlib.Path) -> bytes:
    """The bytes of `path` if it is a plain file of a sane size inside a plain folder; never
    follows a link and never opens a pipe or a device (which could block or never end)."""
    for part in (path.parent, path):
        info = os.lstat(part)  # FileNotFoundError when there is no record yet
        wanted = stat.S_ISDIR if part == path.parent else stat.S_ISREG
        if not wanted(info.st_mode):
            raise ValueError(f"{part.name} is not a plain {'folder' if part == path.parent else 'file'}")
    if info.st_size > MOST_BYTES:
        raise ValueError(f"it is {counted(info.st_size, 'byte')}, more than a record ever holds")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    descriptor = os.open(path, flags)
    with os.fdopen(descriptor, "rb") as source:
        data = source.read(MOST_BYTES + 1)
    if len(data) > MOST_BYTES:
        raise ValueError("it grew past the size a record ever holds")
    return data


def _marks(data: object) -> dict[str, Mark]:
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise ValueError(f"it is not version {VERSION} of the record")
    labs = data.get("labs")
    if not isinstance(labs, dict):
        raise ValueError("it has no marks by lab")
    return {_lab_label(name): _mark(name, entry) for name, entry in labs.items()}


def _lab_label(name: str) -> str:
    if not (isinstance(name, str) and 1 <= len(name) <= 3 and name.isascii() and name.isalnum()):
        raise ValueError(f"{name!r:.40} is not a lab")
    return name


FIELDS: dict[str, type | tuple[type, ...]] = {
    "file": str, "passed": bool, "graded": bool, "score": (int, float), "max_score": (int, float),
    "failed": int, "sha256": str, "at": str}


def _mark(name: str, entry: object) -> Mark:
    if not isinstance(entry, dict) or set(entry) != set(FIELDS):
        raise ValueError(f"the mark of lab {name} does not have the fields a mark has")
    for key, kind in FIELDS.items():
        value = entry[key]
        # bool is an int to Python: a true score or a count of True is not a number here
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise ValueError(f"the {key} of lab {name}'s mark is not a {_kind_name(kind)}")
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"the {key} of lab {name}'s mark is not a finite number")
        # a number JSON allows may be far past what a float holds (9999...9, 4000 digits),
        # and the map writes it as one: only the counts a grading can make are kept
        if isinstance(value, (int, float)) and not isinstance(value, bool) \
                and not 0 <= value <= MOST_POINTS:
            raise ValueError(f"the {key} of lab {name}'s mark is not a count a grading makes")
        if isinstance(value, str) and not (len(value) <= 200 and value.isprintable()):
            raise ValueError(f"the {key} of lab {name}'s mark is not a short line of text")
    if os.sep in entry["file"] or "/" in entry["file"]:
        raise ValueError(f"the file of lab {name}'s mark is not a file name")
    return Mark(**entry)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names: dict[type | tuple[type, ...], str] = {str: "text", bool: "true or false",
                                                 int: "whole number"}
    return names.get(kind, "number")


def _set_aside(path: pathlib.Path, why: str, then: str) -> str:
    return (f"lab_check: {shown_name(str(path))} is not a progress record lab-check wrote "
            f"({why}); {then}.")


def _why(error: BaseException) -> str:
    if isinstance(error, OSError):
        return error.strerror or str(error)
    if isinstance(error, RecursionError):
        return "it is nested deeper than any record"
    if isinstance(error, UnicodeDecodeError):
        return "it is not UTF-8 text"
    if isinstance(error, json.JSONDecodeError):
        return f"it is not JSON: {error.msg} at line {error.lineno}"
    return str(error)


# -- writing --------------------------------------------------------------------------------

def _write_whole(path: pathlib.Path, data: bytes) -> None:
    """Put `data` in `path` all at once: written beside it, then renamed over it (a rename
    replaces a link itself, never what it points at)."""
    folder = path.parent
    if os.path.islink(folder) or (folder.exists() and not folder.is_dir()):
        raise OSError(20, f"{folder} is not a plain folder")
    folder.mkdir(exist_ok=True)
    ignore = folder / ".gitignore"
    if not os.path.lexists(ignore):
        ignore.write_text("# lab-check's own record of your gradings\n*\n")
    descriptor, part = tempfile.mkstemp(dir=folder, prefix=".progress-", suffix=".part")
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(part, path)
    except BaseException:
        os.unlink(part)
        raise


def of_grade(grade) -> Mark:
    """The mark a lab_check Grade (lab.grader.results) leaves."""
    return Mark(file=_shown(os.path.basename(str(grade.harness))), passed=grade.exit_code == 0,
                graded=not grade.problem, score=float(grade.score),
                max_score=float(grade.max_score), failed=int(grade.failed),
                sha256=str(grade.sha256), at=now())


def _shown(name: str) -> str:
    """A file name as a mark keeps it: a short line of printable text, as `read` takes one back
    (a name may hold a newline, an escape, 255 bytes), so that a grading never leaves a record
    its own next reading sets aside."""
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in name)[:200]
