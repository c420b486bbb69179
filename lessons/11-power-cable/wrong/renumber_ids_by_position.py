"""Renames a repeated id by its place counted from the newest call: the newest call_0 keeps
its name (the one the model just used) and older ones become call_0_1, call_0_2, ... Every id
is unique, so each request is accepted, but a new call renames the ones before it: the
history's earlier bytes change from one request to the next and the prompt cache misses.

Fails: test_repair_is_prefix_stable_byte_for_byte
"""

from collections import Counter


def repair_history(messages, is_read_only=None):
    wanted = [call.get("id") or f"call_{i}_{c}" for i, m in enumerate(messages)
              if m["role"] == "assistant" and not is_placeholder(m)
              for c, call in enumerate(tool_calls(m))]
    left, view, interrupted = Counter(wanted), [], []
    for start, rest in spans(messages):
        if start is None or not tool_calls(messages[start]):
            view += ([] if start is None else [messages[start]])
            view += [m for m in rest if m["role"] != "toolResult"]
            continue
        owner, calls, ids = messages[start], tool_calls(messages[start]), []
        for c, call in enumerate(calls):
            raw = call.get("id") or f"call_{start}_{c}"
            left[raw] -= 1
            ids.append(raw if left[raw] == 0 else f"{raw}_{left[raw]}")
        view.append(renamed_calls(owner, iter(ids)))
        waiting = [m for m in rest if m["role"] == "toolResult"]
        for call, new_id in zip(calls, ids):
            found = next((m for m in waiting if m["tool_call_id"] == call.get("id")), None)
            if found is None:
                interrupted.append(dict(call, id=new_id))
                view.append(interrupted_result(dict(call, id=new_id), is_read_only))
                continue
            waiting.remove(found)
            view.append(dict(found, tool_call_id=new_id))
        view += [m for m in rest if m["role"] != "toolResult"]
    return Repaired(view, interrupted)
