"""Wrong: the stop is recorded as an ordinary reply in the model's voice, "Stopped: ...", with
stop_reason "stop". A frontend reads it as the model's answer and reports success, and the
words were never the model's.
Fails: test_the_stop_is_a_failed_reply_in_the_record
"""


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    start = len(messages)
    messages.append(user_message(prompt))
    turns = 0
    while True:
        turns += 1
        if max_turns is not None and turns > max_turns:
            messages.append({"role": "assistant", "stop_reason": "stop", "content": [
                {"type": "text", "text": f"Stopped: the run reached max_turns={max_turns}."}]})
            return messages[start:]
        reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if reply["stop_reason"] == "error" or not calls:
            return messages[start:]
        for call in calls:
            messages.append(run_tool(tools, call))
