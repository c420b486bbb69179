"""A checkpoint's worked examples, run where their harnesses are and replayed where they are not.

A checkpoint's walkthrough examines two harnesses a student's copy cannot hold: the finished
harness of the lab the checkpoint builds on, and its example, that harness with one idea taken
out (checkpoint B's fir, checkpoint A's finch: the one patch its manifest's [release]
grader_only names). Both carry a lab's answer. So the walkthrough asks for a session by the
harness's name:

    book = casebook.of("A")
    seen = book.visit("finch", case)          # a lab.testkit.clinic.Visit
    seen = casebook.visit("fir", case)        # checkpoint B's book, as its walkthrough asks

Where the harness is (the course's own project, and the release while it makes an edition),
the case runs on it, live. In a student's copy the session is read back from sessions.json,
which the release wrote beside the notebook by running the walkthrough's own cases on the
grader's side (LAB_CASEBOOK_RECORD names the file to write). Only the running is replayed:
everything done with the session afterwards (rules.judge, describe, explain, picture) runs on
the reader's machine. A case the copy holds no session for is refused with a sentence; the
student's own cases run on the checkpoint's harnesses when their file is graded. A
sessions.json that is not as the release wrote it (edited by hand, cut short) is refused with
one line saying what is missing or malformed (Spoilt), never a KeyError's traceback.
"""

import json
import os
import pathlib

from lab.course import order as course, lesson_files as lessons
from lab.testkit.clinic import Visit
from lab.testkit.clinic import visit as run_case

SAVED = "sessions.json"          # in the checkpoint's folder of a student's copy
RECORD = "LAB_CASEBOOK_RECORD"   # names a file to write every live session into


class NotSaved(LookupError):
    """A case asked of a harness this copy does not hold, and has no saved session for."""


class Spoilt(ValueError):
    """The copy's sessions.json is not as the release wrote it; the message says what is wrong,
    in one line. A notebook shows that line alone (IPython's _render_traceback_), not the
    traceback: the fault is in the file, not in the student's code."""

    def _render_traceback_(self):
        return [f"{type(self).__name__}: {self}"]


FRESH = ("take sessions.json afresh from the copy you were given (git checkout sessions.json "
         "in a repository), since only the release can write it")


class Casebook:
    """Checkpoint `checkpoint`'s two harnesses, "finished" and its example, by name."""

    def __init__(self, checkpoint):
        from lab.course import manifest

        self.lesson = lessons.lesson(checkpoint)
        base = course.find(self.lesson.number).builds_on
        if base is None:  # the harnesses it runs are that lab's finished one, with patches
            raise ValueError(f"checkpoint {self.lesson.number} builds on no lab in "
                             "lessons/course.toml: a casebook needs the lab it examines")
        self.base = base
        meta = manifest.read(self.lesson)
        patch = next(p for p in meta["release"]["grader_only"] if p.endswith(".patch"))
        self.example = patch.removesuffix(".patch")
        self.names = ("finished", self.example)
        self.student_file = meta.get("student_file", "doctor.py")

    def live(self):
        """True where the walkthrough's harnesses are here to run on (not a student's copy)."""
        try:
            return lessons.lesson(self.base).finished.is_file() and self._example_file().is_file()
        except (LookupError, ValueError):
            return False

    def harness(self, name):
        """The harness module `name` ("finished" or the example), afresh; NotSaved in a
        student's copy."""
        if name not in self.names:
            raise ValueError(f"the casebook holds {' and '.join(self.names)}, not {name!r}")
        if not self.live():
            raise NotSaved(f"{name} is the grader's, and this copy does not hold it")
        from lab.course.loading import load_harness, nearly_right

        return load_harness(lessons.lesson(self.base).finished) if name == "finished" \
            else nearly_right(self._example_file(), lesson=self.base)

    def visit(self, name, case):
        """The session `case` makes on the harness `name`: run now where the harness is (and
        written down when RECORD names a file), else the one saved in this copy."""
        if self.live():
            seen = run_case(self.harness(name), case)
            if os.environ.get(RECORD):
                _write(pathlib.Path(os.environ[RECORD]), name, case, seen)
            return seen
        path = self.lesson.folder / SAVED
        saved = _read(path).get(_key(name, case))
        if saved is None:
            raise NotSaved(f"{name} is the grader's harness, so this copy holds its sessions for "
                           "the walkthrough's own cases only, saved when the copy was made; this "
                           "case is not one of them. Your own cases run on the checkpoint's "
                           f"harnesses when {self.student_file} is graded. To see a case do what "
                           "you mean before you hand it in, run it on your own harness.py of "
                           f"lesson {course.label(self.base)}, which is a finished one: "
                           "rules.judge(clinic.visit(load_harness(PATH), case)), load_harness "
                           "being lab.notebook.harnesses', is [] on it when the case is fair; and on a "
                           "copy of it with one idea taken out by hand, it should not be.")
        try:
            return Visit.from_data(saved)
        except KeyError as missing:
            raise Spoilt(f"{path}: the saved session of {name} for this case has no "
                         f"{missing.args[0]!r}; {FRESH}.") from None
        except (TypeError, AttributeError, ValueError) as error:
            raise Spoilt(f"{path}: the saved session of {name} for this case is malformed "
                         f"({_first_line(error)}); {FRESH}.") from None

    def _example_file(self):
        return self.lesson.folder / f"{self.example}.patch"


def of(checkpoint):
    """The casebook of checkpoint `checkpoint` ("A", "B")."""
    return Casebook(checkpoint)


# Checkpoint B's walkthrough asks the module itself: casebook.visit("fir", case).
def live():
    return of("B").live()


def harness(name):
    return of("B").harness(name)


def visit(name, case):
    return of("B").visit(name, case)


def _key(name, case):
    return json.dumps([name, case], sort_keys=True)


def _read(path):
    """{key: saved visit} from the sessions file at `path` ({} when there is none); Spoilt,
    saying what is wrong in one line, when it is not a list of {"key": ..., "visit": {...}}."""
    if not path.is_file():
        return {}
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise Spoilt(f"{path} is not UTF-8 text; {FRESH}.") from None
    except json.JSONDecodeError as error:
        raise Spoilt(f"{path} is not JSON ({error.msg} at line {error.lineno}, column "
                     f"{error.colno}); {FRESH}.") from None
    except (OSError, RecursionError) as error:
        raise Spoilt(f"{path} cannot be read ({_first_line(error)}); {FRESH}.") from None
    if not isinstance(entries, list):
        raise Spoilt(f"{path} holds a {type(entries).__name__}, not the list of sessions the "
                     f"release writes; {FRESH}.")
    read = {}
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise Spoilt(f"{path}: session {number} is a {type(entry).__name__}, not an object "
                         f"with a key and a visit; {FRESH}.")
        for field, kind in (("key", str), ("visit", dict)):
            if field not in entry:
                raise Spoilt(f"{path}: session {number} has no {field!r}; {FRESH}.")
            if not isinstance(entry[field], kind):
                raise Spoilt(f"{path}: session {number}'s {field!r} is a "
                             f"{type(entry[field]).__name__}, not "
                             f"{'text' if kind is str else 'an object'}; {FRESH}.")
        read[entry["key"]] = entry["visit"]
    return read


def _first_line(error):
    return (str(error).splitlines() or [type(error).__name__])[0][:200]


def _write(path, name, case, seen):
    entries = {**_read(path), _key(name, case): seen.to_data()}
    path.write_text(json.dumps([{"key": key, "visit": data} for key, data in entries.items()],
                               indent=1, sort_keys=True) + "\n", encoding="utf-8")
