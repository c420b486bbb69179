"""The class at a glance: what a batch's 300 rows say, in a page and a few lines.

At the end of every batch, beside summary.json, go class.json (the figures, as data) and
class.html (the same, for a person: lab/grader/glance_page.py), and the batch prints the gist.
From the summary's rows, the lesson's manifest, the instructor's result files and the students'
files:

  distribution   the scores of the graded submissions: a count for each band of the lesson's
                 points, the mean and the median
  tests          each graded test's failure rate among the graded submissions, most failed
                 first, with the failures' most frequent messages (the wrong answers that fail
                 it most often; read from the json result files, so only with --format json,
                 the default)
  identical      groups of submissions whose files are byte for byte the same (the summary's
                 sha256), and groups that are the same code with other names, comments or
                 spacing (lab.grader.fingerprint); a group that is the starter unchanged says so
  not graded     the rows not graded or whose grader failed, with why (their problem column)

Everything a student wrote (a name, a message) is shown through escape.printable and cut to
size; nothing here can fail a batch: a result file that cannot be read just has no messages.
"""

from __future__ import annotations

import json
import os
import pathlib
import statistics
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lab.grader import fingerprint
from lab.course import manifest
from lab.kit.escape import printable
from lab.kit.counting import counted
from lab.grader.results import Grade

if TYPE_CHECKING:
    from lab.course.lesson_files import Lesson

JSON_FILE, HTML_FILE = "class.json", "class.html"
BANDS = 10           # bars of the distribution, at most
MESSAGES = 3         # the most frequent failure messages kept for each test
MESSAGE_CHARS = 160  # a message is cut to its first line and this many characters
GRADED, NOT_GRADED = "graded", "not graded"


def summarize(rows: Sequence[Mapping[str, Any]], lesson: Lesson, out: str | os.PathLike[str],
              files: Mapping[str, str | os.PathLike[str]] | None = None) -> dict[str, Any]:
    """The class at a glance (the module docstring) from a batch's summary `rows`, the
    `lesson`, the output folder `out` (for the result files) and `files`, {row id: the
    student's file}, for the fingerprints."""
    out = pathlib.Path(out)
    graded = [r for r in rows if r.get("status") == GRADED]
    total = float(manifest.total(lesson))
    return {"lesson": lesson.number, "title": manifest.title(lesson), "max_score": total,
            "submissions": len(rows), "graded": len(graded),
            "distribution": distribution([float(r["score"]) for r in graded], total),
            "tests": failure_rates(graded, lesson, out),
            "identical": groups(rows, files or {}, lesson),
            "not_graded": [{"submission": r["submission"], "status": r["status"],
                            "problem": _cut(str(r.get("problem", "")), 300)}
                           for r in rows if r.get("status") != GRADED]}


