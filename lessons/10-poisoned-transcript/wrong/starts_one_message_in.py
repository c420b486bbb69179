"""Wrong: the repair takes the record to open on the user's prompt, keeps messages[0] as it is
and starts its walk one message in. An empty record raises IndexError, and damage at
messages[0] (an orphan result, a call with no result) is passed on as it was.
Fails: test_repair_holds_at_a_records_edges
"""


def repair_tool_history(messages):
    first_result = {}
    for message in messages[1:]:
        if message["role"] == "toolResult":
            first_result.setdefault(message["tool_call_id"], message)
    view = [messages[0]]
    for message in messages[1:]:
        if message["role"] == "toolResult":
            continue
        view.append(message)
        if message["role"] == "assistant":
            for call in tool_calls(message):
                found = first_result.get(call["id"])
                view.append(found if found is not None else interrupted_result(call))
    return view
