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


def test_anthropic_takes_two_user_turns_in_a_row_as_the_api_combines_them():
    request = [user(words("Go.")), user(words("Again.")), ASK,
               user(result("c1"), result("c2")), user(words("Use spaces."))]

    assert lab.validate(request, wire="anthropic") == []


def test_anthropic_refuses_results_split_over_consecutive_user_turns():
    request = [user(words("Go.")), ASK, user(result("c1")), user(result("c2"))]

    assert codes(request, "anthropic") == [("orphaned_tool_use", "messages[1].content[2]", "c2"),
                                           ("orphaned_tool_result", "messages[3].content[0]", "c2")]


def test_anthropic_wants_well_formed_calls_with_ids_unique_in_the_whole_request():
    nameless = {"role": "assistant", "content": [{"type": "tool_use", "id": "", "name": "read",
                                                  "input": {}}]}
    again = {"role": "assistant", "content": [
        {"type": "tool_use", "id": "c1", "name": "read", "input": {"path": "c.py"}}]}
    request = [user(words("Go.")), ASK, user(result("c1"), result("c2")), again,
               user(result("c1")), nameless]

    problems = lab.validate(request, wire="anthropic")

    assert [(p.code, p.where, p.call_id) for p in problems] == [
        ("duplicate_tool_use_id", "messages[3].content[0]", "c1"),
        ("malformed_tool_use", "messages[5].content[0]", "")]
    assert problems[0].error == "messages.3.content.0: `tool_use` ids must be unique"


def test_anthropic_refuses_empty_text_anywhere_and_blanks_only_when_they_are_all_there_is():
    empty = [user(words("Go.")), {"role": "assistant", "content": [words(""), ASK["content"][1]]},
             user(result("c1"))]
    blank = [user(words("  \n"))]
    blank_beside_words = [user(words(" "), words("Go."))]

    assert [p.error for p in lab.validate(empty, wire="anthropic")] == [
        "messages: text content blocks must be non-empty"]
    assert [p.error for p in lab.validate(blank, wire="anthropic")] == [
        "messages: text content blocks must contain non-whitespace text"]
    assert lab.validate(blank_beside_words, wire="anthropic") == []


def test_anthropic_refuses_empty_turns_but_not_an_empty_final_assistant_turn():
    request = [user(words("Go.")), {"role": "assistant", "content": []}, user(words("Hm."))]
    prefill = [user(words("Go.")), {"role": "assistant", "content": []}]

    assert [p.error for p in lab.validate(request, wire="anthropic")] == [
        "messages.1: all messages must have non-empty content except for the optional final "
        "assistant message"]
    assert lab.validate(prefill, wire="anthropic") == []


def test_both_wires_refuse_a_request_with_no_messages_in_their_own_words():
    assert [p.error for p in lab.validate([], wire="anthropic")] == [
        "messages: at least one message is required"]
    assert [p.error for p in lab.validate([], wire="openai")] == [
        "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an "
        "empty array instead."]


def test_openai_refuses_an_empty_tool_calls_list_and_takes_one_left_out():
    empty = [{"role": "user", "content": "Go."},
             {"role": "assistant", "content": "Done.", "tool_calls": []}]
    left_out = [{"role": "user", "content": "Go."}, {"role": "assistant", "content": "Done."}]

    problems = lab.validate(empty, wire="openai")

    assert [(p.code, p.where) for p in problems] == [("empty_tool_calls", "messages[1].tool_calls")]
    assert problems[0].error == ("Invalid 'messages[1].tool_calls': empty array. Expected an "
                                 "array with minimum length 1, but got an empty array instead.")
    assert lab.validate(left_out, wire="openai") == []


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
    from lab.kit.wire import shape

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


# -- held against toolrepair (seed 003), the library the pairing rules come from --------------

import toolrepair  # noqa: E402 (in the test extra, which the suite is run with)

PAIRING = {"orphaned_tool_use", "orphaned_tool_result", "duplicate_tool_result",
           "tool_result_not_first"}
IDS = st.sampled_from(["c1", "c2", "c3", "toolu_01A"])


@st.composite
def anthropic_histories(draw):
    """Turns of either role in any order, calls and results over a few ids, results before,
    after and among words: every pairing mistake, and many valid requests."""
    turns = []
    for _ in range(draw(st.integers(1, 7))):
        if draw(st.booleans()):
            blocks = [words("w")] if draw(st.booleans()) else []
            blocks += [{"type": "tool_use", "id": draw(IDS), "name": "read", "input": {}}
                       for _ in range(draw(st.integers(0, 3)))]
            turns.append({"role": "assistant", "content": blocks or [words("w")]})
        else:
            blocks = [result(draw(IDS)) for _ in range(draw(st.integers(0, 3)))]
            if draw(st.booleans()):
                blocks.insert(draw(st.integers(0, len(blocks))), words("w"))
            turns.append({"role": "user", "content": blocks or [words("w")]})
    return turns


@st.composite
def openai_histories(draw):
    """Messages of every role in any order, calls and tool messages over a few ids."""
    messages = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["user", "assistant", "calls", "tool", "tool"]))
        if kind == "calls":
            messages.append(openai_ask(*draw(st.lists(IDS, min_size=1, max_size=3))))
        elif kind == "tool":
            messages.append(tool(draw(IDS)))
        else:
            messages.append({"role": kind, "content": "w"})
    return messages


def pairing_verdict(problems):
    return any(p.code in PAIRING for p in problems)


@given(anthropic_histories())
@settings(max_examples=400, deadline=None)
def test_on_anthropic_histories_the_lab_and_toolrepair_agree_on_every_pairing_verdict(request):
    ours = lab.validate(request, wire="anthropic")

    theirs = toolrepair.validate(request, format="anthropic")
    mended = toolrepair.repair(request, format="anthropic")

    assert pairing_verdict(ours) == bool(theirs), (ours, theirs)
    assert not pairing_verdict(lab.validate(mended, wire="anthropic")), mended


@given(openai_histories())
@settings(max_examples=400, deadline=None)
def test_on_openai_histories_the_lab_and_toolrepair_agree_on_every_pairing_verdict(request):
    ours = lab.validate(request, wire="openai")

    theirs = toolrepair.validate(request, format="openai")
    mended = toolrepair.repair(request, format="openai")

    assert pairing_verdict(ours) == bool(theirs), (ours, theirs)
    assert not pairing_verdict(lab.validate(mended, wire="openai")), mended


def test_toolrepairs_repairs_are_accepted_by_the_labs_validators():
    wrecked = [user(words("Go.")), ASK, user(words("Spaces."), result("c1"), result("c9"))]

    repaired = toolrepair.repair(wrecked, format="anthropic", strategy="synthesize")

    assert lab.validate(repaired, wire="anthropic") == []
