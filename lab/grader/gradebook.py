"""Grades an LMS can read: a batch's summary as a gradebook to import, with a late policy.

    lab-check --lesson 10 --batch submissions/ --output results/ --export canvas \\
              [--roster roster.csv] [--assignment "Lab 10 (4321)"] \\
              [--due 2026-12-01T23:59-05:00 --late-policy 10%/day,max=50%]

After the batch, into the output folder go:

  gradebook-canvas.csv  (--export canvas) Canvas's gradebook import: the columns Student, ID,
                        SIS User ID, SIS Login ID, Section, then one column for the lab (named
                        by --assignment: "Lab 10 (4321)", the name and id Canvas's own export
                        gives the assignment, updates it; a name Canvas does not know makes a
                        new one), a "Points Possible" row first. ID is Canvas's user id, from
                        the file names of Canvas's download; SIS columns and Section come from
                        the roster when one is given (Canvas's own gradebook export is one).
                        These are the columns Canvas's export has and its import reads back.
  gradebook-moodle.csv, gradebook-blackboard.csv
                        (--export moodle, --export blackboard) Moodle's grading worksheet and
                        Blackboard's Grade Center upload: lms_files.py
  gradebook.csv         (--export csv, and always with the others) one row a student: student,
                        student_id, lms, submission, status, score, max_score, submitted, late,
                        late_by_hours, penalty, final_score, note: the late policy applied and
                        shown, for any LMS or a spreadsheet.

The grade exported is final_score: the score less the late penalty, or the points of an
instructor's override (--overrides FILE: overrides.py), which every export carries and
summary.json records. A submission the grader
failed on (status "grader failed") gets no grade, an empty cell, never a zero: the LMS keeps
what it had, and the batch says to grade it again.

Late work. --due is the deadline, ISO 8601 (a time without an offset is UTC). A submission's
time is the LMS's, from its file names (Blackboard's attempt time, read in --due's time zone)
or from a Gradescope submission_metadata.json in its folder (created_at). That file gives the
due date when --due is not: the student's own (an extension) when it has one, else the
assignment's; a student's own due date later than --due outlasts it, and the note says so.
Canvas's and Moodle's file names carry no time, only Canvas's "late" mark: such a submission
is late by an unknown time, charged one unit of the policy. The policy (--late-policy):

  none               late work is marked and not penalised (the default)
  zero               late work scores 0
  P%/day, P%/hour    P percent of the lab's points off for each day (or hour) begun after the
                     deadline; ",max=M%" caps it; ",grace=N" (minutes) forgives that much
"""

from __future__ import annotations

import argparse
import csv
import datetime
import io
import json
import math
import os
import pathlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from lab.grader import finder
from lab.grader import lms_files, overrides
from lab.kit.counting import counted
from lab.kit.escape import csv_cell, printable, shown_name

if TYPE_CHECKING:
    from lab.course.lesson_files import Lesson

CANVAS_FILE = "gradebook-canvas.csv"
PLAIN_FILE = "gradebook.csv"
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
PLAIN_COLUMNS = ("student", "student_id", "lms", "submission", "status", "score", "max_score",
                 "submitted", "late", "late_by_hours", "penalty", "final_score", "note")
EXPORTS = ("canvas", "csv", "moodle", "blackboard")  # moodle, blackboard: lms_files.py


