"""Wrong: at the limit the loop raises, as if a runaway were the caller's mistake. The run dies
mid-session, run_agent returns nothing, and nothing in the record says why it stopped.
Fails: test_the_stop_is_a_failed_reply_in_the_record
"""


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    start = len(messages)
    messages.append(user_message(prompt))
    turns = 0
    while True:
        turns += 1
        if max_turns is not None and turns > max_turns:
            raise RuntimeError(f"the run reached max_turns={max_turns}")
        reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if reply["stop_reason"] == "error" or not calls:
            return messages[start:]
        for call in calls:
            messages.append(run_tool(tools, call))
