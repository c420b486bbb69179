"""A second correct answer: safe_trim found by asking, for each place the cut could go from
`keep` backwards, whether every result after it has its call after it too. Slower than
backing up over a run of results, and it gives the same answer on any valid view.

Appended to finished.py, it replaces safe_trim. It must pass every graded test.
"""


def safe_trim(messages, keep):
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
        raise ValueError(f"keep={keep!r}: give a whole number of messages, 0 or more")
    for start in range(max(len(messages) - keep, 0), -1, -1):
        tail = messages[start:]
        asked = {call["id"] for m in tail if m["role"] == "assistant" for call in tool_calls(m)}
        if all(m["tool_call_id"] in asked for m in tail if m["role"] == "toolResult"):
            return list(tail)
    return list(messages)
