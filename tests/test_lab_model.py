"""lab.ScriptedModel: canned replies, every request kept, ids handed out, refusals like a 400."""

import pytest

import lab


def test_replies_come_in_script_order_and_every_request_is_kept():
    model = lab.ScriptedModel([lab.say("one"), lab.say("two")])

    first = model.complete("sys", [lab.user("a")], [])
    second = model.complete("sys", [lab.user("a"), first, lab.user("b")], [])

    assert [first["content"][0]["text"], second["content"][0]["text"]] == ["one", "two"], \
        f"replies out of order: {first}, {second}"
    assert [lab.shape(c.messages) for c in model.calls] == ["U", "U A U"], \
        f"requests kept: {[lab.shape(c.messages) for c in model.calls]}"
    assert model.calls[0].system == "sys", "the system prompt should be kept with the request"


def test_call_ids_are_numbered_per_model_in_the_order_handed_out_and_explicit_ids_kept():
    script = [lab.reply(lab.call("a", {}), lab.call("b", {}, id="mine")), lab.reply(lab.call("c", {}))]
    model, other = lab.ScriptedModel(script), lab.ScriptedModel(script)

    first = model.complete("", [lab.user("x")], [])
    ids = [b["id"] for b in first["content"]]
    calls = [first, lab.tool_result(first["content"][0], "ok"), lab.tool_result(first["content"][1], "ok")]
    second = model.complete("", [lab.user("x")] + calls, [])

    assert ids == ["c1", "mine"], f"first reply's ids: {ids}"
    assert second["content"][0]["id"] == "c2", f"second reply's id: {second['content'][0]['id']}"
    assert other.complete("", [lab.user("x")], [])["content"][0]["id"] == "c1", \
        "each model numbers its own calls"
    assert script[0]["content"][0]["id"] is None, "the script itself must not be changed"


def test_a_request_that_breaks_a_rule_is_refused_and_uses_up_no_reply():
    model = lab.ScriptedModel([lab.say("answered")])
    broken = [lab.user("x"), lab.fail("503"), lab.user("y")]

    refused = model.complete("", broken, [])
    answered = model.complete("", [lab.user("x")], [])

    assert refused == lab.fail("400 invalid_request: messages[1]: assistant message has empty content"), \
        f"the refusal: {refused}"
    assert answered["content"][0]["text"] == "answered", "a refusal must not use up the script"
    assert len(model.calls) == 2, "refused requests are kept too"


def test_the_snapshot_of_a_request_does_not_change_with_the_list_sent():
    model = lab.ScriptedModel([lab.say("ok")])
    sent = [lab.user("x")]

    model.complete("", sent, [])
    sent.append(lab.user("later"))
    sent[0]["content"] = "edited"

    assert model.calls[0].messages == [lab.user("x")], f"snapshot changed: {model.calls[0].messages}"


def test_forever_answers_every_later_request_from_the_request_itself():
    model = lab.ScriptedModel([lab.say("first"), lab.forever(
        lambda request: lab.say(f"{len(request.messages)} messages"))])

    replies = [model.complete("", [lab.user("x")] * n, [])["content"][0]["text"] for n in (1, 2, 3)]

    assert replies == ["first", "2 messages", "3 messages"], f"got {replies}"


def test_running_out_of_script_says_how_many_replies_it_had():
    model = lab.ScriptedModel([lab.say("only")])
    model.complete("", [lab.user("x")], [])

    with pytest.raises(lab.ScriptExhausted, match=r"holds 1 reply and this is request 2"):
        model.complete("", [lab.user("x")], [])
