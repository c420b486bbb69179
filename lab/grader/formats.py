"""One grade, written the way its reader wants it: text for a person, JSON for a program, JUnit
XML for a CI system, results.json for Gradescope.

    render(grade, "gradescope")      -> the whole file, as a string
    write(grade, "junit", path)      -> writes it; a reader never sees half a file

Every format records the grader's version, the lesson and the sha256 of the graded file, and
every format has something to say when nothing could be graded: score 0, and the reason.
Every text in a grade is written through escape.printable first, so that no character a
submission can put in a message (a lone surrogate, a NUL, a terminal's escape code) can stop a
result file from being written or read, or show a reader something other than what is there.

json, this project's own shape (`Grade.as_dict`), keys in this order:
    lesson, title, harness (the path as given), sha256 (of the graded bytes; "" when the file
    could not be read), tests, problem (why nothing was graded; "" when it was), seconds,
    version, score, max_score, passed, failed, exit_code (as lab_check exits).
    Each test: test (the function's name), outcome (passed, failed, error: the grader broke,
    or skipped), message, printed (what the student's code printed), seconds, points, gap,
    visibility, score. Tests come in the order tests.py defines them.

gradescope, as Gradescope's autograder specification gives results.json:
    score, execution_time (whole seconds), output (for the whole submission, which every
    student sees: it names and counts the visible tests only, unless show_hidden), stdout_visibility
    ("hidden": lab_check's own printing may show hidden tests), extra_data (version, lesson,
    harness, sha256, exit_code), tests: each with name, number, score, max_score, status
    (passed or failed; a grader error is failed, and its output says whose fault it is),
    output, visibility (the manifest's), extra_data (test, gap, outcome).

classroom, as GitHub Classroom's autograding-grading-reporter reads a runner's result (once
    base64-encoded, which the workflow does): {version: 1, status (pass, fail, or error when
    the grader broke), max_score, tests: each with name, status (pass or fail), score, message,
    test_code (the lab_check -k that runs it alone), filename, line_no, duration (ms)}, and
    extra_data (version, lesson, harness, sha256), which the reporter passes over. Nothing
    graded is one failed test, harness can be graded, and max_score is still the lesson's.

junit, as CI systems read it: <testsuites> holding one <testsuite> with tests, failures,
    errors, skipped and time, <properties> for the version, lesson, harness, sha256 and score,
    and a <testcase> per test with <failure>, <error> or <skipped>, and <system-out> for what
    the student's code printed. Nothing graded is one failed testcase, harness_can_be_graded.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import re
import tempfile
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any

from lab.kit.counting import counted
from lab.grader.report import HIDDEN_NOTE, printable_grade, student_view, text_report
from lab.sandbox.outcome import TestResult

if TYPE_CHECKING:
    from lab.grader.results import Grade

EXTENSIONS = {"text": ".txt", "json": ".json", "junit": ".xml", "gradescope": ".json",
              "classroom": ".json"}
FORMATS = tuple(EXTENSIONS)


def render(grade: Grade, fmt: str, show_hidden: bool = False, heading: str = "") -> str:
    """The whole result file for `grade` in format `fmt`, one of FORMATS. `show_hidden`: the
    overall output Gradescope shows the student names and counts hidden tests too; `heading`
    goes before a text report."""
    if fmt not in EXTENSIONS:
        raise ValueError(f"no result format {fmt!r}; choose one of {', '.join(FORMATS)}")
    grade = printable_grade(grade)
    if fmt == "text":
        return heading + text_report(grade)
    if fmt == "json":
        return json.dumps(grade.as_dict(), indent=1, ensure_ascii=False) + "\n"
    if fmt == "gradescope":
        return json.dumps(gradescope(grade, show_hidden), indent=1, ensure_ascii=False) + "\n"
    if fmt == "classroom":
        return json.dumps(classroom(grade), indent=1, ensure_ascii=False) + "\n"
    return junit(grade)


def write(grade: Grade, fmt: str, path: str | os.PathLike[str], show_hidden: bool = False,
          heading: str = "") -> pathlib.Path:
    """Write `grade` to `path` in format `fmt` (see `render`), making the folder if need be.
    The file appears whole or not at all: it is written next to `path` and renamed into
    place."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = render(grade, fmt, show_hidden, heading)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False,
                                     prefix=f".{path.name}.", suffix=".part") as part:
        part.write(text)
    os.replace(part.name, path)
    return path


# -- gradescope -----------------------------------------------------------------------------

def gradescope(grade: Grade, show_hidden: bool = False) -> dict[str, Any]:
    """`grade` as the dict Gradescope reads from /autograder/results/results.json. Each test
    carries its visibility, which Gradescope honours; the overall output, which every student
    sees, names and counts the visible tests only, unless `show_hidden`."""
    return {
        "score": float(grade.score),
        "execution_time": math.ceil(grade.seconds),
        "output": _summary(grade, show_hidden),
        "stdout_visibility": "hidden",
        "extra_data": {"version": grade.version, "lesson": grade.lesson,
                       "harness": grade.harness, "sha256": grade.sha256,
                       "exit_code": grade.exit_code},
        "tests": [{
            "name": test.title,
            "number": str(number),
            "score": float(test.score),
            "max_score": float(test.points),
            "status": "passed" if test.outcome == "passed" else "failed",
            "output": _test_output(test),
            "visibility": test.visibility,
            "extra_data": {"test": test.test, "gap": test.gap, "outcome": test.outcome},
        } for number, test in enumerate(grade.tests, 1)],
    }


