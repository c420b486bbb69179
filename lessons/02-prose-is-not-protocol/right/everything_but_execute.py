"""A third correct answer: a spec is the tool with its function left out (a tool in this
course has exactly name, description, parameters and execute), and the tool is found with a
loop that stops at the first one of that name.
"""


def tool_specs(tools):
    return [{key: value for key, value in tool.items() if key != "execute"} for tool in tools]


def run_tool(tools, call):
    for tool in tools:
        if tool["name"] == call["name"]:
            content = tool["execute"](call["arguments"])
            return {"role": "toolResult", "tool_call_id": call["id"],
                    "tool_name": tool["name"], "content": content, "is_error": False}
    raise LookupError(f"no tool named {call['name']}")
