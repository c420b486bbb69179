"""One request is "1 request": every count a lesson or lab-check prints agrees with its noun.

lab.counted is the one place a count meets its noun. The first part of the course (lessons 01
to 05, where a run is a handful of requests and a count of one is common) writes every count
through it, in its tests' reports and in its walkthroughs' printed output; lab-check's score
line and --next's refusal do too.
"""

import ast
import re

import pytest

import lab
from lab.course import order as course
from lab.grader.report import text_report
from lab.grader.results import Grade
from lab.sandbox.outcome import TestResult

FIRST_PART = [l for l in course.labs() if l.written and not l.is_checkpoint and l.id <= 5]
NOUNS = ("requests|tools|turns|calls|messages|replies|results|steps|events|lines|tests|points|"
         "prompts|runs|bytes|files|seconds|reads|writes")
# A replacement field that holds a count (no !r, no text in it), then a plural noun.
COUNT_THEN_PLURAL = re.compile(r"\{(?![^{}]*![rsa])[^{}'\"]*\}\s+(?:" + NOUNS + r")\b")


def label(lab_):
    return lab_.label


def f_strings(source):
    """The literal text of every f-string in `source`, with its replacement fields as written."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            yield ast.get_source_segment(source, node) or ""


def test_a_count_of_one_takes_the_singular_and_any_other_the_plural():
    assert lab.counted(1, "request") == "1 request"
    assert lab.counted(0, "request") == "0 requests"
    assert lab.counted(3, "reply", "replies") == "3 replies"
    assert lab.counted(1.0, "point") == "1 point" and lab.counted(2.5, "point") == "2.5 points"


@pytest.mark.parametrize("lab_", FIRST_PART, ids=label)
@pytest.mark.parametrize("name", ["tests.py", "scenarios.py", "walkthrough.py"])
def test_no_count_in_the_first_part_is_printed_before_a_plural_noun_it_may_not_agree_with(lab_, name):
    path = lab_.folder / name
    if not path.is_file():
        pytest.skip(f"{lab_.label} has no {name}")
    source = path.read_text(encoding="utf-8")

    found = [text for text in f_strings(source) if COUNT_THEN_PLURAL.search(text)]

    assert not found, f"{path.name} of {lab_.label} writes a count then a plural: {found}; use lab.counted"


def test_the_check_above_finds_a_count_written_before_its_plural():
    assert COUNT_THEN_PLURAL.search('f"{len(seen[x])} requests"')
    assert COUNT_THEN_PLURAL.search('f"in {n} turns"')
    assert not COUNT_THEN_PLURAL.search('f"{lab.counted(n, \'request\')}"')
    assert not COUNT_THEN_PLURAL.search('f"system {request.system!r:32} messages {x}"')


def test_the_score_line_of_a_one_point_grading_says_one_point():
    grade = Grade(lesson=1, title="Who said that?", harness="harness.py",
                  tests=[TestResult("test_the_reply_is_kept", "passed", points=1)])

    said = text_report(grade)

    assert "score: 1 of 1 point," in said and "1 of 1 points" not in said, said
