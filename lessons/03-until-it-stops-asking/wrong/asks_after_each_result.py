"""Wrong: the model is asked again as soon as each result is in, to keep it up to date. With
two or more calls in a reply the request goes out while a call still has no result, and the
strict provider refuses it.
Fails: test_three_calls_in_one_reply_are_all_answered_in_call_order_first
"""


def run_agent(model, system, messages, tools, prompt):
    start = len(messages)
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, tool_specs(tools))
    messages.append(reply)
    while tool_calls(reply):
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))
            reply = model.complete(system, messages, tool_specs(tools))
            messages.append(reply)
    return messages[start:]