@dataclass(frozen=True)
class LatePolicy:
    """How late work is charged: `kind` none, zero or percent; `percent` of the lab's points
    each `unit_hours` begun late, at most `cap` percent; `grace` minutes forgiven."""
    spec: str = "none"
    kind: str = "none"
    percent: float = 0.0
    unit_hours: float = 24.0
    cap: float = 100.0
    grace: float = 0.0

    @classmethod
    def parse(cls, spec: str | None) -> LatePolicy:
        """The policy `spec` declares; ValueError saying what a policy looks like."""
        text = (spec or "none").strip().lower().replace(" ", "")
        head, *options = text.split(",")
        more = {}
        for option in options:
            key, _, value = option.partition("=")
            number = re.fullmatch(r"(\d+(?:\.\d+)?)%?", value)
            if key not in ("max", "grace") or not number:
                raise ValueError(_policy_help(spec))
            more["cap" if key == "max" else "grace"] = float(number[1])
        if head in ("none", "zero"):
            return cls(spec=text, kind=head, **more)
        rate = re.fullmatch(r"(\d+(?:\.\d+)?)%/(day|hour)", head)
        if not rate:
            raise ValueError(_policy_help(spec))
        return cls(spec=text, kind="percent", percent=float(rate[1]),
                   unit_hours=24.0 if rate[2] == "day" else 1.0, **more)

    def charge(self, max_score: float, late_by: datetime.timedelta | None,
               marked_late: bool) -> tuple[float, str]:
        """(the points off, a sentence saying why or "") for a submission `late_by` (a
        timedelta, or None when its time is unknown) after the deadline, which the LMS
        `marked_late` or not."""
        if late_by is not None and late_by <= datetime.timedelta(minutes=self.grace):
            return 0.0, ""
        if late_by is None and not marked_late:
            return 0.0, ""
        when = (f"{_hours(late_by):g} h late" if late_by is not None
                else "marked late by the LMS, its time unknown")
        if self.kind == "none":
            return 0.0, f"{when}; the late policy takes nothing off"
        if self.kind == "zero":
            return float(max_score), f"{when}; the late policy scores late work 0"
        units = 1 if late_by is None else math.ceil(
            (late_by.total_seconds() / 3600 - self.grace / 60) / self.unit_hours)
        percent = min(self.percent * units, self.cap)
        unit = "day" if self.unit_hours == 24 else "hour"
        return (round(max_score * percent / 100, 4),
                f"{when}: {units} {unit}{'s' if units != 1 else ''} begun late, "
                f"{percent:g}% off ({self.spec})")


def _policy_help(spec):
    return (f"--late-policy {spec!r} is not a policy. Write none, zero, or a percentage a day "
            "or an hour begun late, with an optional cap and grace in minutes: 10%/day, "
            "5%/hour,max=50%, 10%/day,grace=15.")


def _hours(delta):
    return round(delta.total_seconds() / 3600, 2)


def parse_due(text: str | None) -> datetime.datetime | None:
    """The deadline --due names, as an aware datetime (UTC when it gives no offset)."""
    if not text:
        return None
    try:
        due = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"--due {text!r} is not a date and time: write it as ISO 8601, such as "
                         "2026-12-01T23:59-05:00 (without an offset it is UTC).") from None
    return due if due.tzinfo else due.replace(tzinfo=datetime.timezone.utc)


# Gradescope's submission_metadata.json carries the assignment's dates under "assignment" and,
# in each entry of "users" (the students of the submission), that student's own dates under
# its own "assignment": release_date, due_date, late_due_date. Those differ from the
# assignment's where an extension was given. Gradescope's documentation of the file shows only
# the assignment's dates and a user's email, id and name; the users' own dates are what the
# files Gradescope writes hold (gradescope/autograder_samples issue 60 shows one).
ASSIGNMENTS_DUE = "the assignment's"
OWN_DUE = "the student's own (an extension)"


def metadata_time(text: object) -> datetime.datetime | None:
    """An ISO 8601 time from a metadata file ("Z" too, which 3.10's fromisoformat refuses),
    aware (UTC when it gives no offset); None when it is not one."""
    if not isinstance(text, str):
        return None
    try:
        when = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=datetime.timezone.utc)


def assignment_due(meta: dict[str, object]) -> datetime.datetime | None:
    """The assignment's own due date in a Gradescope submission_metadata.json, or None."""
    assignment = meta.get("assignment")
    return metadata_time(assignment.get("due_date")) if isinstance(assignment, dict) else None


def gradescope_due(meta: dict[str, object]
                   ) -> tuple[datetime.datetime | None, str, str]:
    """(the due date that counts, where it came from, whose) for the submission a Gradescope
    submission_metadata.json describes. A student's own due date (users[i].assignment.due_date)
    is theirs; each student without one has the assignment's. On a group submission every
    student's date counts and the latest is the group's: the submission is one and the same,
    and a student's extension is never cut short by a partner who has none. Where it came
    from is OWN_DUE when that date is not the assignment's, else ASSIGNMENTS_DUE; whose is the
    name (or email) of the student it belongs to, "" for the assignment's. (None, "", "")
    when the file names no due date at all."""
    top = assignment_due(meta)
    users = meta.get("users")
    dates: list[tuple[datetime.datetime, str]] = []
    for user in users if isinstance(users, list) else ():
        if not isinstance(user, dict):
            continue
        own = user.get("assignment")
        when = metadata_time(own.get("due_date")) if isinstance(own, dict) else None
        if when is not None and when != top:
            dates.append((when, str(user.get("name") or user.get("email") or "")))
        elif top is not None:
            dates.append((top, ""))
    if not dates:
        return top, ASSIGNMENTS_DUE if top else "", ""
    due, whose = max(dates, key=lambda date: date[0])
    return due, (OWN_DUE if due != top else ASSIGNMENTS_DUE), whose if due != top else ""


