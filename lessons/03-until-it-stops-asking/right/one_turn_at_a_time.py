"""A second correct answer, written another way: a turn is a function, and run_agent calls it
until a turn comes back with nothing to answer.
"""


def run_agent(model, system, messages, tools, prompt):
    start = len(messages)
    messages.append(user_message(prompt))

    def turn():
        """One request and its answers; True while the model is still asking."""
        reply = model.complete(system, list(messages), tool_specs(tools))
        results = [run_tool(tools, call) for call in tool_calls(reply)]
        messages.extend([reply, *results])
        return bool(results)

    while turn():
        pass
    return messages[start:]
