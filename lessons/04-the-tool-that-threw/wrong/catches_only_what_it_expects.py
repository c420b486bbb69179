"""Wrong: the try catches the errors its author thought of (a missing file, a bad argument, a
missing key) and lets everything else through. A tool somebody else wrote fails with a
RuntimeError, and the run dies with the call unanswered, exactly as in lesson 03.
Fails: test_any_exception_a_tool_raises_is_caught
"""


def run_tool(tools, call):
    tool = next((t for t in tools if t["name"] == call["name"]), None)
    try:
        if tool is None:
            raise LookupError(f"Tool {call['name']} not found")
        content, is_error = tool["execute"](call["arguments"]), False
    except (FileNotFoundError, ValueError, KeyError, LookupError) as error:
        content, is_error = str(error), True
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": is_error}
