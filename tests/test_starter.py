"""One source of truth: the starter and the student's harness.py are made from finished.py."""

import pytest

from lab.course import lesson_files as lessons, starter

from lab.course import gap_markers
from conftest import LESSON_10, PROJECT


def test_every_committed_starter_is_what_the_generator_makes():
    for path, text in starter.targets():
        assert path.read_text() == text, (
            f"{path.relative_to(PROJECT)} is not what `python -m lab.course.starter` makes from the "
            "finished file. Developers: run it and commit. (A student who has started the lab "
            "will see this for harness.py: that is expected.)")


def test_the_starter_keeps_the_gap_markers_and_drops_the_finished_code():
    made = (LESSON_10 / "starter.py").read_text()

    assert made.count(gap_markers.BEGIN) == 2 and made.count(gap_markers.END) == 2, \
        "the starter should show both gaps, marked"
    assert gap_markers.SWAP not in made and "#|" not in made, "no finished-file marker may leak"
    assert "def repair_tool_history" not in made and "INTERRUPTED = " not in made, \
        "the repair is the student's to write"
    assert "return [m for m in messages if not is_empty_failure(m)]" in made, \
        "context_for_model should start from lesson 5's body"


def test_a_gap_left_open_or_out_of_order_is_refused_with_its_line():
    with pytest.raises(gap_markers.GapError, match="still open"):
        gap_markers.make_starter("x = 1\n# --- your code ---\ny = 2\n")
    with pytest.raises(gap_markers.GapError, match="line 2"):
        gap_markers.make_starter("x = 1\n# --- starter ---\n")
    with pytest.raises(gap_markers.GapError, match="must begin with '#\\|'"):
        gap_markers.make_starter("# --- your code ---\na\n# --- starter ---\nb\n# --- end ---\n")


def test_starter_lines_are_unquoted_with_their_indentation():
    finished = ("def f():\n    # --- your code ---\n    return 2\n    # --- starter ---\n"
                "    #| return 1\n    #|\n    # --- end ---\n")

    made = gap_markers.make_starter(finished)

    assert made == "def f():\n    # --- your code ---\n    return 1\n    \n    # --- end ---\n", \
        f"got:\n{made}"


def test_where_names_the_lessons_files():
    lesson = lessons.lesson(10)

    assert (lesson.starter, lesson.finished, lesson.tests) == (
        LESSON_10 / "starter.py", LESSON_10 / "finished.py", LESSON_10 / "tests.py"), lesson
    with pytest.raises(LookupError, match="no lesson 99"):
        lessons.lesson(99)