def distribution(scores: Sequence[float], total: float) -> dict[str, Any]:
    """The scores in at most BANDS bands of equal width from 0 to `total` (the last one
    holding full marks), with their mean and median."""
    width = max(total / BANDS, 1.0) if total else 1.0
    count = max(1, int(-(-total // width))) if total else 1
    bands = []
    for n in range(count):
        low, high = n * width, min((n + 1) * width, total)
        last = n == count - 1
        inside = [s for s in scores if low <= s < high or (last and s >= low)]
        bands.append({"from": round(low, 2), "to": round(high, 2), "count": len(inside)})
    return {"bands": bands,
            "mean": round(statistics.fmean(scores), 2) if scores else None,
            "median": round(statistics.median(scores), 2) if scores else None,
            "full_marks": sum(s >= total for s in scores) if total else 0}


def failure_rates(graded: Sequence[Mapping[str, Any]], lesson: Lesson,
                  out: pathlib.Path) -> list[dict[str, Any]]:
    """Each test of the manifest with how many graded submissions failed it, most failed first,
    and the most frequent messages of those failures."""
    listed = manifest.read(lesson)["tests"]
    messages = _messages(graded, out)
    rates = []
    for test, meta in listed.items():
        failed = sum(test in r.get("failed_tests", []) for r in graded)
        rates.append({"test": test, "visibility": meta.get("visibility", "visible"),
                      "points": meta.get("points", 0), "failed": failed,
                      "rate": round(failed / len(graded), 4) if graded else 0.0,
                      "messages": [{"message": said, "count": n}
                                   for said, n in messages[test].most_common(MESSAGES)]})
    return sorted(rates, key=lambda t: (-t["failed"], t["test"]))


def _messages(graded: Sequence[Mapping[str, Any]], out: pathlib.Path) -> dict[str, Counter[str]]:
    """{test: Counter of its failures' messages, each cut to its first line}, from the rows'
    json result files; a file that is not a json Grade is passed over."""
    found: dict[str, Counter[str]] = defaultdict(Counter)
    for row in graded:
        place = str(row.get("result_file", ""))
        if not place.endswith(".json") or os.path.isabs(place) or ".." in place.split("/"):
            continue
        try:
            grade = Grade.from_dict(json.loads((out / place).read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
        for test in grade.tests:
            if test.outcome == "failed" and test.message.strip():
                found[test.test][_cut(test.message.strip().splitlines()[0], MESSAGE_CHARS)] += 1
    return found


def groups(rows: Sequence[Mapping[str, Any]], files: Mapping[str, str | os.PathLike[str]],
           lesson: Lesson) -> list[dict[str, Any]]:
    """Groups of two or more submissions whose files are the same bytes ("identical"), then
    groups of files that are not all the same bytes but the same code once names, comments
    and spacing are set aside ("near-identical"), largest first within each kind; a group
    whose code is the lesson's starter says so."""
    starter = fingerprint.of_file(lesson.starter) if lesson.starter.is_file() else ""
    by_bytes: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    by_code: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    prints: dict[str, str] = {}
    for row in rows:
        where = files.get(str(row.get("id")))
        code = fingerprint.of_file(where) if where else ""
        if row.get("sha256"):
            by_bytes[str(row["sha256"])].append(row)
            prints[str(row["sha256"])] = code
        if code:
            by_code[code].append(row)
    found = [_group("identical", members, prints.get(digest, "") == starter != "")
             for digest, members in by_bytes.items() if len(members) > 1]
    found += [_group("near-identical", members, code == starter)
              for code, members in by_code.items()
              if len({m.get("sha256") for m in members}) > 1]
    return sorted(found, key=lambda g: (g["kind"], -len(g["submissions"]), g["submissions"]))


def _group(kind: str, members: Sequence[Mapping[str, Any]], starter: bool) -> dict[str, Any]:
    return {"kind": kind, "starter": starter,
            "submissions": sorted(str(m["submission"]) for m in members)}


def gist(view: Mapping[str, Any]) -> list[str]:
    """The few lines a batch prints of the class at a glance."""
    spread, total = view["distribution"], view["max_score"]
    lines = [f"class: {counted(view['graded'], 'submission')} graded of {view['submissions']}"
             + (f", mean {spread['mean']:g} and median {spread['median']:g} of "
                f"{counted(total, 'point')}, "
                f"{spread['full_marks']} with full marks" if view["graded"] else "")]
    failing = [t for t in view["tests"] if t["failed"]][:3]
    if failing:
        lines.append("class: most failed: " + ", ".join(
            f"{t['test']} ({t['rate']:.0%})" for t in failing))
    if view["identical"]:
        kinds = Counter(g["kind"] for g in view["identical"])
        lines.append("class: " + ", ".join(
            f"{counted(n, 'group')} of submissions {kind} to one another"
            for kind, n in sorted(kinds.items())))
    if view["not_graded"]:
        lines.append(f"class: {len(view['not_graded'])} not graded (class.html says why)")
    return lines


def _cut(text: str, most: int) -> str:
    text = printable(text)
    return text if len(text) <= most else text[:most - 1] + "…"
