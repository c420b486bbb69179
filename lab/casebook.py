"""Checkpoint B's worked examples, run where their harnesses are and replayed where they are not.

The walkthrough examines two harnesses a student's copy cannot hold: lesson 10's finished
harness, and fir, which is that harness with one idea taken out. Both carry lesson 10's answer.
So the walkthrough asks for a session by the harness's name:

    seen = casebook.visit("fir", case)        # a lab.clinic.Visit

Where the harness is (the course's own project, and the release while it makes an edition),
the case runs on it, live. In a student's copy the session is read back from sessions.json,
which the release wrote beside the notebook by running the walkthrough's own cases on the
grader's side (LAB_CASEBOOK_RECORD names the file to write). Only the running is replayed:
everything done with the session afterwards (rules.judge, describe, explain, picture) runs on
the reader's machine. A case the copy holds no session for is refused with a sentence; the
student's own cases run on the five harnesses when doctor.py is graded.
"""

import json
import os
import pathlib

from . import lessons
from .clinic import Visit
from .clinic import visit as run_case

HARNESSES = ("finished", "fir")
SAVED = "sessions.json"          # in the checkpoint's folder of a student's copy
RECORD = "LAB_CASEBOOK_RECORD"   # names a file to write every live session into


class NotSaved(LookupError):
    """A case asked of a harness this copy does not hold, and has no saved session for."""


def live():
    """True where the walkthrough's harnesses are here to run on (not a student's copy)."""
    try:
        return lessons.lesson(10).finished.is_file() and _fir_file().is_file()
    except (LookupError, ValueError):
        return False


def harness(name):
    """The harness module `name` ("finished" or "fir"), afresh; NotSaved in a student's copy."""
    if name not in HARNESSES:
        raise ValueError(f"the casebook holds {' and '.join(HARNESSES)}, not {name!r}")
    if not live():
        raise NotSaved(f"{name} is the grader's, and this copy does not hold it")
    from .harnesses import load_harness, nearly_right

    return load_harness(lessons.lesson(10).finished) if name == "finished" \
        else nearly_right(_fir_file())


def visit(name, case):
    """The session `case` makes on the harness `name`: run now where the harness is (and
    written down when RECORD names a file), else the one saved in this copy."""
    if live():
        seen = run_case(harness(name), case)
        if os.environ.get(RECORD):
            _write(pathlib.Path(os.environ[RECORD]), name, case, seen)
        return seen
    saved = _read(_saved_file()).get(_key(name, case))
    if saved is None:
        raise NotSaved(f"{name} is the grader's harness, so this copy holds its sessions for "
                       "the walkthrough's own cases only, saved when the copy was made; this "
                       "case is not one of them. Your own cases run on the five harnesses "
                       "when doctor.py is graded.")
    return Visit.from_data(saved)


def _key(name, case):
    return json.dumps([name, case], sort_keys=True)


def _read(path):
    if not path.is_file():
        return {}
    return {entry["key"]: entry["visit"] for entry in json.loads(path.read_text(encoding="utf-8"))}


def _write(path, name, case, seen):
    entries = {**_read(path), _key(name, case): seen.to_data()}
    path.write_text(json.dumps([{"key": key, "visit": data} for key, data in entries.items()],
                               indent=1, sort_keys=True) + "\n", encoding="utf-8")


def _fir_file():
    return lessons.lesson("B").folder / "fir.patch"


def _saved_file():
    return lessons.lesson("B").folder / SAVED
