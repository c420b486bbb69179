"""Gradebook files for Moodle and Blackboard, each in the form that LMS's own import reads.

  gradebook-moodle.csv      (--export moodle) the assignment's "offline grading worksheet",
                            which Moodle's assignment takes back through "Upload grading
                            worksheet": the columns Identifier ("Participant 12345": the id in
                            the names of Moodle's "Download all submissions"), Full name,
                            Grade, Maximum Grade and Last modified (grade). Moodle's importer
                            needs Identifier, Grade and Last modified (grade), finds a student by
                            the number after "Participant ", and skips a row whose Last
                            modified (grade) is older than the grade Moodle already holds
                            (a grade changed in Moodle since is never overwritten unasked);
                            the export's time is written there.
  gradebook-blackboard.csv  (--export blackboard) Blackboard Learn's Grade Center upload
                            ("Work Offline", "Upload"): a header row, every cell in quotes (its
                            CSV form requires them), the column Username (the student's user
                            name, from Blackboard's "Assignment File Download" names) and one
                            grade column. --assignment names that column as Blackboard's own
                            download heads it ("Lab 10 [Total Pts: 20 Score] |123456": the
                            column id after "|" fills that column); a name without an id makes
                            a new column.

A student the LMS could not match (no id of that LMS) is left out of its file and named; a
submission with no grade to export (the grader failed) is left out too, so the LMS keeps what
it had: never a zero.

Sources: Moodle (github.com/moodle/moodle at 9762977c028c) mod/assign/feedback/offline/
importgradeslib.php, init() and next(); mod/assign/lang/en/assign.php, the strings recordid
('Identifier'), lastmodifiedgrade ('Last modified (grade)') and hiddenuser ('Participant ');
the download's names from get_uniqueid_for_user in mod/assign/locallib.php. Blackboard:
"Uploading or Downloading Grade Center Items for Working Offline", Blackboard Help for
Instructors (library.blackboard.com).
"""

from __future__ import annotations

import csv
import datetime
import pathlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lab.kit.counting import counted

MOODLE_FILE, BLACKBOARD_FILE = "gradebook-moodle.csv", "gradebook-blackboard.csv"
MOODLE_COLUMNS = ("Identifier", "Full name", "Grade", "Maximum Grade", "Last modified (grade)")
PARTICIPANT = "Participant "  # Moodle's hiddenuser string, before the participant's id

Writer = Callable[[pathlib.Path, Sequence[str], Sequence[Mapping[str, Any]], int], None]


def moodle(rows: Sequence[Mapping[str, Any]], out: pathlib.Path, column: str, points: float,
           write: Writer, now: datetime.datetime | None = None) -> list[str]:
    """gradebook-moodle.csv from the gradebook's `rows`; the lines that say what it holds."""
    when = (now or datetime.datetime.now(datetime.timezone.utc)).isoformat(timespec="seconds")
    taken, left, held = _split(rows, "moodle")
    write(out / MOODLE_FILE, MOODLE_COLUMNS, [
        dict(zip(MOODLE_COLUMNS, (f"{PARTICIPANT}{r['student_id']}", r["student"],
                                  r["final_score"], f"{points:g}", when)))
        for r in taken], csv.QUOTE_MINIMAL)
    return [f"{MOODLE_FILE} in {out}: {counted(len(taken), 'student')}; upload it in the "
            "assignment's Submissions, Upload grading worksheet",
            *_named(MOODLE_FILE, left, held, "Moodle")]


def blackboard(rows: Sequence[Mapping[str, Any]], out: pathlib.Path, column: str,
               points: float, write: Writer, now: datetime.datetime | None = None) -> list[str]:
    """gradebook-blackboard.csv from the gradebook's `rows`; the lines that say what it
    holds. `column`: the grade column's heading (with its id, to fill an existing column)."""
    heading = column if "[" in column else f"{column} [Total Pts: {points:g} Score]"
    taken, left, held = _split(rows, "blackboard")
    write(out / BLACKBOARD_FILE, ("Username", heading),
          [{"Username": r["student_id"], heading: r["final_score"]} for r in taken],
          csv.QUOTE_ALL)
    return [f"{BLACKBOARD_FILE} in {out}: {counted(len(taken), 'student')}; upload it in "
            f"Grade Center, Work Offline, Upload, into the column {heading!r}",
            *_named(BLACKBOARD_FILE, left, held, "Blackboard")]


WRITERS = {"moodle": moodle, "blackboard": blackboard}


def _split(rows, lms):
    """(the rows this LMS can take, the students it could not match, those with no grade)."""
    matched = [r for r in rows if r.get("lms") == lms and r.get("student_id")]
    left = [str(r["student"]) for r in rows if r not in matched]
    held = [str(r["student"]) for r in matched if r.get("final_score", "") == ""]
    return [r for r in matched if r.get("final_score", "") != ""], left, held


def _named(name, left, held, lms):
    said = []
    if left:
        said.append(f"left out of {name} (in gradebook.csv still): {len(left)} with no {lms} "
                    f"id, which {lms} could not match: {', '.join(left[:8])}"
                    f"{' ...' if len(left) > 8 else ''}")
    if held:
        said.append(f"left out of {name}: {', '.join(held[:8])}, with no grade to export")
    return said
