"""Wrong: the limit is checked after the reply, before its calls are run. The run stops with
the right number of requests, and the last reply's calls are left without results: every later
request carries a call nobody answered.
Fails: test_max_turns_is_checked_before_the_request_never_after
"""


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    start = len(messages)
    messages.append(user_message(prompt))
    turns = 0
    while True:
        reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        turns += 1
        messages.append(reply)
        calls = tool_calls(reply)
        if reply["stop_reason"] == "error" or not calls:
            return messages[start:]
        if max_turns is not None and turns >= max_turns:
            messages.append(error_message(f"Stopped: the run reached max_turns={max_turns}."))
            return messages[start:]
        for call in calls:
            messages.append(run_tool(tools, call))
