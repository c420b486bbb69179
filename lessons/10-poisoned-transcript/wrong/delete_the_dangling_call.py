"""Wrong: a call with no result is deleted from its reply, so the record seems never to have
asked for it. Valid, and a lie about what the model did.
Fails: test_missing_result_gets_interrupted_right_after_its_call
"""


def repair_tool_history(messages):
    answered = {m["tool_call_id"]: m for m in messages if m["role"] == "toolResult"}
    view = []
    for message in messages:
        if message["role"] == "toolResult":
            continue
        if message["role"] == "assistant":
            kept = [b for b in message["content"]
                    if b["type"] != "toolCall" or b["id"] in answered]
            message = dict(message, content=kept) if len(kept) != len(message["content"]) else message
        view.append(message)
        if message["role"] == "assistant":
            view += [answered[call["id"]] for call in tool_calls(message)]
    return view
