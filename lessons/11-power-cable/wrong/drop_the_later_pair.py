"""Resolves a repeated id by keeping the first call that used it and dropping every later call
with the same id (its result, now without a call in its span, goes too). The request is
valid, and a tool call that really ran has vanished from what the model is shown.

Fails: test_repeated_id_becomes_id_k_with_the_smallest_free_k
"""

_repair_keeping_every_call = repair_history


def repair_history(messages, is_read_only=None):
    seen, kept = set(), []
    for message in messages:
        if message["role"] == "assistant" and tool_calls(message):
            content = [b for b in message["content"]
                       if b["type"] != "toolCall" or b.get("id") not in seen]
            seen |= {call.get("id") for call in tool_calls(message)}
            message = message if len(content) == len(message["content"]) else dict(
                message, content=content)
        kept.append(message)
    return _repair_keeping_every_call(kept, is_read_only)
