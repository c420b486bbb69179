"""Wrong: the system prompt goes with the first request of a run only, since the model has
"seen it already". The model keeps nothing between requests: from the second turn on it is
working without its instructions.
Fails: test_every_request_carries_the_system_prompt_and_the_whole_record
"""


def run_agent(model, system, messages, tools, prompt):
    start = len(messages)
    messages.append(user_message(prompt))
    sent = system
    while True:
        reply = model.complete(sent, messages, tool_specs(tools))
        sent = ""
        messages.append(reply)
        if not tool_calls(reply):
            return messages[start:]
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))
