"""Wrong: the exception's message is sent back as if it were the tool's output, with
is_error false. The run survives, and nobody reading the record (the model, a frontend, a
log) can tell "File not found" written by the harness from a file that says those words.
Fails: test_a_failed_call_is_marked_is_error
"""


def run_tool(tools, call):
    try:
        tool = next(t for t in tools if t["name"] == call["name"])
        content = tool["execute"](call["arguments"])
    except Exception as error:
        content = str(error)
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": False}
