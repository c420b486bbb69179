"""lab-check --next: start the next lab of the course from the student's own passing work.

The student's file is graded first, every test of its lab, and only a pass moves on: the
record of an earlier grading is not trusted for this, since the file may have changed since
(and the record is the student's to edit). Then, by what the next lab is:

- a lesson: the student's harness is carried forward (lab.course.carry_forward.carry_forward): the next
  lesson's additions and gaps put in, in starter form, and each definition the next lesson
  replaces swapped for the lesson's own; the student's file is kept as a backup first
  (.lab-check/backups/harness.py.bak-N, as --reset keeps it) and the new file written in its place;
- a checkpoint: its own file (checkpoint B's doctor.py) is written beside the harness, from
  the checkpoint's starter, and the harness is left as it is, since the lesson after the
  checkpoint builds on it;
- from a checkpoint to the lesson after it: the checkpoint's file must pass, and the harness
  beside it, which must be at the lab that lesson builds on and pass it too, is carried
  forward as above (lesson 10, checkpoint B, then lesson 11 from the student's lesson-10
  harness.py).

Nothing is written when any step is refused; the refusal says why and what to do.
"""

from __future__ import annotations

import pathlib
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from lab.course import order as course, lesson_files as lessons, next_step as onward
from lab.cli import reset
from lab.course.next_step import shown
from lab.kit.counting import counted
from lab.course.order import Lab
from lab.course import manifest
from lab.course.student_position import Position, course_owned, lab_of


WIDTH = 100  # columns, as the report's


class Refused(Exception):
    """--next cannot move on; the message says why and what to do. `status` is lab-check's
    exit status: 1 when the student's file does not pass yet, 2 when nothing could be done, 3
    when the grader broke while it graded the file (not a verdict on the student's code)."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Started:
    """What --next did."""
    lab: Lab                      # the lab it started
    file: pathlib.Path            # the file it wrote
    backup: pathlib.Path | None   # the student's file as it was, when there was one
    carried_from: Lab | None      # the lab whose harness was carried forward (None: a starter)
    replaced: tuple[str, ...] = ()
    added: tuple[str, ...] = ()

    @property
    def gaps(self) -> tuple[str, ...]:
        """The new lab's gaps, in the order to fill them, each with the names it asks for."""
        listed = manifest.read(lessons.lesson(self.lab.id)).get("gaps", {})
        return tuple(f"{gap} ({', '.join(meta.get('names', []))})" if meta.get("names")
                     else gap for gap, meta in listed.items())


