"""elm: lesson 10's harness, but its repair pairs a result with its call by id, wherever it is.

A call with a result anywhere in the transcript counts as answered, and results stay where
they were recorded; a call with none gets INTERRUPTED, put straight after its reply, and a
result with no call is left out. A walk-away before a batch's first tool, or a cut-off reply,
is repaired as well as by the finished harness. A result recorded out of its place (after a
user message, out of call order), or a walk-away half way through a batch, whose made-up
results then come before the real ones, reaches the provider out of order.
"""

MISSING = "results_directly_after_in_call_order"


def repair_tool_history(messages):
    called = {call["id"] for m in messages if m["role"] == "assistant" for call in tool_calls(m)}
    answered = {m["tool_call_id"] for m in messages if m["role"] == "toolResult"}
    view = []
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in called:
            continue  # an orphan
        view.append(message)
        if message["role"] == "assistant":
            view += [interrupted_result(call) for call in tool_calls(message)
                     if call["id"] not in answered]
    return view
