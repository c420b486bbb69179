"""lab.validate, the strict provider: every violation, in message order, in exact words."""

import damaged
import lab

C1 = lab.call("read", {"path": "a.py"}, id="c1")
C2 = lab.call("bash", {"command": "pytest"}, id="c2")


def test_a_valid_transcript_has_no_violations():
    record = [lab.user("Go."), lab.reply(C1, C2), lab.tool_result(C1, "x"),
              lab.tool_result(C2, "y"), lab.say("Done."), lab.user("And?"), lab.user("Hello?")]

    assert lab.validate(record) == [], f"refused a valid transcript: {lab.validate(record)}"


def test_each_wreck_is_refused_in_the_words_of_the_contract():
    expected = {
        "missing_result": ["messages[1]: toolCall c2 has no toolResult"],
        "orphan_result": ["messages[2]: toolResult c7 has no toolCall before it"],
        "late_result": ["messages[1]: toolCall c1 has no toolResult",
                        "messages[3]: toolResult c1 must directly follow its assistant message, "
                        "in call order"],
        "duplicate_result": ["messages[3]: toolResult c2 is a second result for a call that "
                             "already has one"],
        "failed_reply_with_a_call": ["messages[1]: toolCall c1 has no toolResult"],
    }

    for name, words in expected.items():
        got = lab.validate(getattr(damaged, name))
        assert got == words, f"damaged.{name}: expected {words}, got {got}"


def test_an_empty_assistant_message_is_refused_but_a_failed_one_with_content_is_not():
    empty = [lab.user("Hi."), lab.fail("503 overloaded"), lab.user("Again?")]
    partial = [lab.user("Hi."), lab.fail("stream ended", lab.text("Hel")), lab.user("Again?")]

    assert lab.validate(empty) == ["messages[1]: assistant message has empty content"], \
        f"got {lab.validate(empty)}"
    assert lab.validate(partial) == [], f"a failed reply with words was refused: {lab.validate(partial)}"


def test_results_out_of_call_order_are_refused_at_the_result_that_is_out_of_place():
    c3 = lab.call("read", {"path": "c.py"}, id="c3")
    record = [lab.user("Go."), lab.reply(C1, C2, c3), lab.tool_result(c3, "z"),
              lab.tool_result(C1, "x")]

    assert lab.validate(record) == [
        "messages[1]: toolCall c2 has no toolResult",
        "messages[3]: toolResult c1 must directly follow its assistant message, in call order",
    ], f"got {lab.validate(record)}"


def test_a_reused_call_id_is_named_at_the_second_call_only():
    again = lab.call("read", {"path": "b.py"}, id="c1")
    record = [lab.user("Go."), lab.reply(C1), lab.tool_result(C1, "A"), lab.reply(again),
              lab.tool_result(again, "B")]

    assert lab.validate(record) == ["messages[3]: toolCall id c1 is used twice in this request"], \
        f"got {lab.validate(record)}"


def test_something_that_is_not_a_message_is_refused_without_crashing():
    got = lab.validate([lab.user("Hi."), "not a message", {"role": "system", "content": "x"}])

    assert [v.split(":")[0] for v in got] == ["messages[1]", "messages[2]"], f"got {got}"
