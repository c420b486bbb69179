"""Wrong: run_tool is right, and the loop gives up at the first failed call: it answers the
batch and ends the run without asking the model again. The record is valid, and the model
never gets to read the error it was sent, let alone act on it.
Fails: test_the_model_is_asked_again_after_a_failure
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
        results = [run_tool(tools, call) for call in calls]
        messages.extend(results)
        if any(result["is_error"] for result in results):
            return messages[start:]
