"""The message builders: plain dicts in the shapes the contract fixes."""

import pytest

import lab


def test_reply_with_a_call_stops_for_tool_use_and_one_without_stops():
    asks = lab.reply(lab.text("Reading."), lab.call("read", {"path": "a.py"}))
    talks = lab.say("Done.")

    assert asks["stop_reason"] == "toolUse", f"a reply with a call should stop for toolUse: {asks}"
    assert talks == {"role": "assistant", "content": [{"type": "text", "text": "Done."}],
                     "stop_reason": "stop"}, f"say() built {talks}"


def test_fail_without_blocks_has_empty_content_and_keeps_its_reason():
    failed = lab.fail("503 overloaded")

    assert failed == {"role": "assistant", "content": [], "stop_reason": "error",
                      "error_message": "503 overloaded"}, f"fail() built {failed}"


def test_tool_result_answers_its_call_by_id_and_name():
    call = lab.call("bash", {"command": "ls"}, id="c4")

    result = lab.tool_result(call, "a.py\n", is_error=True)

    assert result == {"role": "toolResult", "tool_call_id": "c4", "tool_name": "bash",
                      "content": "a.py\n", "is_error": True}, f"tool_result built {result}"


def test_tool_result_for_a_call_without_id_says_how_to_give_one():
    with pytest.raises(ValueError, match=r"id='c1'"):
        lab.tool_result(lab.call("read", {}), "text")


def test_call_copies_its_arguments_so_later_edits_do_not_leak_in():
    arguments = {"path": "a.py"}

    block = lab.call("read", arguments)
    arguments["path"] = "b.py"

    assert block["arguments"] == {"path": "a.py"}, f"the block changed with its source: {block}"
