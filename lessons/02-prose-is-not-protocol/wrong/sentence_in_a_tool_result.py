"""Wrong: the role is right and the id is right, but the content is still a sentence about
the output, not the output: the model is shown a file that starts "The read tool returned:".
Fails: test_the_result_holds_exactly_what_the_tool_returned
"""


def run_tool(tools, call):
    tool = next(t for t in tools if t["name"] == call["name"])
    output = tool["execute"](call["arguments"])
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": f"The {call['name']} tool returned: {output}", "is_error": False}
