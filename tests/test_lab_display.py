"""lab.shape and lab.show: transcripts as one line, and one line a message."""

import damaged
import lab


def test_shape_has_one_token_a_message():
    record = damaged.failed_reply_with_a_call + [lab.tool_result(
        lab.call("write", {}, id="c1"), "x")]

    assert lab.shape(record) == "U A[c1](error) U R(c1)", f"got {lab.shape(record)}"
    assert lab.shape([lab.fail("503")]) == "A(error)", f"got {lab.shape([lab.fail('503')])}"
    assert lab.shape([]) == "", "an empty transcript should have an empty shape"


def test_show_quotes_strings_and_marks_failures_and_errors():
    call = lab.call("write", {"path": "main.py"}, id="c1")
    messages = [lab.user("Tab\there."), lab.fail("stream ended", lab.text("Writing."), call),
                lab.tool_result(call, "no", is_error=True), lab.fail("503")]

    assert lab.show(messages).splitlines() == [
        'user -> "Tab\\there."',
        'assistant -> "Writing." + toolCall c1 write({"path": "main.py"})  [error: stream ended]',
        'toolResult c1 -> "no"  [is_error]',
        "assistant -> (nothing)  [error: 503]",
    ], f"got:\n{lab.show(messages)}"


def test_show_clips_long_strings_and_says_how_much_was_cut():
    line = lab.show([lab.user("x" * 100)], clip=10)

    assert line == 'user -> "xxxxxxxxxx…" (+90 chars)', f"got {line}"
    assert lab.show([lab.user("x" * 100)], clip=None) == f'user -> "{"x" * 100}"', \
        "clip=None should show the whole string"
