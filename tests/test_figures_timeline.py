"""lab.notebook.timeline: a run drawn as a table, one row a moment, is well-formed SVG that says what it
was given, whatever it was given."""

import xml.etree.ElementTree as ElementTree

import pytest

import lab
from lab.notebook import harnesses, timeline
from lab.course import lesson_files as lessons

SVG_ROOT = "{http://www.w3.org/2000/svg}svg"


def words_of(figure):
    """Every piece of text the figure shows (tooltips included), and its parsed root."""
    root = ElementTree.fromstring(figure._repr_svg_())
    return root, [text for node in root.iter() for text in [node.text] if text]


def fills_of(root, text):
    """The fill of the box drawn just before each <text> that reads `text` (its cell)."""
    fills, last_rect = [], None
    for node in root.iter():
        if node.tag.endswith("rect"):
            last_rect = node.get("fill")
        elif node.tag.endswith("text") and node.text == text:
            fills.append(last_rect)
    return fills


def test_a_table_is_svg_that_jupyter_can_show_inline_as_a_lab_figure():
    figure = timeline.table(["#", "event"], [["1", "agent_start"]])

    root, _ = words_of(figure)

    assert isinstance(figure, lab.Figure), f"expected a lab.Figure; got {type(figure)}"
    assert root.tag == SVG_ROOT, f"expected an <svg> root; got {root.tag}"
    assert (root.get("width"), root.get("height")) == (str(figure.width), str(figure.height))


def test_headings_cells_bands_title_and_caption_are_all_shown():
    rows = [["1", "tool_execution_start", "c1"], timeline.Band("step 1 runs here"),
            ["2", "message_end", timeline.message_cell(lab.tool_result(lab.call("s", {}, id="c1"), "ok"))]]

    _, words = words_of(timeline.table(["#", "event", "carries"], rows, title="Figure 7.2  t",
                                       caption="what it shows"))

    for wanted in ("#", "event", "carries", "tool_execution_start", "c1", "step 1 runs here",
                   "R(c1)", "Figure 7.2  t", "what it shows"):
        assert wanted in words, f"expected {wanted!r} in the figure; it shows {words}"


def test_a_cells_tone_colours_its_box():
    root, _ = words_of(timeline.table(["verdict"], [[timeline.Cell("kept", "good")],
                                                    [timeline.Cell("lost", "bad")]]))

    assert fills_of(root, "kept") == [timeline.TONES["good"][0]], fills_of(root, "kept")
    assert fills_of(root, "lost") == [timeline.TONES["bad"][0]], fills_of(root, "lost")


def test_a_message_cell_is_its_shape_token_coloured_by_its_role():
    asked = lab.call("step", {"n": 1}, id="c1")
    cells = [timeline.message_cell(m) for m in (lab.user("Go."), lab.reply(asked),
                                                lab.tool_result(asked, "ok"), lab.fail("503"))]

    assert [(c.text, c.tone) for c in cells] == [
        ("U", "user"), ("A[c1]", "assistant"), ("R(c1)", "toolResult"),
        ("A(error)", "failed")], cells


@pytest.mark.parametrize("rows", [
    [],
    [["only one cell"]],
    [["a", "b", "c", "d", "e"]],
    [[None, 3, {"role": "robot"}]],
    [['<script>&"\'\x00\x1b\ud800' + "x" * 500, timeline.Band("<&>" * 200)]],
], ids=["empty", "short-row", "long-row", "not-strings", "hostile-text"])
def test_any_rows_draw_as_well_formed_svg(rows):
    figure = timeline.table(["a <&>", "b", "c"], rows, title="t <&>", caption="c <&>")

    root, words = words_of(figure)

    assert root.tag == SVG_ROOT, f"expected an <svg> root; got {root.tag}"
    assert "a <&>" in words, f"expected the heading, unescaped once parsed; got {words}"


def test_text_too_long_for_its_column_is_cut_with_an_ellipsis_and_kept_whole_on_hover():
    long = "U A[c1,c2] R(c1) R(c2) " * 10

    _, words = words_of(timeline.table(["the record"], [[long]]))

    assert any(w.endswith("…") for w in words), f"expected a cut line ending in …; got {words}"
    assert long in words, "expected the whole text as the cell's <title>"


def test_no_columns_or_an_unknown_tone_is_refused_with_what_to_do():
    with pytest.raises(ValueError) as none:
        timeline.table([], [])
    with pytest.raises(ValueError) as tone:
        timeline.Cell("x", "green")

    assert "at least one column" in str(none.value), none.value
    assert "good" in str(tone.value), f"expected the tones listed; got {tone.value}"


def test_lesson_07s_figure_of_a_live_run_has_a_row_for_every_event():
    """The shape of Figure 7.2: a row an event of a real run, with the record at that event."""
    record, rows = [], []
    model = lab.ScriptedModel([lab.reply(lab.call("step", {"n": 1})), lab.say("Done.")])
    tool = {"name": "step", "description": "Do one step.",
            "parameters": {"type": "object", "properties": {}}, "execute": lambda a: "ok"}
    harness = harnesses.load_harness(lessons.lesson(7).finished)
    for event in harness.run_agent(model, harness.SYSTEM, record, [tool], "Go."):
        rows.append([event["type"], lab.shape(record) or "(empty)"])

    _, words = words_of(timeline.table(["event", "the record"], rows))

    # each cell's text is there twice: once drawn, once as its tooltip
    assert words.count("message_end") == 2 * 4 and "U A[c1] R(c1) A" in words, words
