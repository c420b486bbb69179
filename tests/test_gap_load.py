"""Each lab's load, counted on its finished.py, against what its walkthrough says and against the
other labs' (issue 32: no lab asks for more than about twice the median lab's gap lines).

A lab's load is the lines of code in its gaps (lab.course.gap_load: blank lines, comments and
docstrings do not count). Its walkthrough's build section says it in words, "about N lines in
all", and N must be a fair round number for the count: a gap that grows or shrinks fails here
until the text follows.
"""

import functools
import re
import statistics

import pytest

from lab.course import order as course
from lab.course.gap_load import agrees, gap_loads, number, stated_load
from lab.notebook.ipynb import SOURCE

WRITTEN = [lab for lab in course.labs() if lab.written]
BUILD = re.compile(r"^# ## (?:Build\b|The build\b|Your turn\b)", re.MULTILINE)
HEADING = re.compile(r"^# ## ", re.MULTILINE)
TOO_BIG: dict[str, str] = {}  # a lab over the rule, and why: none since 12 and 13 gave a part


def label(lab):
    return lab.label


@functools.cache
def load(lab):
    return sum(gap_loads((lab.folder / "finished.py").read_text(encoding="utf-8")))


def build_section(lab):
    """The walkthrough's build section: from its heading to the next heading of its rank."""
    text = (lab.folder / SOURCE).read_text(encoding="utf-8")
    start = BUILD.search(text)
    assert start, f"{lab.label}'s walkthrough has no build section (## Build, The build, Your turn)"
    end = HEADING.search(text, start.end())
    return text[start.start():end.start() if end else len(text)]


@pytest.mark.parametrize("lab", WRITTEN, ids=label)
def test_the_build_section_states_the_load_the_gaps_hold(lab):
    measured, section = load(lab), build_section(lab)

    stated = stated_load(section)

    assert stated is not None, (f"{lab.label}: the build section should say how many lines the "
                                f"gaps hold, as \"about N lines in all\"; they hold {measured}")
    assert agrees(stated, measured), (f"{lab.label}: the build section says about {stated} lines "
                                      f"in all; its gaps hold {measured} lines of code")


def too_big(lab):
    reason = TOO_BIG.get(lab.label)
    return pytest.param(lab, marks=pytest.mark.xfail(strict=True, reason=reason)) if reason else lab


@pytest.mark.parametrize("lab", [too_big(lab) for lab in WRITTEN], ids=label)
def test_no_lab_asks_for_more_than_twice_the_median_labs_lines(lab):
    median = statistics.median(load(each) for each in WRITTEN)

    assert load(lab) <= 2 * median, (f"{lab.label} asks for {load(lab)} lines of code; the median "
                                     f"lab asks for {median:g}, so at most {2 * median:g}")


def test_a_gap_counts_its_code_and_not_its_docstrings_comments_or_blank_lines():
    finished = '''def given():
    return 1


# --- your code ---
def yours(x):
    """Two lines of docstring,
    which the student reads."""
    # a comment
    total = (x +

             1)
    return total
# --- starter ---
#| def yours(x):
#|     raise NotImplementedError
# --- end ---


def also_given():
    # --- your code ---
    return "a string is code"
    # --- starter ---
    #| raise NotImplementedError
    # --- end ---
'''
    assert gap_loads(finished) == [4, 1]


def test_the_stated_load_is_read_in_words_or_digits_and_held_to_the_count():
    assert stated_load("Two gaps, about twenty-one lines in all, both marked") == 21
    assert stated_load("Three gaps, about four lines in all") == 4
    assert stated_load("One gap, about 25 lines in all.") == 25
    assert stated_load("One gap, about forty lines.") is None
    assert [number(w) for w in ("one", "nineteen", "ninety", "fifty-three")] == [1, 19, 90, 53]
    assert agrees(50, 53) and agrees(4, 5) and agrees(21, 21)
    assert not agrees(25, 29) and not agrees(90, 53) and not agrees(14, 17)
