"""Wrong: the first failure in a batch ends the batch. Its result is recorded and the calls
after it are never run and never answered, so the next request carries calls with no
result, and the strict provider refuses it.
Fails: test_one_failure_in_a_batch_leaves_a_result_for_every_call
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
        for call in calls:
            result = run_tool(tools, call)
            messages.append(result)
            if result["is_error"]:
                break
