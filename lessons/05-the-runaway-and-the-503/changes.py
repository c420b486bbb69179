"""A small agent harness: lesson 05, "The runaway and the 503".

Read it top to bottom: messages, tools, the loop and what it sends. New since lesson 04:
a run stops after max_turns requests, a reply that failed is kept in the record with
empty content and stop_reason "error" and none of it is acted on, and what is sent (the
view) leaves an empty failure out. Nothing here talks to a network, so the lab's scripted
model can stand in for a real one.
"""


# == messages ==


# place: after tool_calls
def error_message(reason):
    """The assistant message that records why a run stopped: empty content, stop_reason
    "error", and the reason in error_message. A stop is data in the record, not an exception."""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": reason}


# == loop ==

def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    """Send `prompt` and keep going until the model stops asking for tools, a reply fails
    (stop_reason "error"), or `max_turns` requests have been made (None: no limit). Returns
    the messages this run added.

    A failed reply is kept, like any other, and none of it is acted on: a call in it is not
    run, since a reply cut off mid-stream may hold half a call. Every request sends the view,
    context_for_model(messages), not the record itself.
    """
    start = len(messages)
    messages.append(user_message(prompt))
    # --- your code ---
    turns = 0
    while True:
        turns += 1
        if max_turns is not None and turns > max_turns:
            messages.append(error_message(f"Stopped: the run reached max_turns={max_turns}."))
            return messages[start:]
        # Looked up by name on each request, so the lesson can swap in another view.
        reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if reply["stop_reason"] == "error" or not calls:  # nothing in a failed reply is acted on
            return messages[start:]
        for call in calls:
            messages.append(run_tool(tools, call))
    # --- starter ---
    #| # Lesson 04's loop, with one change made for you: each request sends the view,
    #| # context_for_model(messages), not the record. It has no limit: max_turns is never
    #| # read. And it answers the calls of every reply, a failed one too.
    #| while True:
    #|     reply = model.complete(system, context_for_model(messages), tool_specs(tools))
    #|     messages.append(reply)
    #|     calls = tool_calls(reply)
    #|     if not calls:
    #|         return messages[start:]
    #|     for call in calls:
    #|         messages.append(run_tool(tools, call))
    # --- end ---


def context_for_model(messages):
    """The view: what one request sends, built afresh from the record each time.

    The record keeps everything that happened; a provider takes only a well-formed transcript.
    So a failed reply with nothing in it is left out, and a failed reply that got words or
    calls out before it failed stays. A new list comes back; the record is not touched.
    """
    # --- your code ---
    return [m for m in messages if not is_empty_failure(m)]
    # --- starter ---
    #| # Lesson 04's requests: the record itself, every message of it, the very list.
    #| return messages
    # --- end ---


def is_empty_failure(message):
    """An assistant reply that failed before any of it arrived: nothing a model can read."""
    # --- your code ---
    return (message["role"] == "assistant" and not message["content"]
            and message.get("stop_reason") == "error")
    # --- starter ---
    #| return False  # not written yet: no message counts as one
    # --- end ---
