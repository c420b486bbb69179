"""Wrong: every call runs the first tool in the list, whatever it names. With one tool it
passes; with read, write and bash, a call to bash writes a file.
Fails: test_the_call_runs_the_tool_it_names_with_its_arguments
"""


def run_tool(tools, call):
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": tools[0]["execute"](call["arguments"]), "is_error": False}
