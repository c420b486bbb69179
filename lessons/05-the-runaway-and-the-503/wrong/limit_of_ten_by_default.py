"""Wrong: max_turns defaults to 10, "to be safe". A caller who set no limit gets one anyway,
and a long job that was going well is stopped at its tenth request.
Fails: test_none_is_no_limit_and_a_number_is_one
"""


def run_agent(model, system, messages, tools, prompt, *, max_turns=10):
    start = len(messages)
    messages.append(user_message(prompt))
    turns = 0
    while True:
        turns += 1
        if max_turns is not None and turns > max_turns:
            messages.append(error_message(f"Stopped: the run reached max_turns={max_turns}."))
            return messages[start:]
        reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if reply["stop_reason"] == "error" or not calls:
            return messages[start:]
        for call in calls:
            messages.append(run_tool(tools, call))
