"""Another correct repair, written another way: one walk over the history that closes each span
as the next assistant message (or the end) arrives, keeps the names it has handed out in a
dict of counters, and returns a deep copy of every message instead of the objects it was
handed. The lesson's spec lets a repair copy; the tests must not care whether it does.
"""

import copy as _copy


def repair_history(messages, is_read_only=None):
    view, interrupted, taken, next_k = [], [], set(), {}
    opened = None  # (index, the calls, the calls' new ids, results seen, other messages seen)

    def fresh(wanted):
        if wanted not in taken:
            taken.add(wanted)
            return wanted
        k = next_k.get(wanted, 1)
        while f"{wanted}_{k}" in taken:
            k += 1
        next_k[wanted] = k + 1
        taken.add(f"{wanted}_{k}")
        return f"{wanted}_{k}"

    def close():
        if opened is None:
            return
        index, calls, ids, results, others = opened
        for call, new_id in zip(calls, ids):
            match = next((r for r in results if r["tool_call_id"] == call.get("id")), None)
            if match is None:
                sent = dict(_copy.deepcopy(call), id=new_id)
                interrupted.append(sent)
                only_reads = is_read_only is not None and is_read_only(call["name"])
                view.append({"role": "toolResult", "tool_call_id": new_id,
                             "tool_name": call["name"], "is_error": True,
                             "content": INTERRUPTED_READ_ONLY if only_reads else INTERRUPTED})
            else:
                results.remove(match)
                view.append(dict(_copy.deepcopy(match), tool_call_id=new_id))
        view.extend(_copy.deepcopy(m) for m in others)

    for index, message in enumerate(messages):
        role = message["role"]
        if role == "assistant":
            blocks = message["content"]
            calls = [b for b in blocks if b["type"] == "toolCall"]
            if not calls and not "".join(b.get("text", "") for b in blocks
                                         if b["type"] == "text").strip():
                continue  # a placeholder: as if it had never been written
            close()
            ids = [fresh(call.get("id") or f"call_{index}_{c}") for c, call in enumerate(calls)]
            named = iter(ids)
            view.append(dict(_copy.deepcopy(message),
                             content=[dict(_copy.deepcopy(b), id=next(named))
                                      if b["type"] == "toolCall" else _copy.deepcopy(b)
                                      for b in blocks]))
            opened = (index, calls, ids, [], [])
        elif role == "toolResult":
            if opened is not None:
                opened[3].append(message)  # a result outside any span is never sent
        elif opened is not None:
            opened[4].append(message)
        else:
            view.append(_copy.deepcopy(message))
    close()
    return Repaired(view, interrupted)
