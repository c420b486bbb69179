"""A second correct answer: the loop's condition is the calls of the newest reply, and the
return comes after the loop.
"""


def run_agent(model, system, messages, tools, prompt):
    added = [user_message(prompt)]
    messages.append(added[0])
    calls = None
    while calls is None or calls:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        added.append(reply)
        calls = tool_calls(reply)
        for call in calls:
            result = run_tool(tools, call)
            messages.append(result)
            added.append(result)
    return added
