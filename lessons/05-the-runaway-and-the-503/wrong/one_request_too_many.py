"""Wrong: the limit is checked after the request, once the reply is in, so the run that should
stop at N sends request N+1, pays for it, and then stops.
Fails: test_a_runaway_is_stopped_at_max_turns
"""


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    start = len(messages)
    messages.append(user_message(prompt))
    turns = 0
    while True:
        reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        turns += 1
        if max_turns is not None and turns > max_turns:
            messages.append(error_message(f"Stopped: the run reached max_turns={max_turns}."))
            return messages[start:]
        messages.append(reply)
        calls = tool_calls(reply)
        if reply["stop_reason"] == "error" or not calls:
            return messages[start:]
        for call in calls:
            messages.append(run_tool(tools, call))
