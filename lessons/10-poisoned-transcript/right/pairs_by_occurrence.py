"""A second correct answer, stricter than the lesson's: results are paired with calls by
occurrence, so a provider that reuses an id is still answered right, and a real result is
preferred to a made-up one whenever both are on the record (as Tau's repair does).

Appended to finished.py, it replaces repair_tool_history. It must pass every graded test.
"""


def repair_tool_history(messages):
    """Every call followed at once by exactly one result, in call order, pairing by occurrence.

    First each call takes a matching result from the run of results right after its own reply;
    then a call still unanswered takes the earliest unused matching result anywhere else; and
    a made-up INTERRUPTED result gives way to a real one for the same id when one is unused.
    """
    results = [i for i, m in enumerate(messages) if m["role"] == "toolResult"]
    used, answer = set(), {}  # result indexes taken; (assistant index, call place) -> result index

    def take(call_id, indexes):
        for i in indexes:
            if i not in used and messages[i]["tool_call_id"] == call_id:
                used.add(i)
                return i
        return None

    replies = [(i, m) for i, m in enumerate(messages) if m["role"] == "assistant"]
    for i, reply in replies:
        run = []
        for j in range(i + 1, len(messages)):
            if messages[j]["role"] != "toolResult":
                break
            run.append(j)
        for place, call in enumerate(tool_calls(reply)):
            found = take(call["id"], run)
            if found is not None:
                answer[(i, place)] = found
    for i, reply in replies:
        for place, call in enumerate(tool_calls(reply)):
            if (i, place) not in answer:
                found = take(call["id"], results)
                if found is not None:
                    answer[(i, place)] = found
    for key, found in list(answer.items()):
        if messages[found]["content"] == INTERRUPTED:
            real = [k for k in results if k not in used and messages[k]["content"] != INTERRUPTED
                    and messages[k]["tool_call_id"] == messages[found]["tool_call_id"]]
            if real:
                used.add(real[0])
                answer[key] = real[0]
    view = []
    for i, message in enumerate(messages):
        if message["role"] == "toolResult":
            continue
        view.append(message)
        if message["role"] == "assistant":
            for place, call in enumerate(tool_calls(message)):
                found = answer.get((i, place))
                view.append(messages[found] if found is not None else interrupted_result(call))
    return view
