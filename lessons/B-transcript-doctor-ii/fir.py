"""fir, the walkthrough's example: lesson 10's harness, but its repair deletes a call that has
no result instead of answering it.

The reply is sent without the call, so the request is valid whenever the reply had words
besides; the provider answers, and the model reads a message it never wrote. It shows only
when a call is left without a result: a walk-away before its tool finishes, or a reply that
broke off mid-call.
"""

MISSING = "answer_the_dangling_call"


def repair_tool_history(messages):
    first = {}
    for message in messages:
        if message["role"] == "toolResult":
            first.setdefault(message["tool_call_id"], message)
    view = []
    for message in messages:
        if message["role"] == "toolResult":
            continue
        if message["role"] == "assistant":
            kept = [b for b in message["content"] if b["type"] != "toolCall" or b["id"] in first]
            if len(kept) < len(message["content"]):
                message = dict(message, content=kept)  # the unanswered call is gone
        view.append(message)
        if message["role"] == "assistant":
            view += [first[call["id"]] for call in tool_calls(message)]
    return view
