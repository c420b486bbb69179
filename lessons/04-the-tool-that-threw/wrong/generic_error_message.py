"""Wrong: every failure becomes the same word. The result is marked is_error and the run goes
on, and the model is told "Error" and nothing else: not which file, not which argument, not
what to try instead, so it can only guess or give up.
Fails: test_the_model_is_told_what_went_wrong
"""


def run_tool(tools, call):
    tool = next((t for t in tools if t["name"] == call["name"]), None)
    try:
        content, is_error = tool["execute"](call["arguments"]), False
    except Exception:
        content, is_error = "Error", True
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": is_error}
