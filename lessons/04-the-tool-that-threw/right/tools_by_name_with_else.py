"""Right, written another way: the tools looked up in a dict by name, the unknown tool answered
before any tool runs, and try/except/else keeping the happy path apart from the failure."""


def run_tool(tools, call):
    by_name = {tool["name"]: tool for tool in tools}
    answer = {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"]}
    if call["name"] not in by_name:
        return {**answer, "content": f"Tool {call['name']} not found", "is_error": True}
    try:
        output = by_name[call["name"]]["execute"](call["arguments"])
    except Exception as error:  # whatever the tool raised, the model hears about it
        return {**answer, "content": str(error), "is_error": True}
    else:
        return {**answer, "content": output, "is_error": False}
