"""Wrong: one call a turn: the first call of a reply is answered and the model asked again,
on the theory that it will ask for the others once more. The others are owed a result now.
Fails: test_three_calls_in_one_reply_are_all_answered_in_call_order_first
"""


def run_agent(model, system, messages, tools, prompt):
    start = len(messages)
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:
            return messages[start:]
        messages.append(run_tool(tools, calls[0]))
