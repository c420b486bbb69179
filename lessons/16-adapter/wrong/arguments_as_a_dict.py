"""Wrong: OpenAI tool calls carry their arguments as the dict they are in the record; Chat
Completions wants function.arguments as a JSON string, and refuses an object.
Fails: test_openai_parallel_calls_are_answered_by_tool_messages_right_after
"""


def openai_message(message):
    if message["role"] != "assistant":
        return {"role": "user", "content": message["content"]} if message["role"] == "user" else \
            {"role": "tool", "tool_call_id": message["tool_call_id"], "content": message["content"]}
    sent = {"role": "assistant", "content": text_of(message) or None}
    calls = [{"id": call["id"], "type": "function",
              "function": {"name": call["name"], "arguments": dict(call["arguments"])}}
             for call in tool_calls(message)]
    if calls:
        sent["tool_calls"] = calls
    return sent
