"""Numbers a call with an empty id by its place among all the blocks of its message, text
included, instead of among the message's calls. A reply that says something before it calls
anything gets call_3_1 for its first call where the rule says call_3_0.

Fails: test_an_empty_id_is_numbered_by_its_place_in_the_history_and_among_its_calls
"""


def repair_history(messages, is_read_only=None):
    view, interrupted, used = [], [], set()
    for start, rest in spans(messages):
        if start is None or not tool_calls(messages[start]):
            view += ([] if start is None else [messages[start]])
            view += [m for m in rest if m["role"] != "toolResult"]
            continue
        owner, calls = messages[start], tool_calls(messages[start])
        places = [b for b, block in enumerate(owner["content"]) if block["type"] == "toolCall"]
        ids = [unique_id(call.get("id") or f"call_{start}_{b}", used)
               for b, call in zip(places, calls)]
        view.append(owner if ids == [call.get("id") for call in calls]
                    else renamed_calls(owner, iter(ids)))
        waiting = [m for m in rest if m["role"] == "toolResult"]
        for call, new_id in zip(calls, ids):
            found = next((m for m in waiting if m["tool_call_id"] == call.get("id")), None)
            if found is None:
                stand_in = dict(call, id=new_id)
                interrupted.append(stand_in)
                view.append(interrupted_result(stand_in, is_read_only))
                continue
            waiting.remove(found)
            view.append(found if found["tool_call_id"] == new_id
                        else dict(found, tool_call_id=new_id))
        view += [m for m in rest if m["role"] != "toolResult"]
    return Repaired(view, interrupted)
