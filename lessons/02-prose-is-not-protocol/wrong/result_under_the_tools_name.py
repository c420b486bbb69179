"""Wrong: the result is filed under the tool's name instead of the call's id. With one call
to each tool it looks right; two reads in one reply give two results named "read", which
answer no call at all.
Fails: test_two_reads_in_one_reply_are_told_apart_by_their_ids
"""


def run_tool(tools, call):
    tool = next(t for t in tools if t["name"] == call["name"])
    return {"role": "toolResult", "tool_call_id": call["name"], "tool_name": call["name"],
            "content": tool["execute"](call["arguments"]), "is_error": False}
