"""A second correct answer: an OpenAI assistant message that has no words leaves "content" out
altogether rather than sending None (Chat Completions makes content optional when there are
tool_calls), and one that has words and no calls is just its role and words.

Appended to finished.py, it replaces openai_message. It must pass every graded test.
"""


def openai_message(message):
    if message["role"] == "user":
        return {"role": "user", "content": message["content"]}
    if message["role"] == "toolResult":
        return {"role": "tool", "tool_call_id": message["tool_call_id"],
                "content": message["content"]}
    sent = {"role": "assistant"}
    if text_of(message):
        sent["content"] = text_of(message)
    calls = tool_calls(message)
    if calls:
        sent["tool_calls"] = [{"id": c["id"], "type": "function",
                               "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
                              for c in calls]
    return sent