# -- the export -----------------------------------------------------------------------------

def check(args: argparse.Namespace
          ) -> tuple[LatePolicy, datetime.datetime | None, finder.Roster | None]:
    """Parse the export's options before any grading, so a typo costs no batch: (policy, due,
    roster); ValueError saying what is wrong."""
    if args.export and not args.batch:
        raise ValueError(f"--export {args.export} is for a batch's gradebook: it goes with "
                         "--batch DIR --output OUTDIR.")
    if (args.roster or args.due or args.late_policy or args.assignment
            or getattr(args, "overrides", None)) and not args.export:
        raise ValueError("--roster, --due, --late-policy, --assignment and --overrides shape "
                         "the gradebook: give --export canvas (or csv, moodle, blackboard) too.")
    roster = finder.Roster.read(args.roster) if args.roster else None
    return LatePolicy.parse(args.late_policy), parse_due(args.due), roster


def command(args: argparse.Namespace, lesson: Lesson) -> int:
    """lab-check ... --export: write the gradebook(s) of the batch in args.output and say
    what they hold; the exit status (0, or 2 when it cannot be written)."""
    try:
        policy, due, roster = check(args)
        fixes = overrides.read(args.overrides, lesson.number, _points(lesson)) \
            if getattr(args, "overrides", None) else []
        written = export(args.batch, args.output, lesson, kind=args.export, policy=policy,
                         due=due, roster=roster, assignment=args.assignment, fixes=fixes)
    except (ValueError, OSError) as error:
        print(f"lab_check: {error}")
        return 2
    for line in written:  # names from the LMS and the roster: shown, never run by the terminal
        print(f"lab_check: {printable(line)}")
    return 0


def export(folder: str | os.PathLike[str], out: str | os.PathLike[str], lesson: Lesson, *,
           kind: str = "canvas", policy: LatePolicy = LatePolicy(),
           due: datetime.datetime | None = None, roster: finder.Roster | None = None,
           assignment: str | None = None,
           fixes: Sequence[overrides.Override] = ()) -> list[str]:
    """Write the gradebook of the batch graded from `folder` into `out` (summary.json there):
    gradebook.csv always, gradebook-canvas.csv for kind "canvas", Moodle's and Blackboard's
    for theirs (lms_files.py), every one with the instructor's overrides `fixes` applied, and
    recorded in summary.json. Returns the lines that say what was written."""
    from lab.course.manifest import title, total

    out = pathlib.Path(out)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    zone = due.tzinfo if due else None
    found = {shown_name(one.name): one for one in
             finder.in_class(folder, staging=out / "staged", skip=out, timezone=zone,
                             wanted=finder.student_file(lesson))}
    points = total(lesson)
    column = assignment or f"Lesson {lesson.number}: {title(lesson)}"
    rows, lasts = [], []  # every row; the last row of each submission (a group's: several)
    for entry in summary.get("submissions", []):
        one = found.get(entry.get("submission"))
        for each in _students(one):
            rows.append(_row(entry, each, roster, policy, due, points))
        lasts.append(rows[-1])
    applied = overrides.apply(rows, fixes)  # before anything is written: a bad one writes nothing
    late = sum(row["late"] == "yes" for row in rows)
    held = [r["student"] for r in lasts if r["final_score"] == "" and not r["owner_unknown"]]
    unowned = [r["student"] for r in lasts if r["final_score"] == "" and r["owner_unknown"]]
    unmatched = [r["student"] for r in lasts if kind == "canvas" and not r["canvas_id"]
                 and not r["sis_user_id"] and not r["sis_login_id"]]
    _record(out, summary, applied)
    _write(out / PLAIN_FILE, PLAIN_COLUMNS, [{k: r[k] for k in PLAIN_COLUMNS} for r in rows])
    said = [f"{PLAIN_FILE} in {out}: {counted(len(rows), 'student')}, {late} late "
            f"(late policy: {policy.spec}{', due ' + due.isoformat() if due else ''})"]
    if kind == "canvas":
        lines = [dict(zip(CANVAS_COLUMNS + (column,), ("Points Possible", "", "", "", "",
                                                       f"{points:g}")))]
        lines += [dict(zip(CANVAS_COLUMNS + (column,), (
            r["student"], r["canvas_id"], r["sis_user_id"], r["sis_login_id"], r["section"],
            r["final_score"]))) for r in rows if r["student"] not in unmatched]
        _write(out / CANVAS_FILE, CANVAS_COLUMNS + (column,), lines)
        said.append(f"{CANVAS_FILE} in {out}: import it in Canvas's Grades, Import, into the "
                    f"column {column!r}")
        if unmatched:
            said.append(f"left out of {CANVAS_FILE} (in {PLAIN_FILE} still): {len(unmatched)} "
                        "with no Canvas id (not from Canvas's download, not in the roster), "
                        "which Canvas could not match: "
                        f"{', '.join(unmatched[:8])}{' ...' if len(unmatched) > 8 else ''}")
    if kind in lms_files.WRITERS:
        said += lms_files.WRITERS[kind](rows, out, column, points, _write)
    said += overrides.said(applied)
    if held:
        said.append(f"no grade exported for {', '.join(held[:8])}: the grader failed on them; "
                    "grade them again, then export again")
    if unowned:
        said.append(f"no grade exported for {', '.join(unowned[:8])}: no LMS names whose "
                    f"{'file this is' if len(unowned) == 1 else 'files these are'} (not "
                    "graded); put each in a folder named after its student, then grade it "
                    "with --only and export again")
    return said