def _summary(grade, show_hidden=False):
    shown, hid = student_view(grade, show_hidden)
    graded = (f"{grade.version}, lesson {grade.lesson} ({grade.title}): "
              f"{os.path.basename(grade.harness)}"
              + (f", sha256 {grade.sha256}" if grade.sha256 else "") + ".")
    if grade.warning:
        graded += f"\n{grade.warning}."
    if grade.problem:
        return f"{grade.problem}\n\nNothing was graded: score 0.\n{graded}"
    if hid:
        return (f"Visible tests: {shown.passed} passed, {shown.failed} failed, {shown.score:g} "
                f"of {counted(shown.max_score, 'point')}.\n{HIDDEN_NOTE}\n{graded}")
    return (f"{grade.passed} passed, {grade.failed} failed: {grade.score:g} of "
            f"{counted(grade.max_score, 'point')}.\n{graded}")


def _test_output(test):
    """A test's words: its message, then what the student's code printed, a blank line between
    (none before: a passing test has no message)."""
    printed = ["your code printed:\n" + test.printed.rstrip()] if test.printed else []
    return "\n\n".join(filter(None, [test.message.rstrip(), *printed]))


# -- classroom -----------------------------------------------------------------------------

def classroom(grade: Grade) -> dict[str, Any]:
    """`grade` as the dict GitHub Classroom's grading reporter reads from a runner."""
    tests = grade.tests or [_not_graded(grade)]
    broke = any(t.outcome == "error" for t in tests)
    return {
        "version": 1,
        "status": "error" if broke else "fail" if grade.problem or grade.failed else "pass",
        "max_score": grade.max_score or _lesson_total(grade),
        "tests": [{"name": test.title, "status": "pass" if test.outcome == "passed" else "fail",
                   "score": test.score, "message": _test_output(test) or test.outcome,
                   "test_code": f"lab_check -k {test.test}", "filename": "tests.py",
                   "line_no": 0, "duration": round(test.seconds * 1000)} for test in tests],
        "extra_data": {"version": grade.version, "lesson": grade.lesson,
                       "harness": grade.harness, "sha256": grade.sha256,
                       "isolation": grade.isolation, "warning": grade.warning},
    }


def _lesson_total(grade):
    """What the lesson's graded tests are worth, for a grade with nothing graded."""
    from lab.course import lesson_files as lessons
    from lab.course import manifest

    try:
        return manifest.total(lessons.lesson(grade.lesson))
    except LookupError:
        return 0


# -- junit ----------------------------------------------------------------------------------

# Characters XML 1.0 cannot hold at all, not even escaped: most control characters, which a
# student's code may well print. They are shown as \xNN instead.
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def junit(grade: Grade) -> str:
    """`grade` as a JUnit XML document (a string, with its XML declaration)."""
    tests = grade.tests
    if grade.problem:
        tests = [_not_graded(grade)]
    counted: dict[str, object] = {"tests": len(tests),
                                  "failures": sum(t.outcome == "failed" for t in tests),
                                  "errors": sum(t.outcome == "error" for t in tests),
                                  "skipped": sum(t.outcome == "skipped" for t in tests),
                                  "time": f"{grade.seconds:.3f}"}
    counts = {key: str(value) for key, value in counted.items()}
    root = ET.Element("testsuites", name="lab_check", **counts)  # type: ignore[arg-type]
    suite = ET.SubElement(root, "testsuite", name=_xml(f"lesson {grade.lesson}: {grade.title}"),
                          **counts)  # type: ignore[arg-type]
    properties = ET.SubElement(suite, "properties")
    for name, value in (("version", grade.version), ("lesson", grade.lesson),
                        ("harness", grade.harness), ("sha256", grade.sha256),
                        ("score", f"{grade.score:g}"), ("max_score", f"{grade.max_score:g}")):
        ET.SubElement(properties, "property", name=name, value=_xml(str(value)))
    for test in tests:
        case = ET.SubElement(suite, "testcase", classname=f"lesson{grade.lesson}",
                             name=test.test, time=f"{test.seconds:.3f}")
        tag = {"failed": "failure", "error": "error", "skipped": "skipped"}.get(test.outcome)
        if tag:
            first = (test.message.strip().splitlines() or [test.outcome])[0]
            ET.SubElement(case, tag, message=_xml(first)).text = _xml(test.message)
        if test.printed:
            ET.SubElement(case, "system-out").text = _xml(test.printed)
    ET.indent(root)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + ET.tostring(root, encoding="unicode") + "\n")


def _not_graded(grade):
    return TestResult(test="harness_can_be_graded", outcome="failed", message=grade.problem,
                      points=0)


def _xml(text):
    return NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
