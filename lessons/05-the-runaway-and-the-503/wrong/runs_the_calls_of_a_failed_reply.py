"""Wrong: a failed reply ends the run, but only after its calls are run, since "they are in the
reply". A reply cut off mid-stream can hold half a call: half a file written, half a command.
Fails: test_a_call_in_a_failed_reply_is_never_run
"""


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
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
        for call in calls:
            messages.append(run_tool(tools, call))
        if reply["stop_reason"] == "error" or not calls:
            return messages[start:]
