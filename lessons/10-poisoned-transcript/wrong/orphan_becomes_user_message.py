"""Wrong: a result with no call is kept as a user message, so a file's contents arrive as
something the user typed.
Fails: test_orphan_result_is_dropped_without_inventing_a_call
"""


def repair_tool_history(messages):
    asked = {call["id"] for m in messages if m["role"] == "assistant" for call in tool_calls(m)}
    first = {}
    for m in messages:
        if m["role"] == "toolResult":
            first.setdefault(m["tool_call_id"], m)
    view = []
    for message in messages:
        if message["role"] == "toolResult":
            if message["tool_call_id"] not in asked:
                view.append(user_message(message["content"]))
            continue
        view.append(message)
        if message["role"] == "assistant":
            view += [first.get(call["id"]) or interrupted_result(call)
                     for call in tool_calls(message)]
    return view
