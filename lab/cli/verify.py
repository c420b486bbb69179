"""Prove that a lesson's tests tell right answers from wrong ones, before a student is graded.

    lab_check --verify 10 [--jobs N] [--output DIR]

Each line of the table is one thing that must hold:

    manifest.toml          lists every test tests.py grades, and nothing else (manifest.problems)
    starter.py (generated) is what finished.py makes (python -m lab.course.starter writes it)
    finished.py            passes every test
    starter.py             fails every test tied to a gap, passes the tests whose gap is "given"
    wrong/X.py             fails, and fails at least the test its docstring names (Fails: ...)
    right/X.py             passes every test
    student's edition      built afresh (lab.release), with the Gradescope zip: neither holds
                           a line of the answer, nor a file of it (lab.release.leaks)

A grader error is a surprise wherever it happens: a test that broke has proved nothing. The
answers are graded as one batch (batch.grade_all), in parallel, each in a process of its own,
exactly as a student's would be. With --output DIR, each answer's result is kept in DIR as
--format json writes it (finished.json, starter.json, wrong-X.json, right-X.json), so that what
the table judged can be read again without grading it again.
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, TextIO

from lab.course import lesson_files as lessons
from lab.course.gap_markers import GapError, make_starter
from lab.grader import batch, formats
from lab.kit.counting import counted
from lab.course import manifest
from lab.worker import tidy
from lab.grader.results import VERSION
from lab.sandbox.protocol import Limits

if TYPE_CHECKING:
    from lab.course.lesson_files import Lesson
    from lab.grader.results import Grade

# The seed every answer is graded with: a student's grading varies its inputs, a proof of the
# lesson's tests is the same every time it runs (and a surprise can be replayed).
SEED = 1

DOES = {"failed": "fails", "passed": "passes", "error": "breaks the grader on",
        "skipped": "skips"}  # what an answer does to a test, by the test's outcome


@dataclass
class Check:
    """One line of the table: what was checked, what should happen, what did, and every way
    the two differ (none when the check holds)."""
    subject: str
    expected: str
    got: str
    surprises: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.surprises


def verify(lesson: Lesson, *, jobs: int | None = None, limits: Limits = Limits(),
           progress_stream: TextIO | None = None,
           keep: str | os.PathLike[str] | None = None) -> list[Check]:
    """Every Check of `lesson`, in the order of the table; `keep`: a folder to write each
    answer's result to (see the module's docstring)."""
    listed = manifest.read(lesson).get("tests", {})
    answers = [("finished.py", lesson.finished.read_text(), partial(passes_everything, listed)),
               ("starter.py", lesson.starter.read_text(), partial(starter_fails_its_gaps, listed))]
    answers += [(f"wrong/{a.name}", lesson.variant(a), partial(wrong, lessons.must_fail(a)))
                for a in lesson.wrong_answers]
    answers += [(f"right/{a.name}", lesson.variant(a), partial(passes_everything, listed))
                for a in lesson.right_answers]
    with tidy.GraderFolder("verify") as scratch:
        folders = []
        for subject, text, _ in answers:
            folder = pathlib.Path(scratch, subject.removesuffix(".py").replace("/", "-"))
            folder.mkdir()
            (folder / batch.HARNESS).write_text(text)
            folders.append(folder)
        grades = batch.grade_all(folders, lesson, jobs=jobs, limits=limits,
                                 progress_stream=progress_stream, isolated=False,
                                 seed=SEED)
    if keep is not None:
        for folder in folders:
            formats.write(grades[folder.name], "json", pathlib.Path(keep, f"{folder.name}.json"))
    checks = [manifest_agrees(lesson), starter_is_generated(lesson), edition_leaks_nothing(lesson)]
    checks += [judge(subject, grades[folder.name])
               for (subject, _, judge), folder in zip(answers, folders)]
    return checks


def table(lesson: Lesson, checks: Sequence[Check]) -> str:
    """The checks as the text lab_check --verify prints; its last line counts the surprises."""
    header = Check("file", "expected", "got")
    widths = [max(len(getattr(c, key)) for c in [header, *checks]) for key in ("subject", "got")]
    lines = [f"lab_check --verify {lesson.number}: {manifest.title(lesson)} ({VERSION})", ""]
    for check in [header, *checks]:
        verdict = "" if check is header else "ok" if check.ok else "FAIL"
        lines.append(f"  {verdict:4}  {check.subject:{widths[0]}}  {check.got:{widths[1]}}  "
                     f"{check.expected}")
        lines += [f"        - {surprise}" for surprise in check.surprises]
    surprises = sum(len(c.surprises) for c in checks)
    lines += ["", f"{counted(len(checks), 'check')}: {sum(c.ok for c in checks)} as expected, "
                  f"{counted(surprises, 'surprise')}."]
    return "\n".join(lines) + "\n"


# -- the lesson's own files -----------------------------------------------------------------

def manifest_agrees(lesson: Lesson) -> Check:
    listed = manifest.read(lesson).get("tests", {})
    graded = manifest.graded_tests(lesson.tests)
    return Check("manifest.toml", "lists every graded test, and only those",
                 f"{len(listed)} listed, {len(graded)} in tests.py", manifest.problems(lesson))


def starter_is_generated(lesson: Lesson) -> Check:
    try:
        made = make_starter(lesson.finished.read_text(), str(lesson.finished))
    except GapError as error:
        return Check("starter.py (generated)", "is what finished.py makes", "cannot be made",
                     [str(error)])
    fresh = lesson.starter.exists() and lesson.starter.read_text() == made
    return Check("starter.py (generated)", "is what finished.py makes",
                 "up to date" if fresh else "stale",
                 [] if fresh else ["starter.py is not what finished.py makes: run "
                                   "`python -m lab.course.starter` and commit the result."])


def edition_leaks_nothing(lesson: Lesson) -> Check:
    """Build the student's edition and the Gradescope zip afresh, and search both."""
    from lab.release import edition, gradescope, leaks

    with tidy.GraderFolder("verify-edition") as scratch:
        try:
            folder = edition.build(lesson, pathlib.Path(scratch, "edition"))
            archive = gradescope.build(lesson, pathlib.Path(scratch, "autograder.zip"))
        except Exception as error:  # a lesson the release cannot hand out: the table says why
            return Check("student's edition", "holds none of the answer", "cannot be built",
                         [f"{type(error).__name__}: {error}"])
        found = leaks.leaks(folder, lesson) + leaks.leaks_in(archive, lesson)
        files = sum(1 for p in folder.rglob("*") if p.is_file())
    return Check("student's edition", "holds none of the answer, nor does the Gradescope zip",
                 f"{counted(files, 'file')}, {counted(len(found), 'leak')}", found)


