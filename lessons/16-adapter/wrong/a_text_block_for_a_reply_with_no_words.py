"""Wrong: an Anthropic assistant turn always opens with a text block holding the reply's words,
so a reply that only asked for tools is sent with a text block of "". The Messages API refuses
it ("messages: text content blocks must be non-empty"): a reply with no words has no text block.
Fails: test_anthropic_steer_comes_after_the_results
"""


def anthropic_blocks(message):
    if message["role"] == "user":
        return "user", [{"type": "text", "text": message["content"]}]
    if message["role"] == "toolResult":
        return "user", [{"type": "tool_result", "tool_use_id": message["tool_call_id"],
                         "content": message["content"], "is_error": message["is_error"]}]
    return "assistant", [{"type": "text", "text": text_of(message)}] + [
        {"type": "tool_use", "id": call["id"], "name": call["name"],
         "input": copy.deepcopy(call["arguments"])} for call in tool_calls(message)]
