"""Wrong: the tool runs, and the model is told what it returned in a user message, as a person
would say it. The call is left with no toolResult, and the strict provider refuses the request.
Fails: test_a_result_is_a_tool_result_not_a_user_message
"""


def run_tool(tools, call):
    tool = next(t for t in tools if t["name"] == call["name"])
    output = tool["execute"](call["arguments"])
    return user_message(f"The {call['name']} tool returned: {output}")