class GradedTest(Protocol):
    """What --next reads of one graded test (lab.grader.results' Outcome has it)."""
    @property
    def outcome(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def title(self) -> str: ...


class Graded(Protocol):
    """What --next reads of a grading (lab.grader.results' Grade has it)."""
    @property
    def tests(self) -> Sequence[GradedTest]: ...
    @property
    def problem(self) -> str: ...
    @property
    def exit_code(self) -> int: ...
    @property
    def failed(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def max_score(self) -> float: ...


Grader = Callable[[pathlib.Path, lessons.Lesson], Graded]   # a file and its lesson -> a Grade


def start_next(at: Position, grade: Grader, project: pathlib.Path | None = None) -> Started:
    """Start the lab after `at`, as the module docstring says; `grade` grades a file against a
    lesson (and may keep the student's marks). Refused, with nothing written, when it cannot."""
    _not_the_courses_own(at.file, project)
    following = onward.onward(at.lab, str(at.file), project)
    ahead = following.lab
    if ahead is None:
        raise Refused(f"there is no lab after {onward.name(at.lab)} to start here: "
                      f"{following.sentence}.")
    _must_pass(at.file, at.lab, grade)
    if ahead.is_checkpoint:
        target = at.folder / onward.student_file(ahead)
        _not_the_courses_own(target, project)
        if target.resolve() == at.file.resolve():
            raise Refused(f"{onward.name(ahead)} starts in a file of its own, "
                          f"{shown(target.name)}, and "
                          f"that is the file you graded as {onward.name(at.lab)}: keep your "
                          f"harness as {onward.HARNESS} (lab-check --next finds it there), then "
                          "run lab-check --next again. Nothing was changed.")
        backup = _put(target, lessons.lesson(ahead.id).starter.read_bytes())
        return Started(ahead, target, backup, None)
    harness, parent = _harness_to_carry(at, ahead, grade, project)
    _not_the_courses_own(harness, project)
    try:
        text = harness.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise Refused(f"cannot read {shown(harness)} as text ({error}); nothing was "
                      "changed.") from None
    carried = _carry(text, ahead, parent, project)
    backup = _put(harness, carried.text.encode("utf-8"))
    return Started(ahead, harness, backup, parent, tuple(carried.replaced), tuple(carried.added))


def said(started: Started) -> list[str]:
    """What --next prints once it has started a lab, wrapped as lab-check's report is."""
    lab, here = started.lab, started.file
    kept = (f" Your file as it was is kept as {shown(started.backup)}."
            if started.backup else "")
    if started.carried_from is None:
        lines = _wrap(f"lab_check: {onward.name(lab)} starts in {shown(here)}: the "
                      "checkpoint's own "
                      f"starter, beside your harness, which stays as it is (the lesson after "
                      f"the checkpoint carries it forward).{kept}")
    else:
        lines = _wrap(f"lab_check: {onward.name(lab)} starts in {shown(here)}: your "
                      f"{onward.short(started.carried_from)} harness, with "
                      f"{onward.short(lab)}'s additions and gaps put in.{kept}")
        if started.replaced:
            lines += _wrap(f"replaced by {onward.short(lab)}'s own, because it changes them "
                           f"(it is where your harness learns to {lab.adds}): "
                           f"{', '.join(started.replaced)}", first="  ")
        if started.added:
            lines += _wrap(f"added: {', '.join(started.added)}", first="  ")
    grade = ("lab-check" if here.name == onward.HARNESS
             else f"lab-check --harness {shown(here)}")
    # the command first, so that it is never wrapped onto a second line
    gaps = f": {'; '.join(started.gaps)}" if started.gaps else ""
    return lines + _wrap(f"next: {grade} grades it. Fill its gaps (each marked # --- your code "
                         f"---) in this order{gaps}.")


def _wrap(text: str, first: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent="    " if first
                         else "  ", break_on_hyphens=False, break_long_words=False)


def _must_pass(file: pathlib.Path, lab: Lab, grade: Grader) -> None:
    try:
        lesson = lessons.lesson(lab.id)
    except LookupError:
        raise Refused(f"{shown(file)} is for {onward.name(lab)}, which has no graded tests in this "
                      "copy of the course, so --next cannot tell whether it passes: lab-check "
                      "--course shows the labs there are.") from None
    result = grade(file, lesson)
    if result.problem:
        raise Refused(f"{shown(file)} could not be graded as {onward.name(lab)}, so --next cannot "
                      f"start the lab after it. lab-check --harness {shown(file)} "
                      f"--lesson {lab.label} "
                      "says why.")
    failing = [test for test in result.tests if test.outcome != "passed"]
    broke = [test for test in failing if test.outcome == "error"]
    if broke:
        raise Refused(f"{shown(file)} could not be graded whole as {onward.name(lab)} this time, "
                      f"so --next did not move on: {_named(broke)}. That is the grader's "
                      "trouble, not a verdict on your code (a busy machine can make a grading "
                      "run out of time). Nothing was changed: run lab-check --next again.",
                      status=3)
    if result.exit_code != 0 or not onward.graded_whole(result, lesson):
        slow = any(test.message.startswith("timed out") for test in failing)
        raise Refused(f"{shown(file)} does not pass {onward.name(lab)} yet: {result.failed} of "
                      f"{counted(len(result.tests), 'test')} "
                      f"{'fails' if result.failed == 1 else 'fail'} ({result.score:g} of "
                      f"{counted(result.max_score, 'point')})"
                      f"{': ' + _named(failing) if failing else ''}. "
                      + ("A test that timed out may pass on a quieter machine, or with more "
                         "time: lab-check --time-limit SECONDS. " if slow else "")
                      + "--next moves on from a passing file only: lab-check shows what to "
                      "fix; run lab-check --next again once every test passes (or lab-check "
                      "--reset --lesson N for a lab's own starter).", status=1)


def _named(tests: Sequence[GradedTest], most: int = 3) -> str:
    """The tests by name, each with the first line of why it failed; the first `most`."""
    said = [f'"{test.title}" ({(test.message.strip().splitlines() or ["no reason given"])[0][:160]})'
            for test in tests[:most]]
    more = f", and {len(tests) - most} more" if len(tests) > most else ""
    return ", ".join(said) + more


def _harness_to_carry(at: Position, ahead: Lab, grade: Grader,
                      project: pathlib.Path | None) -> tuple[pathlib.Path, Lab]:
    """The harness the lesson `ahead` is carried forward from, and its lab: the student's file
    itself, or, from a checkpoint, the harness beside the checkpoint's file (which must pass
    its own lab too)."""
    parent = course.find(ahead.builds_on, project) if ahead.builds_on is not None else None
    lab: Lab | None  # the lab the carried harness declares; None when it names none
    if not at.lab.is_checkpoint:
        harness, lab = at.file, at.lab
    else:
        harness = at.folder / onward.HARNESS
        if not harness.is_file():
            raise Refused(f"{onward.name(ahead)} carries your harness forward, and there is no "
                          f"{shown(harness)} beside {shown(at.file)}. Put your harness there "
                          "(it passes "
                          f"{onward.name(parent) if parent else 'the lab before'}), then run "
                          "lab-check --next again.")
        lab = lab_of(harness, project)
    if parent is None or lab is None or lab.id != parent.id:
        raise Refused(f"{onward.name(ahead)} builds on "
                      f"{onward.name(parent) if parent else 'nothing'}, and {shown(harness)} is "
                      f"{'for ' + onward.name(lab) if lab else 'for no lab it declares'}: "
                      f"lab-check --reset --lesson {ahead.label} gives the lesson's own "
                      "starter instead.")
    if at.lab.is_checkpoint:
        _must_pass(harness, lab, grade)
    return harness, lab


def _carry(text: str, ahead: Lab, since: Lab, project: pathlib.Path | None):
    """`text`, the student's harness at `since`, moved on to `ahead` (lab.course.carry_forward)."""
    from lab.course import carry_forward as carry, compose

    try:
        carried = carry.carry_forward(text, ahead, since, project)
    except compose.ComposeError as error:
        raise Refused(f"your harness cannot be carried forward as it is ({error}): put it back "
                      f"in the shape its starter had (regions opened by `# == N name ==`), or "
                      f"take {onward.name(ahead)}'s own starter with lab-check --reset --lesson "
                      f"{ahead.label}.") from None
    try:  # a file that passed its lab is never swapped for one that does not even compile
        compile(carried.text, onward.HARNESS, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        raise Refused(f"carrying your harness forward into {onward.name(ahead)} went wrong (the "
                      f"file it made does not compile: {type(error).__name__}: {error}). This "
                      "is a bug in the lab, not in your harness: please report it. Nothing was "
                      f"changed; lab-check --reset --lesson {ahead.label} gives the lesson's "
                      "own starter instead.") from None
    return carried


def _not_the_courses_own(target: pathlib.Path, project: pathlib.Path | None) -> None:
    """Refuse to write into the course's own lessons/ (a finished file graded to try it)."""
    if course_owned(target, project):
        raise Refused(f"{shown(target)} is one of the course's own files, not your work: "
                      "copy it to "
                      "your harness.py and run lab-check --next there.")


def _put(target: pathlib.Path, data: bytes) -> pathlib.Path | None:
    try:
        return reset.put(target, data)
    except OSError as error:
        raise Refused(f"cannot write {shown(target)} ({error.strerror or error}); nothing was "
                      "changed.") from None
