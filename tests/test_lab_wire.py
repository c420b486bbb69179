"""lab.validate(request, wire=...) and ScriptedModel(wire=...): a provider's wire format, its
violations by code and place, and its refusals in the provider's own words."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import damaged
import lab

ASK = {"role": "assistant", "content": [
    {"type": "text", "text": "Reading both."},
    {"type": "tool_use", "id": "c1", "name": "read", "input": {"path": "a.py"}},
    {"type": "tool_use", "id": "c2", "name": "read", "input": {"path": "b.py"}}]}


def result(call_id, content="x"):
    return {"type": "tool_result", "tool_use_id": call_id, "content": content, "is_error": False}


def words(text):
    return {"type": "text", "text": text}


def user(*blocks):
    return {"role": "user", "content": list(blocks)}


def openai_ask(*ids, arguments='{"path": "a.py"}'):
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": i, "type": "function", "function": {"name": "read", "arguments": arguments}}
        for i in ids]}


def tool(call_id):
    return {"role": "tool", "tool_call_id": call_id, "content": "x"}


def codes(messages, wire):
    return [(v.code, v.where, v.call_id) for v in lab.validate(messages, wire=wire)]


def test_without_a_wire_validate_is_lesson_10s_strict_provider_word_for_word():
    assert lab.validate(damaged.late_result) == [
        "messages[1]: toolCall c1 has no toolResult",
        "messages[3]: toolResult c1 must directly follow its assistant message, in call order"]


def test_a_valid_anthropic_request_has_no_violations():
    request = [user(words("Read both.")), ASK, user(result("c1"), result("c2"), words("Spaces.")),
               {"role": "assistant", "content": "Done."}]

    assert lab.validate(request, wire="anthropic") == []


def test_anthropic_violations_have_seed_codes_and_block_places():
    request = [user(words("Go.")), ASK, user(words("Spaces."), result("c1"), result("c1"),
                                            result("c9"))]

    assert codes(request, "anthropic") == [
        ("orphaned_tool_use", "messages[1].content[1]", "c1"),
        ("orphaned_tool_use", "messages[1].content[2]", "c2"),
        ("tool_result_not_first", "messages[2].content[1]", "c1"),
        ("duplicate_tool_result", "messages[2].content[2]", "c1"),
        ("orphaned_tool_result", "messages[2].content[3]", "c9")]


def test_anthropic_wants_alternating_roles_and_well_formed_calls():
    nameless = {"role": "assistant", "content": [{"type": "tool_use", "id": "", "name": "read",
                                                  "input": {}}]}
    request = [user(words("Go.")), user(words("Again.")), nameless]

    assert codes(request, "anthropic") == [("roles_not_alternating", "messages[1]", None),
                                           ("malformed_tool_use", "messages[2].content[0]", "")]


def test_openai_violations_have_seed_codes_and_places():
    request = [{"role": "user", "content": "Go."}, tool("c0"), openai_ask("c1", "c2"),
               tool("c1"), tool("c1"), tool("c7"),
               openai_ask("c3", arguments={"path": "a.py"}), tool("c3")]

    assert codes(request, "openai") == [
        ("orphaned_tool_result", "messages[1]", "c0"),
        ("orphaned_tool_use", "messages[2].tool_calls[1]", "c2"),
        ("duplicate_tool_result", "messages[4]", "c1"),
        ("orphaned_tool_result", "messages[5]", "c7"),
        ("malformed_tool_use", "messages[6].tool_calls[0]", "c3")]


def test_a_violation_reads_as_code_place_id_and_why():
    problem = lab.validate([user(words("Go.")), ASK], wire="anthropic")[0]

    assert str(problem).startswith("orphaned_tool_use at messages[1].content[1] (c1): "), str(problem)


def test_the_scripted_models_refuse_in_each_providers_words():
    cases = [
        ("anthropic", [user(words("Go.")), ASK, user(words("Hm."))],
         "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: "
         "c1, c2. Each `tool_use` block must have a corresponding `tool_result` block in the "
         "next message."),
        ("anthropic", [user(words("Go.")), {"role": "assistant", "content": "Hi."},
                       user(result("c5"))],
         "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: c5. "
         "Each `tool_result` block must have a corresponding `tool_use` block in the previous "
         "message."),
        ("openai", [{"role": "user", "content": "Go."}, openai_ask("c1", "c2"), tool("c1")],
         "An assistant message with 'tool_calls' must be followed by tool messages responding "
         "to each 'tool_call_id'. The following tool_call_ids did not have response messages: c2"),
        ("openai", [{"role": "user", "content": "Go."}, tool("c1")],
         "Invalid parameter: messages with role 'tool' must be a response to a preceeding "
         "message with 'tool_calls'."),
    ]

    for wire, request, words_of_the_provider in cases:
        model = lab.ScriptedModel([lab.say("Fine.")], wire=wire)

        refused = model.complete("system", request, [])
        answered = model.complete("system", request[:1], [])

        assert refused == lab.fail("400 invalid_request_error: " + words_of_the_provider), refused
        assert answered == lab.say("Fine."), "a refusal must not use up the script"


def test_an_unknown_wire_is_refused_at_once():
    with pytest.raises(ValueError, match="'anthropic', 'openai'"):
        lab.ScriptedModel([], wire="gemini")
    with pytest.raises(ValueError, match="wire=None"):
        lab.validate([], wire="gemini")


def test_wire_shapes_name_roles_blocks_and_ids():
    from lab.wire import shape

    assert shape([user(words("Go.")), ASK, {"role": "user", "content": "Hi."}], "anthropic") == \
        "user[text] assistant[text,use(c1),use(c2)] user[text]"
    assert shape([openai_ask("c1", "c2"), tool("c1"), tool("c2")], "openai") == \
        "assistant[c1,c2] tool(c1) tool(c2)"


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5)
                    | st.sampled_from(["user", "assistant", "tool", "tool_use", "tool_result",
                                       "text", "function", "c1"]),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(["role", "content", "type", "id", "name",
                                                       "input", "tool_use_id", "tool_calls",
                                                       "tool_call_id", "function", "arguments"]),
                                      inner, max_size=5), max_leaves=25)


@given(st.lists(JSON, max_size=5), st.sampled_from(["anthropic", "openai"]))
@settings(max_examples=150, deadline=None)
def test_the_wire_validator_reads_any_json_without_raising(request, wire):
    problems = lab.validate(request, wire=wire)

    assert all(isinstance(p, lab.Violation) and p.error for p in problems), problems
    lab.ScriptedModel([lab.say("ok")], wire=wire).complete("system", request, [])
