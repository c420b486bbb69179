"""Wrong: only a result right after its call counts; a late one is thrown away and replaced by
INTERRUPTED, telling the model that a file it did read was never read.
Fails: test_late_result_is_moved_up_not_made_up
"""


def repair_tool_history(messages):
    view = []
    for i, message in enumerate(messages):
        if message["role"] == "toolResult":
            continue
        view.append(message)
        if message["role"] == "assistant":
            run = {}
            for later in messages[i + 1:]:
                if later["role"] != "toolResult":
                    break
                run.setdefault(later["tool_call_id"], later)
            view += [run.get(call["id"]) or interrupted_result(call)
                     for call in tool_calls(message)]
    return view
