"""Wrong: after the first request, each request carries only the messages added since the
last one, as if the model remembered the rest. It does not; and a result sent without the
call it answers is refused.
Fails: test_every_request_carries_the_system_prompt_and_the_whole_record
"""


def run_agent(model, system, messages, tools, prompt):
    start = len(messages)
    messages.append(user_message(prompt))
    sent = 0
    while True:
        reply = model.complete(system, messages[sent:], tool_specs(tools))
        sent = len(messages)
        messages.append(reply)
        if not tool_calls(reply):
            return messages[start:]
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))