def _students(one: finder.Found | None) -> list[finder.Found | None]:
    """The submission `one` once for each student it is graded for: a group's (Gradescope's
    export names each of its students) as each member's own, since a gradebook, Canvas's import
    and Gradescope's own export alike, holds a row a student and each gets the group's grade;
    anyone else's as it is."""
    if one is None or len(one.members) < 2:
        return [one]
    together = ", ".join(m["name"] or m["student_id"] for m in one.members)
    return [replace(one, student_id=m["student_id"], lms_name=m["name"],
                    roster={"name": m["name"], "email": m["email"]} if m["name"] else {},
                    note=" ".join(filter(None, (one.note, f"A group's submission, of {together}: "
                                                "each is given its grade."))))
            for m in one.members]


def _row(entry, one, roster, policy, due, points):
    person: dict[str, str] = {}
    if one is not None and roster is not None:
        person = roster.person(one.student_id) if one.student_id else {}
        person = person or roster.person(one.name)
    elif one is not None:
        person = one.roster
    submitted = one.submitted if one else None
    gradescope_due, source, whose = None, "", ""
    if one is not None and one.harness is not None:
        submitted, (gradescope_due, source, whose) = _gradescope_times(one, submitted)
    deadline = due or gradescope_due
    extended = ""
    if source == OWN_DUE and gradescope_due and (due is None or gradescope_due > due):
        deadline = gradescope_due  # a student's extension outlasts the class's --due
        extended = (f"due {gradescope_due.isoformat()}, {whose or 'the student'}'s own "
                    "(an extension)")
    late_by = submitted - deadline if (submitted and deadline) else None
    marked = bool(one and one.late)
    if late_by is not None and late_by <= datetime.timedelta(0):
        late_by, marked = None, False
    is_late = marked or late_by is not None
    score = float(entry.get("score") or 0)
    max_score = float(entry.get("max_score") or points)
    failed = entry.get("status") == "grader failed" or entry.get("exit_code") == 3
    penalty, why = (policy.charge(max_score, late_by, marked) if is_late else (0.0, ""))
    nobody = one is not None and not one.lms and one.problem == finder.unplaced(one.sources[0])
    final = "" if failed or nobody else f"{max(score - penalty, 0):g}"
    note = "; ".join(s for s in (extended, why, one.problem if one else "",
                                 one.note if one and one.members else "",
                                 "the grader failed: no grade exported" if failed else "") if s)
    lms_id = one.student_id if one else ""
    return {
        "student": person.get("Student") or person.get("name") or entry.get("submission", ""),
        "student_id": lms_id, "lms": one.lms if one else "",
        "submission": entry.get("submission", ""), "status": entry.get("status", ""),
        "score": f"{score:g}", "max_score": f"{max_score:g}",
        "submitted": submitted.isoformat() if submitted else "",
        "late": "yes" if is_late else "no",
        "late_by_hours": f"{_hours(late_by):g}" if late_by is not None else "",
        "penalty": f"{penalty:g}", "final_score": final, "note": note,
        "canvas_id": person.get("ID") or (lms_id if one and one.lms == "canvas" else ""),
        "sis_user_id": person.get("SIS User ID", ""),
        "sis_login_id": person.get("SIS Login ID", ""),
        "section": person.get("Section", ""), "owner_unknown": nobody,
    }


