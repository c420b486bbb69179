"""lab.draw: any transcript becomes well-formed SVG, labelled in lab.shape's vocabulary."""

import xml.etree.ElementTree as ElementTree

import pytest

import damaged
import lab

SVG_ROOT = "{http://www.w3.org/2000/svg}svg"


def words_of(figure):
    """Every piece of text the figure shows (tooltips included), and its parsed root."""
    root = ElementTree.fromstring(figure._repr_svg_())
    return root, [text for node in root.iter() for text in [node.text] if text]


def asked(id="c1"):
    return lab.call("bash", {"command": "pytest"}, id=id)


def test_a_figure_is_svg_that_jupyter_can_show_inline():
    figure = lab.draw([lab.user("Hi"), lab.say("Hello.")])

    root, _ = words_of(figure)

    assert root.tag == SVG_ROOT, f"expected an <svg> root; got {root.tag}"
    assert str(figure) == figure._repr_svg_() == figure.svg, (
        "expected str(), _repr_svg_() and .svg to be the same SVG text")
    assert (root.get("width"), root.get("height")) == (str(figure.width), str(figure.height)), (
        f"expected the size on the root to be {figure.width}x{figure.height}; "
        f"got {root.get('width')}x{root.get('height')}")


def test_each_message_is_headed_by_its_token_from_lab_shape():
    call = asked()
    record = [lab.user("Run the tests."), lab.reply(call), lab.tool_result(call, "ok"),
              lab.fail("503 overloaded")]

    _, words = words_of(lab.draw(record))

    for token in lab.shape(record).split():
        assert token in words, f"expected the token {token!r} as a heading; the figure shows {words}"


def test_the_complaints_of_a_refused_transcript_are_listed_under_it():
    record = damaged.late_result

    _, words = words_of(lab.draw(("late", record)))
    shown = " ".join(" ".join(words).split())  # a complaint may be wrapped over lines

    assert "a provider refuses this:" in words, f"expected the refusal heading; got {words}"
    for complaint in lab.validate(record):
        assert complaint in shown, (
            f"expected the complaint {complaint!r} under the panel; the figure shows {shown!r}")


def test_a_panel_that_is_not_checked_carries_no_verdict():
    _, words = words_of(lab.draw(lab.Panel("what came back", [lab.fail("400")], check=False)))

    assert not any("a provider" in w for w in words), f"expected no verdict; got {words}"


def test_compare_marks_what_only_one_of_the_two_lists_holds():
    call = asked()
    record = [lab.user("Go."), lab.fail("503"), lab.reply(call), lab.user("Well?")]
    view = [record[0], record[2], lab.tool_result(call, "made up"), record[3]]

    root, words = words_of(lab.draw(("the record", record), ("the view", view), compare=True))

    assert "not in the view" in words and "not in the record" in words, (
        f"expected a note in each column where the other has a message it lacks; got {words}")
    x_of = {node.text: float(node.get("x")) for node in root.iter() if node.get("x")
            and node.text in ("not in the view", "not in the record")}
    assert x_of["not in the record"] < x_of["not in the view"], (
        "expected each note in the column that lacks the message: 'not in the record' on the "
        f"record's side (left), 'not in the view' on the view's side (right); got x = {x_of}")
    assert words.count("same") == 3, f"expected the three shared messages joined; got {words}"


def test_compare_counts_an_equal_copy_as_the_same_message():
    record = damaged.missing_result
    sent = [dict(message) for message in record]

    _, words = words_of(lab.draw(("record", record), ("sent", sent), compare=True))

    assert words.count("same") == len(record), f"expected every copy matched; got {words}"


@pytest.mark.parametrize("transcript", [
    [],
    (lab.user("a tuple, as h.messages is"),),
    [1, None, "text", {"role": "robot"}, {"role": "assistant", "content": None}],
    [lab.user('<script>&"\'\x00\x1b\ud800' + "x" * 500)],
    [lab.reply(lab.text("ünïcödé ✓"), lab.call("write", {"path": "a<b>.py", "content": "&" * 300}))],
], ids=["empty", "tuple", "not-messages", "hostile-text", "long-call"])
def test_any_transcript_draws_as_well_formed_svg(transcript):
    figure = lab.draw(("a label with <&>", transcript), title="t <&>", caption="c <&>")

    root, words = words_of(figure)

    assert root.tag == SVG_ROOT, f"expected an <svg> root; got {root.tag}"
    assert "a label with <&>" in words, f"expected the label, unescaped once parsed; got {words}"


def test_text_too_long_for_its_box_is_cut_with_an_ellipsis():
    _, words = words_of(lab.draw([lab.user("word " * 200)]))

    cut = [w for w in words if w.endswith("…")]

    assert cut, f"expected a line ending in … for the long message; got {words}"


def test_one_message_or_a_string_is_refused_with_what_to_pass_instead():
    with pytest.raises(TypeError) as one:
        lab.draw(lab.user("hi"))
    with pytest.raises(TypeError) as text:
        lab.draw("U A")

    assert "lab.draw([message])" in str(one.value), f"expected the fix in the message; got {one.value}"
    assert "not a str" in str(text.value), f"expected the type named; got {text.value}"


def test_compare_takes_exactly_two_transcripts():
    with pytest.raises(ValueError) as refused:
        lab.draw([], [], [], compare=True)

    assert "exactly two" in str(refused.value), f"expected the rule in the message; got {refused.value}"


def test_drawing_changes_nothing_in_the_transcript():
    record = damaged.failed_reply_with_a_call
    before = [dict(m) for m in record]

    lab.draw(record, record, compare=True)

    assert record == before, "expected draw() to leave the messages it draws untouched"