# -- judging one graded answer --------------------------------------------------------------

def passes_everything(listed: Mapping[str, Any], subject: str, grade: Grade) -> Check:
    """A finished or right answer: every test passed, and exactly the listed tests ran."""
    surprises = _not_graded(grade) or (
        [f"{DOES[t.outcome]} {t.test}: {_first_line(t.message)}"
         for t in grade.tests if t.outcome in ("failed", "skipped")]
        + _grader_broke(grade) + _ran_the_listed_tests(grade, listed))
    return Check(subject, f"passes all {counted(len(listed), 'test')}", _tally(grade), surprises)


def starter_fails_its_gaps(listed: Mapping[str, Mapping[str, Any]], subject: str,
                           grade: Grade) -> Check:
    """The starter: every test tied to a gap fails, every test of given code passes."""
    given = [name for name, meta in listed.items() if meta.get("gap") == manifest.GIVEN]
    gaps = [name for name in listed if name not in given]
    outcome = {t.test: t.outcome for t in grade.tests}
    surprises = _not_graded(grade) or (
        [f"{DOES[outcome[name]]} {name}, though the gap it grades is still empty"
         for name in gaps if outcome.get(name) in ("passed", "skipped")]
        + [f"{DOES[outcome[name]]} {name}, which grades code the lesson gives"
           for name in given if outcome.get(name) in ("failed", "skipped")]
        + _grader_broke(grade) + _ran_the_listed_tests(grade, listed))
    return Check(subject, f"fails the {len(gaps)} gap tests, passes the {len(given)} given",
                 _tally(grade), surprises)


def wrong(named: str | None, subject: str, grade: Grade) -> Check:
    """A wrong answer: graded, and failing the test its docstring names (others too, maybe)."""
    if named is None:
        return Check(subject, "fails the test it names", "names none",
                     ["its docstring has no line \"Fails: test_name\": name the test that "
                      "must catch it."])
    outcome = {t.test: t.outcome for t in grade.tests}
    others = sum(o == "failed" for name, o in outcome.items() if name != named)
    if grade.problem or named not in outcome:
        got = "not graded" if grade.problem else "never runs it"
    else:
        got = f"{DOES[outcome[named]]} it" + (f", and fails {others} more" if others else "")
    surprises = _not_graded(grade) or (
        ([f"names {named}, which was not run: is there such a test?"] if named not in outcome
         else [f"{DOES[outcome[named]]} {named}, which it must fail"]
         if outcome[named] in ("passed", "skipped") else [])
        + _grader_broke(grade))
    return Check(subject, f"fails {named}", got, surprises)


def _not_graded(grade):
    return [f"could not be graded: {_first_line(grade.problem)}"] if grade.problem else []


def _grader_broke(grade):
    return [f"the grader broke on {t.test}: {_first_line(t.message)}" for t in grade.errors]


def _ran_the_listed_tests(grade, listed):
    if grade.errors:
        return []  # a grader that broke may have stopped early: _grader_broke says so
    ran = [t.test for t in grade.tests]
    missing = [name for name in listed if name not in ran]
    extra = [name for name in ran if name not in listed]
    return ([f"never ran {', '.join(missing)}, which the manifest lists"] if missing else []) + \
           ([f"ran {', '.join(extra)}, which the manifest does not list"] if extra else [])


def _tally(grade):
    return "not graded" if grade.problem else f"{grade.passed} passed, {grade.failed} failed"


def _first_line(text):
    return (text.strip().splitlines() or [""])[0]
