"""An instructor's overrides: a grade set by hand, with its reason, applied at export and kept
on record, never silently.

    lab-check --lesson 10 --batch download/ --output graded/ --export canvas --overrides fixes.csv

fixes.csv is a CSV with the columns student, lab, points and reason (a header row, any order,
other columns ignored): `student` names a row of the gradebook as it shows it (the student's
name, their LMS id, or the submission's name), `lab` the lesson the override is for (rows of
other lessons are left for their own batch), `points` the final score to export, `reason` why:
a reason is required. Every export (gradebook.csv and each LMS's file) carries the overridden
score, and gradebook.csv's note says what it replaced and why; summary.json records every
override applied (its student, points, reason, and the score it replaced), and the export prints
a line for each. An override that names no student of the batch, names one twice, or gives
points that are not a number from 0 to the lab's points is refused, before anything is
written: an override that did nothing would be an override nobody knows was lost.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from lab.kit.counting import counted
from lab.kit.escape import printable

COLUMNS = ("student", "lab", "points", "reason")


@dataclass(frozen=True)
class Override:
    student: str
    lab: str
    points: float
    reason: str
    line: int  # in the file, for what a refusal names


def read(path: str | os.PathLike[str], lesson_id: int | str, most: float) -> list[Override]:
    """The overrides in the CSV at `path` for lesson `lesson_id`; ValueError naming the line
    and what is wrong with it."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as file:
            table = list(csv.DictReader(file))
            header = [str(h).strip().lower() for h in (table[0].keys() if table else [])]
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise ValueError(f"--overrides {printable(str(path))} cannot be read ({error}).") from None
    if table and not set(COLUMNS) <= set(header):
        raise ValueError(f"--overrides {printable(str(path))}: the columns must include "
                         f"{', '.join(COLUMNS)}; it has {', '.join(map(printable, header))}.")
    found = []
    for number, raw in enumerate(table, start=2):
        cells = {str(k).strip().lower(): str(v or "").strip() for k, v in raw.items()}
        if cells["lab"].upper() != str(lesson_id).upper():
            continue
        where = f"--overrides {printable(str(path))}, line {number}"
        try:
            points = float(cells["points"])
        except ValueError:
            raise ValueError(f"{where}: points {printable(cells['points'])!r} is not a "
                             "number.") from None
        if not 0 <= points <= most:
            raise ValueError(f"{where}: points {points:g} is outside 0 to {most:g}, the lab's "
                             "points.")
        if not cells["reason"]:
            raise ValueError(f"{where}: an override needs a reason, for the record.")
        if not cells["student"]:
            raise ValueError(f"{where}: it names no student.")
        found.append(Override(cells["student"], cells["lab"], points, cells["reason"], number))
    return found


def apply(rows: Sequence[MutableMapping[str, Any]], overrides: Sequence[Override]
          ) -> list[dict[str, Any]]:
    """Set each override's points as the final_score of the one gradebook row it names (by
    its student, student_id or submission), its note saying what it replaced and why; the
    record of each, for the summary. ValueError, before any row is changed, naming an
    override that matches no row, or more than one, or a row two overrides name."""
    chosen: list[tuple[Override, MutableMapping[str, Any]]] = []
    for one in overrides:
        matches = [row for row in rows if one.student in
                   {str(row.get(k, "")) for k in ("student", "student_id", "submission")}]
        if len(matches) != 1:
            said = "no student of this batch" if not matches else \
                f"{counted(len(matches), 'row')} " \
                f"({', '.join(str(m['student']) for m in matches[:4])})"
            raise ValueError(f"the override on line {one.line} for {printable(one.student)!r} "
                             f"matches {said}: name the student as gradebook.csv shows them.")
        if any(row is matches[0] for _, row in chosen):
            raise ValueError(f"two overrides name {printable(one.student)!r} (line {one.line} "
                             "and an earlier one): keep one.")
        chosen.append((one, matches[0]))
    record = []
    for one, row in chosen:
        was = str(row.get("final_score", ""))
        row["final_score"] = f"{one.points:g}"
        row["note"] = "; ".join(filter(None, (
            str(row.get("note", "")),
            f"override: {counted(one.points, 'point')} in place of {was or 'no grade'}: "
            f"{printable(one.reason)}")))
        record.append(dict(asdict(one), submission=row.get("submission", ""), was=was))
    return record


def said(record: Sequence[Mapping[str, Any]]) -> list[str]:
    """A line for each override applied, for the terminal."""
    return [f"override: {printable(str(r['student']))} gets {counted(r['points'], 'point')} "
            f"in place of "
            f"{r['was'] or 'no grade'} ({printable(str(r['reason']))})" for r in record]
