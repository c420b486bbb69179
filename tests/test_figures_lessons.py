"""The run-as-a-table figures of lessons 07 and 08 (lab.notebook.timeline), as a real kernel draws them
from the cell's own run: on the finished harness they show the lesson's rule kept, on the
starter they show the lesson's failure, and on both they are well-formed SVG with their number.

tests/test_labs.py proves each notebook runs without a traceback; this proves what two of its
figures say, which a figure that quietly drew the wrong run would get past.
"""

import xml.etree.ElementTree as ElementTree

import pytest

from lab.course import lesson_files as lessons
import notebooks


def svg_text(nb, cell_id):
    """Every text of the SVG figure the cell displayed, tooltips included."""
    outputs = [o for o in notebooks.cell(nb, cell_id).outputs if "data" in o
               and "image/svg+xml" in o["data"]]
    assert outputs, f"expected cell {cell_id!r} to display an SVG figure; it displayed none"
    root = ElementTree.fromstring(outputs[0]["data"]["image/svg+xml"])
    return [text for node in root.iter() for text in [node.text] if text]


@pytest.fixture(scope="module", params=["finished", "starter"])
def lesson_07(request):
    lesson = lessons.lesson(7)
    return request.param, notebooks.run(lesson, getattr(lesson, request.param))


@pytest.fixture(scope="module", params=["finished", "starter"])
def lesson_08(request):
    lesson = lessons.lesson(8)
    return request.param, notebooks.run(lesson, getattr(lesson, request.param))


def test_figure_7_2_is_the_run_event_by_event(lesson_07):
    which, nb = lesson_07

    words = svg_text(nb, "figure-7-2")

    assert "Figure 7.2  One run, event by event" in words, words[:5]
    if which == "finished":
        assert [w for w in words if w.isdigit()] == [str(k) for k in range(1, 22) for _ in "ab"], (
            "expected a row for each of the 21 events (each number drawn and as its tooltip)")
        assert words.count("the same") == 2 * 21 and not any("ahead" in w for w in words), (
            "expected the record to equal what was announced at every event")
        assert sum(w.startswith("step ") and "after its start was announced" in w
                   for w in words) == 2 * 3, "expected a band for each step, after its start"
    else:
        assert words.count("agent_start") == 2 and any("messages ahead" in w for w in words), (
            "expected the starter's two events with the whole job already on the record")


def test_figure_7_3_keeps_its_number_after_the_new_figure(lesson_07):
    _, nb = lesson_07

    assert "Figure 7.3  Walked away at the sixth event, two ways" in svg_text(nb, "figure-7-3")


def test_figure_8_3_shows_every_way_out_for_three_harnesses(lesson_08):
    which, nb = lesson_08

    words = svg_text(nb, "figure-8-3")

    assert "Figure 8.3  One writer, and a door that opens on every way out" in words, words[:5]
    kept = words.count("free: the next prompt is taken") + words.count(
        "refused, on the caller's line")
    held = words.count("held for good: refused")
    if which == "finished":
        # the draft keeps 4 of 6 and the examples' harness all 6; each text drawn twice
        assert (kept, held) == (2 * 10, 2 * 2), (kept, held, words)
    else:
        # the examples' harness is the starter: it keeps none, like the starter's column
        assert (kept, held) == (2 * 4, 2 * 2), (kept, held, words)
        caption = " ".join(" ".join(words).split())  # the caption is wrapped over lines
        assert "fill the gap in Harness" in caption, "expected the caption to say what to do"
