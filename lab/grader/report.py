"""The text report a student reads: short, each failure said once, ending with what to do next.

A failing report groups the failing tests by the gap they grade, in the order the manifest
lists the gaps (the order to fill them), and within a gap by cause: tests that failed with the
very same explanation are listed once, under it. The first cause of each gap is always written
out in full; the others too while the report stays about a screen long (BUDGET lines), and the
rest are named, for `-k` or `--verbose` to show. Under everything: the legend of the shape
notation, the grader's version and the file's sha256, the score line
("score: 0 of 27 points, 1 passed, 19 failed"), and last, the next step: the first gap to
fill or the first test to fix, and the notebook section that teaches it.

A passing report lists every test and ends with what comes after the lesson. A grading that
could not run ends with the reason and "nothing was graded".
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING

from lab.course import order as course, lesson_files as lessons, next_step as onward
from lab.kit.counting import counted
from lab.kit.display import LEGEND
from lab.grader import hints
from lab.course import manifest
from lab.kit.escape import printable

if TYPE_CHECKING:
    from lab.course.lesson_files import Lesson
    from lab.grader.results import Grade
    from lab.sandbox.outcome import TestResult

PASS, FAIL = "✓", "✗"
WIDTH = 100         # the report's own lists and next step are wrapped to this many columns
BUDGET = 40         # lines a failing report aims at: causes past the first of a gap must fit
AROUND = 10         # of them, the lines around the failures: title, passes, legend, score, next
RESERVED = 4        # lines kept a gap for naming the causes not written out, and how to see them
GRADER = "grader"   # the group of tests the grader itself broke on, shown first
PRINTED_LINES = 8   # of what the student's code printed, the last lines shown under a failure


@dataclass
class Cause:
    """Tests that failed with one explanation."""
    message: str
    tests: list[TestResult] = field(default_factory=list)


@dataclass
class Group:
    """The failing tests of one gap (or of code the lesson gives, or of no known gap, or the
    grader's own error)."""
    gap: str
    heading: str
    tests: list[TestResult]  # every graded test of the group, passing or not
    causes: list[Cause] = field(default_factory=list)

    @property
    def failing(self) -> list[TestResult]:
        return [test for cause in self.causes for test in cause.tests]


UNISOLATED = {"none": ("\nnot isolated: a submission could forge this grade (this machine has no "
                       "sandbox: install bubblewrap); an instructor's grading always runs in one")}


def text_report(grade: Grade, lesson: Lesson | None = None, verbose: bool = False) -> str:
    """The whole report as one string. `lesson` (a lessons.Lesson) gives the gaps and the hints;
    found from the grade's lesson number when not given. `verbose` writes every cause in full.
    Every text is shown through escape.printable: a terminal shows it, never acts on it."""
    grade = printable_grade(grade)
    lesson = lesson or _lesson(grade.lesson)
    lines = [f"lab_check: lesson {grade.lesson}, {grade.title}: {_one_line(grade.harness)}", ""]
    stamp = grade.version + (f", file sha256 {grade.sha256}" if grade.sha256 else "") \
        + (f", seed {grade.seed}" if grade.seed else "") \
        + (f"\nisolation: {grade.isolation} ({', '.join(grade.layers)})" if grade.layers else "") \
        + UNISOLATED.get(grade.isolation, "")
    if grade.problem:
        return "\n".join(lines + [grade.problem, "", stamp, "nothing was graded"]) + "\n"
    guide = hints.guide(lesson) if lesson else hints.Guide()
    score = (f"score: {grade.score:g} of {counted(grade.max_score, 'point')}, "
             f"{grade.passed} passed, {grade.failed} failed")
    if not grade.failed:
        lines += [f"  {PASS} {test.title}" for test in grade.tests]
        said = _after_passing(grade, lesson, guide)
        return "\n".join(lines + ["", stamp, score] + _sentences(said)) + "\n"
    groups = _groups(grade.tests, _gaps(lesson))
    body = _failing(groups, verbose, budget=BUDGET - AROUND)
    passing = [t for t in grade.tests if t.outcome == "passed"]
    if passing:
        named = f": {' · '.join(t.title for t in passing)}" if len(passing) <= 3 else ""
        body += _wrap(f"{PASS} {len(passing)} pass{'es' if len(passing) == 1 else ''}{named}") + [""]
    said = _next_step(groups, _gaps(lesson), guide,
                      hints.every_test(lesson, [t.test for t in grade.tests]))
    return "\n".join(lines + body + [LEGEND, stamp, score] + _sentences(said)) + "\n"


HIDDEN_NOTE = ("Some of the lab's tests are hidden: they count in your grade, and are not "
               "shown or counted here.")


def student_view(grade: Grade, show_hidden: bool = False) -> tuple[Grade, bool]:
    """(`grade` with only the tests a student may read: those whose visibility is "visible";
    whether any were left out). With `show_hidden`, the grade as it is. A hidden test's
    name, outcome and points stay out of what a student reads; they stay in the grade itself,
    which the instructor's summary is made from."""
    if show_hidden:
        return grade, False
    kept = [test for test in grade.tests if test.visibility == "visible"]
    return replace(grade, tests=kept), len(kept) < len(grade.tests)


def student_report(grade: Grade, lesson: Lesson | None = None, show_hidden: bool = False) -> str:
    """The text report of what a student may read of `grade` (see `student_view`), saying so
    when tests were left out."""
    shown, hid = student_view(grade, show_hidden)
    text = text_report(shown, lesson)
    return text + (f"\n{HIDDEN_NOTE}\n" if hid else "")


def first_failing(grade: Grade, lesson: Lesson | None = None) -> str | None:
    """The name of the test the report sends the student to first, or None when all pass."""
    lesson = lesson or _lesson(grade.lesson)
    groups = _groups(grade.tests, _gaps(lesson))
    return groups[0].causes[0].tests[0].test if groups else None


def _lesson(number):
    try:
        return lessons.lesson(number)
    except (LookupError, ValueError, TypeError):
        return None


def _gaps(lesson):
    return manifest.read(lesson).get("gaps", {}) if lesson else {}


def _groups(tests, gaps):
    """The failing tests, grouped as the module docstring says; only groups with failures."""
    order = list(gaps) + [manifest.GIVEN, ""]
    groups = {}
    for test in tests:
        gap = GRADER if test.outcome == "error" else test.gap if test.gap in order else ""
        if gap not in groups:
            groups[gap] = Group(gap, _heading(gap, gaps), [])
        groups[gap].tests.append(test)
        if test.outcome != "passed":
            said = test.message.rstrip()
            cause = next((c for c in groups[gap].causes if _reason(c.message) == _reason(said)),
                         None)
            if cause is None:
                groups[gap].causes.append(cause := Cause(said))
            cause.tests.append(test)
    ranked = [GRADER] + order
    return [groups[gap] for gap in sorted(groups, key=ranked.index) if groups[gap].causes]


def _reason(message):
    """An explanation without the input it was found on (its `given:` and `ids:` lines): two
    tests whose code raised the same exception on the same line, on different inputs, fail
    for one reason, and the report shows it once, with the first test's input."""
    kept, skipping = [], False
    for line in message.splitlines():
        labelled = line.startswith("  ") and not line.startswith(" " * 12)
        if labelled:
            skipping = line.lstrip().startswith(("given:", "ids:"))
        if not skipping:
            kept.append(line)
    return "\n".join(kept)


def _heading(gap, gaps):
    if gap == GRADER:
        return "the grader itself broke"
    if gap == manifest.GIVEN:
        return "code the lesson gives you"
    if gap in gaps:
        return f"the {gap} gap ({', '.join(gaps[gap].get('names', []))})"
    return "tests"


def _failing(groups, verbose, budget):
    """Every group's lines: its heading, its first cause in full, further causes in full while
    they fit in `budget` lines with every group's first (all of them when `verbose`), the rest
    by name."""
    written = [[_cause(cause, alone=len(group.causes) == 1) for cause in group.causes]
               for group in groups]
    room = budget - sum(2 + len(causes[0]) + RESERVED for causes in written)
    lines, hidden = [], False
    for group, causes in zip(groups, written):
        failing = len(group.failing)
        lines.append(f"{FAIL} {group.heading}: {failing} of {len(group.tests)} "
                     f"test{'s' if len(group.tests) != 1 else ''} fail{'s' if failing == 1 else ''}")
        lines += causes[0]
        named = []
        for cause, shown in zip(group.causes[1:], causes[1:]):
            if verbose or len(shown) <= room:
                lines += shown
                room -= len(shown)
            else:
                named += cause.tests
        if named:
            hidden = True
            lines += _wrap(f"{FAIL} also failing, each for a reason of its own: "
                           + " · ".join(t.title for t in named), indent="    ", first="  ")
        lines.append("")
    if hidden:
        lines[-1:] = ["  (lab-check -k WORDS shows one test in full; --verbose shows them all)", ""]
    return lines


def _cause(cause, alone):
    """A cause in full: the test (or how many, unless it is the `alone` cause of its group),
    the explanation, what the code printed."""
    if len(cause.tests) == 1:
        lines = [f"  {FAIL} {cause.tests[0].title}"]
    else:
        lines = [] if alone else [f"  {FAIL} {counted(len(cause.tests), 'test')} fail for one "
                                  "reason:"]
    lines += [f"    {line}" for line in cause.message.splitlines()]  # as written: never cut
    if len(cause.tests) > 1:
        lines += _wrap("failing: " + " · ".join(t.title for t in cause.tests),
                       indent="      ", first="    ")
    printed = next((t.printed for t in cause.tests if t.printed), "")
    if printed:
        lines.append("    your code printed (the last lines):")
        lines += [f"      | {line}" for line in printed.rstrip().splitlines()[-PRINTED_LINES:]]
    return lines


def _next_step(groups, gaps, guide, names):
    """The next step, in sentences: the first gap to fill, or the first test to fix, where the
    notebook teaches it, and how to ask for a hint."""
    group = groups[0]
    first = group.causes[0].tests[0]
    if group.gap == GRADER:
        return ["This is a bug in the lab, not in your harness: please report it."]
    gap = gaps.get(first.gap)
    whole_gap = gap is not None and len(group.failing) == len(group.tests) > 1
    section = guide.section(gap=first.gap) if whole_gap else guide.section(first.test, first.gap)
    said = ([f"start with the {first.gap} gap, {gap.get('where', '')}."] if whole_gap
            else [f"make \"{first.title}\" pass (its report is above)."])
    if section:
        said.append(f"The notebook's \"{section}\" teaches it.")
    if whole_gap:
        said.append("Stuck? lab-check --hint")
    elif guide.hints(first.test):
        said.append(f"Stuck? lab-check --hint {hints.short_name(first.test, names)}")
    return said


def _after_passing(grade, lesson, guide):
    """The next step once every test graded passes: the next lab of the course, by number and
    title, and the command that starts it (lab.course.next_step), then what the lesson says to do before
    moving on. A grading of only some tests (-k, test files of one's own) has not passed the
    lab, and says how to grade all of it instead."""
    done = guide.after or "Every test passes."
    if lesson is None:
        return [done]
    if not onward.graded_whole(grade, lesson):
        return ["every test graded here passes; grade the whole lab (lab-check, with no -k and "
                "no test files) to move on."]
    try:
        lab = course.find(lesson.number, _project(lesson))
    except (LookupError, ValueError):  # a lesson the course file does not list
        return [done]
    return [onward.onward(lab, grade.harness, _project(lesson)).sentence, done]


def _project(lesson):
    """The copy of the course `lesson` belongs to: the project above lessons/, or an edition."""
    folder = lesson.folder
    return folder.parent.parent if folder.parent.name == "lessons" else folder


def _sentences(said):
    """The next step: its first sentence after "next: ", the rest on a line of their own, so
    that where to go is never broken off by where to read about it."""
    lines = _wrap(said[0], indent="  ", first="next: ")
    return lines + (_wrap(" ".join(said[1:]), indent="  ") if said[1:] else [])


def _wrap(text, indent="", first=None):
    return textwrap.wrap(text, WIDTH, initial_indent=indent if first is None else first,
                         subsequent_indent=indent, break_on_hyphens=False,
                         break_long_words=False) or [""]


def _one_line(name):
    """A file name, already printable, on one line: a newline in it would start a report line
    of its own (a score, a pass) that the grading never wrote."""
    return str(name).replace("\n", "\\x0a").replace("\t", "\\x09")


def printable_grade(grade: Grade) -> Grade:
    """A copy of `grade` whose every text, its tests' too, has gone through escape.printable."""
    return _printable_fields(grade, tests=[_printable_fields(test) for test in grade.tests])


def _printable_fields(record, **changes):
    for one in fields(record):
        value = getattr(record, one.name)
        if isinstance(value, str):
            changes[one.name] = printable(value)
    return replace(record, **changes)
