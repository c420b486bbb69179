"""Lesson 13's part of the student kit: the lab's token counter (lab.tokens, lab.request_tokens)
and a ScriptedModel with a context window, which refuses a request over it the way the
provider it stands for does, so that lesson 12's classifier calls the refusal too_long.

The lesson itself (its tests telling right answers from wrong, its notebook on a real kernel,
its anatomy) is proved with every other lab, in tests/test_labs.py.
"""

import json
import math

import pytest

import lab
from lab.course import lesson_files as lessons
from lab.notebook.harnesses import load_harness


def compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


@pytest.mark.parametrize("value", ["", "abcd", "é" * 9, {"b": 1, "a": "é"}, [1, 2, 3],
                                   lab.user("Read notes1.txt"),
                                   lab.reply(lab.text("Reading."), lab.call("read", {"path": "a"}, id="c1"))])
def test_a_value_counts_one_token_for_every_four_bytes_of_its_compact_json(value):
    expected = math.ceil(len(compact(value).encode("utf-8")) / 4)

    assert lab.tokens(value) == expected


def test_the_count_does_not_depend_on_the_order_of_a_dicts_keys():
    assert lab.tokens({"role": "user", "content": "hi"}) == lab.tokens({"content": "hi", "role": "user"})


def test_a_character_outside_ascii_counts_its_utf8_bytes_not_one():
    assert lab.tokens("ééééé") > lab.tokens("eeeee")


def test_a_request_counts_its_system_prompt_each_message_and_each_tool_added_up():
    system, messages = "You are terse.", [lab.user("Hello?"), lab.say("Hi.")]
    tools = [{"name": "read", "description": "Read a file.", "parameters": {"type": "object"}}]

    total = lab.request_tokens(system, messages, tools)

    assert total == lab.tokens(system) + sum(map(lab.tokens, messages)) + lab.tokens(tools[0])
    assert lab.request_tokens(system, messages) == total - lab.tokens(tools[0])


def test_a_request_over_the_window_is_refused_as_openai_refuses_it_and_uses_up_no_reply():
    messages = [lab.user("x" * 400)]
    size = lab.request_tokens("sys", messages, [])
    model = lab.ScriptedModel([lab.say("Short enough.")], window=size - 1)

    refused = model.complete("sys", messages, [])
    answered = model.complete("sys", [lab.user("Hi.")], [])

    assert refused == lab.too_long(size, size - 1)
    assert refused["response"]["body"]["error"]["code"] == "context_length_exceeded"
    assert answered["content"] == [{"type": "text", "text": "Short enough."}]
    assert len(model.calls) == 2


def test_a_request_of_exactly_the_window_is_answered():
    messages = [lab.user("y" * 100)]
    model = lab.ScriptedModel([lab.say("Fits.")], window=lab.request_tokens("", messages, []))

    reply = model.complete("", messages, [])

    assert reply["stop_reason"] == "stop"


def test_an_anthropic_wire_model_refuses_a_long_request_with_anthropics_own_words():
    messages = [{"role": "user", "content": "z" * 400}]
    size = lab.request_tokens("", messages, [])
    model = lab.ScriptedModel([], wire="anthropic", window=10)

    refused = model.complete("", messages, [])

    assert refused == lab.too_long(size, 10, wire="anthropic")
    assert "prompt is too long" in refused["response"]["body"]["error"]["message"]


@pytest.mark.parametrize("window", [0, -5, 1.5, True, "600"])
def test_a_window_that_is_not_a_whole_number_of_tokens_is_refused_when_the_model_is_made(window):
    with pytest.raises(ValueError, match="window must be a whole number of tokens"):
        lab.ScriptedModel([], window=window)


def test_lesson_12s_classifier_calls_the_window_refusal_too_long():
    finished = load_harness(lessons.lesson("13").finished, name="harness_13")
    model = lab.ScriptedModel([], window=5)

    refused = model.complete("a system prompt", [lab.user("a message longer than five tokens")], [])

    assert finished.classify(refused).kind == "too_long"


def test_a_summary_kept_in_the_record_is_shown_as_the_harnesss_own():
    entry = {"role": "summary", "content": "The user read notes1.", "first_kept": 4}

    assert lab.shape([entry, lab.user("Go on.")]) == "S U"
    assert lab.show([entry]) == 'summary -> "The user read notes1."'
    assert lab.validate([entry]) != []  # never a message a provider takes as it is
