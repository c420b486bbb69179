"""Wrong: run_agent returns the whole record instead of what this run added, so whoever keeps
the record and adds the run's messages to it gets the history twice.
Fails: test_run_agent_returns_the_messages_this_run_added
"""


def run_agent(model, system, messages, tools, prompt):
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        if not tool_calls(reply):
            return messages
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))
