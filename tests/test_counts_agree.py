"""One request is "1 request": every count a lesson or lab-check prints agrees with its noun.

lab.counted (lab/kit/counting.py) is the one place a count meets its noun. Every lab's tests'
reports, scenarios and walkthrough output, and everything lab-check prints to a student, a
reader or an instructor, write a count through it. The check below reads the source: in any
f-string, a replacement field with no conversion (no !r) followed at once by a plural noun is a
count written before a noun it may not agree with, whatever the field's format spec, however the
f-string is split over lines, and whether or not the count can ever be one; so is a print() whose
argument after a computed one is a plural noun: print("sizes:", len(lines), "lines").
"""

import ast
import pathlib
import re

import pytest

import lab
from lab.course import order as course
from lab.grader.report import text_report
from lab.grader.results import Grade
from lab.sandbox.outcome import TestResult

ROOT = pathlib.Path(__file__).resolve().parent.parent
LABS = [l for l in course.labs() if l.written]
LESSON_FILES = ["tests.py", "scenarios.py", "walkthrough.py"]
# The parts of lab-check whose output people read: a student (the kit's reports through the
# grader, the command line, the public test kit, notebooks), a reader (notebooks, the site) and
# an instructor (batches, gradebooks, editions, the course's own checks).
PRINTING = ["lab/lab_check.py", "lab/grader", "lab/cli", "lab/testkit", "lab/notebook",
            "lab/release", "lab/course", "lab/site"]
# Lesson 15's grading is being rewritten (its tests.py and scenarios.py); its counts go through
# lab.counted in that rewrite, and the check then holds for them too: until it does, the check
# is expected to find them (strict, so it fails the day they are fixed and this line must go).

NOUNS = ("requests|tools|turns|calls|messages|replies|results|steps|events|lines|tests|points|"
         "prompts|runs|bytes|files|seconds|reads|writes|tokens|characters|chars|summaries|times|"
         "waits|answers|asks|students|submissions|labs|checks|leaks|items|cases|entries|newlines|"
         "cells|rows|folders|objections|surprises|questions|figures|gaps|workers|harnesses")
# A plural noun ("tests.py" is a file's name, not a noun): right after a field, or as the whole
# start of print()'s next argument.
PLURAL = re.compile(r"(?:" + NOUNS + r")\b(?!\.\w)")
PLURAL_NEXT = re.compile(r"[ \t]+" + PLURAL.pattern)


def counts_before_plurals(source):
    """Every count in `source` printed right before a plural noun, as written: the replacement
    field of an f-string followed at once by one ('{len(seen)} requests'), or a computed
    argument of print() followed by one ('len(lines), "lines"')."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            for field, after in zip(node.values, node.values[1:]):
                if (isinstance(field, ast.FormattedValue) and field.conversion == -1
                        and _text(after) is not None and PLURAL_NEXT.match(_text(after))):
                    yield (f"line {field.lineno}: {{{ast.get_source_segment(source, field.value)}}}"
                           f"{PLURAL_NEXT.match(_text(after)).group()}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            for count, after in zip(node.args, node.args[1:]):
                if (not isinstance(count, ast.Constant)
                        and _text(after) is not None and PLURAL.match(_text(after))):
                    yield (f"line {count.lineno}: print({ast.get_source_segment(source, count)}, "
                           f"{_text(after)!r})")


def _text(node):
    """The text of a string constant, else None."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def lesson_files():
    for lab_ in LABS:
        for name in LESSON_FILES:
            if (lab_.folder / name).is_file():
                yield pytest.param(lab_.folder / name, id=f"{lab_.label}/{name}")


def printing_modules():
    for place in PRINTING:
        path = ROOT / place
        for module in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            yield pytest.param(module, id=str(module.relative_to(ROOT)))


def test_a_count_of_one_takes_the_singular_and_any_other_the_plural():
    assert lab.counted(1, "request") == "1 request"
    assert lab.counted(0, "request") == "0 requests"
    assert lab.counted(3, "reply", "replies") == "3 replies"
    assert lab.counted(1.0, "point") == "1 point" and lab.counted(2.5, "point") == "2.5 points"


def test_a_count_keeps_its_format_spec_and_a_large_count_keeps_every_digit():
    assert lab.counted(12345, "byte", spec=",") == "12,345 bytes"
    assert lab.counted(1, "line", spec=">4") == "   1 line"
    assert lab.counted(3_000_000, "byte") == "3000000 bytes"
    assert lab.counted(3_000_000.0, "point") == "3000000 points"


@pytest.mark.parametrize("path", list(lesson_files()))
def test_no_lab_prints_a_count_before_a_plural_noun_it_may_not_agree_with(path):
    found = list(counts_before_plurals(path.read_text(encoding="utf-8")))

    assert not found, f"{path.relative_to(ROOT)} writes a count then a plural: {found}; use lab.counted"


@pytest.mark.parametrize("path", list(printing_modules()))
def test_no_part_of_lab_check_prints_a_count_before_a_plural_noun_it_may_not_agree_with(path):
    found = list(counts_before_plurals(path.read_text(encoding="utf-8")))

    assert not found, (f"{path.relative_to(ROOT)} writes a count then a plural: {found}; "
                       "use counted from lab.kit.counting")


@pytest.mark.parametrize("source", [
    'f"{n} requests"',
    'f"{len(seen[x])} requests"',
    "f\"{len(seen['requests'])} requests, waits {waits}\"",
    'f"{size:,} bytes"',
    'f"{size:>12,} bytes a request"',
    'f"{n:{width}} turns"',
    'f"{done} of {total} tests"',
    'f"{score:g} of {worth:g} points."',
    'f"passes all {len(listed)} tests"',
    'f"{score:g} of {worth:g} " f"points{note}"',
    '(f"the session ran {n} "\n "tools")',
    'f"""the first\n{n} messages"""',
    'f"({n} lines in all)"',
    'f"{n} replies."',
    'print("sizes:", len(lines), "lines")',
    'print("the record:", n, "messages,", total, "tokens")',
    'print("size:", f"{n:,}", "bytes")',
])
def test_the_check_finds_a_count_before_its_plural_in_every_shape_it_is_written(source):
    assert list(counts_before_plurals(source)), source


@pytest.mark.parametrize("source", [
    "f\"{lab.counted(n, 'request')}\"",
    "f\"{counted(done, 'test')} of {counted(total, 'test')}\"",
    'f"system {request.system!r:32} messages {x}"',
    'f"lesson {n} tests.py"',
    '"{n} requests"',
    'f"{n}requests"',
    'f"{n} requestsXY"',
    'print("the requests", "tokens")',
    'print("kept:", lab.counted(n, "line"), "in all")',
])
def test_the_check_leaves_alone_what_is_not_a_count_before_its_plural(source):
    assert not list(counts_before_plurals(source)), source


def test_the_score_line_of_a_one_point_grading_says_one_point():
    grade = Grade(lesson=1, title="Who said that?", harness="harness.py",
                  tests=[TestResult("test_the_reply_is_kept", "passed", points=1)])

    said = text_report(grade)

    assert "score: 1 of 1 point," in said and "1 of 1 points" not in said, said
