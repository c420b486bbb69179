"""Wrong: a reply with any unanswered call is dropped, results and all, so half a turn goes
missing to fix a complaint about one call.
Fails: test_missing_result_gets_interrupted_right_after_its_call
"""


def repair_tool_history(messages):
    answered = {}
    for m in messages:
        if m["role"] == "toolResult":
            answered.setdefault(m["tool_call_id"], m)
    view = []
    for message in messages:
        if message["role"] == "toolResult":
            continue
        calls = tool_calls(message) if message["role"] == "assistant" else []
        if any(call["id"] not in answered for call in calls):
            continue
        view.append(message)
        view += [answered[call["id"]] for call in calls]
    return view
