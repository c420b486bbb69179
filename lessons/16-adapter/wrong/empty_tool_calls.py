"""Wrong: every OpenAI assistant message carries a tool_calls list, an empty one when the reply
asked for nothing. Chat Completions refuses it ("Invalid 'messages[N].tool_calls': empty
array. Expected an array with minimum length 1"): leave the field out when there are no calls.
Fails: test_openai_parallel_calls_are_answered_by_tool_messages_right_after
"""


def openai_message(message):
    if message["role"] == "user":
        return {"role": "user", "content": message["content"]}
    if message["role"] == "toolResult":
        return {"role": "tool", "tool_call_id": message["tool_call_id"],
                "content": message["content"]}
    return {"role": "assistant", "content": text_of(message) or None,
            "tool_calls": [{"id": call["id"], "type": "function",
                            "function": {"name": call["name"],
                                         "arguments": json.dumps(call["arguments"])}}
                           for call in tool_calls(message)]}
