"""Wrong: the try is around the tool's execute, and the lookup of the tool is outside it. A
tool that raises is answered; a name no tool has raises StopIteration before the try is
reached, and the run dies on the model's first made-up tool.
Fails: test_a_tool_nobody_has_is_answered_with_an_error
"""


def run_tool(tools, call):
    tool = next(t for t in tools if t["name"] == call["name"])
    try:
        content, is_error = tool["execute"](call["arguments"]), False
    except Exception as error:
        content, is_error = str(error), True
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": is_error}
