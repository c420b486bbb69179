"""Sends a tool's result in the user's role, "The tool said: ...", as a harness that has no tool
channel would: the call goes without its result, and a file's orders become the user's.

Fails: test_a_tool_result_that_gives_orders_is_sent_as_a_tool_result_and_nothing_more
"""


def sent_as(entry):
    source = source_of(entry)
    if source == "tool":
        return {"role": "user", "content": f"The tool said: {entry['content']}"}
    if source == "user":
        return entry if isinstance(entry.get("content"), str) else None
    if source == "model":
        return entry
    if source == "harness" and entry["role"] == "note":
        return note_message(entry["content"])
    return None
