"""Wrong: the run ends at the first reply that says something, as if words were the answer.
A reply that talks and asks for a tool ends the run with its calls unanswered.
Fails: test_a_reply_with_words_and_calls_is_not_the_last
"""


def run_agent(model, system, messages, tools, prompt):
    start = len(messages)
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        if text_of(reply) or not tool_calls(reply):
            return messages[start:]
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))