def _gradescope_times(one, submitted):
    """(the submission's time, gradescope_due's (due date, where from, whose)) from a Gradescope
    submission_metadata.json, when the LMS's download gave no time and the student's folder is
    laid out as Gradescope's autograder is given one submission (FOLDER/submission_metadata.json
    beside FOLDER/submission/, the file graded inside the latter); else (`submitted`,
    (None, "", "")). Never from a file among the student's own: one the student uploaded would
    set their own time and due date."""
    folder = pathlib.Path(one.folder)
    uploaded = folder / "submission"
    nothing = (None, "", "")
    if submitted is None and pathlib.Path(one.harness).is_relative_to(uploaded) \
            and uploaded.is_dir() and not uploaded.is_symlink():
        path = folder / "submission_metadata.json"
        if path.is_file() and not path.is_symlink():
            try:
                meta = json.loads(path.read_text(encoding="utf-8")[:1_000_000])
                created = metadata_time(meta.get("created_at")) if isinstance(meta, dict) else None
                if created is None:
                    return submitted, nothing
                return created, gradescope_due(meta)
            except (ValueError, KeyError, TypeError, AttributeError):
                return submitted, nothing
    return submitted, nothing


def _points(lesson):
    from lab.course.manifest import total

    return float(total(lesson))


def _record(out, summary, applied):
    """The overrides of this export into summary.json (none: the key removed), so the summary
    says which exported grades are not the grader's."""
    if applied or "overrides" in summary:
        from lab.grader.batch import _write_text

        summary = {k: v for k, v in summary.items() if k != "overrides"}
        if applied:
            summary["overrides"] = applied
        _write_text(out / "summary.json", json.dumps(summary, indent=1, ensure_ascii=False) + "\n")


def _write(path, columns, rows, quoting=csv.QUOTE_MINIMAL):
    table = io.StringIO()
    writer = csv.DictWriter(table, fieldnames=columns, lineterminator="\r\n", quoting=quoting)
    writer.writeheader()
    for row in rows:
        writer.writerow({key: csv_cell(value) for key, value in row.items()})
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.unlink()  # a leftover (perhaps another's, or a link) is never written through
    except FileNotFoundError:
        pass
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # every student's grade:
    with open(fd, "w", encoding="utf-8", newline="") as out:           # the instructor's alone,
        out.write(table.getvalue())                                    # as the results are
    partial.replace(path)


def read_canvas(path: str | os.PathLike[str]) -> tuple[str, float, dict[str, tuple[str, str]]]:
    """(the assignment's column name, its points possible, {student: (ID, grade)}) read back
    from a gradebook-canvas.csv, as Canvas's import reads it: ValueError when it is not one."""
    with open(path, newline="", encoding="utf-8-sig") as file:
        rows = list(csv.reader(file))
    header = rows[0] if rows else []
    if tuple(header[:5]) != CANVAS_COLUMNS or len(header) != 6:
        raise ValueError(f"{path}: expected the columns {', '.join(CANVAS_COLUMNS)} and one "
                         f"assignment; found {header}")
    if not rows[1] or rows[1][0].strip() != "Points Possible":
        raise ValueError(f"{path}: expected the Points Possible row second")
    grades = {}
    for row in rows[2:]:
        if len(row) != 6:
            raise ValueError(f"{path}: a row of {counted(len(row), 'cell')}: {row}")
        if row[5] != "":
            float(row[5])  # a grade Canvas reads is a number, or empty
        grades[row[0]] = (row[1], row[5])
    return header[5], float(rows[1][5]), grades
