"""Wrong: of two results for one call, the newest is kept, though the transcript after them
was written in answer to the first.
Fails: test_first_of_two_results_for_one_call_wins
"""


def repair_tool_history(messages):
    newest = {m["tool_call_id"]: m for m in messages if m["role"] == "toolResult"}
    view = []
    for message in messages:
        if message["role"] == "toolResult":
            continue
        view.append(message)
        if message["role"] == "assistant":
            view += [newest.get(call["id"]) or interrupted_result(call)
                     for call in tool_calls(message)]
    return view
