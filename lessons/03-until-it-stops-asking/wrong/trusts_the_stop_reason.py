"""Wrong: the loop goes on while the reply's stop_reason says "toolUse", and believes it. A
provider that labels a reply with a call "stop" leaves that call unanswered; a reply labelled
"toolUse" with no call in it gets one request too many.
Fails: test_the_calls_decide_not_the_stop_reason
"""


def run_agent(model, system, messages, tools, prompt):
    start = len(messages)
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        if reply["stop_reason"] != "toolUse":
            return messages[start:]
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))
