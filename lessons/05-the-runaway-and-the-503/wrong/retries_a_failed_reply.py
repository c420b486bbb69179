"""Wrong: a failed reply is kept and the model asked again at once, up to three times, on the
theory that a 503 passes. Without a wait, a second try meets the same outage; and a harness
that retries decides, for the user, to spend their money on it.
Fails: test_a_503_is_stored_and_ends_the_run
"""


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    start = len(messages)
    messages.append(user_message(prompt))
    turns, tries = 0, 0
    while True:
        turns += 1
        if max_turns is not None and turns > max_turns:
            messages.append(error_message(f"Stopped: the run reached max_turns={max_turns}."))
            return messages[start:]
        reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
        if reply["stop_reason"] == "error" and tries < 3:
            tries += 1
            continue
        calls = tool_calls(reply)
        if reply["stop_reason"] == "error" or not calls:
            return messages[start:]
        for call in calls:
            messages.append(run_tool(tools, call))
