"""A second correct answer: tools are looked up in a dict by name, and each spec is built
by naming its three keys.
"""


def tool_specs(tools):
    specs = []
    for tool in tools:
        specs.append({"name": tool["name"], "description": tool["description"],
                      "parameters": tool["parameters"]})
    return specs


def run_tool(tools, call):
    by_name = {tool["name"]: tool for tool in tools}
    output = by_name[call["name"]]["execute"](call["arguments"])
    result = {"role": "toolResult", "tool_call_id": call["id"]}
    result.update(tool_name=call["name"], content=output, is_error=False)
    return result
